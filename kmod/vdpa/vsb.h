/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vdpa_sim_batch: a vDPA net device simulator with batched control
 * virtqueue completion. Symbols are prefixed vsb_ (vdpa_sim_batch).
 */
#ifndef VSB_H
#define VSB_H

#include <linux/hrtimer.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/vdpa.h>
#include <linux/vhost_iotlb.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <uapi/linux/virtio_net.h>

#include "uapi/vdpa_sim_batch.h"
#include "vsb_cvq.h"
#include "vsb_cvq_group.h"
#include "vsb_features.h"
#include "vsb_filter.h"
#include "vsb_cost.h"
#include "vsb_fault_rule.h"
#include "vsb_loopback.h"
#include "vsb_ring.h"

#define VSB_MGMTDEV_NAME "vdpasim_batch"

#define VSB_MAX_VQP VSB_NET_MAX_PAIRS
#define VSB_MAX_NVQS (2 * VSB_MAX_VQP + 1)
#define VSB_QUEUE_SIZE_MAX 4096
/* The smallest a device may offer: a pair of frames, a command and its ack. */
#define VSB_QUEUE_SIZE_MIN 2
#define VSB_MIN_MTU 68
#define VSB_MAX_MTU 9000
#define VSB_DEFAULT_MTU 1500
/* A frame as the driver hands it over: header, Ethernet, VLAN tag, MTU. */
#define VSB_FRAME_LEN(hdr, mtu) ((hdr) + ETH_HLEN + VLAN_HLEN + (mtu))
#define VSB_FRAME_MAX VSB_FRAME_LEN(VSB_NET_HDR_MAX, VSB_MAX_MTU)
/* Frames moved per data path run, so a busy queue cannot hog the CPU. */
#define VSB_TX_BUDGET 64
/*
 * Maps per address space, as vdpa_sim allows: set_map refuses more.
 * (vhost_iotlb's own limit holds only with VHOST_IOTLB_FLAG_RETIRE, which
 * silently drops the oldest map.)
 */
#define VSB_IOTLB_LIMIT 2048
#define VSB_TLB_CACHE 4
/* Pages of a queue's ring areas pinned at a time (vsb_pin.c). */
#define VSB_PINS 8

/* Virtqueue groups and address spaces: the CVQ alone in group 1. */
#define VSB_GROUP_DATA 0
#define VSB_GROUP_CVQ 1
#define VSB_NGROUPS 2
#define VSB_NAS 2

enum vsb_completion {
	VSB_COMPLETION_IMMEDIATE,
	VSB_COMPLETION_BATCH,
};

struct vsb_dev;

/* A translation a queue looked up, copied: set_map may free the map. */
struct vsb_tlb_entry {
	u64 start;
	u64 last;
	u64 addr;
	u32 perm;
};

/*
 * A page of a ring area, pinned: device addresses [start, last] of one
 * map, reached at kaddr (for start) with the map's permissions.
 */
struct vsb_pin {
	u64 start;
	u64 last;
	u8 *kaddr;
	struct page *page;
	u32 perm;
};

struct vsb_vq {
	struct vsb_dev *vsb;
	u16 index;
	bool ready;
	u32 num;
	u64 desc_addr;
	u64 driver_addr;
	u64 device_addr;
	/*
	 * Where the ring starts when the queue is (re)enabled, as
	 * vsb_ring_set_base() takes it; unset since reset: a fresh ring.
	 */
	u32 base;
	bool base_set;
	struct vdpa_callback cb;
	struct vsb_ring ring;
	struct vsb_chain chain;
	/* notification coalescing, as the CVQ last set it for this queue */
	struct vsb_coal coal;
	struct vsb_coal_state coal_state;
	/*
	 * The address space as of translation generation tlb_gen, and the
	 * recent look-ups in it (start > last: an empty entry).
	 */
	u32 asid;
	bool passthrough;
	struct vsb_tlb_entry tlb[VSB_TLB_CACHE];
	unsigned int tlb_next;
	u64 tlb_gen;
	/*
	 * Q: ring pages pinned as of tlb_gen, whether pinning failed since
	 * (then the user copy serves the rest), and whether every ring area
	 * is reached in place (ring.mem.direct)
	 */
	struct vsb_pin pins[VSB_PINS];
	unsigned int nr_pins;
	bool pin_failed;
	bool ring_direct;
};

/*
 * An address space's translations, as set_map last gave them: sorted by
 * start, disjoint (vhost_vdpa refuses overlaps), searched by bisection.
 * Built whole, with one sleeping allocation, then swapped in.
 */
struct vsb_map_table {
	u32 nmaps;
	struct vsb_tlb_entry maps[] __counted_by(nmaps);
};

struct vsb_as {
	/* NULL: no map */
	struct vsb_map_table *table;
	/* no map since create or CLEAN_MAP: guest physical == device address */
	bool passthrough;
};

