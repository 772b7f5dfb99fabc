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

struct vsb_feature_dep {
	u8 bit;
	u64 needs_one_of;
};

static const struct vsb_feature_dep vsb_feature_deps[] = {
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

/*
 * What the device offers only with another, beyond the spec's MUSTs:
 * virtio 1.3 says a driver SHOULD take CTRL_VQ with HASH_REPORT (1.2 had
 * no rule, so a driver that does not is accepted), but without the CVQ
 * nothing can enable a hash type and no hash is ever reported; Linux's
 * virtio_net refuses such a device.
 */
static const struct vsb_feature_dep vsb_offer_deps[] = {
	{ VIRTIO_NET_F_HASH_REPORT, VSB_F(CTRL_VQ) },
};

static int vsb_deps_unmet(const struct vsb_feature_dep *deps, unsigned int n,
			  u64 features)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if ((features & BIT_ULL(deps[i].bit)) &&
		    !(features & deps[i].needs_one_of))
			return deps[i].bit;
	return -1;
}

int vsb_features_unmet(u64 features)
{
	return vsb_deps_unmet(vsb_feature_deps, ARRAY_SIZE(vsb_feature_deps),
			      features);
}

int vsb_features_offer_unmet(u64 features)
{
	int unmet = vsb_features_unmet(features);

	if (unmet >= 0)
		return unmet;
	return vsb_deps_unmet(vsb_offer_deps, ARRAY_SIZE(vsb_offer_deps),
			      features);
}
