// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device statistics through the control queue ("Device Statistics").
 *
 * STATS_QUERY carries no data and is answered with the supported types
 * (one le64 bitmap). STATS_GET carries { le16 vq_index; le16 reserved[3];
 * le64 types_bitmap; } per queue and is answered, after the ack, with one
 * reply per type asked, in the order of the entries and, within an entry,
 * of the type bits: a { u8 type; u8 reserved; le16 vq_index;
 * le16 reserved; le16 size; } header and the type's le64 counters.
 *
 * Answered VIRTIO_NET_ERR, with nothing written but the ack: data of the
 * wrong size, a queue the device does not have, a type it does not
 * support or that does not fit the queue (receive types on a transmit
 * queue), and writable buffers too small for the whole answer -- a driver
 * walks the replies by their size fields, so a partial answer would send
 * it into memory the device never wrote.
 *
 * The counters are the module's (vsb_devstats_snapshot()), taken before
 * the command: a STATS_GET does not count itself among the control
 * commands it reports.
 */

#include "vsb_cvq.h"

#define VSB_STATS_CVQ_LEN (VSB_STATS_HDR_LEN + 8 * VSB_STATS_CVQ_COUNTERS)
#define VSB_STATS_BASIC_LEN (VSB_STATS_HDR_LEN + 8 * VSB_STATS_BASIC_COUNTERS)

#ifdef __KERNEL__
/* The spec's numbers, as the kernel's UAPI has them. */
static_assert(VSB_NET_F_DEVICE_STATS == VIRTIO_NET_F_DEVICE_STATS);
static_assert(VSB_CTRL_STATS == VIRTIO_NET_CTRL_STATS);
static_assert(VSB_CTRL_STATS_QUERY == VIRTIO_NET_CTRL_STATS_QUERY);
static_assert(VSB_CTRL_STATS_GET == VIRTIO_NET_CTRL_STATS_GET);
static_assert(VSB_STATS_TYPE_CVQ == VIRTIO_NET_STATS_TYPE_CVQ);
static_assert(VSB_STATS_TYPE_RX_BASIC == VIRTIO_NET_STATS_TYPE_RX_BASIC);
static_assert(VSB_STATS_TYPE_TX_BASIC == VIRTIO_NET_STATS_TYPE_TX_BASIC);
static_assert(sizeof(struct virtio_net_ctrl_queue_stats) == VSB_STATS_REQ_LEN);
static_assert(sizeof(struct virtio_net_stats_reply_hdr) == VSB_STATS_HDR_LEN);
static_assert(sizeof(struct virtio_net_stats_cvq) == VSB_STATS_CVQ_LEN);
static_assert(sizeof(struct virtio_net_stats_rx_basic) == VSB_STATS_BASIC_LEN);
static_assert(sizeof(struct virtio_net_stats_tx_basic) == VSB_STATS_BASIC_LEN);
#endif

/* The types that fit queue @vq; -EINVAL for a queue the device lacks. */
static int vsb_devstats_types(const struct vsb_cvq_cmd *c, u16 vq, u64 *types)
{
	u16 cvq = 2 * vsb_cvq_pairs(c);

	if (vq > cvq)
		return -EINVAL;
	if (vq == cvq)
		*types = VSB_STATS_TYPE_CVQ;
	else
		*types = vq % 2 ? VSB_STATS_TYPE_TX_BASIC :
				  VSB_STATS_TYPE_RX_BASIC;
	return 0;
}

static u32 vsb_devstats_len(u64 type)
{
	return type == VSB_STATS_TYPE_CVQ ? VSB_STATS_CVQ_LEN :
					    VSB_STATS_BASIC_LEN;
}

/**
 * vsb_devstats_check - check a STATS command, and keep what it asks
 * @c: the command (class VIRTIO_NET_CTRL_STATS, DEVICE_STATS negotiated)
 * @req: where a STATS_GET's entries go
 * @reply_len: the answer's length, after the ack
 *
 * Return: 0, -EINVAL to answer VIRTIO_NET_ERR, -EFAULT if the command
 * could not be read.
 */
