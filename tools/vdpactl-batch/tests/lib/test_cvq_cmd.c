// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Control virtqueue command encoding, names and feature requirements.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/compat.h"
#include "lib/cvq_cmd.h"

/* @want is a string literal of the expected bytes; its NUL is not. */
#define expect_wire(c, want) expect_bytes(c, want, sizeof(want) - 1)

static void expect_bytes(const struct cvq_cmd *c, const char *want,
			 size_t want_len)
{
	uint8_t buf[CVQ_DATA_MAX + 2];

	assert_int_equal(cvq_cmd_size(c), want_len);
	assert_int_equal(cvq_cmd_encode(c, buf, sizeof(buf)), want_len);
	assert_memory_equal(buf, want, want_len);
}

static void mac_addr_set(void **state)
{
	static const uint8_t mac[MAC_LEN] = { 0x02, 0, 0, 0, 0, 0x1e };
	/* class MAC (1), command ADDR_SET (1), the address */
	static const char want[] = "\x01\x01\x02\x00\x00\x00\x00\x1e";
	struct cvq_cmd c;

	(void)state;
	cvq_cmd_mac_addr_set(&c, mac);
	expect_wire(&c, want);
}

static void mac_table_set(void **state)
{
	static const uint8_t uc[1][MAC_LEN] = { { 2, 0, 0, 0, 0, 1 } };
	static const uint8_t mc[2][MAC_LEN] = { { 1, 0, 0x5e, 0, 0, 1 },
						{ 0x33, 0x33, 0, 0, 0, 1 } };
	/* MAC (1) TABLE_SET (0), le32 1 + unicast, le32 2 + multicast */
	static const char want[] = "\x01\x00"
				   "\x01\x00\x00\x00\x02\x00\x00\x00\x00\x01"
				   "\x02\x00\x00\x00\x01\x00\x5e\x00\x00\x01"
				   "\x33\x33\x00\x00\x00\x01";
	struct cvq_cmd c;

	(void)state;
	assert_int_equal(cvq_cmd_mac_table_set(&c, uc, 1, mc, 2), 0);
	expect_wire(&c, want);
	assert_int_equal(cvq_cmd_mac_table_set(&c, uc, CVQ_MAC_TABLE_MAX + 1,
					       mc, 0),
			 -E2BIG);
}

static void little_endian_payloads(void **state)
{
	/* VLAN (2) ADD (0) / DEL (1), le16 vid */
	static const char vlan[] = "\x02\x00\x34\x12";
	static const char vlan_del[] = "\x02\x01\x05\x00";
	/* MQ (4) VQ_PAIRS_SET (0), le16 pairs */
	static const char mq[] = "\x04\x00\x04\x00";
	/* GUEST_OFFLOADS (5) SET (0), le64 */
	static const char offloads[] =
		"\x05\x00\x02\x01\x00\x00\x00\x00\x00\x80";
	struct cvq_cmd c;

	(void)state;
	cvq_cmd_vlan(&c, true, 0x1234);
	expect_wire(&c, vlan);
	cvq_cmd_vlan(&c, false, 5);
	expect_wire(&c, vlan_del);
	cvq_cmd_mq_pairs(&c, 4);
	expect_wire(&c, mq);
	cvq_cmd_guest_offloads(&c, 0x8000000000000102ULL);
	expect_wire(&c, offloads);
}

static void rx_modes(void **state)
{
	/* RX (0) PROMISC (0) / ALLUNI (2), u8 on */
	static const char promisc_off[] = "\x00\x00\x00";
	static const char alluni_on[] = "\x00\x02\x01";
	struct cvq_cmd c;

	(void)state;
	cvq_cmd_rx_mode(&c, VIRTIO_NET_CTRL_RX_PROMISC, false);
	expect_wire(&c, promisc_off);
	cvq_cmd_rx_mode(&c, VIRTIO_NET_CTRL_RX_ALLUNI, true);
	expect_wire(&c, alluni_on);
}

static void rss_config(void **state)
{
	static const uint16_t table[2] = { 1, 0x0302 };
	static const uint8_t key[4] = { 0x6d, 0x5a, 0x56, 0xda };
	const struct cvq_rss rss = {
		.hash_types = VIRTIO_NET_RSS_HASH_TYPE_IPv4 |
			      VIRTIO_NET_RSS_HASH_TYPE_TCPv6,
		.unclassified_queue = 1,
		.table_len = 2,
		.table = table,
		.max_tx_vq = 2,
		.key_len = sizeof(key),
		.key = key,
	};
	/*
	 * MQ (4) RSS_CONFIG (1): le32 hash_types, le16 mask 1, le16
	 * unclassified_queue, two le16 entries, le16 max_tx_vq, u8 key
	 * length, the key.
	 */
	static const char want[] = "\x04\x01"
				   "\x11\x00\x00\x00"
				   "\x01\x00\x01\x00"
				   "\x01\x00\x02\x03"
				   "\x02\x00\x04"
				   "\x6d\x5a\x56\xda";
	struct cvq_cmd c;

	(void)state;
	assert_int_equal(cvq_cmd_rss_config(&c, &rss), 0);
	expect_wire(&c, want);
}

