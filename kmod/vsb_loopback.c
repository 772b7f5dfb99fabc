// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loopback data path: transmit queue to receive queue through one bounce
 * buffer, like stock vdpa_sim_net, except that a frame that does not fit
 * is counted and dropped rather than truncated, and a transmit buffer is
 * always given back, whatever happens on the receive side.
 */

#include "vsb_loopback.h"

/* Deliver the frame in lb->buf to the next receive buffer. */
static int vsb_loopback_deliver(struct vsb_loopback *lb, u32 len)
{
	struct vsb_chain *rxc = lb->rx_chain;
	int ret;

	ret = vsb_ring_pop(lb->rx, rxc);
	if (ret < 0) {
		vsb_ring_return_chain(lb->rx, rxc);
		return ret;
	}
	if (!ret) {
		lb->stats->rx_overruns++;
		return 0;
	}
	if (rxc->in_len < len) {
		lb->stats->rx_errors++;
		return vsb_ring_push(lb->rx, rxc->head, 0);
	}
	if (vsb_chain_write(lb->rx, rxc, 0, lb->buf, len)) {
		lb->rx->fault = VSB_FAULT_BUFFER_ACCESS;
		vsb_ring_return_chain(lb->rx, rxc);
		return -EIO;
	}
	lb->stats->rx_packets++;
	lb->stats->rx_bytes += len - VSB_NET_HDR_LEN;
	return vsb_ring_push(lb->rx, rxc->head, len);
}

/* Move one transmitted frame; 1 if there was one, 0 if not, -EIO. */
static int vsb_loopback_one(struct vsb_loopback *lb)
{
	struct vsb_chain *txc = lb->tx_chain;
	u32 len;
	int ret;

	ret = vsb_ring_pop(lb->tx, txc);
	if (ret <= 0) {
		vsb_ring_return_chain(lb->tx, txc);
		return ret;
	}
	len = txc->out_len;
	if (len < VSB_NET_HDR_LEN + ETH_ALEN || len > lb->buf_len) {
		lb->stats->tx_errors++;
		return vsb_ring_push(lb->tx, txc->head, 0) ?: 1;
	}
	if (vsb_chain_read(lb->tx, txc, 0, lb->buf, len)) {
		lb->tx->fault = VSB_FAULT_BUFFER_ACCESS;
		vsb_ring_return_chain(lb->tx, txc);
		return -EIO;
	}
	lb->stats->tx_packets++;
	lb->stats->tx_bytes += len - VSB_NET_HDR_LEN;
	ret = vsb_ring_push(lb->tx, txc->head, 0);
	if (ret)
		return ret;

	if (!vsb_rx_filter_accepts(lb->filter, lb->buf + VSB_NET_HDR_LEN,
				   len - VSB_NET_HDR_LEN)) {
		lb->stats->rx_drops++;
		return 1;
	}
	/*
	 * No offloads are offered, so the receive header is all zero but
	 * for num_buffers, which is 1 without MRG_RXBUF.
	 */
	memset(lb->buf, 0, VSB_NET_HDR_LEN);
	put_unaligned_le16(1, lb->buf + offsetof(struct virtio_net_hdr_v1,
						 num_buffers));
	ret = vsb_loopback_deliver(lb, len);
	return ret ?: 1;
}

/**
 * vsb_loopback_run - move up to @budget frames from tx to rx
 * @lb: the data path
 * @budget: most frames to move, so one busy queue cannot hog the device
 *
 * The caller publishes both rings and notifies afterwards.
 *
 * Return: frames moved, or -EIO with the failing ring's fault set.
 */
int vsb_loopback_run(struct vsb_loopback *lb, unsigned int budget)
{
	unsigned int done = 0;
	int ret;

	/* The receive ring is popped only when a frame comes: start it now. */
	if (vsb_ring_start(lb->rx))
		return -EIO;
	while (done < budget) {
		ret = vsb_loopback_one(lb);
		if (ret < 0)
			return ret;
		if (!ret)
			break;
		done++;
	}
	return done;
}
