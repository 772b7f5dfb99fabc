// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdpa_sim_batch device: the vDPA config ops and queue processing.
 *
 * Locking: vsb->lock serialises every op and all queue processing, so the
 * rings, the IOTLBs, the callbacks and the control state never change
 * under a running queue; config_lock covers the config space, which
 * virtio_vdpa may read in atomic context.
 *
 * Where queues are processed: always in the device's work item. kick_vq
 * runs in atomic context with both bus drivers -- virtio_vdpa kicks from
 * anywhere, and vhost_vdpa (use_worker = false) calls it straight from the
 * kick eventfd's wake-up, under the wait queue lock -- so it only queues
 * the work, which adopts the owner's mm for vhost_vdpa's user addresses.
 */

#include <linux/etherdevice.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/stat.h>
#include <linux/slab.h>
#include <uapi/linux/vdpa.h>
#include <uapi/linux/vhost_types.h>
#include <uapi/linux/virtio_config.h>
#include <uapi/linux/virtio_ids.h>

#include "vsb.h"

u16 vsb_cvq_index(const struct vsb_dev *vsb)
{
	if (vsb->features & BIT_ULL(VIRTIO_NET_F_MQ))
		return 2 * vsb->max_vqp;
	return 2;
}

static bool vsb_running(const struct vsb_dev *vsb)
{
	return (vsb->status & VIRTIO_CONFIG_S_DRIVER_OK) &&
	       !(vsb->status & VIRTIO_CONFIG_S_NEEDS_RESET) && !vsb->suspended;
}

static void vsb_config_changed(struct vsb_dev *vsb)
{
	if ((vsb->status & VIRTIO_CONFIG_S_DRIVER_OK) &&
	    vsb->config_cb.callback)
		vsb->config_cb.callback(vsb->config_cb.private);
}

/* Copy the control state into the config space the driver reads. */
static void vsb_sync_config(struct vsb_dev *vsb)
{
	u16 status = VIRTIO_NET_S_LINK_UP;

	if (vsb->ctrl.announce_pending)
		status |= VIRTIO_NET_S_ANNOUNCE;
	spin_lock(&vsb->config_lock);
	ether_addr_copy(vsb->config.mac, vsb->ctrl.mac);
	vsb->config.status = __cpu_to_virtio16(true, status);
	vsb->generation++;
	spin_unlock(&vsb->config_lock);
}

void vsb_dev_set_mac(struct vsb_dev *vsb, const u8 *mac)
{
	mutex_lock(&vsb->lock);
	ether_addr_copy(vsb->provisioned_mac, mac);
	ether_addr_copy(vsb->ctrl.mac, mac);
	vsb_sync_config(vsb);
	vsb_config_changed(vsb);
	mutex_unlock(&vsb->lock);
}

static void vsb_needs_reset(struct vsb_dev *vsb, struct vsb_vq *vq)
{
	if (vsb->status & VIRTIO_CONFIG_S_NEEDS_RESET)
		return;
	dev_warn_ratelimited(&vsb->vdpa.dev,
			     "queue %u: %s; device needs reset\n", vq->index,
			     vsb_fault_name(vq->ring.fault));
	vsb->status |= VIRTIO_CONFIG_S_NEEDS_RESET;
	vsb_config_changed(vsb);
}

/* Publish what was pushed and notify the driver if it asked for it. */
static bool vsb_complete(struct vsb_dev *vsb, struct vsb_vq *vq)
{
	if (vq->ring.used_idx == vq->ring.used_published)
		return false;
	if (vsb_ring_publish(&vq->ring))
		return false;
	if (!vsb_ring_need_notify(&vq->ring) || !vq->cb.callback)
		return false;
	/* virtio_vdpa's callbacks schedule NAPI, which wants BHs off. */
	local_bh_disable();
	vq->cb.callback(vq->cb.private);
	local_bh_enable();
	return true;
}

/*
 * Publish the commands executed since the last call. The config space the
 * driver reads is brought up to date first, so a command's effect is
 * visible by the time its used entry is.
 */
