// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Load profiles under different negotiated features, and the feature
 * helpers they rely on.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/compat.h"
#include "lib/net_features.h"
#include "lib/util.h"
#include "load/profile.h"

#define STOCK_FEATURES                                                     \
	(BIT_ULL(VIRTIO_F_VERSION_1) | BIT_ULL(VIRTIO_F_ACCESS_PLATFORM) | \
	 BIT_ULL(VIRTIO_NET_F_CTRL_VQ) | BIT_ULL(VIRTIO_NET_F_CTRL_MAC_ADDR))

#define FULL_FEATURES                                                 \
	(STOCK_FEATURES | BIT_ULL(VIRTIO_NET_F_CTRL_RX) |             \
	 BIT_ULL(VIRTIO_NET_F_CTRL_RX_EXTRA) |                        \
	 BIT_ULL(VIRTIO_NET_F_CTRL_VLAN) | BIT_ULL(VIRTIO_NET_F_MQ) | \
	 BIT_ULL(VIRTIO_NET_F_CTRL_GUEST_OFFLOADS) |                  \
	 BIT_ULL(VIRTIO_NET_F_GUEST_CSUM) | BIT_ULL(VIRTIO_NET_F_GUEST_TSO4))

#define HASH_FEATURES \
	(BIT_ULL(VIRTIO_NET_F_RSS) | BIT_ULL(VIRTIO_NET_F_HASH_REPORT))
#define COAL_FEATURES \
	(BIT_ULL(VIRTIO_NET_F_NOTF_COAL) | BIT_ULL(VIRTIO_NET_F_VQ_NOTF_COAL))

/* All nine types, the _EX ones too: the profiles must not enable those. */
#define ALL_HASH_TYPES 0x1ff
#define LINUX_HASH_TYPES 0x3f

static const char *name_of(const struct cvq_cmd *c)
{
	return cvq_cmd_name(c->class, c->cmd);
}

/* Builds @n commands of @profile, which must succeed. */
static void build(enum load_profile profile, unsigned int n,
		  const struct profile_env *env, struct cvq_cmd *cmds,
		  char note[PROFILE_NOTE_LEN])
{
	assert_int_equal(profile_build(profile, n, env, cmds, note), 0);
}

static uint16_t le16_at(const struct cvq_cmd *c, unsigned int off)
{
	return (uint16_t)(c->data[off] | c->data[off + 1] << 8);
}

static uint32_t le32_at(const struct cvq_cmd *c, unsigned int off)
{
	return le16_at(c, off) | (uint32_t)le16_at(c, off + 2) << 16;
}

/* A device at the spec's minimum limits, which are also QEMU's. */
static struct profile_env hash_env(uint64_t features, uint16_t max_vqp)
{
	return (struct profile_env){
		.features = features,
		.max_vqp = max_vqp,
		.rss_max_key_size = 40,
		.rss_max_indirection_table_length = 128,
		.supported_hash_types = ALL_HASH_TYPES,
	};
}

/*
 * Checks an RSS_CONFIG against the device's limits and the kernel
 * module's rules: a power-of-2 table of receive queues below max_tx_vq,
 * max_tx_vq within the pairs, only supported types, the key in full.
 */
static void expect_valid_rss(const struct cvq_cmd *c,
			     const struct profile_env *env,
			     unsigned int table_len, unsigned int key_len)
{
	unsigned int i, pairs;

	assert_string_equal(name_of(c), "RSS_CONFIG");
	assert_int_equal(c->data_len, 8 + 2 * table_len + 3 + key_len);
	assert_int_equal(le32_at(c, 0),
			 env->supported_hash_types & LINUX_HASH_TYPES);
	assert_int_equal(le16_at(c, 4) + 1, table_len);
	pairs = le16_at(c, 8 + 2 * table_len);
	assert_int_equal(pairs, env->max_vqp);
	assert_true(le16_at(c, 6) < pairs);
	for (i = 0; i < table_len; i++)
		assert_true(le16_at(c, 8 + 2 * i) < pairs);
	assert_int_equal(c->data[8 + 2 * table_len + 2], key_len);
}

