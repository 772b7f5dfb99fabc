/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Device statistics through the control queue (VIRTIO_NET_F_DEVICE_STATS,
 * class VIRTIO_NET_CTRL_STATS): which counters the device offers, the
 * check of a query, and its answer. Kernel-free.
 *
 * The wire format is declared here from the spec ("Device Statistics"),
 * not taken from <linux/virtio_net.h>: the host unit tests build against
 * the oldest UAPI headers we support (6.1), which predate it. The module
 * build checks these against the kernel's own definitions.
 */
#ifndef VSB_DEVSTATS_H
#define VSB_DEVSTATS_H

#include "vsb_net.h"
#include "vsb_seam.h"

struct vsb_cvq_cmd;

#define VSB_NET_F_DEVICE_STATS 50

#define VSB_CTRL_STATS 8
#define VSB_CTRL_STATS_QUERY 0
#define VSB_CTRL_STATS_GET 1

/* Statistics types: a bit each in a types bitmap, its number in a reply. */
#define VSB_STATS_REPLY_RX_BASIC 0
#define VSB_STATS_REPLY_TX_BASIC 16
#define VSB_STATS_REPLY_CVQ 32
#define VSB_STATS_TYPE_RX_BASIC BIT_ULL(VSB_STATS_REPLY_RX_BASIC)
#define VSB_STATS_TYPE_TX_BASIC BIT_ULL(VSB_STATS_REPLY_TX_BASIC)
#define VSB_STATS_TYPE_CVQ BIT_ULL(VSB_STATS_REPLY_CVQ)

/* The types this device answers, each for the one kind of queue it fits. */
#define VSB_STATS_SUPPORTED \
	(VSB_STATS_TYPE_RX_BASIC | VSB_STATS_TYPE_TX_BASIC | VSB_STATS_TYPE_CVQ)

/* struct virtio_net_ctrl_queue_stats: one entry per queue asked about. */
#define VSB_STATS_REQ_LEN 16
/* struct virtio_net_stats_reply_hdr, and a reply's counters after it */
#define VSB_STATS_HDR_LEN 8
#define VSB_STATS_CVQ_COUNTERS 2
#define VSB_STATS_BASIC_COUNTERS 6
#define VSB_STATS_REPLY_MAX (VSB_STATS_HDR_LEN + 8 * VSB_STATS_BASIC_COUNTERS)

/*
 * Entries a STATS_GET may carry: one per queue the device can have. A
 * driver has no reason to ask twice about a queue in one command; one that
 * asks more often than there are queues is answered VIRTIO_NET_ERR.
 */
#define VSB_STATS_REQ_MAX (2 * VSB_NET_MAX_PAIRS + 1)

/*
 * A data queue's basic counters (virtio_net_stats_rx_basic and _tx_basic),
 * in the spec's order.
 */
struct vsb_devstats_queue {
	u64 notifications; /* driver to device: kicks */
	u64 packets;
	u64 bytes;
	u64 interrupts; /* device to driver: used buffer notifications */
	u64 drops;
	u64 drops_detail; /* receive: no buffer; transmit: malformed */
};

/*
 * The counters an answer reports, copied from the device's at one moment
 * under its lock, so that the answer is consistent and is written to guest
 * memory without the lock.
 */
struct vsb_devstats {
	struct vsb_devstats_queue rx[VSB_NET_MAX_PAIRS];
	struct vsb_devstats_queue tx[VSB_NET_MAX_PAIRS];
	u64 cvq_commands;
	u64 cvq_ok;
};

/* A checked STATS_GET: what to answer, in the driver's order. */
struct vsb_devstats_req {
	u32 entries;
	struct {
		u16 vq;
		u64 types;
	} entry[VSB_STATS_REQ_MAX];
};

int vsb_devstats_check(const struct vsb_cvq_cmd *c,
		       struct vsb_devstats_req *req, u32 *reply_len);
int vsb_devstats_reply(const struct vsb_cvq_cmd *c,
		       const struct vsb_devstats_req *req,
		       const struct vsb_devstats *stats);

#endif /* VSB_DEVSTATS_H */
