// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * virtio-net feature bits: their names, the spec's feature bit
 * requirements and where the control queue sits.
 */
#include <errno.h>
#include <string.h>

#include "lib/compat.h"
#include "lib/net_features.h"
#include "lib/util.h"

static const char *const net_feature_names[64] = {
	[VIRTIO_NET_F_CSUM] = "CSUM",
	[VIRTIO_NET_F_GUEST_CSUM] = "GUEST_CSUM",
	[VIRTIO_NET_F_CTRL_GUEST_OFFLOADS] = "CTRL_GUEST_OFFLOADS",
	[VIRTIO_NET_F_MTU] = "MTU",
	[VIRTIO_NET_F_MAC] = "MAC",
	[VIRTIO_NET_F_GUEST_TSO4] = "GUEST_TSO4",
	[VIRTIO_NET_F_GUEST_TSO6] = "GUEST_TSO6",
	[VIRTIO_NET_F_GUEST_ECN] = "GUEST_ECN",
	[VIRTIO_NET_F_GUEST_UFO] = "GUEST_UFO",
	[VIRTIO_NET_F_HOST_TSO4] = "HOST_TSO4",
	[VIRTIO_NET_F_HOST_TSO6] = "HOST_TSO6",
	[VIRTIO_NET_F_HOST_ECN] = "HOST_ECN",
	[VIRTIO_NET_F_HOST_UFO] = "HOST_UFO",
	[VIRTIO_NET_F_MRG_RXBUF] = "MRG_RXBUF",
	[VIRTIO_NET_F_STATUS] = "STATUS",
	[VIRTIO_NET_F_CTRL_VQ] = "CTRL_VQ",
	[VIRTIO_NET_F_CTRL_RX] = "CTRL_RX",
	[VIRTIO_NET_F_CTRL_VLAN] = "CTRL_VLAN",
	[VIRTIO_NET_F_CTRL_RX_EXTRA] = "CTRL_RX_EXTRA",
	[VIRTIO_NET_F_GUEST_ANNOUNCE] = "GUEST_ANNOUNCE",
	[VIRTIO_NET_F_MQ] = "MQ",
	[VIRTIO_F_NOTIFY_ON_EMPTY] = "NOTIFY_ON_EMPTY",
	[VIRTIO_NET_F_CTRL_MAC_ADDR] = "CTRL_MAC_ADDR",
	[VIRTIO_F_ANY_LAYOUT] = "ANY_LAYOUT",
	[VIRTIO_RING_F_INDIRECT_DESC] = "RING_INDIRECT_DESC",
	[VIRTIO_RING_F_EVENT_IDX] = "RING_EVENT_IDX",
	[VIRTIO_F_VERSION_1] = "VERSION_1",
	[VIRTIO_F_ACCESS_PLATFORM] = "ACCESS_PLATFORM",
	[VIRTIO_F_RING_PACKED] = "RING_PACKED",
	[VIRTIO_F_IN_ORDER] = "IN_ORDER",
	[VIRTIO_F_ORDER_PLATFORM] = "ORDER_PLATFORM",
	[VIRTIO_F_SR_IOV] = "SR_IOV",
	[VIRTIO_F_NOTIFICATION_DATA] = "NOTIFICATION_DATA",
	[VIRTIO_NET_F_VQ_NOTF_COAL] = "VQ_NOTF_COAL",
	[VIRTIO_NET_F_NOTF_COAL] = "NOTF_COAL",
	[VIRTIO_NET_F_RSC_EXT] = "RSC_EXT",
	[VIRTIO_NET_F_HASH_REPORT] = "HASH_REPORT",
	[VIRTIO_NET_F_RSS] = "RSS",
	[VIRTIO_NET_F_STANDBY] = "STANDBY",
	[VIRTIO_NET_F_SPEED_DUPLEX] = "SPEED_DUPLEX",
};

static const char *const backend_feature_names[64] = {
	[VHOST_BACKEND_F_IOTLB_MSG_V2] = "IOTLB_MSG_V2",
	[VHOST_BACKEND_F_IOTLB_BATCH] = "IOTLB_BATCH",
	[VHOST_BACKEND_F_IOTLB_ASID] = "IOTLB_ASID",
	[VHOST_BACKEND_F_SUSPEND] = "SUSPEND",
	[VHOST_BACKEND_F_RESUME] = "RESUME",
	[VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK] = "ENABLE_AFTER_DRIVER_OK",
	[VHOST_BACKEND_F_DESC_ASID] = "DESC_ASID",
	[VHOST_BACKEND_F_IOTLB_PERSIST] = "IOTLB_PERSIST",
};

/* Where the spec's name is not the one iproute2 prints, or it has none. */
static const char *const net_feature_spec_names[64] = {
	[VIRTIO_RING_F_INDIRECT_DESC] = "INDIRECT_DESC",
	[VIRTIO_RING_F_EVENT_IDX] = "EVENT_IDX",
	[VIRTIO_NET_F_DEVICE_STATS] = "DEVICE_STATS",
};