/* What one run of the data path moves frames between, and counts. */
struct vsb_data_run {
	u16 pairs; /* in force: the first pairs queue pairs */
	struct vsb_loopback_rxq rxq[VSB_MAX_VQP];
	struct vsb_loopback_stats stats[VSB_MAX_VQP];
	struct vsb_vq *bad; /* a queue the driver broke */
};

/* Counts of values in power-of-two buckets, as the netlink family sends. */
struct vsb_hist {
	u64 bucket[VSB_HIST_BUCKETS];
};

/*
 * Counters per control class: the classes numbered without a gap, then
 * coalescing, statistics queries, and every other class.
 */
#define VSB_CVQ_SLOT_COAL VSB_CVQ_CLASSES
#define VSB_CVQ_SLOT_STATS (VSB_CVQ_CLASSES + 1)
#define VSB_CVQ_SLOT_OTHER (VSB_CVQ_CLASSES + 2)
#define VSB_CVQ_SLOTS (VSB_CVQ_CLASSES + 3)

struct vsb_cvq_stats {
	u64 work_runs;
	u64 requests;
	u64 successes;
	u64 errors;
	u64 batches;
	u64 notifications;
	u64 redundant;
	u64 filter_updates;
	/* per control class, in the slots above */
	u64 class_requests[VSB_CVQ_SLOTS];
	u64 class_errors[VSB_CVQ_SLOTS];
	/* the cost model: operations that paid, what they asked, took */
	u64 cost_ops;
	u64 cost_ns;
	u64 cost_real_ns;
	/* runs of the CVQ to their last publish, less the cost paid */
	u64 cvq_busy_ns;
	/* commands a fault rule acted on */
	u64 faults;
	struct vsb_hist cmds_per_batch;
	struct vsb_hist cmd_ns;
	struct vsb_hist kick_ns;
	struct vsb_hist cost_hist_ns;
	struct vsb_hist cost_real_hist_ns;
};

/*
 * Locking. A run of the queues reaches guest memory, where a page fault
 * may wait on the owner's mmap_lock or never complete (a userfaultfd or
 * FUSE page nobody serves). So two mutexes, taken in this order:
 *
 * queue_lock (Q) is held by a run of the queues, and by the driver's ops
 * that change what the queues are; those ops wait for a run in progress,
 * as a driver's must. Nothing else takes it: not set_map (which
 * vhost_vdpa calls under mmap_lock), not the config reads, not vdpa's or
 * this module's netlink requests. A run never sleeps in a page fault
 * with Q held: it reaches guest memory with page faults disabled, and
 * faults a page in with Q dropped ("parked", vsb_mem.c), and sleeps for
 * the cost model likewise (vsb_run.c), so that reset,
 * set_status and set_features -- which vdpa core calls holding its
 * cf_lock for write, which every "vdpa dev config show" and, through
 * vdpa_dev_lock, every "vdpa dev add/del" then waits for -- never wait
 * for a fault. The ops that would pull ring state from under a parked
 * run (enable, vring state, suspend, resume) wait until it comes back;
 * one that finds the device reset or stopped when it comes back is
 * abandoned: it touches guest memory no more.
 *
 * lock (L) guards what those others read or change. It is held only
 * briefly, never across guest memory access, never while waiting for Q;
 * a run takes it between accesses (to apply a command, count, publish
 * state).
 *
 * "Q+L": written holding both, so either is enough to read. Config space:
 * config_lock. Kick hand-off: atomics and barriers (vsb_kick()). The kick
 * hint: kick_hint_lock, innermost and irq-safe, taken under Q, under L and
 * under the kick eventfd's wait-queue lock (vsb_kick_hint.c). List node
 * and genl_id: vsb_devices_lock.
 */
struct vsb_dev {
	struct vdpa_device vdpa;
	/* Q: a run of the queues, and the ops that change them */
	struct mutex queue_lock;
	/* L: what management and set_map read or change; never held long */
	struct mutex lock;

	/* Q+L */
	u64 features;
	u8 status;
	bool suspended;
	struct mm_struct *mm;
	u32 group_asid[VSB_NGROUPS];
	/* bumped by a reset and a new owner: what a parked run checks */
	u64 reset_gen;

	/*
	 * Q: a run parked in a page fault or the cost model's sleep, with Q
	 * dropped; and its waiters
	 */
	bool parked;
	wait_queue_head_t park_wq;
	/* a run paying the cost model: woken by a new reset_gen, or dying */
	wait_queue_head_t cost_wq;
	/* Q: this run came back to a changed device and must stop */
	bool run_abandoned;
	/* Q+L: a fault rule stalled the CVQ; it is served again after reset */
	bool cvq_stalled;