static void mac_profile_sends_distinct_macs(void **state)
{
	const struct profile_env env = { .features = STOCK_FEATURES,
					 .max_vqp = 1 };
	struct cvq_cmd cmds[300];
	char note[PROFILE_NOTE_LEN];
	unsigned int i;

	(void)state;
	assert_int_equal(profile_build(LOAD_PROFILE_MAC, 300, &env, cmds, note),
			 0);
	assert_string_equal(note, "");
	for (i = 0; i < 300; i++) {
		assert_string_equal(name_of(&cmds[i]), "MAC_ADDR_SET");
		assert_int_equal(cmds[i].data[0], 0x02);
		assert_int_equal(cmds[i].data[4] << 8 | cmds[i].data[5], i + 1);
	}
}

static void qemu_profile_follows_qemu_order(void **state)
{
	static const char *const want[] = {
		"MAC_ADDR_SET",	      "MAC_TABLE_SET", "MQ_VQ_PAIRS_SET",
		"GUEST_OFFLOADS_SET", "RX_PROMISC",    "RX_ALLMULTI",
		"RX_ALLUNI",	      "VLAN_ADD",      "VLAN_ADD",
	};
	const struct profile_env env = { .features = FULL_FEATURES,
					 .max_vqp = 4 };
	struct cvq_cmd cmds[9];
	char note[PROFILE_NOTE_LEN];
	unsigned int i;

	(void)state;
	assert_int_equal(profile_build(LOAD_PROFILE_QEMU, 9, &env, cmds, note),
			 0);
	assert_string_equal(
		note,
		"not negotiated, left out: RSS_CONFIG (RSS), HASH_CONFIG (HASH_REPORT)");
	for (i = 0; i < 9; i++)
		assert_string_equal(name_of(&cmds[i]), want[i]);
	/* MQ asks for every pair; offloads keep only what was negotiated. */
	assert_int_equal(cmds[2].data[0], 4);
	assert_int_equal(cmds[3].data[0], BIT_ULL(VIRTIO_NET_F_GUEST_CSUM));
	/* VLAN ids count from 1. */
	assert_int_equal(cmds[7].data[0], 1);
	assert_int_equal(cmds[8].data[0], 2);
}

/*
 * With RSS, QEMU's MQ step sends RSS_CONFIG right after MQ_VQ_PAIRS_SET:
 * Linux's table (queue i % pairs), the hash types it enables, the pairs
 * in force, QEMU's 40-byte key. HASH_CONFIG does not go as well.
 */
static void qemu_profile_sends_rss_after_mq(void **state)
{
	static const char *const want[] = {
		"MAC_ADDR_SET", "MAC_TABLE_SET",      "MQ_VQ_PAIRS_SET",
		"RSS_CONFIG",	"GUEST_OFFLOADS_SET", "RX_PROMISC",
		"RX_ALLMULTI",	"RX_ALLUNI",	      "VLAN_ADD",
	};
	const struct profile_env env =
		hash_env(FULL_FEATURES | HASH_FEATURES | COAL_FEATURES, 4);
	struct cvq_cmd cmds[9];
	char note[PROFILE_NOTE_LEN];
	unsigned int i;

	(void)state;
	build(LOAD_PROFILE_QEMU, 9, &env, cmds, note);
	assert_string_equal(note, "");
	for (i = 0; i < 9; i++)
		assert_string_equal(name_of(&cmds[i]), want[i]);
	expect_valid_rss(&cmds[3], &env, 128, 40);
	for (i = 0; i < 128; i++)
		assert_int_equal(le16_at(&cmds[3], 8 + 2 * i), i % 4);
	assert_int_equal(le16_at(&cmds[3], 6), 0);
}

