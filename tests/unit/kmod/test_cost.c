// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CVQ cost model's accounting (kmod/engine/vsb_cost.c): which item each
 * command class pays, and what an operation owes -- op once, cmd and the
 * class's extra per command, priced with the model in force when it is
 * paid, nothing for an operation that completes nothing.
 */

#include "unit.h"

#include <linux/virtio_net.h>

#include "vsb_coal.h"
#include "vsb_cost.h"
#include "vsb_devstats.h"

#define US 1000U

static void classes_map_to_their_items(void **state)
{
	static const struct {
		u8 class, cmd, item;
	} cases[] = {
		{ VIRTIO_NET_CTRL_RX, VIRTIO_NET_CTRL_RX_PROMISC, VSB_COST_RX },
		{ VIRTIO_NET_CTRL_MAC, VIRTIO_NET_CTRL_MAC_ADDR_SET,
		  VSB_COST_MAC },
		{ VIRTIO_NET_CTRL_MAC, VIRTIO_NET_CTRL_MAC_TABLE_SET,
		  VSB_COST_MAC_TABLE },
		{ VIRTIO_NET_CTRL_VLAN, VIRTIO_NET_CTRL_VLAN_DEL,
		  VSB_COST_VLAN },
		{ VIRTIO_NET_CTRL_ANNOUNCE, VIRTIO_NET_CTRL_ANNOUNCE_ACK,
		  VSB_COST_ANNOUNCE },
		{ VIRTIO_NET_CTRL_MQ, VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET,
		  VSB_COST_MQ },
		{ VIRTIO_NET_CTRL_MQ, 1 /* RSS_CONFIG */, VSB_COST_RSS },
		{ VIRTIO_NET_CTRL_MQ, 2 /* HASH_CONFIG */, VSB_COST_RSS },
		{ VIRTIO_NET_CTRL_GUEST_OFFLOADS, 0, VSB_COST_OFFLOADS },
		{ VSB_CTRL_NOTF_COAL, VSB_CTRL_NOTF_COAL_TX_SET,
		  VSB_COST_COAL },
		{ VSB_CTRL_STATS, VSB_CTRL_STATS_GET, VSB_COST_STATS },
		/* no extra: an unknown class, a framing error's none */
		{ 7, 0, VSB_COST_CMD },
		{ 200, 0, VSB_COST_CMD },
		{ 0xff, 0xff, VSB_COST_CMD },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(vsb_cost_item(cases[i].class, cases[i].cmd),
				 cases[i].item);
}

static void free_model_is_free(void **state)
{
	struct vsb_cost cost = { 0 };

	(void)state;
	assert_true(vsb_cost_free(&cost));
	cost.precise = true;
	assert_true(vsb_cost_free(&cost));
	cost.ns[VSB_COST_STATS] = 1;
	assert_false(vsb_cost_free(&cost));
}

/* op 20us, cmd 1us, vlan +3us: a batch of a MAC and 3 VLANs. */
static void an_operation_pays_op_once_and_each_command(void **state)
{
	struct vsb_cost cost = { .ns = { [VSB_COST_OP] = 20 * US,
					 [VSB_COST_CMD] = 1 * US,
					 [VSB_COST_VLAN] = 3 * US } };
	struct vsb_cost_owed owed = { 0 };
	unsigned int i;

	(void)state;
	vsb_cost_count(&owed, VIRTIO_NET_CTRL_MAC,
		       VIRTIO_NET_CTRL_MAC_ADDR_SET);
	for (i = 0; i < 3; i++)
		vsb_cost_count(&owed, VIRTIO_NET_CTRL_VLAN,
			       VIRTIO_NET_CTRL_VLAN_ADD);
	assert_int_equal(vsb_cost_take(&cost, &owed), (20 + 4 + 3 * 3) * US);
	/* Paid: the next operation starts from nothing. */
	assert_int_equal(owed.cmds, 0);
	assert_int_equal(vsb_cost_take(&cost, &owed), 0);
	/* Immediate mode: one command per operation, op each time. */
	vsb_cost_count(&owed, VIRTIO_NET_CTRL_RX, VIRTIO_NET_CTRL_RX_PROMISC);
	assert_int_equal(vsb_cost_take(&cost, &owed), 21 * US);
}

/* Counted under one model, priced with the one in force at payment. */
static void priced_when_paid(void **state)
{
	struct vsb_cost cost = { 0 };
	struct vsb_cost_owed owed = { 0 };

	(void)state;
	vsb_cost_count(&owed, VIRTIO_NET_CTRL_MQ,
		       VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET);
	cost.ns[VSB_COST_MQ] = 7 * US;
	cost.ns[VSB_COST_OP] = 100 * US;
	assert_int_equal(vsb_cost_take(&cost, &owed), 107 * US);
}

/* The largest model and a full ring of the dearest class: no overflow. */
static void largest_operation_fits(void **state)
{
	struct vsb_cost cost;
	struct vsb_cost_owed owed = { 0 };
	unsigned int i;

	(void)state;
	for (i = 0; i < VSB_COST_ITEMS; i++)
		cost.ns[i] = VSB_COST_MAX_NS;
	for (i = 0; i < 4096; i++)
		vsb_cost_count(&owed, VIRTIO_NET_CTRL_VLAN,
			       VIRTIO_NET_CTRL_VLAN_ADD);
	assert_true(vsb_cost_take(&cost, &owed) ==
		    (u64)VSB_COST_MAX_NS * (1 + 2 * 4096));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classes_map_to_their_items),
		cmocka_unit_test(free_model_is_free),
		cmocka_unit_test(an_operation_pays_op_once_and_each_command),
		cmocka_unit_test(priced_when_paid),
		cmocka_unit_test(largest_operation_fits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
