// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device's counters: per queue as vDPA vendor statistics, so that
 * "vdpa dev vstats show DEV qidx N" prints them with no tool of our own
 * (the receive and transmit names are stock vdpa_sim_net's), and the
 * control path's counters and histograms for the module's netlink family.
 */

#include <linux/nospec.h>
#include <net/netlink.h>
#include <uapi/linux/vdpa.h>

#include "vsb.h"

struct vsb_stat {
	const char *name;
	u64 value;
};

static int vsb_put_stats(struct sk_buff *msg, const struct vsb_stat *stats,
			 unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (nla_put_string(msg, VDPA_ATTR_DEV_VENDOR_ATTR_NAME,
				   stats[i].name) ||
		    nla_put_u64_64bit(msg, VDPA_ATTR_DEV_VENDOR_ATTR_VALUE,
				      stats[i].value, VDPA_ATTR_PAD))
			return -EMSGSIZE;
	}
	return 0;
}

/* Requests and errors of every control class, named as in the spec. */
static int vsb_put_class_stats(struct sk_buff *msg,
			       const struct vsb_cvq_stats *cvq)
{
	static const char *const names[VSB_CVQ_SLOTS][2] = {
		[VIRTIO_NET_CTRL_RX] = { "cvq rx requests", "cvq rx errors" },
		[VIRTIO_NET_CTRL_MAC] = { "cvq mac requests",
					  "cvq mac errors" },
		[VIRTIO_NET_CTRL_VLAN] = { "cvq vlan requests",
					   "cvq vlan errors" },
		[VIRTIO_NET_CTRL_ANNOUNCE] = { "cvq announce requests",
					       "cvq announce errors" },
		[VIRTIO_NET_CTRL_MQ] = { "cvq mq requests", "cvq mq errors" },
		[VIRTIO_NET_CTRL_GUEST_OFFLOADS] = { "cvq offloads requests",
						     "cvq offloads errors" },
		[VSB_CVQ_SLOT_COAL] = { "cvq coal requests",
					"cvq coal errors" },
		[VSB_CVQ_SLOT_STATS] = { "cvq stats requests",
					 "cvq stats errors" },
		[VSB_CVQ_SLOT_OTHER] = { "cvq other requests",
					 "cvq other errors" },
	};
	struct vsb_stat stats[2];
	unsigned int i;
	int ret;

	for (i = 0; i < VSB_CVQ_SLOTS; i++) {
		stats[0].name = names[i][0];
		stats[0].value = cvq->class_requests[i];
		stats[1].name = names[i][1];
		stats[1].value = cvq->class_errors[i];
		ret = vsb_put_stats(msg, stats, ARRAY_SIZE(stats));
		if (ret)
			return ret;
	}
	return 0;
}

static int vsb_put_cvq_stats(struct vsb_dev *vsb, struct sk_buff *msg)
{
	const struct vsb_cvq_stats *cvq = &vsb->cvq_stats;
	const struct vsb_stat stats[] = {
		{ "cvq requests", cvq->requests },
		{ "cvq successes", cvq->successes },
		{ "cvq errors", cvq->errors },
		{ "cvq batches", cvq->batches },
		{ "cvq notifications", cvq->notifications },
		{ "cvq redundant", cvq->redundant },
		{ "cvq kicks", atomic64_read(&vsb->cvq_kicks) },
	};

	return vsb_put_stats(msg, stats, ARRAY_SIZE(stats)) ?:
		       vsb_put_class_stats(msg, cvq);
}

static int vsb_put_rx_stats(struct vsb_dev *vsb, u16 idx, struct sk_buff *msg)
{
	const struct vsb_loopback_stats *lb = &vsb->lb_stats[idx / 2];
	const struct vsb_stat stats[] = {
		{ "rx packets", lb->rx_packets },
		{ "rx bytes", lb->rx_bytes },
		{ "rx errors", lb->rx_errors },
		{ "rx overruns", lb->rx_overruns },
		{ "rx drops", lb->rx_drops },
		{ "rx kicks", atomic64_read(&vsb->vq_kicks[idx]) },
		{ "rx interrupts", atomic64_read(&vsb->vq_interrupts[idx]) },
	};

	return vsb_put_stats(msg, stats, ARRAY_SIZE(stats));
}