static void rss_config_bounds(void **state)
{
	static uint16_t table[CVQ_RSS_TABLE_MAX * 2];
	static uint8_t key[CVQ_RSS_KEY_MAX + 1];
	struct cvq_rss rss = {
		.table = table,
		.max_tx_vq = 1,
		.key = key,
	};
	struct cvq_cmd c;

	(void)state;
	/* The largest command there is fits, to the byte. */
	rss.table_len = CVQ_RSS_TABLE_MAX;
	rss.key_len = CVQ_RSS_KEY_MAX;
	assert_int_equal(cvq_cmd_rss_config(&c, &rss), 0);
	assert_int_equal(c.data_len, CVQ_RSS_DATA_MAX);
	assert_true(CVQ_RSS_DATA_MAX <= CVQ_DATA_MAX);
	assert_true(CVQ_MAC_TABLE_DATA_MAX <= CVQ_DATA_MAX);
	/* The mask is the length less one: a power of 2, not 0. */
	rss.table_len = 3;
	assert_int_equal(cvq_cmd_rss_config(&c, &rss), -EINVAL);
	rss.table_len = 0;
	assert_int_equal(cvq_cmd_rss_config(&c, &rss), -EINVAL);
	rss.table_len = 2 * CVQ_RSS_TABLE_MAX;
	assert_int_equal(cvq_cmd_rss_config(&c, &rss), -E2BIG);
	rss.table_len = 1;
	rss.key_len = CVQ_RSS_KEY_MAX + 1;
	assert_int_equal(cvq_cmd_rss_config(&c, &rss), -E2BIG);
	assert_int_equal(cvq_cmd_hash_config(&c, 0, key, CVQ_RSS_KEY_MAX + 1),
			 -E2BIG);
}

static void hash_config(void **state)
{
	static const uint8_t key[3] = { 1, 2, 3 };
	/* MQ (4) HASH_CONFIG (2): le32 types, le16 reserved[4], key length, key */
	static const char want[] = "\x04\x02"
				   "\x3f\x00\x00\x00"
				   "\x00\x00\x00\x00\x00\x00\x00\x00"
				   "\x03\x01\x02\x03";
	struct cvq_cmd c;

	(void)state;
	assert_int_equal(cvq_cmd_hash_config(&c, 0x3f, key, sizeof(key)), 0);
	expect_wire(&c, want);
}

static void notification_coalescing(void **state)
{
	/* NOTF_COAL (6) TX_SET (0) / RX_SET (1): le32 packets, le32 usecs */
	static const char tx[] = "\x06\x00\x10\x00\x00\x00\xa0\x86\x01\x00";
	static const char rx[] = "\x06\x01\x01\x00\x00\x00\x00\x00\x00\x00";
	/* VQ_SET (2): le16 vq_index, le16 reserved, then the same. */
	static const char vq[] = "\x06\x02\x07\x00\x00\x00"
				 "\x20\x00\x00\x00\x08\x01\x00\x00";
	struct cvq_cmd c;

	(void)state;
	cvq_cmd_notf_coal(&c, true, 16, 100000);
	expect_wire(&c, tx);
	cvq_cmd_notf_coal(&c, false, 1, 0);
	expect_wire(&c, rx);
	cvq_cmd_notf_coal_vq(&c, 7, 32, 264);
	expect_wire(&c, vq);
}

static void encode_refuses_a_short_buffer(void **state)
{
	static const uint8_t mac[MAC_LEN] = { 0 };
	uint8_t buf[8];
	struct cvq_cmd c;

	(void)state;
	cvq_cmd_mac_addr_set(&c, mac);
	assert_int_equal(cvq_cmd_encode(&c, buf, 7), 0);
	assert_int_equal(cvq_cmd_encode(&c, buf, 8), 8);
}

