/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The device's data path: every frame the driver transmits comes back on
 * the receive queue if the receive filter takes it. Kernel-free.
 */
#ifndef VSB_LOOPBACK_H
#define VSB_LOOPBACK_H

#include "vsb_port.h"
#include "vsb_ring.h"
#include "vsb_filter.h"

/* virtio_net_hdr_v1: VERSION_1 is required, so this is the only size. */
#define VSB_NET_HDR_LEN 12

struct vsb_loopback_stats {
	u64 rx_packets;
	u64 rx_bytes;
	u64 rx_errors; /* frame larger than the receive buffer */
	u64 rx_overruns; /* no receive buffer */
	u64 rx_drops; /* refused by the receive filter */
	u64 tx_packets;
	u64 tx_bytes;
	u64 tx_errors; /* shorter than header and MAC, or over buf_len */
	u64 tx_drops;
};

struct vsb_loopback {
	struct vsb_ring *tx;
	struct vsb_ring *rx;
	struct vsb_chain *tx_chain;
	struct vsb_chain *rx_chain;
	u8 *buf; /* one frame with its header: buf_len bytes of room */
	/*
	 * The longest frame the device takes, header included: with
	 * VIRTIO_NET_F_MTU, the header, an Ethernet header, a VLAN tag and
	 * the MTU offered. A longer one is a transmit error, not truncated.
	 */
	u32 buf_len;
	const struct vsb_rx_filter *filter;
	struct vsb_loopback_stats *stats;
};

int vsb_loopback_run(struct vsb_loopback *lb, unsigned int budget);

#endif /* VSB_LOOPBACK_H */
