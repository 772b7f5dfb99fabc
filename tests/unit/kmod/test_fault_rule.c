// SPDX-License-Identifier: GPL-2.0-only
/*
 * CVQ fault rules (kmod/engine/vsb_fault_rule.c): which rules the device refuses
 * and why, and which command each selector picks -- the Nth, every Nth,
 * a seeded probability, at most so many times, first rule first -- and
 * what a device reset keeps.
 */

#include "unit.h"

#include <linux/virtio_net.h>

#include "vsb_fault_rule.h"

#define ANY VSB_FAULT_RULE_ANY

static struct vsb_fault_rule rule_of(u8 action)
{
	return (struct vsb_fault_rule){ .action = action,
					.class = ANY,
					.cmd = ANY };
}

static void add(struct vsb_fault_rules *rules, const struct vsb_fault_rule *r)
{
	const char *why = NULL;

	assert_null(vsb_fault_rule_check(r));
	assert_int_equal(vsb_fault_rules_add(rules, r, &why), 0);
}

/* The ids of the rules picked for @n commands of @class/@cmd, 0 for none. */
static void pick_n(struct vsb_fault_rules *rules, u8 class, u8 cmd,
		   unsigned int n, u32 *ids)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct vsb_fault_rule *r =
			vsb_fault_rules_pick(rules, class, cmd);

		ids[i] = r ? r->id : 0;
	}
}

static void bad_rules_say_why(void **state)
{
	static const struct {
		struct vsb_fault_rule rule;
		const char *why;
	} cases[] = {
		{ { .action = 0, .class = ANY, .cmd = ANY },
		  "unknown fault action" },
		{ { .action = VSB_FAULT_ACTION_MAX + 1,
		    .class = ANY,
		    .cmd = ANY },
		  "unknown fault action" },
		{ { .action = VSB_FAULT_ACTION_NACK, .class = 7, .cmd = ANY },
		  "unknown command class" },
		{ { .action = VSB_FAULT_ACTION_NACK, .class = 9, .cmd = ANY },
		  "unknown command class" },
		{ { .action = VSB_FAULT_ACTION_NACK, .class = 255, .cmd = ANY },
		  "unknown command class" },
		{ { .action = VSB_FAULT_ACTION_NACK, .class = ANY, .cmd = 1 },
		  "a command needs its class" },
		{ { .action = VSB_FAULT_ACTION_NACK,
		    .class = VIRTIO_NET_CTRL_MAC,
		    .cmd = 2 },
		  "unknown command of this class" },
		{ { .action = VSB_FAULT_ACTION_NACK,
		    .class = ANY,
		    .cmd = ANY,
		    .probability = VSB_FAULT_PROBABILITY_ONE + 1 },
		  "probability above 100 %" },
		{ { .action = VSB_FAULT_ACTION_DELAY, .class = ANY, .cmd = ANY },
		  "the delay action needs a delay" },
		{ { .action = VSB_FAULT_ACTION_NACK,
		    .class = ANY,
		    .cmd = ANY,
		    .delay_ns = 1 },
		  "a delay is only for the delay action" },
		{ { .action = VSB_FAULT_ACTION_DELAY,
		    .class = ANY,
		    .cmd = ANY,
		    .delay_ns = VSB_COST_MAX_NS + 1 },
		  "delay above 1 s" },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *why = vsb_fault_rule_check(&cases[i].rule);

		assert_non_null(why);
		assert_string_equal(why, cases[i].why);
	}
}