/* Without RSS, the same place has HASH_CONFIG: no steering, the key. */
static void qemu_profile_sends_hash_config_without_rss(void **state)
{
	const struct profile_env env =
		hash_env(FULL_FEATURES | BIT_ULL(VIRTIO_NET_F_HASH_REPORT), 4);
	struct cvq_cmd cmds[5];
	char note[PROFILE_NOTE_LEN];
	unsigned int i;

	(void)state;
	build(LOAD_PROFILE_QEMU, 5, &env, cmds, note);
	assert_string_equal(note, "not negotiated, left out: RSS_CONFIG (RSS)");
	assert_string_equal(name_of(&cmds[2]), "MQ_VQ_PAIRS_SET");
	assert_string_equal(name_of(&cmds[3]), "HASH_CONFIG");
	assert_int_equal(cmds[3].data_len, 4 + 8 + 1 + 40);
	assert_int_equal(le32_at(&cmds[3], 0), LINUX_HASH_TYPES);
	for (i = 4; i < 12; i++)
		assert_int_equal(cmds[3].data[i], 0);
	assert_int_equal(cmds[3].data[12], 40);
	assert_string_equal(name_of(&cmds[4]), "GUEST_OFFLOADS_SET");
}

/* QEMU's MQ step does nothing without MQ: no hash state either. */
static void qemu_profile_no_hash_state_without_mq(void **state)
{
	const struct profile_env env =
		hash_env(STOCK_FEATURES | HASH_FEATURES |
				 BIT_ULL(VIRTIO_NET_F_CTRL_VLAN),
			 1);
	struct cvq_cmd cmds[3];
	char note[PROFILE_NOTE_LEN];

	(void)state;
	build(LOAD_PROFILE_QEMU, 3, &env, cmds, note);
	assert_string_equal(name_of(&cmds[0]), "MAC_ADDR_SET");
	assert_string_equal(name_of(&cmds[1]), "VLAN_ADD");
	assert_non_null(strstr(note, "RSS_CONFIG (MQ)"));
	assert_null(strstr(note, "HASH_CONFIG"));
}

/* The table and key keep to what the device's config space allows. */
static void rss_within_the_device_limits(void **state)
{
	static const struct {
		uint16_t table_max;
		uint8_t key_max;
		unsigned int table_len, key_len;
	} cases[] = {
		{ 64, 40, 64, 40 },
		/* QEMU's model refuses a table over 128: so do we. */
		{ 512, 52, 128, 40 },
		/* Not a power of 2: the largest one below. */
		{ 100, 40, 64, 40 },
		/* Under the spec's minimums, still valid on that device. */
		{ 1, 16, 1, 16 },
	};
	struct profile_env env = hash_env(
		STOCK_FEATURES | BIT_ULL(VIRTIO_NET_F_MQ) | HASH_FEATURES, 2);
	struct cvq_cmd cmds[3];
	char note[PROFILE_NOTE_LEN];
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		env.rss_max_indirection_table_length = cases[i].table_max;
		env.rss_max_key_size = cases[i].key_max;
		env.supported_hash_types = i % 2 ? ALL_HASH_TYPES : 0x7;
		build(LOAD_PROFILE_QEMU, 3, &env, cmds, note);
		expect_valid_rss(&cmds[2], &env, cases[i].table_len,
				 cases[i].key_len);
	}
}

/*
 * Mixed cycles through RSS_CONFIG, HASH_CONFIG and the coalescing
 * commands too, after the older kinds. No command may leave the device
 * as it was (it counts those as redundant): each of a kind differs from
 * the one before, and a VQ_SET's parameters never match a TX_SET's or
 * RX_SET's. VQ_SET goes to every data queue in turn.
 */