static void names_and_features(void **state)
{
	(void)state;
	assert_string_equal(cvq_cmd_name(VIRTIO_NET_CTRL_MAC,
					 VIRTIO_NET_CTRL_MAC_ADDR_SET),
			    "MAC_ADDR_SET");
	assert_int_equal(cvq_cmd_feature(VIRTIO_NET_CTRL_MAC,
					 VIRTIO_NET_CTRL_MAC_ADDR_SET),
			 VIRTIO_NET_F_CTRL_MAC_ADDR);
	/* The spec puts the MAC table under CTRL_RX, not CTRL_MAC_ADDR. */
	assert_int_equal(cvq_cmd_feature(VIRTIO_NET_CTRL_MAC,
					 VIRTIO_NET_CTRL_MAC_TABLE_SET),
			 VIRTIO_NET_F_CTRL_RX);
	assert_int_equal(cvq_cmd_feature(VIRTIO_NET_CTRL_RX,
					 VIRTIO_NET_CTRL_RX_NOBCAST),
			 VIRTIO_NET_F_CTRL_RX_EXTRA);
	assert_int_equal(cvq_cmd_feature(VIRTIO_NET_CTRL_MQ,
					 VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET),
			 VIRTIO_NET_F_MQ);
	assert_string_equal(cvq_cmd_name(VIRTIO_NET_CTRL_MQ,
					 VIRTIO_NET_CTRL_MQ_RSS_CONFIG),
			    "RSS_CONFIG");
	assert_int_equal(cvq_cmd_feature(VIRTIO_NET_CTRL_MQ,
					 VIRTIO_NET_CTRL_MQ_RSS_CONFIG),
			 VIRTIO_NET_F_RSS);
	assert_string_equal(cvq_cmd_name(VIRTIO_NET_CTRL_MQ,
					 VIRTIO_NET_CTRL_MQ_HASH_CONFIG),
			    "HASH_CONFIG");
	assert_int_equal(cvq_cmd_feature(VIRTIO_NET_CTRL_MQ,
					 VIRTIO_NET_CTRL_MQ_HASH_CONFIG),
			 VIRTIO_NET_F_HASH_REPORT);
	assert_string_equal(cvq_cmd_name(VIRTIO_NET_CTRL_NOTF_COAL,
					 VIRTIO_NET_CTRL_NOTF_COAL_RX_SET),
			    "NOTF_COAL_RX_SET");
	assert_int_equal(cvq_cmd_feature(VIRTIO_NET_CTRL_NOTF_COAL,
					 VIRTIO_NET_CTRL_NOTF_COAL_TX_SET),
			 VIRTIO_NET_F_NOTF_COAL);
	/* Per-queue commands have a feature of their own. */
	assert_string_equal(cvq_cmd_name(VIRTIO_NET_CTRL_NOTF_COAL,
					 VIRTIO_NET_CTRL_NOTF_COAL_VQ_SET),
			    "NOTF_COAL_VQ_SET");
	assert_int_equal(cvq_cmd_feature(VIRTIO_NET_CTRL_NOTF_COAL,
					 VIRTIO_NET_CTRL_NOTF_COAL_VQ_SET),
			 VIRTIO_NET_F_VQ_NOTF_COAL);
	assert_null(cvq_cmd_name(99, 0));
	assert_int_equal(cvq_cmd_feature(VIRTIO_NET_CTRL_VLAN, 7), -1);
}

