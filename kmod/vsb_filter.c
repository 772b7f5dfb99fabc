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

static bool vsb_vlan_accepts(const struct vsb_net_ctrl *ctrl, const u8 *frame,
			     u32 len)
{
	u16 vid;

	if (len < VSB_ETH_HLEN + 2 ||
	    (frame[12] << 8 | frame[13]) != VSB_ETH_P_8021Q)
		return true;
	vid = (frame[14] << 8 | frame[15]) & (VSB_VLAN_IDS - 1);
	return ctrl->vlans[vid / 64] & BIT_ULL(vid % 64);
}

/**
 * vsb_rx_filter_accepts - whether the driver receives a frame
 * @ctrl: the control state
 * @features: the negotiated features
 * @frame: the Ethernet frame (no virtio-net header)
 * @len: its length, at least the 6 bytes of the destination
 */
bool vsb_rx_filter_accepts(const struct vsb_net_ctrl *ctrl, u64 features,
			   const u8 *frame, u32 len)
{
	const u8 *dest = frame;
	bool multicast = dest[0] & 1;

	if (!(features & BIT_ULL(VIRTIO_NET_F_CTRL_RX)))
		return multicast || !memcmp(dest, ctrl->mac, VSB_ETH_ALEN);
	if (ctrl->promisc)
		return true;
	if ((features & BIT_ULL(VIRTIO_NET_F_CTRL_VLAN)) &&
	    !vsb_vlan_accepts(ctrl, frame, len))
		return false;
	if (vsb_is_broadcast(dest))
		return !ctrl->nobcast;
	if (multicast) {
		if (ctrl->nomulti)
			return false;
		return ctrl->allmulti || ctrl->multi.overflow ||
		       vsb_in_table(&ctrl->multi, dest);
	}
	if (ctrl->nouni)
		return false;
	return ctrl->alluni || ctrl->uni.overflow ||
	       !memcmp(dest, ctrl->mac, VSB_ETH_ALEN) ||
	       vsb_in_table(&ctrl->uni, dest);
}
