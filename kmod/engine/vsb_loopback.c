// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loopback data path: transmit queue to receive queue through one bounce
 * buffer, like stock vdpa_sim_net, except that a frame that does not fit
 * is counted and dropped rather than truncated, and a transmit buffer is
 * always given back, whatever happens on the receive side. With RSS
 * steering on, a frame from any transmit queue goes to the receive queue
 * its hash selects; the receive filter is the same for all of them.
 */

#include "vsb_loopback.h"

/* Deliver the frame in lb->buf to the next receive buffer of @rxq. */
static int vsb_loopback_deliver(struct vsb_loopback *lb,
				struct vsb_loopback_rxq *rxq, u32 len)
{
	struct vsb_chain *rxc = rxq->chain;
	struct vsb_ring *rx = rxq->ring;
	int ret;

	if (vsb_ring_start(rx))
		return -EIO;
	ret = vsb_ring_pop(rx, rxc);
	if (ret < 0) {
		vsb_ring_return_chain(rx, rxc);
		return ret;
	}
	if (!ret) {
		rxq->stats->rx_overruns++;
		return 0;
	}
	if (rxc->in_len < len) {
		rxq->stats->rx_errors++;
		return vsb_ring_push(rx, rxc->head, 0);
	}
	if (vsb_chain_write(rx, rxc, 0, lb->buf, len)) {
		rx->fault = VSB_FAULT_BUFFER_ACCESS;
		vsb_ring_return_chain(rx, rxc);
		return -EIO;
	}
	rxq->stats->rx_packets++;
	rxq->stats->rx_bytes += len - lb->hdr_len;
	return vsb_ring_push(rx, rxc->head, len);
}

/*
 * The receive header, over the transmit one in lb->buf. No offloads are
 * offered, so it is all zero but for num_buffers, which is 1 without
 * MRG_RXBUF, and with HASH_REPORT the hash.
 */
static void vsb_loopback_rx_hdr(struct vsb_loopback *lb,
				const struct vsb_rss_hash *hash)
{
	memset(lb->buf, 0, lb->hdr_len);
	put_unaligned_le16(1, lb->buf + offsetof(struct virtio_net_hdr_v1,
						 num_buffers));
	if (!lb->hash_report)
		return;
	put_unaligned_le32(hash->value, lb->buf + VSB_HDR_HASH_VALUE);
	put_unaligned_le16(hash->report, lb->buf + VSB_HDR_HASH_REPORT);
}

/* Move one transmitted frame; 1 if there was one, 0 if not, -EIO. */
static int vsb_loopback_one(struct vsb_loopback *lb)
{
	struct vsb_chain *txc = lb->tx_chain;
	struct vsb_rss_hash hash = { 0, VIRTIO_NET_HASH_REPORT_NONE };
	struct vsb_loopback_rxq *rxq;
	const u8 *frame = lb->buf + lb->hdr_len;
	u16 target = lb->pair;
	u32 len, frame_len;
	int ret;

	ret = vsb_ring_pop(lb->tx, txc);
	if (ret <= 0) {
		vsb_ring_return_chain(lb->tx, txc);
		return ret;
	}
	len = txc->out_len;
	if (len < lb->hdr_len + ETH_ALEN || len > lb->buf_len) {
		lb->stats->tx_errors++;
		return vsb_ring_push(lb->tx, txc->head, 0) ?: 1;
	}
	if (lb->link_down) {
		lb->stats->tx_drops++;
		return vsb_ring_push(lb->tx, txc->head, 0) ?: 1;
	}
	if (vsb_chain_read(lb->tx, txc, 0, lb->buf, len)) {
		lb->tx->fault = VSB_FAULT_BUFFER_ACCESS;
		vsb_ring_return_chain(lb->tx, txc);
		return -EIO;
	}
	frame_len = len - lb->hdr_len;
	lb->stats->tx_packets++;
	lb->stats->tx_bytes += frame_len;
	ret = vsb_ring_push(lb->tx, txc->head, 0);
	if (ret)
		return ret;

	if (lb->rss) {
		vsb_rss_hash_frame(lb->rss, frame, frame_len, &hash);
		if (lb->rss->steering)
			target = vsb_rss_queue(lb->rss, &hash);
	}
	/* The CVQ checked every queue number against the pairs in force. */
	if (target >= lb->nr_rxq)
		target = lb->pair;
	rxq = &lb->rxq[target];
	/* "If the destination receive queue is being reset", dropped. */
	if (!rxq->ring ||
	    !vsb_rx_filter_accepts(lb->filter, frame, frame_len)) {
		rxq->stats->rx_drops++;
		return 1;
	}
	vsb_loopback_rx_hdr(lb, &hash);
	ret = vsb_loopback_deliver(lb, rxq, len);
	return ret ?: 1;
}

/**
 * vsb_loopback_run - move up to @budget frames from tx to rx
 * @lb: the data path
 * @budget: most frames to move, so one busy queue cannot hog the device
 *
 * The caller publishes both rings and notifies afterwards.
 *
 * Return: frames moved, or -EIO with the failing ring's fault set (the
 * transmit ring's or a receive ring's).
 */
int vsb_loopback_run(struct vsb_loopback *lb, unsigned int budget)
{
	unsigned int done = 0;
	int ret;

	/*
	 * A receive ring is popped only when a frame comes: start the pair's
	 * own now (any other when a frame is steered there).
	 */
	if (lb->rxq[lb->pair].ring && vsb_ring_start(lb->rxq[lb->pair].ring))
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