static void good_rules_pass(void **state)
{
	struct vsb_fault_rule r = rule_of(VSB_FAULT_ACTION_DELAY);
	u8 class;

	(void)state;
	r.delay_ns = VSB_COST_MAX_NS;
	r.probability = VSB_FAULT_PROBABILITY_ONE;
	assert_null(vsb_fault_rule_check(&r));
	/* Every class's last command, RSS's HASH_CONFIG included. */
	r = rule_of(VSB_FAULT_ACTION_NACK);
	r.class = VIRTIO_NET_CTRL_MQ;
	r.cmd = VIRTIO_NET_CTRL_MQ_HASH_CONFIG;
	assert_null(vsb_fault_rule_check(&r));
	for (class = 0; class <= 8; class ++) {
		r.class = class;
		r.cmd = ANY;
		assert_true(!vsb_fault_rule_check(&r) == (class != 7));
	}
}

static void sixteen_rules_at_most(void **state)
{
	struct vsb_fault_rules rules = { 0 };
	struct vsb_fault_rule r = rule_of(VSB_FAULT_ACTION_NACK);
	const char *why = NULL;
	unsigned int i;

	(void)state;
	for (i = 0; i < VSB_FAULT_RULES_MAX; i++)
		add(&rules, &r);
	assert_int_equal(rules.rule[15].id, 16);
	assert_int_equal(vsb_fault_rules_add(&rules, &r, &why), -ENOSPC);
	assert_string_equal(why, "the device holds 16 fault rules at most");
	vsb_fault_rules_clear(&rules);
	add(&rules, &r);
	/* Ids are never reused: a report names one rule only. */
	assert_int_equal(rules.rule[0].id, 17);
}

static void class_and_command_select(void **state)
{
	struct vsb_fault_rules rules = { 0 };
	struct vsb_fault_rule r = rule_of(VSB_FAULT_ACTION_NACK);

	(void)state;
	r.class = VIRTIO_NET_CTRL_MAC;
	r.cmd = VIRTIO_NET_CTRL_MAC_ADDR_SET;
	add(&rules, &r);
	assert_null(vsb_fault_rules_pick(&rules, VIRTIO_NET_CTRL_MAC,
					 VIRTIO_NET_CTRL_MAC_TABLE_SET));
	assert_null(vsb_fault_rules_pick(&rules, VIRTIO_NET_CTRL_VLAN,
					 VIRTIO_NET_CTRL_MAC_ADDR_SET));
	assert_non_null(vsb_fault_rules_pick(&rules, VIRTIO_NET_CTRL_MAC,
					     VIRTIO_NET_CTRL_MAC_ADDR_SET));
	assert_int_equal(rules.rule[0].matched, 1);
	assert_int_equal(rules.rule[0].hits, 1);
}

static void nth_every_and_times(void **state)
{
	struct vsb_fault_rules rules = { 0 };
	struct vsb_fault_rule r = rule_of(VSB_FAULT_ACTION_NACK);
	u32 ids[12];
	unsigned int i;

	(void)state;
	r.nth = 3;
	add(&rules, &r);
	pick_n(&rules, 0, 0, 6, ids);
	for (i = 0; i < 6; i++)
		assert_int_equal(ids[i], i == 2 ? 1 : 0);

	vsb_fault_rules_clear(&rules);
	r = rule_of(VSB_FAULT_ACTION_NACK);
	r.interval = 4;
	r.times = 2;
	add(&rules, &r);
	pick_n(&rules, 0, 0, 12, ids);
	for (i = 0; i < 12; i++)
		assert_int_equal(ids[i], i == 3 || i == 7 ? 2 : 0);
	assert_int_equal(rules.rule[0].matched, 12);
	assert_int_equal(rules.rule[0].hits, 2);
}

/* The first rule that fires acts; every matching rule counts. */
static void first_rule_acts_all_count(void **state)
{
	struct vsb_fault_rules rules = { 0 };
	struct vsb_fault_rule every2 = rule_of(VSB_FAULT_ACTION_NACK);
	struct vsb_fault_rule third = rule_of(VSB_FAULT_ACTION_SILENT);
	u32 ids[4];

	(void)state;
	every2.interval = 2;
	third.nth = 3;
	add(&rules, &every2);
	add(&rules, &third);
	pick_n(&rules, 0, 0, 4, ids);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[1], 1);
	assert_int_equal(ids[2], 2);
	assert_int_equal(ids[3], 1);
	assert_int_equal(rules.rule[1].matched, 4);
	/* The second rule's 2nd and 4th commands were the first's. */
	assert_int_equal(rules.rule[1].hits, 1);
}

