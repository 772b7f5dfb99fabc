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
	KIND_RSS,
	KIND_HASH,
	KIND_LOAD_RSS, /* RSS_CONFIG where QEMU's load sends it */
	KIND_LOAD_HASH, /* HASH_CONFIG where QEMU's load sends it */
	KIND_COAL_TX,
	KIND_COAL_RX,
	KIND_COAL_VQ,
	KIND_COUNT,
};

/* When a kind is sent: its feature, and what a profile's model adds. */
struct kind_def {
	unsigned int feature; /* the command's own */
	uint64_t also_needs; /* negotiated too, or the kind is left out */
	uint64_t unless; /* one of these negotiated: another kind stands in */
};

/*
 * QEMU loads the hash state in its MQ step (vhost_vdpa_net_load_mq),
 * which does nothing without MQ, and sends RSS_CONFIG when RSS was
 * negotiated, HASH_CONFIG only otherwise.
 */
static const struct kind_def kind_defs[KIND_COUNT] = {
	[KIND_MAC_ADDR] = { VIRTIO_NET_F_CTRL_MAC_ADDR },
	[KIND_MAC_TABLE] = { VIRTIO_NET_F_CTRL_RX },
	[KIND_MQ_PAIRS] = { VIRTIO_NET_F_MQ },
	[KIND_OFFLOADS] = { VIRTIO_NET_F_CTRL_GUEST_OFFLOADS },
	[KIND_PROMISC] = { VIRTIO_NET_F_CTRL_RX },
	[KIND_ALLMULTI] = { VIRTIO_NET_F_CTRL_RX },
	[KIND_ALLUNI] = { VIRTIO_NET_F_CTRL_RX_EXTRA },
	[KIND_VLAN_ADD] = { VIRTIO_NET_F_CTRL_VLAN },
	[KIND_RSS] = { VIRTIO_NET_F_RSS },
	[KIND_HASH] = { VIRTIO_NET_F_HASH_REPORT },
	[KIND_LOAD_RSS] = { VIRTIO_NET_F_RSS, BIT_ULL(VIRTIO_NET_F_MQ) },
	[KIND_LOAD_HASH] = { VIRTIO_NET_F_HASH_REPORT, BIT_ULL(VIRTIO_NET_F_MQ),
			     BIT_ULL(VIRTIO_NET_F_RSS) },
	[KIND_COAL_TX] = { VIRTIO_NET_F_NOTF_COAL },
	[KIND_COAL_RX] = { VIRTIO_NET_F_NOTF_COAL },
	[KIND_COAL_VQ] = { VIRTIO_NET_F_VQ_NOTF_COAL },
};

/* Spec VLAN ids 0 and 4095 are reserved. */
#define VLAN_ID_MAX 4094

/* Guest offloads CTRL_GUEST_OFFLOADS can switch. */
#define GUEST_OFFLOAD_BITS                                                     \
	(BIT_ULL(VIRTIO_NET_F_GUEST_CSUM) | BIT_ULL(VIRTIO_NET_F_GUEST_TSO4) | \
	 BIT_ULL(VIRTIO_NET_F_GUEST_TSO6) | BIT_ULL(VIRTIO_NET_F_GUEST_ECN) |  \
	 BIT_ULL(VIRTIO_NET_F_GUEST_UFO))

/*
 * The hash types Linux's virtio_net never enables. It enables all others
 * the device supports, and QEMU's load sends back what the guest set.
 */
#define HASH_TYPES_EX                                                       \
	(VIRTIO_NET_RSS_HASH_TYPE_IP_EX | VIRTIO_NET_RSS_HASH_TYPE_TCP_EX | \
	 VIRTIO_NET_RSS_HASH_TYPE_UDP_EX)

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
/*
 * QEMU's vhost_vdpa_net_cvq_load order: mac, mq (then the hash state),
 * offloads, rx, vlan. No coalescing: QEMU 10 neither offers NOTF_COAL nor
 * VQ_NOTF_COAL to its guest nor shadows the control queue of a device
 * that offers them, so its load never has such a command.
 */
