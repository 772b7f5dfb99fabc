/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The device's data path: every frame the driver transmits comes back on
 * a receive queue if the receive filter takes it -- its own pair's, or
 * the one RSS steers it to. Kernel-free.
 */
#ifndef VSB_LOOPBACK_H
#define VSB_LOOPBACK_H

#include "vsb_seam.h"
#include "vsb_ring.h"
#include "vsb_filter.h"
#include "vsb_rss.h"

/*
 * The header before every frame, both ways: virtio_net_hdr_v1 (VERSION_1
 * is required), virtio_net_hdr_v1_hash with HASH_REPORT.
 */
#define VSB_NET_HDR_MAX VSB_NET_HDR_HASH_LEN

static inline u32 vsb_net_hdr_len(u64 features)
{
	return features & BIT_ULL(VIRTIO_NET_F_HASH_REPORT) ?
		       VSB_NET_HDR_HASH_LEN :
		       VSB_NET_HDR_V1_LEN;
}

struct vsb_loopback_stats {
	u64 rx_packets;
	u64 rx_bytes;
	u64 rx_errors; /* frame larger than the receive buffer */
	u64 rx_overruns; /* no receive buffer */
	/* refused by the receive filter, or steered to a queue not ready */
	u64 rx_drops;
	u64 tx_packets;
	u64 tx_bytes;
	u64 tx_errors; /* shorter than header and MAC, or over buf_len */
	u64 tx_drops; /* sent while the link was down */
};

/* A receive queue a frame can go to. */
struct vsb_loopback_rxq {
	struct vsb_ring *ring; /* NULL: the queue is not ready */
	struct vsb_chain *chain;
	struct vsb_loopback_stats *stats; /* its pair's */
};

struct vsb_loopback {
	struct vsb_ring *tx;
	struct vsb_chain *tx_chain;
	struct vsb_loopback_stats *stats; /* the transmit queue's pair's */
	/*
	 * The receive queues by number (pair), nr_rxq of them: without RSS
	 * steering a frame goes to rxq[pair], the transmit queue's pair.
	 */
	struct vsb_loopback_rxq *rxq;
	u16 nr_rxq;
	u16 pair;
	u8 *buf; /* one frame with its header: buf_len bytes of room */
	/*
	 * The longest frame the device takes, header included: with
	 * VIRTIO_NET_F_MTU, the header, an Ethernet header, a VLAN tag and
	 * the MTU offered. A longer one is a transmit error, not truncated.
	 */
	u32 buf_len;
	u32 hdr_len; /* vsb_net_hdr_len() of the negotiated features */
	const struct vsb_rx_filter *filter;
	/* NULL: neither RSS steering nor hash reports */
	const struct vsb_rss *rss;
	bool hash_report; /* HASH_REPORT negotiated: fill in the hash */
	bool link_down; /* transmitted frames go nowhere (tx_drops) */
};

int vsb_loopback_run(struct vsb_loopback *lb, unsigned int budget);

#endif /* VSB_LOOPBACK_H */
