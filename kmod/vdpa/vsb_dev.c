// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdpa_sim_batch device: the vDPA config ops and device state.
 *
 * Locking (see struct vsb_dev): an op that changes what the queues are
 * takes queue_lock, and so waits for a run in progress; one that others
 * read or change takes lock, which a run holds only between guest memory
 * accesses. set_map, the config reads and everything vdpa's management
 * reaches (status, features, statistics) take no queue_lock; and a run
 * waits for a guest page fault with queue_lock dropped, so a fault that
 * never completes holds up none of them, nor reset, set_status and
 * set_features, which vdpa core calls under its cf_lock. Only the ops
 * that would change a parked run's rings wait for it (_idle below).
 */

#include <linux/etherdevice.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <uapi/linux/vdpa.h>
#include <uapi/linux/vhost_types.h>
#include <uapi/linux/virtio_config.h>
#include <uapi/linux/virtio_ids.h>

#include "vsb.h"
#include "vsb_compat.h"
#include "vsb_trace.h"

/* For the ops that change what the queues are. */
static void vsb_lock_queues(struct vsb_dev *vsb)
{
	mutex_lock(&vsb->queue_lock);
	vsb_kick_hint_forget(vsb);
}

/*
 * The device a parked run knew is gone (a reset, a new owner; Q+L held):
 * the run is abandoned when it comes back, and one paying the cost model
 * stops paying now. The ring pages pinned go now too, not at a next run
 * that may never come: the owner's memory is no longer the device's.
 */
static void vsb_new_gen(struct vsb_dev *vsb)
{
	vsb_unpin_all(vsb);
	vsb->reset_gen++;
	wake_up_all(&vsb->cost_wq);
}

/*
 * A translation or a queue's address space changed (L held): the kick
 * hint's user address is forgotten, and the queues look theirs up again.
 */
static void vsb_dev_maps_changed(struct vsb_dev *vsb)
{
	vsb_kick_hint_forget(vsb);
	vsb_maps_changed(vsb);
}

/*
 * For the ops that change the state a run works on (its rings, or whether
 * it may run at all), and so must also wait for a run parked in a page
 * fault (vsb_mem.c) to come back and end. Not for reset, set_status and
 * set_features: vdpa core calls those with its cf_lock held for write.
 * The driver's own ioctl waits for a fault its memory owes; a fatal signal
 * ends the wait (the owner is going away, and resets the device when it
 * has).
 */
static void vsb_lock_queues_idle(struct vsb_dev *vsb)
{
	for (;;) {
		mutex_lock(&vsb->queue_lock);
		if (!vsb->parked)
			break;
		mutex_unlock(&vsb->queue_lock);
		if (wait_event_killable(vsb->park_wq,
					!READ_ONCE(vsb->parked))) {
			mutex_lock(&vsb->queue_lock);
			break;
		}
	}
	vsb_kick_hint_forget(vsb);
}

/* For the ops that change what the queues are and what others read. */
static void vsb_lock_both(struct vsb_dev *vsb)
{
	vsb_lock_queues(vsb);
	mutex_lock(&vsb->lock);
}

/* vsb_lock_both(), waiting for a parked run too. */
static void vsb_lock_both_idle(struct vsb_dev *vsb)
{
	vsb_lock_queues_idle(vsb);
	mutex_lock(&vsb->lock);
}

static void vsb_unlock_both(struct vsb_dev *vsb)
{
	mutex_unlock(&vsb->lock);
	mutex_unlock(&vsb->queue_lock);
}

/*
 * "vdpa dev set ... mac": the device's MAC, now and after every reset.
 * The receive filter belongs to the queues, so it catches up at their next
 * run, queued here: a run stalled in guest memory must not hold up a
 * management request (vdpa holds its device list lock around this).
 */
void vsb_dev_set_mac(struct vsb_dev *vsb, const u8 *mac)
{
	mutex_lock(&vsb->lock);
	ether_addr_copy(vsb->provisioned_mac, mac);
	ether_addr_copy(vsb->ctrl.mac, mac);
	vsb->filter_stale |= VSB_CTRL_CHANGED_MAC;
	vsb_sync_config(vsb);
	vsb_config_changed(vsb);
	if (vsb_running(vsb))
		vsb_schedule(vsb);
	mutex_unlock(&vsb->lock);
}