static const enum cmd_kind qemu_once[] = {
	KIND_MAC_ADDR, KIND_MAC_TABLE, KIND_MQ_PAIRS,
	KIND_LOAD_RSS, KIND_LOAD_HASH, KIND_OFFLOADS,
	KIND_PROMISC,  KIND_ALLMULTI,  KIND_ALLUNI,
};
/*
 * The kinds newer than the first eight come last: old mixes stay as they
 * were on devices without the features.
 */
static const enum cmd_kind mixed_cycle[] = {
	KIND_MAC_ADDR, KIND_VLAN_ADD,  KIND_PROMISC,  KIND_MQ_PAIRS,
	KIND_OFFLOADS, KIND_MAC_TABLE, KIND_ALLMULTI, KIND_ALLUNI,
	KIND_RSS,      KIND_HASH,      KIND_COAL_TX,  KIND_COAL_RX,
	KIND_COAL_VQ,
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

/* The first feature the kind needs that was not negotiated, or -1. */
static int kind_missing(enum cmd_kind kind, uint64_t features)
{
	const struct kind_def *def = &kind_defs[kind];
	uint64_t missing = def->also_needs & ~features;

	if (!(features & BIT_ULL(def->feature)))
		return (int)def->feature;
	return missing ? __builtin_ctzll(missing) : -1;
}

static bool kind_allowed(enum cmd_kind kind, uint64_t features)
{
	return kind_missing(kind, features) < 0 &&
	       !(features & kind_defs[kind].unless);
}

/*
 * The indirection table's length: the device's maximum, within QEMU's
 * (its virtio-net model refuses a longer table), a power of 2.
 */
static uint16_t rss_table_len(const struct profile_env *env)
{
	uint16_t max = env->rss_max_indirection_table_length;
	uint16_t len = 1;

	if (max > CVQ_RSS_TABLE_MAX)
		max = CVQ_RSS_TABLE_MAX;
	while (2 * len <= max)
		len *= 2;
	return len;
}

/*
 * QEMU sends its whole 40-byte key whatever the guest set, and the spec
 * has every hashing device take at least that (a shorter rss_max_key_size
 * still bounds the key). The bytes change with @serial.
 */
static uint8_t rss_key(const struct profile_env *env, unsigned int serial,
		       uint8_t key[CVQ_RSS_KEY_MAX])
{
	uint8_t len = env->rss_max_key_size < CVQ_RSS_KEY_MAX ?
			      env->rss_max_key_size :
			      CVQ_RSS_KEY_MAX;
	unsigned int i;

	for (i = 0; i < CVQ_RSS_KEY_MAX; i++)
		key[i] = (uint8_t)(0x6d ^ (i * 29) ^ (serial * 83));
	return len;
}

/*
 * RSS_CONFIG as Linux's virtio_net sets it up and QEMU loads it back: the
 * hash types it enables, every pair's receive queue in turn (from a
 * different one for each @nth), the pairs in force, the key.
 */
static void build_rss(unsigned int nth, const struct profile_env *env,
		      struct cvq_cmd *c)
{
	uint16_t pairs = env->max_vqp ? env->max_vqp : 1;
	uint16_t table[CVQ_RSS_TABLE_MAX];
	uint8_t key[CVQ_RSS_KEY_MAX];
	struct cvq_rss rss = {
		.hash_types = env->supported_hash_types & ~HASH_TYPES_EX,
		.table_len = rss_table_len(env),
		.table = table,
		.max_tx_vq = pairs,
		.key_len = rss_key(env, nth + 1, key),
		.key = key,
	};
	unsigned int i;

	for (i = 0; i < rss.table_len; i++)
		table[i] = (uint16_t)((i + nth) % pairs);
	/* Within the bounds by construction. */
	cvq_cmd_rss_config(c, &rss);
}

static void build_hash(unsigned int nth, const struct profile_env *env,
		       struct cvq_cmd *c)
{
	uint8_t key[CVQ_RSS_KEY_MAX];
	uint8_t key_len = rss_key(env, nth + 1, key);

	cvq_cmd_hash_config(c, env->supported_hash_types & ~HASH_TYPES_EX, key,
			    key_len);
}

/*
 * Coalescing parameters that differ from every earlier command's: the
 * packets count up, and a VQ_SET's microseconds (8n + 1) never equal a
 * TX_SET's or RX_SET's (8n), so that no command leaves a queue as it was.
 */
static void build_coal(enum cmd_kind kind, unsigned int nth,
		       const struct profile_env *env, struct cvq_cmd *c)
{
	unsigned int vqs = 2u * (env->max_vqp ? env->max_vqp : 1);
	uint32_t serial = nth + 1;

	if (kind == KIND_COAL_VQ)
		cvq_cmd_notf_coal_vq(c, (uint16_t)(nth % vqs), serial,
				     8 * serial + 1);
	else
		cvq_cmd_notf_coal(c, kind == KIND_COAL_TX, serial, 8 * serial);
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
	case KIND_RSS:
	case KIND_LOAD_RSS:
		build_rss(nth, env, c);
		break;
	case KIND_HASH:
	case KIND_LOAD_HASH:
		build_hash(nth, env, c);
		break;
	case KIND_COAL_TX:
	case KIND_COAL_RX:
	case KIND_COAL_VQ:
		build_coal(kind, nth, env, c);
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
		wanted |= BIT_ULL(kind_defs[def->once[i]].feature) |
			  kind_defs[def->once[i]].also_needs;
	for (i = 0; i < def->n_cycle; i++)
		wanted |= BIT_ULL(kind_defs[def->cycle[i]].feature) |
			  kind_defs[def->cycle[i]].also_needs;
	if (wanted & BIT_ULL(VIRTIO_NET_F_CTRL_GUEST_OFFLOADS))
		wanted |= GUEST_OFFLOAD_BITS;
	return wanted;
}

/*
 * Keeps the allowed kinds of @in; @missing[kind] gets the feature a
 * left-out kind lacks (one another kind stands in for lacks none).
 */
static unsigned int filter_kinds(const enum cmd_kind *in, unsigned int n,
				 uint64_t features, enum cmd_kind *out,
				 int missing[KIND_COUNT])
{
	unsigned int i, kept = 0;

	for (i = 0; i < n; i++) {
		if (kind_allowed(in[i], features))
			out[kept++] = in[i];
		else if (!(features & kind_defs[in[i]].unless))
			missing[in[i]] = kind_missing(in[i], features);
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

static void note_skipped(const int missing[KIND_COUNT], char *note)
{
	const char *sep = "not negotiated, left out: ";
	enum cmd_kind kind;

	for (kind = 0; kind < KIND_COUNT; kind++) {
		if (missing[kind] < 0)
			continue;
		note_add(note, "%s%s (%s)", sep, kind_name(kind),
			 net_feature_name((unsigned int)missing[kind]));
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
	int missing[KIND_COUNT];
	unsigned int n_once, n_cycle, i;

	note[0] = '\0';
	for (i = 0; i < KIND_COUNT; i++)
		missing[i] = -1;
	n_once = filter_kinds(def->once, def->n_once, env->features, once,
			      missing);
	n_cycle = filter_kinds(def->cycle, def->n_cycle, env->features, cycle,
			       missing);
	note_skipped(missing, note);
	if (n_cycle == 0 && n_once > 0) {
		memcpy(cycle, once, n_once * sizeof(once[0]));
		n_cycle = n_once;
		note_add(note, "; the allowed commands repeat");
	} else if (n_cycle == 0) {
		n_cycle = filter_kinds(mac_cycle, ARRAY_SIZE(mac_cycle),
				       env->features, cycle, missing);
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
