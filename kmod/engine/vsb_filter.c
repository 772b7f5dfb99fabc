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

/* Table entries are packed 6 bytes apart: most are not 2-byte aligned. */
static bool vsb_in_table(const struct vsb_mac_table *table, const u8 *addr)
{
	u32 i;

	for (i = 0; i < table->count; i++)
		if (ether_addr_equal_unaligned(table->addr[i], addr))
			return true;
	return false;
}

static bool vsb_vlan_accepts(const struct vsb_rx_filter *filter,
			     const u8 *frame, u32 len)
{
	const struct ethhdr *eth = (const struct ethhdr *)frame;
	u16 vid;

	if (len < ETH_HLEN + 2 ||
	    get_unaligned_be16(&eth->h_proto) != ETH_P_8021Q)
		return true;
	vid = get_unaligned_be16(frame + ETH_HLEN) & (VSB_VLAN_IDS - 1);
	return filter->vlans[vid / 64] & BIT_ULL(vid % 64);
}

static void vsb_copy_table(struct vsb_mac_table *dst,
			   const struct vsb_mac_table *src)
{
	dst->count = src->count;
	dst->overflow = src->overflow;
	memcpy(dst->addr, src->addr, src->count * ETH_ALEN);
}

/**
 * vsb_rx_filter_update - copy the parts of the control state that changed
 * @filter: the filter
 * @ctrl: the control state
 * @changed: VSB_CTRL_CHANGED_* of what changed since the last update
 *
 * Only what changed is copied: a MAC_ADDR_SET copies the address, not the
 * MAC and VLAN tables, which are far larger, and string copies are slow
 * where the CPU is emulated.
 */
void vsb_rx_filter_update(struct vsb_rx_filter *filter,
			  const struct vsb_net_ctrl *ctrl, u32 changed)
{
	if (changed & VSB_CTRL_CHANGED_MAC)
		memcpy(filter->mac, ctrl->mac, ETH_ALEN);
	if (changed & VSB_CTRL_CHANGED_RX_MODES)
		filter->rx = ctrl->rx;
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
 * @frame: the Ethernet frame (no virtio-net header), 2-byte aligned as
 *	is_broadcast_ether_addr() needs
 * @len: its length, at least the 6 bytes of the destination
 */
bool vsb_rx_filter_accepts(const struct vsb_rx_filter *filter, const u8 *frame,
			   u32 len)
{
	const u8 *dest = frame;
	bool multicast = is_multicast_ether_addr(dest);

	if (!filter->ctrl_rx)
		return multicast ||
		       ether_addr_equal_unaligned(dest, filter->mac);
	if (filter->rx.promisc)
		return true;
	if (filter->ctrl_vlan && !vsb_vlan_accepts(filter, frame, len))
		return false;
	if (is_broadcast_ether_addr(dest))
		return !filter->rx.nobcast;
	if (multicast) {
		if (filter->rx.nomulti)
			return false;
		return filter->rx.allmulti || filter->multi.overflow ||
		       vsb_in_table(&filter->multi, dest);
	}
	if (filter->rx.nouni)
		return false;
	return filter->rx.alluni || filter->uni.overflow ||
	       ether_addr_equal_unaligned(dest, filter->mac) ||
	       vsb_in_table(&filter->uni, dest);
}
