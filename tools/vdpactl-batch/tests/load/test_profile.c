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

static const char *name_of(const struct cvq_cmd *c)
{
	return cvq_cmd_name(c->class, c->cmd);
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
	assert_string_equal(note, "");
	for (i = 0; i < 9; i++)
		assert_string_equal(name_of(&cmds[i]), want[i]);
	/* MQ asks for every pair; offloads keep only what was negotiated. */
	assert_int_equal(cmds[2].data[0], 4);
	assert_int_equal(cmds[3].data[0], BIT_ULL(VIRTIO_NET_F_GUEST_CSUM));
	/* VLAN ids count from 1. */
	assert_int_equal(cmds[7].data[0], 1);
	assert_int_equal(cmds[8].data[0], 2);
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

	(void)state;
	assert_int_equal(mac, BIT_ULL(VIRTIO_NET_F_CTRL_MAC_ADDR));
	assert_true(qemu & BIT_ULL(VIRTIO_NET_F_CTRL_VLAN));
	assert_true(qemu & BIT_ULL(VIRTIO_NET_F_MQ));
	assert_true(qemu & BIT_ULL(VIRTIO_NET_F_GUEST_CSUM));
	assert_true(profile_wanted_features(LOAD_PROFILE_VLAN) &
		    BIT_ULL(VIRTIO_NET_F_CTRL_VLAN));
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
	assert_int_equal(net_features_drop_unmet(FULL_FEATURES), FULL_FEATURES);
}

static void control_queue_index(void **state)
{
	(void)state;
	assert_int_equal(net_cvq_index(STOCK_FEATURES, 0), 2);
	assert_int_equal(net_cvq_index(STOCK_FEATURES, 4), 2);
	assert_int_equal(net_cvq_index(FULL_FEATURES, 4), 8);
	assert_int_equal(net_cvq_index(FULL_FEATURES, 0), 2);
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
		cmocka_unit_test(qemu_profile_on_stock_is_mac_only),
		cmocka_unit_test(vlan_profile_falls_back_to_mac),
		cmocka_unit_test(mixed_profile_cycles_supported_classes),
		cmocka_unit_test(nothing_allowed_is_an_error),
		cmocka_unit_test(wanted_features),
		cmocka_unit_test(feature_prerequisites),
		cmocka_unit_test(control_queue_index),
	};

	return cmocka_run_group_tests_name("profile", tests, NULL, NULL);
}