static void vsb_cvq_complete(struct vsb_dev *vsb, struct vsb_vq *cvq,
			     u32 *changed)
{
	bool published = cvq->ring.used_idx != cvq->ring.used_published;

	if (*changed) {
		vsb_sync_config(vsb);
		*changed = 0;
	}
	if (vsb_complete(vsb, cvq))
		vsb->cvq_stats.notifications++;
	if (published)
		vsb->cvq_stats.batches++;
}

static void vsb_count_command(struct vsb_cvq_stats *stats,
			      const struct vsb_cvq_result *res)
{
	unsigned int class = min_t(unsigned int, res->class, VSB_CVQ_CLASSES);
	bool ok = !res->fault && res->ack == VIRTIO_NET_OK;

	stats->class_requests[class]++;
	if (ok) {
		stats->successes++;
	} else {
		stats->errors++;
		stats->class_errors[class]++;
	}
}

/*
 * Serve the control queue. In batch mode every command available now, up
 * to batch_limit, is executed and its used entry written, and the used
 * index is published once; in immediate mode each command is published
 * (and notified) before the next is taken. Returns true if commands are
 * left for another run.
 */
static bool vsb_process_cvq(struct vsb_dev *vsb)
{
	struct vsb_vq *cvq = &vsb->vqs[vsb_cvq_index(vsb)];
	bool batch = vsb->completion == VSB_COMPLETION_BATCH;
	u32 limit = vsb->batch_limit ?: cvq->ring.num;
	struct vsb_cvq_result res;
	u32 changed = 0;
	bool more = false;
	u32 done = 0;
	int ret;

	if (!cvq->ready || !(vsb->features & BIT_ULL(VIRTIO_NET_F_CTRL_VQ)))
		return false;

	for (;;) {
		ret = vsb_ring_pop(&cvq->ring, &cvq->chain);
		if (!ret) {
			/* Re-arm kicks; if more came meanwhile, go on. */
			ret = vsb_ring_enable_kicks(&cvq->ring);
			if (ret > 0)
				continue;
			break;
		}
		if (ret < 0)
			break;

		vsb->cvq_stats.requests++;
		vsb_cvq_handle(&cvq->ring, &cvq->chain, vsb->features,
			       &vsb->ctrl, &vsb->cvq_scratch, &res);
		vsb_count_command(&vsb->cvq_stats, &res);
		changed |= res.changed;
		if (res.fault) {
			/* The chain goes back below, with length 0. */
			cvq->ring.fault = res.fault;
			ret = -EIO;
			break;
		}
		if (vsb_ring_push(&cvq->ring, cvq->chain.head, res.used_len)) {
			ret = -EIO;
			break;
		}
		if (!batch)
			vsb_cvq_complete(vsb, cvq, &changed);
		if (++done >= limit) {
			more = true;
			break;
		}
	}
	if (ret < 0)
		vsb_ring_return_chain(&cvq->ring, &cvq->chain);
	vsb_cvq_complete(vsb, cvq, &changed);
	if (ret < 0)
		vsb_needs_reset(vsb, cvq);
	return more;
}

/* Move frames of queue pair @pair from its transmit to its receive queue. */
static bool vsb_process_pair(struct vsb_dev *vsb, u16 pair)
{
	struct vsb_vq *rx = &vsb->vqs[2 * pair], *tx = &vsb->vqs[2 * pair + 1];
	struct vsb_loopback lb = {
		.tx = &tx->ring,
		.rx = &rx->ring,
		.tx_chain = &tx->chain,
		.rx_chain = &rx->chain,
		.buf = vsb->frame,
		.buf_len = VSB_FRAME_MAX,
		.ctrl = &vsb->ctrl,
		.features = vsb->features,
		.stats = &vsb->lb_stats[pair],
	};
	int ret;

	if (!rx->ready || !tx->ready)
		return false;
	ret = vsb_loopback_run(&lb, VSB_TX_BUDGET);
	vsb_complete(vsb, rx);
	vsb_complete(vsb, tx);
	if (ret < 0) {
		vsb_needs_reset(vsb, tx->ring.fault ? tx : rx);
		return false;
	}
	if (ret == VSB_TX_BUDGET)
		return true;
	ret = vsb_ring_enable_kicks(&tx->ring);
	if (ret < 0)
		vsb_needs_reset(vsb, tx);
	return ret > 0;
}