static void vsb_kick_vq(struct vdpa_device *vdpa, u16 idx)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	if (idx >= vsb->nvqs)
		return;
	if (idx == vsb_cvq_index(vsb)) {
		atomic64_inc(&vsb->cvq_kicks);
		/*
		 * Kick-to-completion counts from the first unserved kick; the
		 * clock is read only for that one.
		 */
		if (!atomic64_read(&vsb->cvq_kick_ns))
			atomic64_cmpxchg(&vsb->cvq_kick_ns, 0, ktime_get_ns());
		trace_vsb_cvq_kick(vsb);
		vsb_kick_hint(vsb);
	} else {
		atomic64_inc(&vsb->vq_kicks[idx]);
	}
	vsb_kick(vsb);
}

static int vsb_set_vq_address(struct vdpa_device *vdpa, u16 idx, u64 desc,
			      u64 driver, u64 device)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	if (idx >= vsb->nvqs)
		return -EINVAL;
	vsb_lock_queues(vsb);
	vsb->vqs[idx].desc_addr = desc;
	vsb->vqs[idx].driver_addr = driver;
	vsb->vqs[idx].device_addr = device;
	mutex_unlock(&vsb->queue_lock);
	return 0;
}

/* Checked when the queue is enabled: this op cannot fail. */
static void vsb_set_vq_num(struct vdpa_device *vdpa, u16 idx, u32 num)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	if (idx >= vsb->nvqs)
		return;
	vsb_lock_queues(vsb);
	vsb->vqs[idx].num = num;
	mutex_unlock(&vsb->queue_lock);
}

static void vsb_set_vq_cb(struct vdpa_device *vdpa, u16 idx,
			  struct vdpa_callback *cb)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	if (idx >= vsb->nvqs)
		return;
	mutex_lock(&vsb->queue_lock);
	vsb->vqs[idx].cb = *cb;
	mutex_unlock(&vsb->queue_lock);
}

static bool vsb_packed(const struct vsb_dev *vsb)
{
	return vsb->features & BIT_ULL(VIRTIO_F_RING_PACKED);
}

/* Q held. Where the queue's ring starts, or would start if enabled now. */
static u32 vsb_vq_base(const struct vsb_dev *vsb, const struct vsb_vq *vq)
{
	if (vq->ready)
		return vsb_ring_base(&vq->ring);
	if (vq->base_set)
		return vq->base;
	/* Both wrap counters start at 1 on a packed ring. */
	return vsb_packed(vsb) ? VSB_RING_BASE_PACKED_FRESH : 0;
}

static void vsb_vq_enable(struct vsb_dev *vsb, struct vsb_vq *vq)
{
	struct vsb_ring *ring = &vq->ring;
	u16 num = vq->num <= vsb->queue_size ? vq->num : 0;

	/* A new ring: its areas are pinned afresh (vsb_pin.c). */
	vsb_vq_unpin(vq);
	ring->mem.priv = vq;
	ring->packed = vsb_packed(vsb);
	ring->event_idx = vsb->features & BIT_ULL(VIRTIO_RING_F_EVENT_IDX);
	ring->indirect = vsb->features & BIT_ULL(VIRTIO_RING_F_INDIRECT_DESC);
	/* A bad size or address faults the ring: the first run resets. */
	vsb_ring_setup(ring, num, vq->desc_addr, vq->driver_addr,
		       vq->device_addr, vsb_vq_base(vsb, vq));
	vq->ready = true;
}

/* Q held. */
static bool vsb_any_vq_ready(const struct vsb_dev *vsb)
{
	u32 i;

	for (i = 0; i < vsb->nvqs; i++)
		if (vsb->vqs[i].ready)
			return true;
	return false;
}

