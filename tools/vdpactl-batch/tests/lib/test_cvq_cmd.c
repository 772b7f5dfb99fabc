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
	assert_null(cvq_cmd_name(99, 0));
	assert_int_equal(cvq_cmd_feature(VIRTIO_NET_CTRL_VLAN, 7), -1);
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
		cmocka_unit_test(encode_refuses_a_short_buffer),
		cmocka_unit_test(names_and_features),
		cmocka_unit_test(descriptions_name_the_argument),
	};

	return cmocka_run_group_tests_name("cvq_cmd", tests, NULL, NULL);
}