int vsb_devstats_check(const struct vsb_cvq_cmd *c,
		       struct vsb_devstats_req *req, u32 *reply_len)
{
	u8 raw[VSB_STATS_REQ_LEN];
	u32 i, len = 0;
	u64 types, fits;
	u16 vq;

	switch (c->cmd) {
	case VSB_CTRL_STATS_QUERY:
		if (c->len)
			return -EINVAL;
		len = sizeof(__le64);
		break;
	case VSB_CTRL_STATS_GET:
		if (c->len % VSB_STATS_REQ_LEN ||
		    c->len / VSB_STATS_REQ_LEN > VSB_STATS_REQ_MAX)
			return -EINVAL;
		req->entries = c->len / VSB_STATS_REQ_LEN;
		for (i = 0; i < req->entries; i++) {
			if (vsb_cvq_read_data(c, i * VSB_STATS_REQ_LEN, raw,
					      sizeof(raw)))
				return -EFAULT;
			vq = get_unaligned_le16(raw);
			types = get_unaligned_le64(raw + 8);
			if (vsb_devstats_types(c, vq, &fits) || types & ~fits)
				return -EINVAL;
			req->entry[i].vq = vq;
			req->entry[i].types = types;
			/*
			 * A queue has one type at most: no overflow, and
			 * vsb_devstats_reply() writes one reply per entry.
			 */
			if (types)
				len += vsb_devstats_len(types);
		}
		break;
	default:
		return -EINVAL;
	}
	/* The ack comes first in the writable buffers. */
	if (c->chain->in_len - 1 < len)
		return -EINVAL;
	*reply_len = len;
	return 0;
}

static u32 vsb_devstats_fill(u8 *buf, u64 type, u16 vq,
			     const struct vsb_devstats *stats)
{
	const struct vsb_devstats_queue *q;
	u64 counters[VSB_STATS_BASIC_COUNTERS];
	u32 len = vsb_devstats_len(type);
	unsigned int i, n = VSB_STATS_BASIC_COUNTERS;

	memset(buf, 0, VSB_STATS_HDR_LEN);
	if (type == VSB_STATS_TYPE_CVQ) {
		buf[0] = VSB_STATS_REPLY_CVQ;
		counters[0] = stats->cvq_commands;
		counters[1] = stats->cvq_ok;
		n = VSB_STATS_CVQ_COUNTERS;
	} else {
		buf[0] = type == VSB_STATS_TYPE_RX_BASIC ?
				 VSB_STATS_REPLY_RX_BASIC :
				 VSB_STATS_REPLY_TX_BASIC;
		q = vq % 2 ? &stats->tx[vq / 2] : &stats->rx[vq / 2];
		counters[0] = q->notifications;
		counters[1] = q->packets;
		counters[2] = q->bytes;
		counters[3] = q->interrupts;
		counters[4] = q->drops;
		counters[5] = q->drops_detail;
	}
	put_unaligned_le16(vq, buf + 2);
	put_unaligned_le16(len, buf + 6);
	for (i = 0; i < n; i++)
		put_unaligned_le64(counters[i],
				   buf + VSB_STATS_HDR_LEN + 8 * i);
	return len;
}

/**
 * vsb_devstats_reply - write the answer to a checked STATS command
 * @c: the command, as vsb_devstats_check() passed it
 * @req: the entries it kept
 * @stats: the counters to report
 *
 * Return: 0, or -EFAULT if guest memory could not be written.
 */
int vsb_devstats_reply(const struct vsb_cvq_cmd *c,
		       const struct vsb_devstats_req *req,
		       const struct vsb_devstats *stats)
{
	u8 buf[VSB_STATS_REPLY_MAX];
	u32 i, len, off = 1;

	if (c->cmd == VSB_CTRL_STATS_QUERY) {
		put_unaligned_le64(VSB_STATS_SUPPORTED, buf);
		return vsb_chain_write(c->ring, c->chain, off, buf,
				       sizeof(__le64));
	}
	for (i = 0; i < req->entries; i++) {
		if (!req->entry[i].types)
			continue;
		len = vsb_devstats_fill(buf, req->entry[i].types,
					req->entry[i].vq, stats);
		if (vsb_chain_write(c->ring, c->chain, off, buf, len))
			return -EFAULT;
		off += len;
	}
	return 0;
}
