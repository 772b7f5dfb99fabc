/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The receive filter the control queue programs. Kernel-free.
 *
 * The filter is the data path's own copy of what the control state says
 * about receiving. The module brings it up to date once per control-queue
 * batch, only for the parts the batch changed, and never while the data
 * path runs (see vsb_run.c).
 */
#ifndef VSB_FILTER_H
#define VSB_FILTER_H

#include "vsb_seam.h"
#include "vsb_cvq.h"

struct vsb_rx_filter {
	bool ctrl_rx; /* CTRL_RX negotiated: the modes and tables apply */
	bool ctrl_vlan; /* CTRL_VLAN negotiated: the VLAN table applies */
	struct vsb_rx_mode rx;
	u8 mac[ETH_ALEN];
	struct vsb_mac_table uni;
	struct vsb_mac_table multi;
	u64 vlans[VSB_VLAN_IDS / 64];
};

void vsb_rx_filter_build(struct vsb_rx_filter *filter,
			 const struct vsb_net_ctrl *ctrl, u64 features);
void vsb_rx_filter_update(struct vsb_rx_filter *filter,
			  const struct vsb_net_ctrl *ctrl, u32 changed);
bool vsb_rx_filter_accepts(const struct vsb_rx_filter *filter, const u8 *frame,
			   u32 len);

#endif /* VSB_FILTER_H */