static void mixed_profile_adds_rss_and_coalescing(void **state)
{
	static const char *const want[] = {
		"MAC_ADDR_SET",	    "MQ_VQ_PAIRS_SET",	"RSS_CONFIG",
		"HASH_CONFIG",	    "NOTF_COAL_TX_SET", "NOTF_COAL_RX_SET",
		"NOTF_COAL_VQ_SET",
	};
	const struct profile_env env =
		hash_env(STOCK_FEATURES | BIT_ULL(VIRTIO_NET_F_MQ) |
				 HASH_FEATURES | COAL_FEATURES,
			 2);
	enum { N = ARRAY_SIZE(want), ROUNDS = 6 };
	struct cvq_cmd cmds[N * ROUNDS];
	char note[PROFILE_NOTE_LEN];
	unsigned int i;

	(void)state;
	build(LOAD_PROFILE_MIXED, N * ROUNDS, &env, cmds, note);
	for (i = 0; i < N * ROUNDS; i++) {
		const struct cvq_cmd *c = &cmds[i];

		assert_string_equal(name_of(c), want[i % N]);
		/* (MQ_VQ_PAIRS_SET always asks for every pair.) */
		if (i >= N && i % N != 1)
			assert_memory_not_equal(c->data, cmds[i - N].data,
						c->data_len);
	}
	for (i = 0; i < ROUNDS; i++) {
		const struct cvq_cmd *rss = &cmds[i * N + 2];
		const struct cvq_cmd *tx = &cmds[i * N + 4];
		const struct cvq_cmd *vq = &cmds[i * N + 6];

		expect_valid_rss(rss, &env, 128, 40);
		assert_int_equal(tx->data_len, 8);
		assert_int_equal(le32_at(tx, 4) % 8, 0);
		assert_int_equal(vq->data_len, 12);
		assert_int_equal(le16_at(vq, 0), i % 4);
		assert_int_equal(le32_at(vq, 8) % 8, 1);
	}
}

static void qemu_profile_on_stock_is_mac_only(void **state)
{
	const struct profile_env env = { .features = STOCK_FEATURES };
	struct cvq_cmd cmds[30];
	char note[PROFILE_NOTE_LEN];
	unsigned int i;

	(void)state;
	assert_int_equal(profile_build(LOAD_PROFILE_QEMU, 30, &env, cmds, note),
			 0);
	for (i = 0; i < 30; i++)
		assert_string_equal(name_of(&cmds[i]), "MAC_ADDR_SET");
	assert_non_null(strstr(note, "VLAN_ADD (CTRL_VLAN)"));
	assert_non_null(strstr(note, "MQ_VQ_PAIRS_SET (MQ)"));
	assert_non_null(strstr(note, "repeat"));
}

static void vlan_profile_falls_back_to_mac(void **state)
{
	const struct profile_env env = { .features = STOCK_FEATURES };
	const struct profile_env full = { .features = FULL_FEATURES };
	struct cvq_cmd cmds[5000];
	char note[PROFILE_NOTE_LEN];

	(void)state;
	assert_int_equal(profile_build(LOAD_PROFILE_VLAN, 3, &env, cmds, note),
			 0);
	assert_string_equal(name_of(&cmds[0]), "MAC_ADDR_SET");
	assert_non_null(strstr(note, "sending MAC_ADDR_SET instead"));

	/* Beyond 4094 the VLAN ids wrap to 1 again. */
	assert_int_equal(
		profile_build(LOAD_PROFILE_VLAN, 5000, &full, cmds, note), 0);
	assert_string_equal(name_of(&cmds[4093]), "VLAN_ADD");
	assert_int_equal(cmds[4093].data[0] | cmds[4093].data[1] << 8, 4094);
	assert_int_equal(cmds[4094].data[0] | cmds[4094].data[1] << 8, 1);
}

static void mixed_profile_cycles_supported_classes(void **state)
{
	const struct profile_env env = {
		.features = STOCK_FEATURES | BIT_ULL(VIRTIO_NET_F_CTRL_VLAN),
	};
	struct cvq_cmd cmds[6];
	char note[PROFILE_NOTE_LEN];

	(void)state;
	assert_int_equal(profile_build(LOAD_PROFILE_MIXED, 6, &env, cmds, note),
			 0);
	assert_string_equal(name_of(&cmds[0]), "MAC_ADDR_SET");
	assert_string_equal(name_of(&cmds[1]), "VLAN_ADD");
	assert_string_equal(name_of(&cmds[2]), "MAC_ADDR_SET");
	assert_string_equal(name_of(&cmds[3]), "VLAN_ADD");
	assert_non_null(strstr(note, "RX_PROMISC (CTRL_RX)"));
	/* The note has room for every kind left out. */
	assert_non_null(strstr(note, "RSS_CONFIG (RSS)"));
	assert_non_null(strstr(note, "NOTF_COAL_TX_SET (NOTF_COAL)"));
	assert_non_null(strstr(note, ", NOTF_COAL_VQ_SET (VQ_NOTF_COAL)"));
	assert_true(strlen(note) + 1 < PROFILE_NOTE_LEN);
}