static void vsb_set_vq_ready(struct vdpa_device *vdpa, u16 idx, bool ready)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	struct vsb_vq *vq;

	if (idx >= vsb->nvqs)
		return;
	vq = &vsb->vqs[idx];
	vsb_lock_queues_idle(vsb);
	if (ready && !vq->ready) {
		vsb_vq_enable(vsb, vq);
		/* Enabled after DRIVER_OK: serve what is already there. */
		if (vsb_running(vsb))
			vsb_schedule(vsb);
	} else if (!ready && vq->ready) {
		vq->base = vsb_ring_base(&vq->ring);
		vq->base_set = true;
		vq->ready = false;
	}
	mutex_unlock(&vsb->queue_lock);
}

static bool vsb_get_vq_ready(struct vdpa_device *vdpa, u16 idx)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	bool ready;

	if (idx >= vsb->nvqs)
		return false;
	mutex_lock(&vsb->queue_lock);
	ready = vsb->vqs[idx].ready;
	mutex_unlock(&vsb->queue_lock);
	return ready;
}

static int vsb_set_vq_state(struct vdpa_device *vdpa, u16 idx,
			    const struct vdpa_vq_state *state)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	struct vsb_vq *vq;

	if (idx >= vsb->nvqs)
		return -EINVAL;
	vq = &vsb->vqs[idx];
	vsb_lock_queues_idle(vsb);
	if (vsb_packed(vsb)) {
		const struct vdpa_vq_state_packed *p = &state->packed;

		vq->base = p->last_avail_idx |
			   (u32)p->last_avail_counter << 15 |
			   (u32)p->last_used_idx << 16 |
			   (u32)p->last_used_counter << 31;
	} else {
		vq->base = state->split.avail_index;
	}
	vq->base_set = true;
	if (vq->ready)
		vsb_ring_set_base(&vq->ring, vq->base);
	mutex_unlock(&vsb->queue_lock);
	return 0;
}

static int vsb_get_vq_state(struct vdpa_device *vdpa, u16 idx,
			    struct vdpa_vq_state *state)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	struct vsb_vq *vq;
	u32 base;

	if (idx >= vsb->nvqs)
		return -EINVAL;
	vq = &vsb->vqs[idx];
	mutex_lock(&vsb->queue_lock);
	base = vsb_vq_base(vsb, vq);
	if (vsb_packed(vsb)) {
		state->packed.last_avail_idx = base & 0x7fff;
		state->packed.last_avail_counter = (base >> 15) & 1;
		state->packed.last_used_idx = (base >> 16) & 0x7fff;
		state->packed.last_used_counter = base >> 31;
	} else {
		state->split.avail_index = base;
	}
	mutex_unlock(&vsb->queue_lock);
	return 0;
}

static int vsb_get_vendor_vq_stats(struct vdpa_device *vdpa, u16 idx,
				   struct sk_buff *msg,
				   struct netlink_ext_ack *extack)
{
	return vsb_fill_vq_stats(vdpa_to_vsb(vdpa), idx, msg, extack);
}

static u16 vsb_get_vq_size(struct vdpa_device *vdpa, u16 idx)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	u16 size = vsb->queue_size;

	if (idx >= vsb->nvqs)
		return 0;
	/*
	 * As vdpa_sim: the size the queue runs with once the device is
	 * live, the largest it can have before. (The size the driver set is
	 * checked only when the queue is enabled: one above the maximum
	 * runs as a faulty ring of size 0.)
	 */
	mutex_lock(&vsb->queue_lock);
	if (vsb->status & VIRTIO_CONFIG_S_DRIVER_OK)
		size = vsb->vqs[idx].ready ? vsb->vqs[idx].ring.num :
					     vsb->vqs[idx].num;
	mutex_unlock(&vsb->queue_lock);
	return size;
}

static u32 vsb_get_vq_align(struct vdpa_device *vdpa)
{
	return SMP_CACHE_BYTES;
}

static u32 vsb_get_vq_group(struct vdpa_device *vdpa, u16 idx)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	u32 group;

	mutex_lock(&vsb->lock);
	group = idx == vsb_cvq_index(vsb) ? VSB_GROUP_CVQ : VSB_GROUP_DATA;
	mutex_unlock(&vsb->lock);
	return group;
}

static u64 vsb_get_device_features(struct vdpa_device *vdpa)
{
	return vdpa_to_vsb(vdpa)->supported_features;
}