static int vsb_put_tx_stats(struct vsb_dev *vsb, u16 idx, struct sk_buff *msg)
{
	const struct vsb_loopback_stats *lb = &vsb->lb_stats[idx / 2];
	const struct vsb_stat stats[] = {
		{ "tx packets", lb->tx_packets },
		{ "tx bytes", lb->tx_bytes },
		{ "tx errors", lb->tx_errors },
		{ "tx drops", lb->tx_drops },
		{ "tx kicks", atomic64_read(&vsb->vq_kicks[idx]) },
		{ "tx interrupts", atomic64_read(&vsb->vq_interrupts[idx]) },
	};

	return vsb_put_stats(msg, stats, ARRAY_SIZE(stats));
}

/* Queue @idx: the CVQ, or the receive (even) or transmit queue of a pair. */
int vsb_fill_vq_stats(struct vsb_dev *vsb, u16 idx, struct sk_buff *msg,
		      struct netlink_ext_ack *extack)
{
	int ret;

	mutex_lock(&vsb->lock);
	if (idx == vsb_cvq_index(vsb)) {
		ret = vsb_put_cvq_stats(vsb, msg);
	} else if (idx < 2 * vsb->max_vqp) {
		/* A user's number: no speculative read past the queues. */
		idx = array_index_nospec(idx, 2 * vsb->max_vqp);
		ret = idx % 2 ? vsb_put_tx_stats(vsb, idx, msg) :
				vsb_put_rx_stats(vsb, idx, msg);
	} else {
		NL_SET_ERR_MSG_MOD(extack, "no such queue");
		ret = -EINVAL;
	}
	mutex_unlock(&vsb->lock);
	return ret;
}

/*
 * A data path run counts into a struct of its own, touching guest memory
 * meanwhile; the sum is what readers see, under vsb->lock.
 */
void vsb_add_lb_stats(struct vsb_loopback_stats *sum,
		      const struct vsb_loopback_stats *run)
{
	sum->rx_packets += run->rx_packets;
	sum->rx_bytes += run->rx_bytes;
	sum->rx_errors += run->rx_errors;
	sum->rx_overruns += run->rx_overruns;
	sum->rx_drops += run->rx_drops;
	sum->tx_packets += run->tx_packets;
	sum->tx_bytes += run->tx_bytes;
	sum->tx_errors += run->tx_errors;
	sum->tx_drops += run->tx_drops;
}

/* Count @count values of @value: bucket fls64(value), the last one open. */
void vsb_hist_add(struct vsb_hist *hist, u64 value, u64 count)
{
	unsigned int bucket =
		min_t(unsigned int, fls64(value), VSB_HIST_BUCKETS - 1);

	hist->bucket[bucket] += count;
}

void vsb_reset_stats(struct vsb_dev *vsb)
{
	lockdep_assert_held(&vsb->lock);
	memset(&vsb->cvq_stats, 0, sizeof(vsb->cvq_stats));
	memset(vsb->lb_stats, 0, sizeof(vsb->lb_stats));
	vsb_zero_vq_counters(vsb);
}

void vsb_zero_vq_counters(struct vsb_dev *vsb)
{
	unsigned int i;

	atomic64_set(&vsb->cvq_kicks, 0);
	for (i = 0; i < ARRAY_SIZE(vsb->vq_kicks); i++) {
		atomic64_set(&vsb->vq_kicks[i], 0);
		atomic64_set(&vsb->vq_interrupts[i], 0);
	}
}

/*
 * What a statistics query through the CVQ reports (vsb_devstats.c): the
 * counters "vdpa dev vstats show" prints, at one moment, so both views
 * agree. Bytes are without the virtio-net header, as the loopback counts
 * them. A receive drop is a frame that found no buffer or did not fit one
 * (frames the receive filter refuses never reach a queue); a transmit drop
 * a malformed frame, or one dropped while the link was down.
 */
