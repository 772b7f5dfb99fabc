// SPDX-License-Identifier: GPL-2.0-only
/*
 * Feature dependencies from the network device's "Feature bit
 * requirements": a device that offers, or a driver that accepts, a
 * feature without the one it needs gets it refused (at "vdpa dev add",
 * and by FEATURES_OK not sticking).
 */

#include "vsb_coal.h"
#include "vsb_devstats.h"
#include "vsb_features.h"

#define VSB_F(bit) BIT_ULL(VIRTIO_NET_F_##bit)

static const struct {
	u8 bit;
	u64 needs_one_of;
} vsb_feature_deps[] = {
	{ VIRTIO_NET_F_GUEST_TSO4, VSB_F(GUEST_CSUM) },
	{ VIRTIO_NET_F_GUEST_TSO6, VSB_F(GUEST_CSUM) },
	{ VIRTIO_NET_F_GUEST_ECN, VSB_F(GUEST_TSO4) | VSB_F(GUEST_TSO6) },
	{ VIRTIO_NET_F_GUEST_UFO, VSB_F(GUEST_CSUM) },
	{ VIRTIO_NET_F_HOST_TSO4, VSB_F(CSUM) },
	{ VIRTIO_NET_F_HOST_TSO6, VSB_F(CSUM) },
	{ VIRTIO_NET_F_HOST_ECN, VSB_F(HOST_TSO4) | VSB_F(HOST_TSO6) },
	{ VIRTIO_NET_F_HOST_UFO, VSB_F(CSUM) },
	{ VIRTIO_NET_F_CTRL_RX, VSB_F(CTRL_VQ) },
	{ VIRTIO_NET_F_CTRL_VLAN, VSB_F(CTRL_VQ) },
	{ VIRTIO_NET_F_GUEST_ANNOUNCE, VSB_F(CTRL_VQ) },
	{ VIRTIO_NET_F_MQ, VSB_F(CTRL_VQ) },
	{ VIRTIO_NET_F_CTRL_MAC_ADDR, VSB_F(CTRL_VQ) },
	{ VIRTIO_NET_F_CTRL_RX_EXTRA, VSB_F(CTRL_RX) },
	{ VIRTIO_NET_F_CTRL_GUEST_OFFLOADS, VSB_F(CTRL_VQ) },
	{ VIRTIO_NET_F_RSS, VSB_F(CTRL_VQ) },
	{ VIRTIO_NET_F_NOTF_COAL, VSB_F(CTRL_VQ) },
	{ VSB_NET_F_VQ_NOTF_COAL, VSB_F(CTRL_VQ) },
	{ VSB_NET_F_DEVICE_STATS, VSB_F(CTRL_VQ) },
};

int vsb_features_unmet(u64 features)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vsb_feature_deps); i++)
		if ((features & BIT_ULL(vsb_feature_deps[i].bit)) &&
		    !(features & vsb_feature_deps[i].needs_one_of))
			return vsb_feature_deps[i].bit;
	return -1;
}