static u64 vsb_get_backend_features(const struct vdpa_device *vdpa)
{
	return BIT_ULL(VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK);
}

/*
 * The driver's features, before FEATURES_OK only: once the device has
 * accepted a set, the rings are laid out, the CVQ placed and the queues
 * counted by it, so a change would pull them from under live rings
 * ("Device Initialization": the driver MUST NOT change them; a reset
 * starts over). vhost_vdpa refuses it itself; virtio_vdpa never tries.
 * A bit the device did not offer is refused too, not silently dropped:
 * the driver would run on a feature the device does not have.
 */
static int vsb_set_driver_features(struct vdpa_device *vdpa, u64 features)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	if ((features & VSB_FEATURES_REQUIRED) != VSB_FEATURES_REQUIRED ||
	    (features & ~vsb->supported_features))
		return -EINVAL;
	vsb_lock_both(vsb);
	if (vsb->status & VIRTIO_CONFIG_S_FEATURES_OK) {
		vsb_unlock_both(vsb);
		return -EBUSY;
	}
	vsb->features = features;
	/* Guest offloads start as negotiated. */
	vsb->ctrl.offloads = vsb->features & VSB_GUEST_OFFLOADS;
	/* MQ or RSS moves the CVQ, and with it its address space. */
	vsb_dev_maps_changed(vsb);
	/* Which filtering applies depends on CTRL_RX and CTRL_VLAN. */
	vsb_rx_filter_build(&vsb->rx_filter, &vsb->ctrl, vsb->features);
	vsb_unlock_both(vsb);
	return 0;
}

static u64 vsb_get_driver_features(struct vdpa_device *vdpa)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	u64 features;

	mutex_lock(&vsb->lock);
	features = vsb->features;
	mutex_unlock(&vsb->lock);
	return features;
}

static void vsb_set_config_cb(struct vdpa_device *vdpa,
			      struct vdpa_callback *cb)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	mutex_lock(&vsb->lock);
	vsb->config_cb = *cb;
	mutex_unlock(&vsb->lock);
}

static u16 vsb_get_vq_num_max(struct vdpa_device *vdpa)
{
	return vdpa_to_vsb(vdpa)->queue_size;
}

static u32 vsb_get_device_id(struct vdpa_device *vdpa)
{
	return VIRTIO_ID_NET;
}

static u32 vsb_get_vendor_id(struct vdpa_device *vdpa)
{
	return 0;
}

static u8 vsb_get_status(struct vdpa_device *vdpa)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	u8 status;

	mutex_lock(&vsb->lock);
	status = vsb->status;
	mutex_unlock(&vsb->lock);
	return status;
}

static void vsb_reset_locked(struct vsb_dev *vsb, u32 flags)
{
	unsigned int i;

	lockdep_assert_held(&vsb->queue_lock);
	lockdep_assert_held(&vsb->lock);
	for (i = 0; i < vsb->nvqs; i++) {
		struct vsb_vq *vq = &vsb->vqs[i];

		vq->ready = false;
		vq->num = 0;
		vq->desc_addr = 0;
		vq->driver_addr = 0;
		vq->device_addr = 0;
		vq->base = 0;
		vq->base_set = false;
		memset(&vq->cb, 0, sizeof(vq->cb));
		memset(&vq->coal, 0, sizeof(vq->coal));
		memset(&vq->coal_state, 0, sizeof(vq->coal_state));
	}
	/*
	 * The config callback belongs to the driver that set it, like the
	 * queues' ones: virtio_vdpa never clears it, and vhost_vdpa's lives
	 * only as long as its file. Every driver change resets the device
	 * (virtio's probe and remove, vhost_vdpa's open and release), so a
	 * driver that sets none never reaches its predecessor's.
	 */
	memset(&vsb->config_cb, 0, sizeof(vsb->config_cb));
	for (i = 0; i < VSB_NGROUPS; i++)
		vsb->group_asid[i] = 0;
	if (flags & VDPA_RESET_F_CLEAN_MAP) {
		for (i = 0; i < VSB_NAS; i++) {
			kvfree(vsb->as[i].table);
			vsb->as[i].table = NULL;
			vsb->as[i].passthrough = true;
		}
	}
	vsb_dev_maps_changed(vsb);
	/* A run parked in a fault must not go on with the old device. */
	vsb_new_gen(vsb);
	vsb->features = 0;
	vsb->status = 0;
	vsb->suspended = false;
	vsb->config_owed = false;
	vsb->cvq_stalled = false;
	vsb_fault_rules_reset(&vsb->fault_rules);
	vsb_faults_changed(vsb);
	vsb_net_ctrl_reset(&vsb->ctrl, vsb->provisioned_mac, vsb->max_vqp, 0);
	vsb_rx_filter_build(&vsb->rx_filter, &vsb->ctrl, 0);
	memcpy(&vsb->rx_rss, &vsb->ctrl.rss, sizeof(vsb->rx_rss));
	vsb->filter_stale = 0;
	atomic64_set(&vsb->cvq_kick_ns, 0);
	vsb_sync_config(vsb);
}

