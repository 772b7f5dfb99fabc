// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Load profiles.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "lib/compat.h"
#include "lib/net_features.h"
#include "lib/util.h"
#include "load/profile.h"

const char *const load_profile_names[] = {
	[LOAD_PROFILE_MAC] = "mac",
	[LOAD_PROFILE_QEMU] = "qemu",
	[LOAD_PROFILE_VLAN] = "vlan",
	[LOAD_PROFILE_MIXED] = "mixed",
	NULL,
};

/* The commands profiles are made of, each with its own payload series. */
enum cmd_kind {
	KIND_MAC_ADDR,
	KIND_MAC_TABLE,
	KIND_MQ_PAIRS,
	KIND_OFFLOADS,
	KIND_PROMISC,
	KIND_ALLMULTI,
	KIND_ALLUNI,
	KIND_VLAN_ADD,
	KIND_COUNT,
};

/* Spec VLAN ids 0 and 4095 are reserved. */
#define VLAN_ID_MAX 4094

/* Guest offloads CTRL_GUEST_OFFLOADS can switch. */
#define GUEST_OFFLOAD_BITS                                                     \
	(BIT_ULL(VIRTIO_NET_F_GUEST_CSUM) | BIT_ULL(VIRTIO_NET_F_GUEST_TSO4) | \
	 BIT_ULL(VIRTIO_NET_F_GUEST_TSO6) | BIT_ULL(VIRTIO_NET_F_GUEST_ECN) |  \
	 BIT_ULL(VIRTIO_NET_F_GUEST_UFO))

/*
 * A profile is a prefix sent once, then a cycle repeated until the load
 * has its count; either may shrink to nothing under the negotiated
 * features.
 */
struct profile_def {
	const enum cmd_kind *once;
	unsigned int n_once;
	const enum cmd_kind *cycle;
	unsigned int n_cycle;
};

static const enum cmd_kind mac_cycle[] = { KIND_MAC_ADDR };
static const enum cmd_kind vlan_cycle[] = { KIND_VLAN_ADD };
/* QEMU's vhost_vdpa_net_load order: mac, mq, offloads, rx, vlan. */
static const enum cmd_kind qemu_once[] = {
	KIND_MAC_ADDR, KIND_MAC_TABLE, KIND_MQ_PAIRS, KIND_OFFLOADS,
	KIND_PROMISC,  KIND_ALLMULTI,  KIND_ALLUNI,
};
static const enum cmd_kind mixed_cycle[] = {
	KIND_MAC_ADDR, KIND_VLAN_ADD,  KIND_PROMISC,  KIND_MQ_PAIRS,
	KIND_OFFLOADS, KIND_MAC_TABLE, KIND_ALLMULTI, KIND_ALLUNI,
};

static const struct profile_def profile_defs[] = {
	[LOAD_PROFILE_MAC] = { .cycle = mac_cycle,
			       .n_cycle = ARRAY_SIZE(mac_cycle) },
	[LOAD_PROFILE_QEMU] = { .once = qemu_once,
				.n_once = ARRAY_SIZE(qemu_once),
				.cycle = vlan_cycle,
				.n_cycle = ARRAY_SIZE(vlan_cycle) },
	[LOAD_PROFILE_VLAN] = { .cycle = vlan_cycle,
				.n_cycle = ARRAY_SIZE(vlan_cycle) },
	[LOAD_PROFILE_MIXED] = { .cycle = mixed_cycle,
				 .n_cycle = ARRAY_SIZE(mixed_cycle) },
};

/* Example of a configured NIC's filter table. */
static const uint8_t table_unicast[][MAC_LEN] = {
	{ 0x02, 0x00, 0x00, 0xaa, 0x00, 0x01 },
	{ 0x02, 0x00, 0x00, 0xaa, 0x00, 0x02 },
};
static const uint8_t table_multicast[][MAC_LEN] = {
	{ 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 },
	{ 0x33, 0x33, 0x00, 0x00, 0x00, 0x01 },
};

static int kind_feature(enum cmd_kind kind)
{
	switch (kind) {
	case KIND_MAC_ADDR:
		return VIRTIO_NET_F_CTRL_MAC_ADDR;
	case KIND_MAC_TABLE:
	case KIND_PROMISC:
	case KIND_ALLMULTI:
		return VIRTIO_NET_F_CTRL_RX;
	case KIND_ALLUNI:
		return VIRTIO_NET_F_CTRL_RX_EXTRA;
	case KIND_MQ_PAIRS:
		return VIRTIO_NET_F_MQ;
	case KIND_OFFLOADS:
		return VIRTIO_NET_F_CTRL_GUEST_OFFLOADS;
	case KIND_VLAN_ADD:
		return VIRTIO_NET_F_CTRL_VLAN;
	case KIND_COUNT:
		break;
	}
	return -1;
}

static bool kind_allowed(enum cmd_kind kind, uint64_t features)
{
	int bit = kind_feature(kind);

	return bit >= 0 && (features & BIT_ULL(bit));
}