/* The data path: only the pairs the driver enabled (one without MQ). */
static bool vsb_process_data(struct vsb_dev *vsb)
{
	u16 pairs = vsb->features & BIT_ULL(VIRTIO_NET_F_MQ) ? vsb->ctrl.pairs :
							       1;
	bool more = false;
	u16 i;

	for (i = 0; i < pairs && vsb_running(vsb); i++)
		more |= vsb_process_pair(vsb, i);
	return more;
}

/*
 * Run the device on a CPU other than the one that kicked: the simulated
 * device stands for hardware working beside the driver. On the driver's
 * own CPU the work would wait for a driver that busy-polls the used ring
 * to be preempted, which measured in the test VM as runs alternating
 * between ~4 and ~10 us per serial command from boot to boot.
 */
static void vsb_schedule(struct vsb_dev *vsb)
{
	unsigned int cpu =
		cpumask_next(raw_smp_processor_id(), cpu_online_mask);

	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	queue_work_on(cpu, vsb_wq, &vsb->work);
}

/* Serve every queue once; queue the work item if anything is left. */
static void vsb_process(struct vsb_dev *vsb)
{
	bool more;

	lockdep_assert_held(&vsb->lock);
	if (!vsb_running(vsb)) {
		vsb->pending_kick = true;
		return;
	}
	vsb->pending_kick = false;
	more = vsb_process_cvq(vsb);
	more |= vsb_process_data(vsb);
	if (more && vsb_running(vsb))
		vsb_schedule(vsb);
}

/* Runs the queues from the work item: see the comment at the top. */
static void vsb_kick_locked(struct vsb_dev *vsb)
{
	vsb_schedule(vsb);
}

/*
 * Before the worker goes to sleep, wait a little for the next kick: a
 * driver sending commands one by one kicks again within microseconds, and
 * waking a sleeping worker (an IPI to an idle CPU, the workqueue dispatch,
 * adopting the mm again) costs more than that. While vsb->polling is set,
 * a kick only raises vsb->kicked and this loop picks it up.
 * Polling stops as soon as anything else wants this CPU: the driver may be
 * waiting to run right here (as vhost's busy polling and KVM's halt
 * polling, which check the same).
 *
 * Return: true if a kick came and this run should serve the queues again.
 */
static bool vsb_wait_for_kick(struct vsb_dev *vsb)
{
	u64 deadline;

	if (!vsb->kick_poll_ns)
		return false;
	WRITE_ONCE(vsb->polling, true);
	/* Pairs with vsb_kick_vq(): polling visible before kicked is read. */
	smp_mb();
	deadline = ktime_get_ns() + vsb->kick_poll_ns;
	while (!atomic_read(&vsb->kicked)) {
		if (need_resched() || !single_task_running() ||
		    ktime_get_ns() >= deadline)
			break;
		cpu_relax();
	}
	WRITE_ONCE(vsb->polling, false);
	/*
	 * Pairs with vsb_kick_vq(): a kick that saw polling still set did
	 * not queue the work, so look at kicked once more after clearing it.
	 */
	smp_mb();
	return atomic_read(&vsb->kicked);
}

static void vsb_work(struct work_struct *work)
{
	struct vsb_dev *vsb = container_of(work, struct vsb_dev, work);
	struct mm_struct *mm;

	mutex_lock(&vsb->lock);
	mm = vsb->mm;
	/* The owner may be gone: then there is nothing to serve. */
	if (mm && !mmget_not_zero(mm)) {
		mutex_unlock(&vsb->lock);
		return;
	}
	/* unbind_mm waits for the lock, and this run holds a reference. */
	if (mm)
		kthread_use_mm(mm);
	for (;;) {
		/* This run serves every kick so far. */
		atomic_set(&vsb->kicked, 0);
		vsb_process(vsb);
		mutex_unlock(&vsb->lock);
		if (!vsb_wait_for_kick(vsb))
			break;
		mutex_lock(&vsb->lock);
		/* A new mm means new maps: leave those to a fresh run. */
		if (vsb->mm != mm) {
			mutex_unlock(&vsb->lock);
			vsb_schedule(vsb);
			break;
		}
	}
	if (mm) {
		kthread_unuse_mm(mm);
		mmput(mm);
	}
}