static void nothing_allowed_is_an_error(void **state)
{
	const struct profile_env env = {
		.features = BIT_ULL(VIRTIO_NET_F_CTRL_VQ),
	};
	struct cvq_cmd cmds[1];
	char note[PROFILE_NOTE_LEN];

	(void)state;
	assert_int_equal(profile_build(LOAD_PROFILE_MAC, 1, &env, cmds, note),
			 -ENOTSUP);
	assert_int_equal(profile_build(LOAD_PROFILE_MIXED, 1, &env, cmds, note),
			 -ENOTSUP);
}

static void wanted_features(void **state)
{
	uint64_t mac = profile_wanted_features(LOAD_PROFILE_MAC);
	uint64_t qemu = profile_wanted_features(LOAD_PROFILE_QEMU);
	uint64_t mixed = profile_wanted_features(LOAD_PROFILE_MIXED);

	(void)state;
	assert_int_equal(mac, BIT_ULL(VIRTIO_NET_F_CTRL_MAC_ADDR));
	assert_true(qemu & BIT_ULL(VIRTIO_NET_F_CTRL_VLAN));
	assert_true(qemu & BIT_ULL(VIRTIO_NET_F_MQ));
	assert_true(qemu & BIT_ULL(VIRTIO_NET_F_GUEST_CSUM));
	assert_true(profile_wanted_features(LOAD_PROFILE_VLAN) &
		    BIT_ULL(VIRTIO_NET_F_CTRL_VLAN));
	/* QEMU loads the hash state, never coalescing; mixed does both. */
	assert_int_equal(qemu & HASH_FEATURES, HASH_FEATURES);
	assert_int_equal(qemu & COAL_FEATURES, 0);
	assert_int_equal(mixed & (HASH_FEATURES | COAL_FEATURES),
			 HASH_FEATURES | COAL_FEATURES);
	assert_int_equal(mac & (HASH_FEATURES | COAL_FEATURES), 0);
}

static void feature_prerequisites(void **state)
{
	(void)state;
	/* Everything control-queue related needs CTRL_VQ. */
	assert_int_equal(
		net_features_drop_unmet(BIT_ULL(VIRTIO_NET_F_CTRL_RX) |
					BIT_ULL(VIRTIO_NET_F_CTRL_RX_EXTRA) |
					BIT_ULL(VIRTIO_NET_F_MQ)),
		0);
	assert_int_equal(
		net_features_drop_unmet(BIT_ULL(VIRTIO_NET_F_CTRL_VQ) |
					BIT_ULL(VIRTIO_NET_F_CTRL_RX_EXTRA)),
		BIT_ULL(VIRTIO_NET_F_CTRL_VQ));
	/* ECN needs TSO, which needs GUEST_CSUM. */
	assert_int_equal(
		net_features_drop_unmet(BIT_ULL(VIRTIO_NET_F_GUEST_TSO4) |
					BIT_ULL(VIRTIO_NET_F_GUEST_ECN)),
		0);
	/* The device side's offloads need CSUM, RSC_EXT a TSO. */
	assert_int_equal(
		net_features_drop_unmet(BIT_ULL(VIRTIO_NET_F_HOST_TSO4) |
					BIT_ULL(VIRTIO_NET_F_RSC_EXT)),
		0);
	assert_int_equal(net_feature_needs(VIRTIO_NET_F_HOST_ECN),
			 BIT_ULL(VIRTIO_NET_F_HOST_TSO4) |
				 BIT_ULL(VIRTIO_NET_F_HOST_TSO6));
	assert_int_equal(net_feature_needs(VIRTIO_NET_F_DEVICE_STATS),
			 BIT_ULL(VIRTIO_NET_F_CTRL_VQ));
	assert_int_equal(net_feature_needs(VIRTIO_NET_F_CTRL_VQ), 0);
	assert_int_equal(net_features_drop_unmet(FULL_FEATURES), FULL_FEATURES);
}

