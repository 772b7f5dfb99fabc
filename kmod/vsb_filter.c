// SPDX-License-Identifier: GPL-2.0-only
/*
 * Receive filter: which looped-back frames the driver gets, from the state
 * the control queue set. The order follows QEMU's virtio-net, which
 * drivers are tested against: promiscuous mode takes everything; then,
 * with CTRL_VLAN, a tagged frame needs its VLAN id in the table; then
 * broadcast (unless NOBCAST), multicast (NOMULTI, ALLMULTI or the table)
 * and unicast (NOUNI, ALLUNI, the device MAC or the table). A table that
 * overflowed matches everything of its kind. Without CTRL_RX the device
 * takes multicast and its own MAC, like stock vdpa_sim_net.
 */

#include "vsb_filter.h"

#define VSB_ETH_HLEN 14
#define VSB_ETH_P_8021Q 0x8100

static bool vsb_in_table(const struct vsb_mac_table *table, const u8 *addr)
{
	u32 i;

	for (i = 0; i < table->count; i++)
		if (!memcmp(table->addr[i], addr, VSB_ETH_ALEN))
			return true;
	return false;
}

static bool vsb_is_broadcast(const u8 *addr)
{
	static const u8 bcast[VSB_ETH_ALEN] = { 0xff, 0xff, 0xff,
						0xff, 0xff, 0xff };

	return !memcmp(addr, bcast, VSB_ETH_ALEN);
}

static bool vsb_vlan_accepts(const struct vsb_rx_filter *filter,
			     const u8 *frame, u32 len)
{
	u16 vid;

	if (len < VSB_ETH_HLEN + 2 ||
	    (frame[12] << 8 | frame[13]) != VSB_ETH_P_8021Q)
		return true;
	vid = (frame[14] << 8 | frame[15]) & (VSB_VLAN_IDS - 1);
	return filter->vlans[vid / 64] & BIT_ULL(vid % 64);
}

static void vsb_copy_table(struct vsb_mac_table *dst,
			   const struct vsb_mac_table *src)
{
	dst->count = src->count;
	dst->overflow = src->overflow;
	memcpy(dst->addr, src->addr, src->count * VSB_ETH_ALEN);
}

/**
 * vsb_rx_filter_update - copy the parts of the control state that changed
 * @filter: the filter
 * @ctrl: the control state
 * @changed: VSB_CTRL_CHANGED_* of what changed since the last update
 *
 * Only what changed is copied: a MAC_ADDR_SET costs 6 bytes, not the 1.3 KB
 * of tables (string copies are slow where they are emulated, as in TCG).
 */
void vsb_rx_filter_update(struct vsb_rx_filter *filter,
			  const struct vsb_net_ctrl *ctrl, u32 changed)
{
	if (changed & VSB_CTRL_CHANGED_MAC)
		memcpy(filter->mac, ctrl->mac, VSB_ETH_ALEN);
	if (changed & VSB_CTRL_CHANGED_RX_MODES) {
		filter->promisc = ctrl->promisc;
		filter->allmulti = ctrl->allmulti;
		filter->alluni = ctrl->alluni;
		filter->nomulti = ctrl->nomulti;
		filter->nouni = ctrl->nouni;
		filter->nobcast = ctrl->nobcast;
	}
	if (changed & VSB_CTRL_CHANGED_MAC_TABLE) {
		vsb_copy_table(&filter->uni, &ctrl->uni);
		vsb_copy_table(&filter->multi, &ctrl->multi);
	}
	if (changed & VSB_CTRL_CHANGED_VLANS)
		memcpy(filter->vlans, ctrl->vlans, sizeof(filter->vlans));
}

/**
 * vsb_rx_filter_build - a filter from the whole control state
 * @filter: the filter to fill
 * @ctrl: the control state
 * @features: the negotiated features
 */
void vsb_rx_filter_build(struct vsb_rx_filter *filter,
			 const struct vsb_net_ctrl *ctrl, u64 features)
{
	filter->ctrl_rx = features & BIT_ULL(VIRTIO_NET_F_CTRL_RX);
	filter->ctrl_vlan = features & BIT_ULL(VIRTIO_NET_F_CTRL_VLAN);
	vsb_rx_filter_update(filter, ctrl, VSB_CTRL_CHANGED_FILTER);
}

/**
 * vsb_rx_filter_accepts - whether the driver receives a frame
 * @filter: the filter in force
 * @frame: the Ethernet frame (no virtio-net header)
 * @len: its length, at least the 6 bytes of the destination
 */
bool vsb_rx_filter_accepts(const struct vsb_rx_filter *filter, const u8 *frame,
			   u32 len)
{
	const u8 *dest = frame;
	bool multicast = dest[0] & 1;

	if (!filter->ctrl_rx)
		return multicast || !memcmp(dest, filter->mac, VSB_ETH_ALEN);
	if (filter->promisc)
		return true;
	if (filter->ctrl_vlan && !vsb_vlan_accepts(filter, frame, len))
		return false;
	if (vsb_is_broadcast(dest))
		return !filter->nobcast;
	if (multicast) {
		if (filter->nomulti)
			return false;
		return filter->allmulti || filter->multi.overflow ||
		       vsb_in_table(&filter->multi, dest);
	}
	if (filter->nouni)
		return false;
	return filter->alluni || filter->uni.overflow ||
	       !memcmp(dest, filter->mac, VSB_ETH_ALEN) ||
	       vsb_in_table(&filter->uni, dest);
}