void vsb_devstats_snapshot(struct vsb_dev *vsb, struct vsb_devstats *stats)
{
	const struct vsb_loopback_stats *lb;
	struct vsb_devstats_queue *q;
	unsigned int i;

	lockdep_assert_held(&vsb->lock);
	for (i = 0; i < vsb->max_vqp; i++) {
		lb = &vsb->lb_stats[i];
		q = &stats->rx[i];
		q->notifications = atomic64_read(&vsb->vq_kicks[2 * i]);
		q->packets = lb->rx_packets;
		q->bytes = lb->rx_bytes;
		q->interrupts = atomic64_read(&vsb->vq_interrupts[2 * i]);
		q->drops = lb->rx_overruns + lb->rx_errors;
		q->drops_detail = lb->rx_overruns;
		q = &stats->tx[i];
		q->notifications = atomic64_read(&vsb->vq_kicks[2 * i + 1]);
		q->packets = lb->tx_packets;
		q->bytes = lb->tx_bytes;
		q->interrupts = atomic64_read(&vsb->vq_interrupts[2 * i + 1]);
		q->drops = lb->tx_errors + lb->tx_drops;
		q->drops_detail = lb->tx_errors;
	}
	stats->cvq_commands = vsb->cvq_stats.requests;
	stats->cvq_ok = vsb->cvq_stats.successes;
}

static int vsb_put_hist(struct sk_buff *msg, int type,
			const struct vsb_hist *hist)
{
	struct nlattr *nest = nla_nest_start(msg, type);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < VSB_HIST_BUCKETS; i++) {
		if (nla_put_u64_64bit(msg, VSB_HIST_BUCKET, hist->bucket[i],
				      VSB_HIST_PAD)) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, nest);
	return 0;
}

/* VSB_A_STATS and the histograms, for VSB_CMD_STATS_GET. */
int vsb_fill_genl_stats(struct vsb_dev *vsb, struct sk_buff *msg)
{
	const struct vsb_cvq_stats *cvq = &vsb->cvq_stats;
	const struct {
		int type;
		u64 value;
	} counters[] = {
		{ VSB_STAT_KICKS, atomic64_read(&vsb->cvq_kicks) },
		{ VSB_STAT_WORK_RUNS, cvq->work_runs },
		{ VSB_STAT_COMMANDS, cvq->requests },
		{ VSB_STAT_OK, cvq->successes },
		{ VSB_STAT_ERRORS, cvq->errors },
		{ VSB_STAT_BATCHES, cvq->batches },
		{ VSB_STAT_NOTIFICATIONS, cvq->notifications },
		{ VSB_STAT_REDUNDANT, cvq->redundant },
		{ VSB_STAT_FILTER_UPDATES, cvq->filter_updates },
		{ VSB_STAT_COST_OPS, cvq->cost_ops },
		{ VSB_STAT_COST_NS, cvq->cost_ns },
		{ VSB_STAT_COST_REAL_NS, cvq->cost_real_ns },
		{ VSB_STAT_CVQ_BUSY_NS, cvq->cvq_busy_ns },
		{ VSB_STAT_FAULTS, cvq->faults },
	};
	struct nlattr *nest;
	unsigned int i;

	lockdep_assert_held(&vsb->lock);
	nest = nla_nest_start(msg, VSB_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		if (nla_put_u64_64bit(msg, counters[i].type, counters[i].value,
				      VSB_STAT_PAD)) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, nest);
	if (vsb_put_hist(msg, VSB_A_HIST_CMDS_PER_BATCH,
			 &cvq->cmds_per_batch) ||
	    vsb_put_hist(msg, VSB_A_HIST_CMD_NS, &cvq->cmd_ns) ||
	    vsb_put_hist(msg, VSB_A_HIST_KICK_NS, &cvq->kick_ns) ||
	    vsb_put_hist(msg, VSB_A_HIST_COST_NS, &cvq->cost_hist_ns) ||
	    vsb_put_hist(msg, VSB_A_HIST_COST_REAL_NS, &cvq->cost_real_hist_ns))
		return -EMSGSIZE;
	return 0;
}