/* @nth counts earlier commands of the same kind, so payloads vary. */
static void build_kind(enum cmd_kind kind, unsigned int nth,
		       const struct profile_env *env, struct cvq_cmd *c)
{
	unsigned int serial = nth + 1;
	uint8_t mac[MAC_LEN] = { 0x02,
				 0x00,
				 0x00,
				 (uint8_t)(serial >> 16),
				 (uint8_t)(serial >> 8),
				 (uint8_t)serial };

	switch (kind) {
	case KIND_MAC_ADDR:
		cvq_cmd_mac_addr_set(c, mac);
		break;
	case KIND_MAC_TABLE:
		cvq_cmd_mac_table_set(c, table_unicast,
				      ARRAY_SIZE(table_unicast),
				      table_multicast,
				      ARRAY_SIZE(table_multicast));
		break;
	case KIND_MQ_PAIRS:
		cvq_cmd_mq_pairs(c, env->max_vqp ? env->max_vqp : 1);
		break;
	case KIND_OFFLOADS:
		/* Unlike the all-on default: checksums stay, LRO goes. */
		cvq_cmd_guest_offloads(
			c, env->features & BIT_ULL(VIRTIO_NET_F_GUEST_CSUM));
		break;
	case KIND_PROMISC:
		/* QEMU's default is promiscuous; a load turns it off. */
		cvq_cmd_rx_mode(c, VIRTIO_NET_CTRL_RX_PROMISC, nth % 2);
		break;
	case KIND_ALLMULTI:
		cvq_cmd_rx_mode(c, VIRTIO_NET_CTRL_RX_ALLMULTI, true);
		break;
	case KIND_ALLUNI:
		cvq_cmd_rx_mode(c, VIRTIO_NET_CTRL_RX_ALLUNI, true);
		break;
	case KIND_VLAN_ADD:
		cvq_cmd_vlan(c, true, (uint16_t)(1 + nth % VLAN_ID_MAX));
		break;
	case KIND_COUNT:
		break;
	}
}

static const char *kind_name(enum cmd_kind kind)
{
	struct cvq_cmd c;

	build_kind(kind, 0, &(struct profile_env){ 0 }, &c);
	return cvq_cmd_name(c.class, c.cmd);
}

uint64_t profile_wanted_features(enum load_profile profile)
{
	const struct profile_def *def = &profile_defs[profile];
	uint64_t wanted = BIT_ULL(VIRTIO_NET_F_CTRL_MAC_ADDR);
	unsigned int i;

	for (i = 0; i < def->n_once; i++)
		wanted |= BIT_ULL(kind_feature(def->once[i]));
	for (i = 0; i < def->n_cycle; i++)
		wanted |= BIT_ULL(kind_feature(def->cycle[i]));
	if (wanted & BIT_ULL(VIRTIO_NET_F_CTRL_GUEST_OFFLOADS))
		wanted |= GUEST_OFFLOAD_BITS;
	return wanted;
}

static unsigned int filter_kinds(const enum cmd_kind *in, unsigned int n,
				 uint64_t features, enum cmd_kind *out,
				 bool skipped[KIND_COUNT])
{
	unsigned int i, kept = 0;

	for (i = 0; i < n; i++) {
		if (kind_allowed(in[i], features))
			out[kept++] = in[i];
		else
			skipped[in[i]] = true;
	}
	return kept;
}

static void __printf(2, 3) note_add(char *note, const char *fmt, ...)
{
	size_t used = strlen(note);
	va_list ap;

	if (used + 1 >= PROFILE_NOTE_LEN)
		return;
	va_start(ap, fmt);
	vsnprintf(note + used, PROFILE_NOTE_LEN - used, fmt, ap);
	va_end(ap);
}

static void note_skipped(const bool skipped[KIND_COUNT], char *note)
{
	const char *sep = "not negotiated, left out: ";
	enum cmd_kind kind;

	for (kind = 0; kind < KIND_COUNT; kind++) {
		if (!skipped[kind])
			continue;
		note_add(note, "%s%s (%s)", sep, kind_name(kind),
			 net_feature_name((unsigned int)kind_feature(kind)));
		sep = ", ";
	}
}

int profile_build(enum load_profile profile, unsigned int count,
		  const struct profile_env *env, struct cvq_cmd *cmds,
		  char note[PROFILE_NOTE_LEN])
{
	const struct profile_def *def = &profile_defs[profile];
	enum cmd_kind once[KIND_COUNT], cycle[KIND_COUNT];
	unsigned int nth[KIND_COUNT] = { 0 };
	bool skipped[KIND_COUNT] = { false };
	unsigned int n_once, n_cycle, i;

	note[0] = '\0';
	n_once = filter_kinds(def->once, def->n_once, env->features, once,
			      skipped);
	n_cycle = filter_kinds(def->cycle, def->n_cycle, env->features, cycle,
			       skipped);
	note_skipped(skipped, note);
	if (n_cycle == 0 && n_once > 0) {
		memcpy(cycle, once, n_once * sizeof(once[0]));
		n_cycle = n_once;
		note_add(note, "; the allowed commands repeat");
	} else if (n_cycle == 0) {
		n_cycle = filter_kinds(mac_cycle, ARRAY_SIZE(mac_cycle),
				       env->features, cycle, skipped);
		if (n_cycle == 0)
			return -ENOTSUP;
		note_add(note, "; sending MAC_ADDR_SET instead");
	}

	for (i = 0; i < count; i++) {
		enum cmd_kind kind = i < n_once ? once[i] :
						  cycle[(i - n_once) % n_cycle];

		build_kind(kind, nth[kind]++, env, &cmds[i]);
	}
	return 0;
}