static unsigned int hits_of(u32 seed, u32 probability, unsigned int n)
{
	struct vsb_fault_rules rules = { 0 };
	struct vsb_fault_rule r = rule_of(VSB_FAULT_ACTION_NACK);
	unsigned int i, hits = 0;

	r.seed = seed;
	r.probability = probability;
	add(&rules, &r);
	for (i = 0; i < n; i++)
		hits += vsb_fault_rules_pick(&rules, 0, 0) != NULL;
	return hits;
}

static void probability_is_seeded(void **state)
{
	struct vsb_fault_rules a = { 0 }, b = { 0 };
	struct vsb_fault_rule r = rule_of(VSB_FAULT_ACTION_NACK);
	u32 ids_a[64], ids_b[64];
	unsigned int hits;

	(void)state;
	r.seed = 42;
	r.probability = VSB_FAULT_PROBABILITY_ONE / 4;
	add(&a, &r);
	add(&b, &r);
	pick_n(&a, 0, 0, 64, ids_a);
	pick_n(&b, 0, 0, 64, ids_b);
	assert_memory_equal(ids_a, ids_b, sizeof(ids_a));
	/* 25 % of 100000: within 1 % of it, for any seed tried. */
	hits = hits_of(42, VSB_FAULT_PROBABILITY_ONE / 4, 100000);
	assert_in_range(hits, 24000, 26000);
	hits = hits_of(0, VSB_FAULT_PROBABILITY_ONE / 4, 100000);
	assert_in_range(hits, 24000, 26000);
	assert_int_equal(hits_of(7, 1, 10000), 0);
	assert_int_equal(hits_of(7, VSB_FAULT_PROBABILITY_ONE, 1000), 1000);
	assert_true(hits_of(1, VSB_FAULT_PROBABILITY_ONE / 2, 1000) !=
			    hits_of(2, VSB_FAULT_PROBABILITY_ONE / 2, 1000) ||
		    hits_of(1, VSB_FAULT_PROBABILITY_ONE / 2, 1000) !=
			    hits_of(3, VSB_FAULT_PROBABILITY_ONE / 2, 1000));
}

static void reset_keeps_persistent_rules(void **state)
{
	struct vsb_fault_rules rules = { 0 };
	struct vsb_fault_rule r = rule_of(VSB_FAULT_ACTION_NACK);

	(void)state;
	add(&rules, &r);
	r.persist = true;
	add(&rules, &r);
	r.persist = false;
	add(&rules, &r);
	vsb_fault_rules_pick(&rules, 0, 0);
	vsb_fault_rules_reset(&rules);
	assert_int_equal(rules.count, 1);
	assert_int_equal(rules.rule[0].id, 2);
	/* Counted since it was set, not since the reset. */
	assert_int_equal(rules.rule[0].matched, 1);
}

static void action_names(void **state)
{
	(void)state;
	assert_string_equal(vsb_fault_action_name(VSB_FAULT_ACTION_REORDER),
			    "reorder");
	assert_string_equal(vsb_fault_action_name(0), "unknown");
	assert_string_equal(vsb_fault_action_name(200), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bad_rules_say_why),
		cmocka_unit_test(good_rules_pass),
		cmocka_unit_test(sixteen_rules_at_most),
		cmocka_unit_test(class_and_command_select),
		cmocka_unit_test(nth_every_and_times),
		cmocka_unit_test(first_rule_acts_all_count),
		cmocka_unit_test(probability_is_seeded),
		cmocka_unit_test(reset_keeps_persistent_rules),
		cmocka_unit_test(action_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
