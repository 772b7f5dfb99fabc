// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdpa_sim_batch: the receive filter in force.
 *
 * Programming the filter builds a new one from the control state and
 * publishes it with RCU; the data path looks it up for each frame. A frame
 * is so filtered either wholly by the old filter or wholly by the new
 * one, whoever serves the data path and whatever locks it holds.
 * Publishing happens once per control-queue batch, before the batch's
 * used entries: by the time the driver sees a command acked, frames are
 * filtered as it said.
 */

#include <linux/slab.h>

#include "vsb.h"

static void vsb_swap_rx_filter(struct vsb_dev *vsb,
			       struct vsb_rx_filter_rcu *filter)
{
	struct vsb_rx_filter_rcu *old;

	old = rcu_replace_pointer(vsb->rx_filter, filter,
				  lockdep_is_held(&vsb->lock));
	if (old)
		kfree_rcu(old, rcu);
}

/* Build a filter from the control state and put it in force. */
int vsb_publish_rx_filter(struct vsb_dev *vsb)
{
	struct vsb_rx_filter_rcu *filter;

	lockdep_assert_held(&vsb->lock);
	filter = kmalloc(sizeof(*filter), GFP_KERNEL);
	if (!filter)
		return -ENOMEM;
	vsb_rx_filter_build(&filter->filter, &vsb->ctrl, vsb->features);
	vsb_swap_rx_filter(vsb, filter);
	vsb->cvq_stats.filter_updates++;
	return 0;
}

/* No filter: the device is not running and takes no frame. */
void vsb_clear_rx_filter(struct vsb_dev *vsb)
{
	vsb_swap_rx_filter(vsb, NULL);
}

/* struct vsb_loopback's rx_accepts: @priv is the device. */
bool vsb_rx_accepts(const void *priv, const u8 *frame, u32 len)
{
	const struct vsb_dev *vsb = priv;
	const struct vsb_rx_filter_rcu *filter;
	bool accepts;

	rcu_read_lock();
	filter = rcu_dereference(vsb->rx_filter);
	accepts = filter && vsb_rx_filter_accepts(&filter->filter, frame, len);
	rcu_read_unlock();
	return accepts;
}