static void vsb_kick_vq(struct vdpa_device *vdpa, u16 idx)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	if (idx >= vsb->nvqs)
		return;
	if (idx == vsb_cvq_index(vsb))
		atomic64_inc(&vsb->cvq_kicks);
	atomic_set(&vsb->kicked, 1);
	/* Pairs with vsb_wait_for_kick(): set kicked, then read polling */
	smp_mb__after_atomic();
	if (!READ_ONCE(vsb->polling))
		vsb_schedule(vsb);
}

static int vsb_set_vq_address(struct vdpa_device *vdpa, u16 idx, u64 desc,
			      u64 driver, u64 device)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	if (idx >= vsb->nvqs)
		return -EINVAL;
	mutex_lock(&vsb->lock);
	vsb->vqs[idx].desc_addr = desc;
	vsb->vqs[idx].driver_addr = driver;
	vsb->vqs[idx].device_addr = device;
	mutex_unlock(&vsb->lock);
	return 0;
}

/* Checked when the queue is enabled: this op cannot fail. */
static void vsb_set_vq_num(struct vdpa_device *vdpa, u16 idx, u32 num)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	if (idx >= vsb->nvqs)
		return;
	mutex_lock(&vsb->lock);
	vsb->vqs[idx].num = num;
	mutex_unlock(&vsb->lock);
}

static void vsb_set_vq_cb(struct vdpa_device *vdpa, u16 idx,
			  struct vdpa_callback *cb)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	if (idx >= vsb->nvqs)
		return;
	mutex_lock(&vsb->lock);
	vsb->vqs[idx].cb = *cb;
	mutex_unlock(&vsb->lock);
}

static void vsb_vq_enable(struct vsb_dev *vsb, struct vsb_vq *vq)
{
	struct vsb_ring *ring = &vq->ring;
	u16 num = vq->num <= VSB_QUEUE_SIZE_MAX ? vq->num : 0;

	ring->mem.ops = &vsb_iotlb_mem_ops;
	ring->mem.priv = vq;
	ring->event_idx = vsb->features & BIT_ULL(VIRTIO_RING_F_EVENT_IDX);
	ring->indirect = vsb->features & BIT_ULL(VIRTIO_RING_F_INDIRECT_DESC);
	/* A bad size or address faults the ring: the first run resets. */
	vsb_ring_setup(ring, num, vq->desc_addr, vq->driver_addr,
		       vq->device_addr, vq->last_avail);
	vq->ready = true;
}

static void vsb_set_vq_ready(struct vdpa_device *vdpa, u16 idx, bool ready)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	struct vsb_vq *vq;

	if (idx >= vsb->nvqs)
		return;
	vq = &vsb->vqs[idx];
	mutex_lock(&vsb->lock);
	if (ready && !vq->ready) {
		vsb_vq_enable(vsb, vq);
		/* Enabled after DRIVER_OK: serve what is already there. */
		if (vsb_running(vsb))
			vsb_kick_locked(vsb);
	} else if (!ready && vq->ready) {
		vq->last_avail = vq->ring.last_avail;
		vq->ready = false;
	}
	mutex_unlock(&vsb->lock);
}

static bool vsb_get_vq_ready(struct vdpa_device *vdpa, u16 idx)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	bool ready;

	if (idx >= vsb->nvqs)
		return false;
	mutex_lock(&vsb->lock);
	ready = vsb->vqs[idx].ready;
	mutex_unlock(&vsb->lock);
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
	mutex_lock(&vsb->lock);
	vq->last_avail = state->split.avail_index;
	if (vq->ready)
		vsb_ring_set_base(&vq->ring, vq->last_avail);
	mutex_unlock(&vsb->lock);
	return 0;
}