	/* Q: the queues and what only a run uses */
	struct vsb_vq vqs[VSB_MAX_NVQS];
	struct vsb_cvq_scratch cvq_scratch;
	/* CVQ commands checked in batch mode, their acks not yet written */
	struct vsb_cvq_group cvq_group;
	/* what the data path filters with, updated once per CVQ batch */
	struct vsb_rx_filter rx_filter;
	/* and steers and hashes with, likewise (ctrl.rss as of then) */
	struct vsb_rss rx_rss;
	struct vsb_data_run data_run;
	u8 *frame;

	/* L */
	enum vsb_completion completion;
	u32 batch_limit;
	struct vsb_cost cost;
	struct vsb_fault_rules fault_rules;
	/* some rule is set: a run reads it without L (vsb_faults_changed) */
	bool faults_armed;
	u8 provisioned_mac[ETH_ALEN];
	struct vsb_net_ctrl ctrl;
	/* "vdpactl-batch dev link DEV down": kept across device resets */
	bool link_down;
	/* a config interrupt held back while suspended, sent on resume */
	bool config_owed;
	/* VSB_CTRL_CHANGED_* the receive filter has not caught up with */
	u32 filter_stale;
	struct vsb_as as[VSB_NAS];
	struct vdpa_callback config_cb;
	struct vsb_cvq_stats cvq_stats;
	/* pair i: receive queue 2i, transmit queue 2i + 1 */
	struct vsb_loopback_stats lb_stats[VSB_MAX_VQP];
	/*
	 * Written under L, read by a run without it (vsb_vq_as()): bumped
	 * whenever a translation may change. 64 bits: a queue left idle
	 * through 2^32 changes must not take its stale look-ups for current.
	 */
	atomic64_t map_gen;

	/* set at creation */
	u64 supported_features;
	/* how long the worker waits for the next kick before sleeping */
	u32 kick_poll_ns;
	/* kicks off while the CVQ is served or watched */
	bool suppress_kicks;
	/* and the first kick of a sleeping worker asks for that itself */
	bool kick_hint_on;
	/* batch mode publishes a run's first command before the rest */
	bool lead_notify;
	u16 mtu;
	/* The largest ring the device takes, a power of two. */
	u16 queue_size;
	u16 max_vqp;
	u32 nvqs;

	/* config_lock: the config space, so reading it never waits */
	spinlock_t config_lock;
	struct virtio_net_config config;
	u32 generation;

	atomic64_t cvq_kicks;
	/*
	 * Per queue index below nvqs: kicks, and used buffer notifications
	 * sent. Every index: where the CVQ is depends on the features, so
	 * the driver may kick any queue but the CVQ's as a data queue.
	 */
	atomic64_t vq_kicks[VSB_MAX_NVQS];
	atomic64_t vq_interrupts[VSB_MAX_NVQS];
	/* when the first CVQ kick not yet served came, 0 if none */
	atomic64_t cvq_kick_ns;
	/* a kick not yet served; a worker polling for kicks takes it */
	atomic_t kicked;
	bool polling;
	/*
	 * kick_hint_lock: the CVQ's used->flags as a user address of
	 * kick_hint_mm, shared by a run for the next CVQ kick to write
	 * VRING_USED_F_NO_NOTIFY to; NULL when none is. See vsb_kick_hint.c.
	 */
	spinlock_t kick_hint_lock;
	__le16 __user *kick_hint;
	struct mm_struct *kick_hint_mm;
	struct work_struct work;
	/* runs the work when the earliest coalesced notification is due */
	struct hrtimer coal_timer;
	/* set in vsb_free(): nothing may queue the work or arm the timer */
	bool dying;
	/* on the netlink family's device list, in the order of genl_id */
	struct list_head node;
	/* set when added to the list, never reused: where dumps resume */
	unsigned long genl_id;
};

static inline struct vsb_dev *vdpa_to_vsb(struct vdpa_device *vdpa)
{
	return container_of(vdpa, struct vsb_dev, vdpa);
}

/* Runs device work that cannot be done in the kicking context. */
extern struct workqueue_struct *vsb_wq;
/* Test hook (module parameter map_gen_step): see vsb_maps_changed(). */
extern unsigned long vsb_map_gen_step;
extern const struct vdpa_config_ops vsb_config_ops;

/* Per-device settings, taken from the module parameters at creation. */
struct vsb_dev_params {
	enum vsb_completion completion;
	u32 batch_limit;
	struct vsb_cost cost;
	u32 kick_poll_ns;
	bool suppress_kicks;
	bool kick_hint;
	bool lead_notify;
	u16 queue_size;
	u16 max_vqp;
};

int vsb_dev_init(struct vsb_dev *vsb, const struct vdpa_dev_set_config *cfg,
		 const struct vsb_dev_params *params);