const char *net_feature_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(net_feature_names) ? net_feature_names[bit] :
						     NULL;
}

const char *backend_feature_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(backend_feature_names) ?
		       backend_feature_names[bit] :
		       NULL;
}

const char *net_feature_spec_name(unsigned int bit)
{
	if (bit < ARRAY_SIZE(net_feature_spec_names) &&
	    net_feature_spec_names[bit])
		return net_feature_spec_names[bit];
	return net_feature_name(bit);
}

static bool name_is(const char *known, const char *name, size_t len)
{
	return known && strlen(known) == len && !strncmp(known, name, len);
}

int net_feature_by_name(const char *name, size_t len)
{
	unsigned int bit;

	for (bit = 0; bit < ARRAY_SIZE(net_feature_names); bit++)
		if (name_is(net_feature_names[bit], name, len) ||
		    name_is(net_feature_spec_names[bit], name, len))
			return (int)bit;
	return -ENOENT;
}

struct feature_requirement {
	unsigned int bit;
	uint64_t needs_any; /* at least one of these must be set */
};

/* Ordered so that a bit is checked after the bits it depends on. */
static const struct feature_requirement net_requirements[] = {
	{ VIRTIO_NET_F_CTRL_RX, BIT_ULL(VIRTIO_NET_F_CTRL_VQ) },
	{ VIRTIO_NET_F_CTRL_VLAN, BIT_ULL(VIRTIO_NET_F_CTRL_VQ) },
	{ VIRTIO_NET_F_GUEST_ANNOUNCE, BIT_ULL(VIRTIO_NET_F_CTRL_VQ) },
	{ VIRTIO_NET_F_MQ, BIT_ULL(VIRTIO_NET_F_CTRL_VQ) },
	{ VIRTIO_NET_F_CTRL_MAC_ADDR, BIT_ULL(VIRTIO_NET_F_CTRL_VQ) },
	{ VIRTIO_NET_F_CTRL_GUEST_OFFLOADS, BIT_ULL(VIRTIO_NET_F_CTRL_VQ) },
	{ VIRTIO_NET_F_RSS, BIT_ULL(VIRTIO_NET_F_CTRL_VQ) },
	{ VIRTIO_NET_F_NOTF_COAL, BIT_ULL(VIRTIO_NET_F_CTRL_VQ) },
	{ VIRTIO_NET_F_VQ_NOTF_COAL, BIT_ULL(VIRTIO_NET_F_CTRL_VQ) },
	{ VIRTIO_NET_F_DEVICE_STATS, BIT_ULL(VIRTIO_NET_F_CTRL_VQ) },
	{ VIRTIO_NET_F_CTRL_RX_EXTRA, BIT_ULL(VIRTIO_NET_F_CTRL_RX) },
	{ VIRTIO_NET_F_GUEST_TSO4, BIT_ULL(VIRTIO_NET_F_GUEST_CSUM) },
	{ VIRTIO_NET_F_GUEST_TSO6, BIT_ULL(VIRTIO_NET_F_GUEST_CSUM) },
	{ VIRTIO_NET_F_GUEST_UFO, BIT_ULL(VIRTIO_NET_F_GUEST_CSUM) },
	{ VIRTIO_NET_F_GUEST_ECN,
	  BIT_ULL(VIRTIO_NET_F_GUEST_TSO4) | BIT_ULL(VIRTIO_NET_F_GUEST_TSO6) },
	{ VIRTIO_NET_F_HOST_TSO4, BIT_ULL(VIRTIO_NET_F_CSUM) },
	{ VIRTIO_NET_F_HOST_TSO6, BIT_ULL(VIRTIO_NET_F_CSUM) },
	{ VIRTIO_NET_F_HOST_UFO, BIT_ULL(VIRTIO_NET_F_CSUM) },
	{ VIRTIO_NET_F_HOST_ECN,
	  BIT_ULL(VIRTIO_NET_F_HOST_TSO4) | BIT_ULL(VIRTIO_NET_F_HOST_TSO6) },
	{ VIRTIO_NET_F_RSC_EXT,
	  BIT_ULL(VIRTIO_NET_F_HOST_TSO4) | BIT_ULL(VIRTIO_NET_F_HOST_TSO6) },
};

uint64_t net_feature_needs(unsigned int bit)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(net_requirements); i++)
		if (net_requirements[i].bit == bit)
			return net_requirements[i].needs_any;
	return 0;
}

uint64_t net_features_drop_unmet(uint64_t features)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(net_requirements); i++) {
		const struct feature_requirement *r = &net_requirements[i];

		if (!(features & r->needs_any))
			features &= ~BIT_ULL(r->bit);
	}
	return features;
}

bool net_has_pairs(uint64_t negotiated)
{
	return negotiated &
	       (BIT_ULL(VIRTIO_NET_F_MQ) | BIT_ULL(VIRTIO_NET_F_RSS));
}

unsigned int net_cvq_index(uint64_t negotiated, uint16_t max_vqp)
{
	if (!net_has_pairs(negotiated) || !max_vqp)
		max_vqp = 1;
	return 2u * max_vqp;
}
