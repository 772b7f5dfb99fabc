// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-queue counters as vDPA vendor statistics, so that
 * "vdpa dev vstats show DEV qidx N" prints them with no tool of our own.
 * The receive and transmit names are stock vdpa_sim_net's.
 */

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

int vsb_fill_vq_stats(struct vsb_dev *vsb, u16 idx, struct sk_buff *msg,
		      struct netlink_ext_ack *extack)
{
	const struct vsb_loopback_stats *lb = &vsb->lb_stats;
	const struct vsb_cvq_stats *cvq = &vsb->cvq_stats;
	int ret;

	mutex_lock(&vsb->lock);
	if (idx == vsb_cvq_index(vsb)) {
		const struct vsb_stat stats[] = {
			{ "cvq requests", cvq->requests },
			{ "cvq successes", cvq->successes },
			{ "cvq errors", cvq->errors },
			{ "cvq batches", cvq->batches },
			{ "cvq notifications", cvq->notifications },
			{ "cvq kicks", atomic64_read(&vsb->cvq_kicks) },
		};

		ret = vsb_put_stats(msg, stats, ARRAY_SIZE(stats));
	} else if (idx == 0) {
		const struct vsb_stat stats[] = {
			{ "rx packets", lb->rx_packets },
			{ "rx bytes", lb->rx_bytes },
			{ "rx errors", lb->rx_errors },
			{ "rx overruns", lb->rx_overruns },
			{ "rx drops", lb->rx_drops },
		};

		ret = vsb_put_stats(msg, stats, ARRAY_SIZE(stats));
	} else if (idx == 1) {
		const struct vsb_stat stats[] = {
			{ "tx packets", lb->tx_packets },
			{ "tx bytes", lb->tx_bytes },
			{ "tx errors", lb->tx_errors },
			{ "tx drops", lb->tx_drops },
		};

		ret = vsb_put_stats(msg, stats, ARRAY_SIZE(stats));
	} else {
		NL_SET_ERR_MSG_MOD(extack, "no such queue");
		ret = -EINVAL;
	}
	mutex_unlock(&vsb->lock);
	return ret;
}