static int vsb_compat_reset(struct vdpa_device *vdpa, u32 flags)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	vsb_lock_both(vsb);
	vsb_reset_locked(vsb, flags);
	vsb_unlock_both(vsb);
	return 0;
}

static int vsb_reset(struct vdpa_device *vdpa)
{
	return vsb_compat_reset(vdpa, 0);
}

static void vsb_set_status(struct vdpa_device *vdpa, u8 status)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	u8 old;

	vsb_lock_both(vsb);
	if (!status) {
		vsb_reset_locked(vsb, 0);
		vsb_unlock_both(vsb);
		return;
	}
	old = vsb->status;
	/*
	 * FEATURES_OK sticks only on a feature set the device can run with
	 * ("Device Initialization": the driver reads it back): a driver that
	 * ignored set_driver_features' refusal, or accepted a feature
	 * without the one it needs, learns it here.
	 */
	if ((status & ~old & VIRTIO_CONFIG_S_FEATURES_OK) &&
	    !vsb_features_usable(vsb->features))
		status &= ~VIRTIO_CONFIG_S_FEATURES_OK;
	/* NEEDS_RESET is the device's to set; the driver cannot clear it. */
	status |= old & VIRTIO_CONFIG_S_NEEDS_RESET;
	/*
	 * DRIVER_OK on features the device never accepted: nothing about the
	 * queues is settled, so the device cannot run ("Device
	 * Initialization": the device is unusable) and says so.
	 */
	if ((status & ~old & VIRTIO_CONFIG_S_DRIVER_OK) &&
	    !(status & VIRTIO_CONFIG_S_FEATURES_OK)) {
		dev_warn_ratelimited(&vdpa->dev,
				     "DRIVER_OK without FEATURES_OK\n");
		status |= VIRTIO_CONFIG_S_NEEDS_RESET;
	}
	vsb->status = status;
	if ((status & ~old & VIRTIO_CONFIG_S_NEEDS_RESET))
		vsb_config_changed(vsb);
	/*
	 * Serve kicks that came before DRIVER_OK. Queues enabled later are
	 * served when they are (vsb_set_vq_ready()), as QEMU enables its
	 * queues: not waking the worker for nothing keeps it off the locks
	 * the driver's next calls take.
	 */
	if (!(old & VIRTIO_CONFIG_S_DRIVER_OK) && vsb_running(vsb) &&
	    vsb_any_vq_ready(vsb))
		vsb_schedule(vsb);
	vsb_unlock_both(vsb);
}

static int vsb_suspend(struct vdpa_device *vdpa)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	/* Waits for a run in progress, parked or not, to finish. */
	vsb_lock_both_idle(vsb);
	vsb->suspended = true;
	vsb_unlock_both(vsb);
	return 0;
}

static int vsb_resume(struct vdpa_device *vdpa)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	vsb_lock_both_idle(vsb);
	vsb->suspended = false;
	if (vsb->config_owed)
		vsb_config_changed(vsb);
	/*
	 * Look at every queue again, kicked or not: a queue the driver
	 * enabled while the device was suspended was never scheduled.
	 */
	if (vsb_running(vsb))
		vsb_schedule(vsb);
	vsb_unlock_both(vsb);
	return 0;
}