static int vsb_get_vq_state(struct vdpa_device *vdpa, u16 idx,
			    struct vdpa_vq_state *state)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	struct vsb_vq *vq;

	if (idx >= vsb->nvqs)
		return -EINVAL;
	vq = &vsb->vqs[idx];
	mutex_lock(&vsb->lock);
	state->split.avail_index = vq->ready ? vq->ring.last_avail :
					       vq->last_avail;
	mutex_unlock(&vsb->lock);
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
	u32 num;

	if (idx >= vsb->nvqs)
		return 0;
	mutex_lock(&vsb->lock);
	num = vsb->vqs[idx].num;
	mutex_unlock(&vsb->lock);
	return num && num <= VSB_QUEUE_SIZE_MAX ? num : VSB_QUEUE_SIZE_MAX;
}

static u32 vsb_get_vq_align(struct vdpa_device *vdpa)
{
	return SMP_CACHE_BYTES;
}

static u32 vsb_get_vq_group(struct vdpa_device *vdpa, u16 idx)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	return idx == vsb_cvq_index(vsb) ? VSB_GROUP_CVQ : VSB_GROUP_DATA;
}

static u64 vsb_get_device_features(struct vdpa_device *vdpa)
{
	return vdpa_to_vsb(vdpa)->supported_features;
}

static u64 vsb_get_backend_features(const struct vdpa_device *vdpa)
{
	return BIT_ULL(VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK);
}

static int vsb_set_driver_features(struct vdpa_device *vdpa, u64 features)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	const u64 required = BIT_ULL(VIRTIO_F_VERSION_1) |
			     BIT_ULL(VIRTIO_F_ACCESS_PLATFORM);

	/* No legacy byte order, and addresses always go through maps. */
	if ((features & required) != required)
		return -EINVAL;
	mutex_lock(&vsb->lock);
	vsb->features = features & vsb->supported_features;
	/* Guest offloads start as negotiated. */
	vsb->ctrl.offloads = vsb->features & VSB_GUEST_OFFLOADS;
	/* MQ moves the CVQ, and with it which address space it uses. */
	vsb->map_gen++;
	mutex_unlock(&vsb->lock);
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
	return VSB_QUEUE_SIZE_MAX;
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

	for (i = 0; i < vsb->nvqs; i++) {
		struct vsb_vq *vq = &vsb->vqs[i];

		vq->ready = false;
		vq->num = 0;
		vq->desc_addr = 0;
		vq->driver_addr = 0;
		vq->device_addr = 0;
		vq->last_avail = 0;
		memset(&vq->cb, 0, sizeof(vq->cb));
	}
	for (i = 0; i < VSB_NGROUPS; i++)
		vsb->group_asid[i] = 0;
	if (flags & VDPA_RESET_F_CLEAN_MAP) {
		for (i = 0; i < VSB_NAS; i++) {
			vhost_iotlb_reset(vsb->as[i].iotlb);
			vsb->as[i].passthrough = true;
		}
	}
	vsb->map_gen++;
	vsb->features = 0;
	vsb->status = 0;
	vsb->suspended = false;
	vsb->pending_kick = false;
	vsb_net_ctrl_reset(&vsb->ctrl, vsb->provisioned_mac, vsb->max_vqp, 0);
	vsb_sync_config(vsb);
}

static int vsb_compat_reset(struct vdpa_device *vdpa, u32 flags)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	mutex_lock(&vsb->lock);
	vsb_reset_locked(vsb, flags);
	mutex_unlock(&vsb->lock);
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

	mutex_lock(&vsb->lock);
	if (!status) {
		vsb_reset_locked(vsb, 0);
		mutex_unlock(&vsb->lock);
		return;
	}
	old = vsb->status;
	/* NEEDS_RESET is the device's to set; the driver cannot clear it. */
	vsb->status = status | (old & VIRTIO_CONFIG_S_NEEDS_RESET);
	/* Serve kicks that came before DRIVER_OK. */
	if (!(old & VIRTIO_CONFIG_S_DRIVER_OK) && vsb_running(vsb))
		vsb_kick_locked(vsb);
	mutex_unlock(&vsb->lock);
}

static int vsb_suspend(struct vdpa_device *vdpa)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	/* Taking the lock waits for a run in progress to finish. */
	mutex_lock(&vsb->lock);
	vsb->suspended = true;
	mutex_unlock(&vsb->lock);
	return 0;
}