/* Classes and commands by name, in any case, and names or numbers back. */
static void lookups_by_name(void **state)
{
	char buf[CVQ_CODE_LEN];
	uint8_t class = 0xee, cmd;

	(void)state;
	assert_int_equal(cvq_class_by_name("MAC", &class), 0);
	assert_int_equal(class, VIRTIO_NET_CTRL_MAC);
	assert_int_equal(cvq_class_by_name("guest_offloads", &class), 0);
	assert_int_equal(class, VIRTIO_NET_CTRL_GUEST_OFFLOADS);
	assert_int_equal(cvq_class_by_name("Stats", &class), 0);
	assert_int_equal(class, VIRTIO_NET_CTRL_STATS);
	assert_int_equal(cvq_class_by_name("MA", &class), -ENOENT);
	assert_int_equal(cvq_class_by_name("", &class), -ENOENT);
	assert_int_equal(class, VIRTIO_NET_CTRL_STATS); /* untouched */
	assert_null(cvq_class_name(7));
	assert_string_equal(cvq_class_name(VIRTIO_NET_CTRL_NOTF_COAL),
			    "NOTF_COAL");

	/* By the tool's name or the spec's, within the class. */
	assert_int_equal(
		cvq_cmd_by_name(VIRTIO_NET_CTRL_VLAN, "vlan_del", &cmd), 0);
	assert_int_equal(cmd, VIRTIO_NET_CTRL_VLAN_DEL);
	assert_int_equal(cvq_cmd_by_name(VIRTIO_NET_CTRL_VLAN, "add", &cmd), 0);
	assert_int_equal(cmd, VIRTIO_NET_CTRL_VLAN_ADD);
	assert_int_equal(
		cvq_cmd_by_name(VIRTIO_NET_CTRL_MQ, "VQ_PAIRS_SET", &cmd), 0);
	assert_int_equal(cmd, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET);
	assert_int_equal(
		cvq_cmd_by_name(VIRTIO_NET_CTRL_MQ, "rss_config", &cmd), 0);
	assert_int_equal(cmd, VIRTIO_NET_CTRL_MQ_RSS_CONFIG);
	assert_int_equal(cvq_cmd_by_name(VIRTIO_NET_CTRL_RX, "Promisc", &cmd),
			 0);
	assert_int_equal(cmd, VIRTIO_NET_CTRL_RX_PROMISC);
	assert_int_equal(cvq_cmd_by_name(VIRTIO_NET_CTRL_GUEST_OFFLOADS, "set",
					 &cmd),
			 0);
	assert_int_equal(cmd, VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET);
	cmd = 0xee;
	assert_int_equal(cvq_cmd_by_name(VIRTIO_NET_CTRL_MAC, "VLAN_ADD", &cmd),
			 -ENOENT);
	assert_int_equal(cvq_cmd_by_name(VIRTIO_NET_CTRL_MAC, "add", &cmd),
			 -ENOENT);
	assert_int_equal(cvq_cmd_by_name(VIRTIO_NET_CTRL_MAC, "MAC_", &cmd),
			 -ENOENT);
	assert_int_equal(cvq_cmd_by_name(9, "ADD", &cmd), -ENOENT);
	assert_int_equal(cmd, 0xee); /* untouched */

	assert_string_equal(
		cvq_class_format(VIRTIO_NET_CTRL_RX, buf, sizeof(buf)), "RX");
	assert_string_equal(cvq_class_format(200, buf, sizeof(buf)), "200");
	assert_string_equal(cvq_cmd_format(VIRTIO_NET_CTRL_MAC,
					   VIRTIO_NET_CTRL_MAC_ADDR_SET, buf,
					   sizeof(buf)),
			    "MAC_ADDR_SET");
	assert_string_equal(
		cvq_cmd_format(VIRTIO_NET_CTRL_VLAN, 9, buf, sizeof(buf)), "9");
}

static void descriptions_name_the_argument(void **state)
{
	static const uint8_t mac[MAC_LEN] = { 0x02, 0, 0, 0, 0x01, 0xab };
	static const uint8_t uc[2][MAC_LEN] = { { 0 } };
	char buf[96];
	struct cvq_cmd c;

	(void)state;
	cvq_cmd_mac_addr_set(&c, mac);
	cvq_cmd_describe(&c, buf, sizeof(buf));
	assert_string_equal(buf, "MAC_ADDR_SET 02:00:00:00:01:ab");
	cvq_cmd_vlan(&c, true, 100);
	cvq_cmd_describe(&c, buf, sizeof(buf));
	assert_string_equal(buf, "VLAN_ADD 100");
	cvq_cmd_guest_offloads(&c, 2);
	cvq_cmd_describe(&c, buf, sizeof(buf));
	assert_string_equal(buf, "GUEST_OFFLOADS_SET 0x2");
	cvq_cmd_mac_table_set(&c, uc, 2, uc, 0);
	cvq_cmd_describe(&c, buf, sizeof(buf));
	assert_string_equal(buf, "MAC_TABLE_SET 2 unicast 0 multicast");
	c.class = 42;
	c.cmd = 3;
	cvq_cmd_describe(&c, buf, sizeof(buf));
	assert_string_equal(buf, "class 42 command 3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mac_addr_set),
		cmocka_unit_test(mac_table_set),
		cmocka_unit_test(little_endian_payloads),
		cmocka_unit_test(rx_modes),
		cmocka_unit_test(rss_config),
		cmocka_unit_test(rss_config_bounds),
		cmocka_unit_test(hash_config),
		cmocka_unit_test(notification_coalescing),
		cmocka_unit_test(encode_refuses_a_short_buffer),
		cmocka_unit_test(names_and_features),
		cmocka_unit_test(lookups_by_name),
		cmocka_unit_test(descriptions_name_the_argument),
	};

	return cmocka_run_group_tests_name("cvq_cmd", tests, NULL, NULL);
}