static size_t vsb_get_config_size(struct vdpa_device *vdpa)
{
	return sizeof(struct virtio_net_config);
}

static void vsb_get_config(struct vdpa_device *vdpa, unsigned int offset,
			   void *buf, unsigned int len)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	const size_t size = sizeof(vsb->config);
	unsigned int copy = 0;

	/* Callers pass any range (netlink asks for the whole struct). */
	if (offset < size)
		copy = min_t(size_t, len, size - offset);
	spin_lock(&vsb->config_lock);
	memcpy(buf, (u8 *)&vsb->config + offset, copy);
	spin_unlock(&vsb->config_lock);
	memset(buf + copy, 0, len - copy);
}

/* virtio-net's config space is read-only for a VERSION_1 driver. */
static void vsb_set_config(struct vdpa_device *vdpa, unsigned int offset,
			   const void *buf, unsigned int len)
{
}

static u32 vsb_get_generation(struct vdpa_device *vdpa)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	u32 gen;

	spin_lock(&vsb->config_lock);
	gen = vsb->generation;
	spin_unlock(&vsb->config_lock);
	return gen;
}

static struct vdpa_iova_range vsb_get_iova_range(struct vdpa_device *vdpa)
{
	return (struct vdpa_iova_range){ .first = 0, .last = U64_MAX };
}

static int vsb_set_group_asid(struct vdpa_device *vdpa, unsigned int group,
			      unsigned int asid)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	if (group >= VSB_NGROUPS || asid >= VSB_NAS)
		return -EINVAL;
	vsb_lock_both(vsb);
	vsb->group_asid[group] = asid;
	vsb_dev_maps_changed(vsb);
	vsb_unlock_both(vsb);
	return 0;
}

/* Put @table in force for @asid (L taken here) and free what it replaces. */
static void vsb_as_swap(struct vsb_dev *vsb, unsigned int asid,
			struct vsb_map_table *table, bool passthrough)
{
	struct vsb_map_table *old;

	mutex_lock(&vsb->lock);
	old = vsb->as[asid].table;
	vsb->as[asid].table = table;
	vsb->as[asid].passthrough = passthrough;
	vsb_dev_maps_changed(vsb);
	mutex_unlock(&vsb->lock);
	/* The queues copy what they look up: nothing points into it. */
	kvfree(old);
}

/*
 * Replace the address space's translations with those of @iotlb, all or
 * nothing. More maps than the device takes leave the space mapping
 * nothing, so the driver's next access to the rings puts the device in
 * NEEDS_RESET; a failed allocation, which says nothing about the driver,
 * keeps the maps in force. vhost_vdpa ignores what set_map returns at the
 * end of an IOTLB batch, so a refusal is also said in the kernel log.
 *
 * Called under the owner's mmap_lock when IOTLB_BATCH is not in use, so
 * it must not wait for a run of the queues, which may be in a page fault
 * waiting for that lock: the table is built with no lock held and swapped
 * in under vsb->lock alone. Building may sleep: set_map runs in process
 * context, as vhost_vdpa's ioctl or write.
 */
static int vsb_set_map(struct vdpa_device *vdpa, unsigned int asid,
		       struct vhost_iotlb *iotlb)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	struct vsb_map_table *table;

	if (asid >= VSB_NAS)
		return -EINVAL;
	table = vsb_map_table_build(iotlb);
	if (PTR_ERR_OR_ZERO(table) == -ENOMEM) {
		dev_warn_ratelimited(&vdpa->dev,
				     "address space %u: %u maps: no memory\n",
				     asid, iotlb->nmaps);
		return -ENOMEM;
	}
	if (IS_ERR(table)) {
		dev_warn_ratelimited(&vdpa->dev,
				     "address space %u: %u maps, limit %u\n",
				     asid, iotlb->nmaps, VSB_IOTLB_LIMIT);
		vsb_as_swap(vsb, asid, NULL, false);
		return PTR_ERR(table);
	}
	vsb_as_swap(vsb, asid, table, false);
	return 0;
}

static int vsb_reset_map(struct vdpa_device *vdpa, unsigned int asid)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	if (asid >= VSB_NAS)
		return -EINVAL;
	vsb_as_swap(vsb, asid, NULL, true);
	return 0;
}

