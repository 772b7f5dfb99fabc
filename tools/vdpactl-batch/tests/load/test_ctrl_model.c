// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The skip-unchanged planner: which commands of a load change the state
 * the device reported, and that the model keeps up across loads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/compat.h"
#include "lib/util.h"
#include "load/ctrl_model.h"
#include "load/profile.h"

#define MAX_CMDS 4200

static struct cvq_cmd cmds[MAX_CMDS];
static unsigned int order[MAX_CMDS];

/* A device just after reset: as vdpa_sim_batch reports it. */
static void fresh_state(struct vsb_state *st)
{
	*st = (struct vsb_state){
		.present = 1ULL << VSB_A_DEV_NAME | 1ULL << VSB_A_MAC |
			   1ULL << VSB_A_RX_MODES | 1ULL << VSB_A_VLANS |
			   1ULL << VSB_A_PAIRS | 1ULL << VSB_A_MAX_PAIRS |
			   1ULL << VSB_A_OFFLOADS,
		.cvq.mac = { 2, 0, 0, 0, 0, 0x10 },
		.cvq.rx_modes = 1u << VIRTIO_NET_CTRL_RX_PROMISC,
		.cvq.pairs = 1,
		.max_pairs = 1,
		.cvq.offloads = 1ULL << VIRTIO_NET_F_GUEST_CSUM |
				1ULL << VIRTIO_NET_F_GUEST_TSO4,
	};
}

/* A model seeded from that state, left in @st. */
static void fresh_model(struct ctrl_model *m, struct vsb_state *st)
{
	fresh_state(st);
	ctrl_model_init(m);
	ctrl_model_set_state(m, st);
}

static void unknown_state_sends_everything_once(void **state)
{
	static const uint8_t mac[MAC_LEN] = { 2, 0, 0, 0, 0, 1 };
	struct ctrl_model m;

	(void)state;
	ctrl_model_init(&m);
	cvq_cmd_vlan(&cmds[0], true, 5);
	cvq_cmd_mq_pairs(&cmds[1], 1);
	cvq_cmd_rx_mode(&cmds[2], VIRTIO_NET_CTRL_RX_ALLMULTI, false);
	cvq_cmd_mac_addr_set(&cmds[3], mac);
	cvq_cmd_guest_offloads(&cmds[4], 0);
	assert_int_equal(ctrl_model_plan(&m, cmds, 5, order), 5);
	assert_int_equal(ctrl_model_plan(&m, cmds, 5, order), 0);
	/* Announce acks are events, never state: always sent. */
	cmds[5] = (struct cvq_cmd){ .class = VIRTIO_NET_CTRL_ANNOUNCE,
				    .cmd = VIRTIO_NET_CTRL_ANNOUNCE_ACK };
	assert_int_equal(ctrl_model_plan(&m, cmds, 6, order), 1);
	assert_int_equal(order[0], 5);
}

static void config_mac_only(void **state)
{
	static const uint8_t same[MAC_LEN] = { 2, 0, 0, 0, 0, 0x10 };
	static const uint8_t other[MAC_LEN] = { 2, 0, 0, 0, 0, 0x11 };
	struct ctrl_model m;

	(void)state;
	ctrl_model_init(&m);
	ctrl_model_set_mac(&m, same);
	cvq_cmd_mac_addr_set(&cmds[0], same);
	cvq_cmd_mac_addr_set(&cmds[1], other);
	cvq_cmd_mac_addr_set(&cmds[2], other);
	cvq_cmd_mac_addr_set(&cmds[3], same);
	cvq_cmd_rx_mode(&cmds[4], VIRTIO_NET_CTRL_RX_PROMISC, true);
	assert_int_equal(ctrl_model_plan(&m, cmds, 5, order), 3);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 3);
	assert_int_equal(order[2], 4); /* RX modes unknown: sent */
}

/*
 * Without the device's state, an RX command tells only its own mode: one
 * that turns promiscuous mode on says nothing of allmulti, so turning
 * allmulti off afterwards must still be sent.
 */
static void rx_modes_are_known_one_by_one(void **state)
{
	struct ctrl_model m;

	(void)state;
	ctrl_model_init(&m);
	cvq_cmd_rx_mode(&cmds[0], VIRTIO_NET_CTRL_RX_PROMISC, true);
	cvq_cmd_rx_mode(&cmds[1], VIRTIO_NET_CTRL_RX_ALLMULTI, false);
	cvq_cmd_rx_mode(&cmds[2], VIRTIO_NET_CTRL_RX_PROMISC, true);
	assert_int_equal(ctrl_model_plan(&m, cmds, 3, order), 2);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 1);
	/* Both told now: the same load again changes nothing. */
	assert_int_equal(ctrl_model_plan(&m, cmds, 3, order), 0);
}

