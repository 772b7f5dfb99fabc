/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The network device's feature dependencies (virtio 1.x, "Feature bits"
 * of the network device: a feature that needs another). Kernel-free.
 */
#ifndef VSB_FEATURES_H
#define VSB_FEATURES_H

#include "vsb_seam.h"

/*
 * What the device cannot work without: the little-endian (modern) layout,
 * and addresses that always go through its maps.
 */
#define VSB_FEATURES_REQUIRED \
	(BIT_ULL(VIRTIO_F_VERSION_1) | BIT_ULL(VIRTIO_F_ACCESS_PLATFORM))

/*
 * Return: -1 if every feature in @features has what it depends on, else
 * the number of the first feature bit that does not.
 */
int vsb_features_unmet(u64 features);
/*
 * The same for what a device offers, with the dependencies the device
 * keeps to itself on top.
 */
int vsb_features_offer_unmet(u64 features);

/* A feature set the device can run with: required bits, dependencies. */
static inline bool vsb_features_usable(u64 features)
{
	return (features & VSB_FEATURES_REQUIRED) == VSB_FEATURES_REQUIRED &&
	       vsb_features_unmet(features) < 0;
}

/*
 * The queue pairs a driver that accepted @features has: max_virtqueue_pairs
 * with MQ *or* RSS ("Device configuration layout"; Linux's virtnet_probe
 * and QEMU read it the same way), else one. Every decision that depends on
 * how many pairs exist goes through here, the control queue's index (2 *
 * pairs) first: a driver may take RSS and decline MQ.
 */
static inline u16 vsb_net_pairs(u64 features, u16 max_vqp)
{
	if (features & (BIT_ULL(VIRTIO_NET_F_MQ) | BIT_ULL(VIRTIO_NET_F_RSS)))
		return max_vqp;
	return 1;
}

#endif /* VSB_FEATURES_H */