static int vsb_bind_mm(struct vdpa_device *vdpa, struct mm_struct *mm)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	vsb_lock_both(vsb);
	if (vsb->mm)
		mmdrop(vsb->mm);
	mmgrab(mm);
	WRITE_ONCE(vsb->mm, mm);
	vsb_new_gen(vsb);
	vsb_dev_maps_changed(vsb);
	vsb_unlock_both(vsb);
	return 0;
}

static void vsb_unbind_mm(struct vdpa_device *vdpa)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	vsb_lock_both(vsb);
	if (vsb->mm)
		mmdrop(vsb->mm);
	WRITE_ONCE(vsb->mm, NULL);
	vsb_new_gen(vsb);
	vsb_dev_maps_changed(vsb);
	vsb_unlock_both(vsb);
}

/* Called on the last reference; every step copes with a partial init. */
static void vsb_free(struct vdpa_device *vdpa)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	unsigned int i;

	/*
	 * The timer queues the work and the work arms the timer, so no
	 * single cancel is final. Once dying is seen, neither does either;
	 * the barrier makes every callback and run that starts later see it.
	 * One already running may still queue or arm once: the first
	 * hrtimer_cancel() waits for such a callback, cancel_work_sync() for
	 * the work it queued, the last hrtimer_cancel() undoes what a run
	 * begun before the barrier armed.
	 */
	WRITE_ONCE(vsb->dying, true);
	/* dying before any later callback's or run's check of it */
	smp_mb();
	wake_up_all(&vsb->cost_wq);
	hrtimer_cancel(&vsb->coal_timer);
	cancel_work_sync(&vsb->work);
	hrtimer_cancel(&vsb->coal_timer);
	for (i = 0; i < VSB_NAS; i++)
		kvfree(vsb->as[i].table);
	vsb_unpin_all(vsb);
	for (i = 0; i < VSB_MAX_NVQS; i++) {
		kvfree(vsb->vqs[i].chain.segs);
		kvfree(vsb->vqs[i].ring.id_descs);
		kfree(vsb->vqs[i].ring.win);
	}
	if (vsb->mm)
		mmdrop(vsb->mm);
	kfree(vsb->frame);
	mutex_destroy(&vsb->lock);
	mutex_destroy(&vsb->queue_lock);
}

const struct vdpa_config_ops vsb_config_ops = {
	.set_vq_address = vsb_set_vq_address,
	.set_vq_num = vsb_set_vq_num,
	.kick_vq = vsb_kick_vq,
	.set_vq_cb = vsb_set_vq_cb,
	.set_vq_ready = vsb_set_vq_ready,
	.get_vq_ready = vsb_get_vq_ready,
	.set_vq_state = vsb_set_vq_state,
	.get_vq_state = vsb_get_vq_state,
	.get_vendor_vq_stats = vsb_get_vendor_vq_stats,
	.get_vq_size = vsb_get_vq_size,
	.get_vq_align = vsb_get_vq_align,
	.get_vq_group = vsb_get_vq_group,
	.get_device_features = vsb_get_device_features,
	.get_backend_features = vsb_get_backend_features,
	.set_driver_features = vsb_set_driver_features,
	.get_driver_features = vsb_get_driver_features,
	.set_config_cb = vsb_set_config_cb,
	.get_vq_num_max = vsb_get_vq_num_max,
	.get_device_id = vsb_get_device_id,
	.get_vendor_id = vsb_get_vendor_id,
	.get_status = vsb_get_status,
	.set_status = vsb_set_status,
	.reset = vsb_reset,
	.compat_reset = vsb_compat_reset,
	.suspend = vsb_suspend,
	.resume = vsb_resume,
	.get_config_size = vsb_get_config_size,
	.get_config = vsb_get_config,
	.set_config = vsb_set_config,
	.get_generation = vsb_get_generation,
	.get_iova_range = vsb_get_iova_range,
	.set_group_asid = vsb_set_group_asid,
	.set_map = vsb_set_map,
	.reset_map = vsb_reset_map,
	.bind_mm = vsb_bind_mm,
	.unbind_mm = vsb_unbind_mm,
	.free = vsb_free,
};