static int vsb_resume(struct vdpa_device *vdpa)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	mutex_lock(&vsb->lock);
	vsb->suspended = false;
	if (vsb->pending_kick && vsb_running(vsb))
		vsb_kick_locked(vsb);
	mutex_unlock(&vsb->lock);
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
	mutex_lock(&vsb->lock);
	vsb->group_asid[group] = asid;
	vsb->map_gen++;
	mutex_unlock(&vsb->lock);
	return 0;
}

/* Replace the address space's translations with those of @iotlb. */
static int vsb_set_map(struct vdpa_device *vdpa, unsigned int asid,
		       struct vhost_iotlb *iotlb)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	struct vhost_iotlb_map *map;
	struct vsb_as *as;
	int ret = 0;

	if (asid >= VSB_NAS)
		return -EINVAL;
	as = &vsb->as[asid];
	mutex_lock(&vsb->lock);
	vhost_iotlb_reset(as->iotlb);
	as->passthrough = false;
	vsb->map_gen++;
	for (map = vhost_iotlb_itree_first(iotlb, 0, U64_MAX); map;
	     map = vhost_iotlb_itree_next(map, 0, U64_MAX)) {
		ret = vhost_iotlb_add_range(as->iotlb, map->start, map->last,
					    map->addr, map->perm);
		if (ret) {
			/* All or nothing: a half map would mislead. */
			vhost_iotlb_reset(as->iotlb);
			break;
		}
	}
	mutex_unlock(&vsb->lock);
	return ret;
}

static int vsb_reset_map(struct vdpa_device *vdpa, unsigned int asid)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	if (asid >= VSB_NAS)
		return -EINVAL;
	mutex_lock(&vsb->lock);
	vhost_iotlb_reset(vsb->as[asid].iotlb);
	vsb->as[asid].passthrough = true;
	vsb->map_gen++;
	mutex_unlock(&vsb->lock);
	return 0;
}

static int vsb_bind_mm(struct vdpa_device *vdpa, struct mm_struct *mm)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	mutex_lock(&vsb->lock);
	if (vsb->mm)
		mmdrop(vsb->mm);
	mmgrab(mm);
	WRITE_ONCE(vsb->mm, mm);
	vsb->map_gen++;
	mutex_unlock(&vsb->lock);
	return 0;
}

static void vsb_unbind_mm(struct vdpa_device *vdpa)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);

	mutex_lock(&vsb->lock);
	if (vsb->mm)
		mmdrop(vsb->mm);
	WRITE_ONCE(vsb->mm, NULL);
	vsb->map_gen++;
	mutex_unlock(&vsb->lock);
}

/* Called on the last reference; every step copes with a partial init. */
static void vsb_free(struct vdpa_device *vdpa)
{
	struct vsb_dev *vsb = vdpa_to_vsb(vdpa);
	unsigned int i;

	cancel_work_sync(&vsb->work);
	for (i = 0; i < VSB_NAS; i++)
		if (vsb->as[i].iotlb)
			vhost_iotlb_free(vsb->as[i].iotlb);
	for (i = 0; i < VSB_MAX_NVQS; i++)
		kvfree(vsb->vqs[i].chain.segs);
	if (vsb->mm)
		mmdrop(vsb->mm);
	kfree(vsb->frame);
	mutex_destroy(&vsb->lock);
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

	mutex_init(&vsb->lock);
	spin_lock_init(&vsb->config_lock);
	INIT_WORK(&vsb->work, vsb_work);
	atomic64_set(&vsb->cvq_kicks, 0);
	vsb->completion = params->completion;
	vsb->batch_limit = params->batch_limit;
	vsb->kick_poll_ns = params->kick_poll_ns;

	for (i = 0; i < VSB_NAS; i++) {
		vsb->as[i].iotlb = vhost_iotlb_alloc(VSB_IOTLB_LIMIT, 0);
		if (!vsb->as[i].iotlb)
			return -ENOMEM;
		vsb->as[i].passthrough = true;
	}
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
	vsb_reset_locked(vsb, VDPA_RESET_F_CLEAN_MAP);
	return 0;
}