static void state_decides_each_class(void **state)
{
	static const uint8_t uni[][MAC_LEN] = { { 2, 0, 0, 0xaa, 0, 1 } };
	struct vsb_state st;
	struct ctrl_model m;

	(void)state;
	fresh_model(&m, &st);
	/* Defaults: nothing changes. */
	cvq_cmd_rx_mode(&cmds[0], VIRTIO_NET_CTRL_RX_PROMISC, true);
	cvq_cmd_rx_mode(&cmds[1], VIRTIO_NET_CTRL_RX_ALLMULTI, false);
	cvq_cmd_mq_pairs(&cmds[2], 1);
	cvq_cmd_guest_offloads(&cmds[3], st.cvq.offloads);
	cvq_cmd_vlan(&cmds[4], false, 9);
	cvq_cmd_mac_table_set(&cmds[5], NULL, 0, NULL, 0);
	cvq_cmd_mac_addr_set(&cmds[6], st.cvq.mac);
	assert_int_equal(ctrl_model_plan(&m, cmds, 7, order), 0);
	/* Changes: each sent once, then in place. */
	cvq_cmd_rx_mode(&cmds[0], VIRTIO_NET_CTRL_RX_PROMISC, false);
	cvq_cmd_vlan(&cmds[1], true, 9);
	cvq_cmd_mac_table_set(&cmds[2], uni, 1, NULL, 0);
	cvq_cmd_guest_offloads(&cmds[3], 0);
	cvq_cmd_vlan(&cmds[4], true, 9); /* already added by cmds[1] */
	assert_int_equal(ctrl_model_plan(&m, cmds, 5, order), 4);
	assert_int_equal(order[3], 3);
	assert_int_equal(ctrl_model_plan(&m, cmds, 5, order), 0);
	assert_true(vsb_vlan_test(m.state.vlans, 9));
	assert_int_equal(m.state.uni.n, 1);
}

static void mac_table_overflow_rules(void **state)
{
	struct ctrl_model m;
	struct vsb_state st;
	struct cvq_cmd *c = &cmds[0];
	uint32_t n = 65;

	(void)state;
	fresh_model(&m, &st);
	/* 65 unicast entries overflow: the list is empty, flagged. */
	*c = (struct cvq_cmd){ .class = VIRTIO_NET_CTRL_MAC,
			       .cmd = VIRTIO_NET_CTRL_MAC_TABLE_SET };
	memcpy(c->data, &n, 4); /* host order is little-endian here */
	c->data_len = 4;
	/* Too short for its count: the device says ERR; always sent. */
	assert_true(ctrl_model_apply(&m, c));
	assert_false(m.state.uni.overflow);
	st.cvq.uni.overflow = true;
	ctrl_model_set_state(&m, &st);
	cvq_cmd_mac_table_set(&cmds[1], NULL, 0, NULL, 0);
	assert_true(ctrl_model_apply(&m, &cmds[1]));
	assert_false(m.state.uni.overflow);
}

static void qemu_profile_rounds(void **state)
{
	struct profile_env env = {
		.features = BIT_ULL(VIRTIO_NET_F_CTRL_MAC_ADDR) |
			    BIT_ULL(VIRTIO_NET_F_CTRL_RX) |
			    BIT_ULL(VIRTIO_NET_F_CTRL_RX_EXTRA) |
			    BIT_ULL(VIRTIO_NET_F_CTRL_VLAN) |
			    BIT_ULL(VIRTIO_NET_F_CTRL_GUEST_OFFLOADS) |
			    BIT_ULL(VIRTIO_NET_F_GUEST_CSUM) |
			    BIT_ULL(VIRTIO_NET_F_GUEST_TSO4),
		.max_vqp = 1,
	};
	char note[PROFILE_NOTE_LEN];
	unsigned int count = 6 + 4095, sent;
	struct vsb_state st;
	struct ctrl_model m;

	(void)state;
	assert_int_equal(
		profile_build(LOAD_PROFILE_QEMU, count, &env, cmds, note), 0);
	fresh_model(&m, &st);
	sent = ctrl_model_plan(&m, cmds, count, order);
	/*
	 * Six set-up commands (no MQ_VQ_PAIRS_SET: MQ is not negotiated),
	 * each changing something: the MAC differs, the table is new,
	 * offloads drop TSO4, promisc goes off, allmulti and alluni come on.
	 * Then 4095 VLAN_ADDs: the last wraps around to VLAN 1, already on.
	 */
	assert_int_equal(sent, count - 1);
	assert_int_equal(order[sent - 1], count - 2);
	assert_int_equal(ctrl_model_plan(&m, cmds, count, order), 0);
	assert_int_equal(m.state.offloads, BIT_ULL(VIRTIO_NET_F_GUEST_CSUM));
	assert_int_equal(m.state.rx_modes,
			 1u << VIRTIO_NET_CTRL_RX_ALLMULTI |
				 1u << VIRTIO_NET_CTRL_RX_ALLUNI);
}