/* Everything a new device needs before it is registered. */
int vsb_dev_init(struct vsb_dev *vsb, const struct vdpa_dev_set_config *cfg,
		 const struct vsb_dev_params *params)
{
	unsigned int i;

	mutex_init(&vsb->queue_lock);
	mutex_init(&vsb->lock);
	init_waitqueue_head(&vsb->park_wq);
	init_waitqueue_head(&vsb->cost_wq);
	spin_lock_init(&vsb->config_lock);
	spin_lock_init(&vsb->kick_hint_lock);
	INIT_WORK(&vsb->work, vsb_work);
	vsb_hrtimer_setup(&vsb->coal_timer, vsb_coal_timer, CLOCK_MONOTONIC,
			  HRTIMER_MODE_ABS);
	vsb_zero_vq_counters(vsb);
	INIT_LIST_HEAD(&vsb->node);
	vsb->completion = params->completion;
	vsb->batch_limit = params->batch_limit;
	vsb->cost = params->cost;
	vsb->kick_poll_ns = params->kick_poll_ns;
	vsb->suppress_kicks = params->suppress_kicks;
	vsb->kick_hint_on = params->suppress_kicks && params->kick_hint;
	vsb->lead_notify = params->lead_notify;
	vsb->queue_size = params->queue_size;

	for (i = 0; i < VSB_NAS; i++)
		vsb->as[i].passthrough = true;
	vsb->max_vqp = params->max_vqp;
	vsb->nvqs = 2 * vsb->max_vqp + 1;
	for (i = 0; i < vsb->nvqs; i++) {
		struct vsb_vq *vq = &vsb->vqs[i];

		vq->vsb = vsb;
		vq->index = i;
		vq->chain.max_segs = VSB_QUEUE_SIZE_MAX;
		vq->chain.segs = kvcalloc(VSB_QUEUE_SIZE_MAX,
					  sizeof(*vq->chain.segs), GFP_KERNEL);
		if (!vq->chain.segs)
			return -ENOMEM;
		vq->ring.max_ids = VSB_QUEUE_SIZE_MAX;
		vq->ring.id_descs = kvcalloc(VSB_QUEUE_SIZE_MAX,
					     sizeof(*vq->ring.id_descs),
					     GFP_KERNEL);
		if (!vq->ring.id_descs)
			return -ENOMEM;
		vq->ring.win = kmalloc(sizeof(*vq->ring.win), GFP_KERNEL);
		if (!vq->ring.win)
			return -ENOMEM;
	}
	vsb->frame = kmalloc(VSB_FRAME_MAX, GFP_KERNEL);
	if (!vsb->frame)
		return -ENOMEM;

	vsb->mtu = cfg->mask & BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MTU) ?
			   cfg->net.mtu :
			   VSB_DEFAULT_MTU;
	if (cfg->mask & BIT_ULL(VDPA_ATTR_DEV_NET_CFG_MACADDR))
		ether_addr_copy(vsb->provisioned_mac, cfg->net.mac);
	else
		eth_random_addr(vsb->provisioned_mac);
	/* VERSION_1 is required: the config space is little-endian. */
	vsb->config.mtu = __cpu_to_virtio16(true, vsb->mtu);
	vsb->config.max_virtqueue_pairs = __cpu_to_virtio16(true, vsb->max_vqp);
	/* The spec has these fields only with RSS or HASH_REPORT offered. */
	if (vsb->supported_features &
	    (BIT_ULL(VIRTIO_NET_F_RSS) | BIT_ULL(VIRTIO_NET_F_HASH_REPORT))) {
		vsb->config.rss_max_key_size = VSB_RSS_KEY_SIZE;
		vsb->config.rss_max_indirection_table_length =
			cpu_to_le16(VSB_RSS_TABLE_MAX);
		vsb->config.supported_hash_types =
			cpu_to_le32(VSB_RSS_HASH_TYPES);
	}
	vsb_lock_both(vsb);
	vsb_reset_locked(vsb, VDPA_RESET_F_CLEAN_MAP);
	vsb_unlock_both(vsb);
	return 0;
}