/* Features: Q or L held. */
/* The fault rules changed (L held): a run looks for them from now on. */
static inline void vsb_faults_changed(struct vsb_dev *vsb)
{
	lockdep_assert_held(&vsb->lock);
	WRITE_ONCE(vsb->faults_armed, vsb->fault_rules.count != 0);
}

static inline u16 vsb_cvq_index(const struct vsb_dev *vsb)
{
	return 2 * vsb_net_pairs(vsb->features, vsb->max_vqp);
}

/* Q or L held. */
static inline bool vsb_running(const struct vsb_dev *vsb)
{
	return (vsb->status & VIRTIO_CONFIG_S_DRIVER_OK) &&
	       !(vsb->status & VIRTIO_CONFIG_S_NEEDS_RESET) && !vsb->suspended;
}

void vsb_dev_set_mac(struct vsb_dev *vsb, const u8 *mac);

/* vsb_config.c: the config space the driver reads; L held */
void vsb_config_changed(struct vsb_dev *vsb);
void vsb_sync_config(struct vsb_dev *vsb);
int vsb_set_link(struct vsb_dev *vsb, bool up, struct netlink_ext_ack *extack);
int vsb_announce(struct vsb_dev *vsb, struct netlink_ext_ack *extack);

/* The counters' slot of a command class (struct vsb_cvq_stats). */
static inline unsigned int vsb_cvq_slot(u8 class)
{
	if (class < VSB_CVQ_CLASSES)
		return class;
	if (class == VSB_CTRL_NOTF_COAL)
		return VSB_CVQ_SLOT_COAL;
	if (class == VSB_CTRL_STATS)
		return VSB_CVQ_SLOT_STATS;
	return VSB_CVQ_SLOT_OTHER;
}

/* Count a command, L held. Inline: a few additions, per command. */
static inline void vsb_count_command(struct vsb_cvq_stats *stats,
				     const struct vsb_cvq_result *res)
{
	unsigned int class = vsb_cvq_slot(res->class);
	bool ok = !res->fault && res->ack == VIRTIO_NET_OK;

	stats->requests++;
	stats->class_requests[class]++;
	stats->redundant += res->redundant;
	if (ok) {
		stats->successes++;
	} else {
		stats->errors++;
		stats->class_errors[class]++;
	}
}

/* vsb_stats.c: the counters; L held */
void vsb_hist_add(struct vsb_hist *hist, u64 value, u64 count);
void vsb_add_lb_stats(struct vsb_loopback_stats *sum,
		      const struct vsb_loopback_stats *run);
void vsb_reset_stats(struct vsb_dev *vsb);
void vsb_zero_vq_counters(struct vsb_dev *vsb);
void vsb_devstats_snapshot(struct vsb_dev *vsb, struct vsb_devstats *stats);
int vsb_fill_genl_stats(struct vsb_dev *vsb, struct sk_buff *msg);
/* takes L itself */
int vsb_fill_vq_stats(struct vsb_dev *vsb, u16 idx, struct sk_buff *msg,
		      struct netlink_ext_ack *extack);

/* vsb_genl.c: the netlink family and its device list */
int vsb_genl_register(void);
void vsb_genl_unregister(void);
void vsb_genl_add_dev(struct vsb_dev *vsb);
void vsb_genl_del_dev(struct vsb_dev *vsb);

/* vsb_run.c: serving the queues */
void vsb_schedule(struct vsb_dev *vsb);
void vsb_kick(struct vsb_dev *vsb);
enum hrtimer_restart vsb_coal_timer(struct hrtimer *timer);
void vsb_work(struct work_struct *work);

/* vsb_kick_hint.c: no more CVQ kicks, asked for by the kick itself */
void vsb_kick_hint_share(struct vsb_dev *vsb, struct vsb_vq *cvq);
void vsb_kick_hint_forget(struct vsb_dev *vsb);
void vsb_kick_hint(struct vsb_dev *vsb);

/* vsb_park.c: a run that waits, parked */
void vsb_run_lock(struct vsb_dev *vsb);
u64 vsb_park(struct vsb_dev *vsb);
bool vsb_unpark(struct vsb_dev *vsb, u64 gen);

/* vsb_mem.c: guest memory */
bool vsb_vq_nothing_mapped(struct vsb_vq *vq);
struct vsb_map_table *vsb_map_table_build(struct vhost_iotlb *iotlb);
void __user *vsb_vq_user_ptr(struct vsb_vq *vq, u64 addr, u32 len);
void vsb_maps_changed(struct vsb_dev *vsb);

/* vsb_pin.c: ring pages reached through the kernel's mapping */
int vsb_vq_pin(struct vsb_vq *vq, const struct vsb_tlb_entry *map, u64 addr);
void vsb_vq_unpin(struct vsb_vq *vq);
void vsb_unpin_all(struct vsb_dev *vsb);

#endif /* VSB_H */