/*
 * RSS_CONFIG and the coalescing commands set state the model does not
 * follow: always sent. RSS_CONFIG puts its own pairs in force, and
 * VQ_PAIRS_SET ends its steering, so the VQ_PAIRS_SET after one is sent
 * even with the pairs the model had.
 */
static void rss_config_makes_the_pairs_unknown(void **state)
{
	static const uint16_t table[1] = { 0 };
	const struct cvq_rss rss = {
		.table_len = 1,
		.table = table,
		.max_tx_vq = 1,
	};
	struct vsb_state st;
	struct ctrl_model m;

	(void)state;
	fresh_model(&m, &st);
	cvq_cmd_mq_pairs(&cmds[0], 1);
	assert_int_equal(ctrl_model_plan(&m, cmds, 1, order), 0);
	assert_int_equal(cvq_cmd_rss_config(&cmds[0], &rss), 0);
	cvq_cmd_mq_pairs(&cmds[1], 1);
	cvq_cmd_mq_pairs(&cmds[2], 1);
	cvq_cmd_notf_coal(&cmds[3], true, 1, 8);
	assert_int_equal(ctrl_model_plan(&m, cmds, 4, order), 3);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 3);
}

/*
 * A load planned VLAN_ADD 9 twice (sent once) and a new MAC; the device
 * refused the VLAN_ADD and took the MAC. Settled, the model has the MAC
 * but not VLAN 9, so the next plan sends VLAN_ADD 9 again, and not the
 * MAC; with every ack OK it would have sent neither.
 */
static void refused_commands_are_not_applied(void **state)
{
	static const uint8_t mac[MAC_LEN] = { 2, 0, 0, 0, 0, 0x42 };
	uint8_t acks[3] = { VIRTIO_NET_ERR, CVQ_ACK_UNSET, VIRTIO_NET_OK };
	struct ctrl_model m, before;
	struct vsb_state st;
	unsigned int n;

	(void)state;
	fresh_model(&m, &st);
	cvq_cmd_vlan(&cmds[0], true, 9);
	cvq_cmd_vlan(&cmds[1], true, 9);
	cvq_cmd_mac_addr_set(&cmds[2], mac);
	before = m;
	n = ctrl_model_plan(&m, cmds, 3, order);
	assert_int_equal(n, 2);
	assert_int_equal(order[0], 0);
	assert_int_equal(order[1], 2);
	assert_true(vsb_vlan_test(m.state.vlans, 9)); /* as planned */

	ctrl_model_settle(&m, &before, cmds, order, n, acks);
	assert_false(vsb_vlan_test(m.state.vlans, 9));
	assert_memory_equal(m.state.mac, mac, MAC_LEN);
	before = m;
	assert_int_equal(ctrl_model_plan(&m, cmds, 3, order), 1);
	assert_int_equal(order[0], 0);

	/* Both acked OK this time: nothing left to send. */
	acks[0] = VIRTIO_NET_OK;
	ctrl_model_settle(&m, &before, cmds, order, 1, acks);
	assert_true(vsb_vlan_test(m.state.vlans, 9));
	assert_int_equal(ctrl_model_plan(&m, cmds, 3, order), 0);
}

/* The model against the device's report: the first part known to differ. */
static void differs_names_the_part(void **state)
{
	static const uint8_t mac[MAC_LEN] = { 2, 0, 0, 0, 0, 0x42 };
	struct ctrl_model m, dev, blind;
	struct vsb_state st;

	(void)state;
	fresh_model(&m, &st);
	fresh_model(&dev, &st);
	assert_null(ctrl_model_differs(&m, &dev));
	cvq_cmd_vlan(&cmds[0], true, 9);
	ctrl_model_apply(&m, &cmds[0]);
	assert_string_equal(ctrl_model_differs(&m, &dev), "vlans");
	cvq_cmd_mac_addr_set(&cmds[1], mac);
	ctrl_model_apply(&m, &cmds[1]);
	assert_string_equal(ctrl_model_differs(&m, &dev), "mac");
	m.state.pairs = 2;
	m.state.mac[5] = st.cvq.mac[5];
	vsb_vlan_assign(m.state.vlans, 9, false);
	assert_string_equal(ctrl_model_differs(&m, &dev), "pairs");
	/* A part one side does not know cannot differ. */
	ctrl_model_init(&blind);
	assert_null(ctrl_model_differs(&m, &blind));
	assert_null(ctrl_model_differs(&blind, &dev));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unknown_state_sends_everything_once),
		cmocka_unit_test(config_mac_only),
		cmocka_unit_test(rx_modes_are_known_one_by_one),
		cmocka_unit_test(state_decides_each_class),
		cmocka_unit_test(mac_table_overflow_rules),
		cmocka_unit_test(qemu_profile_rounds),
		cmocka_unit_test(rss_config_makes_the_pairs_unknown),
		cmocka_unit_test(refused_commands_are_not_applied),
		cmocka_unit_test(differs_names_the_part),
	};

	return cmocka_run_group_tests_name("ctrl_model", tests, NULL, NULL);
}