static void feature_names_either_spelling(void **state)
{
	static const char list[] = "CTRL_VQ,MQ";

	(void)state;
	assert_int_equal(net_feature_by_name("RING_EVENT_IDX", 14),
			 VIRTIO_RING_F_EVENT_IDX);
	assert_int_equal(net_feature_by_name("EVENT_IDX", 9),
			 VIRTIO_RING_F_EVENT_IDX);
	assert_int_equal(net_feature_by_name("DEVICE_STATS", 12),
			 VIRTIO_NET_F_DEVICE_STATS);
	/* The length bounds the name: one of a comma-separated list. */
	assert_int_equal(net_feature_by_name(list, 7), VIRTIO_NET_F_CTRL_VQ);
	assert_int_equal(net_feature_by_name(list, 3), -ENOENT);
	assert_int_equal(net_feature_by_name("ctrl_vq", 7), -ENOENT);
	assert_string_equal(net_feature_spec_name(VIRTIO_RING_F_INDIRECT_DESC),
			    "INDIRECT_DESC");
	assert_string_equal(net_feature_spec_name(VIRTIO_NET_F_MQ), "MQ");
	assert_null(net_feature_spec_name(49));
	/* What the tool prints stays iproute2's. */
	assert_string_equal(net_feature_name(VIRTIO_RING_F_INDIRECT_DESC),
			    "RING_INDIRECT_DESC");
}

static void control_queue_index(void **state)
{
	(void)state;
	assert_int_equal(net_cvq_index(STOCK_FEATURES, 0), 2);
	assert_int_equal(net_cvq_index(STOCK_FEATURES, 4), 2);
	assert_int_equal(net_cvq_index(FULL_FEATURES, 4), 8);
	assert_int_equal(net_cvq_index(FULL_FEATURES, 0), 2);
	/* RSS without MQ: every pair all the same */
	assert_int_equal(net_cvq_index(BIT_ULL(VIRTIO_NET_F_RSS), 4), 8);
	assert_int_equal(net_cvq_index(BIT_ULL(VIRTIO_NET_F_HASH_REPORT), 4),
			 2);
	assert_string_equal(net_feature_name(VIRTIO_NET_F_CTRL_VQ), "CTRL_VQ");
	assert_string_equal(net_feature_name(VIRTIO_F_VERSION_1), "VERSION_1");
	assert_null(net_feature_name(50));
	assert_string_equal(backend_feature_name(VHOST_BACKEND_F_IOTLB_ASID),
			    "IOTLB_ASID");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mac_profile_sends_distinct_macs),
		cmocka_unit_test(qemu_profile_follows_qemu_order),
		cmocka_unit_test(qemu_profile_sends_rss_after_mq),
		cmocka_unit_test(qemu_profile_sends_hash_config_without_rss),
		cmocka_unit_test(qemu_profile_no_hash_state_without_mq),
		cmocka_unit_test(rss_within_the_device_limits),
		cmocka_unit_test(mixed_profile_adds_rss_and_coalescing),
		cmocka_unit_test(qemu_profile_on_stock_is_mac_only),
		cmocka_unit_test(vlan_profile_falls_back_to_mac),
		cmocka_unit_test(mixed_profile_cycles_supported_classes),
		cmocka_unit_test(nothing_allowed_is_an_error),
		cmocka_unit_test(wanted_features),
		cmocka_unit_test(feature_prerequisites),
		cmocka_unit_test(feature_names_either_spelling),
		cmocka_unit_test(control_queue_index),
	};

	return cmocka_run_group_tests_name("profile", tests, NULL, NULL);
}
