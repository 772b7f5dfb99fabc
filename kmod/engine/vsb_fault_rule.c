// SPDX-License-Identifier: GPL-2.0-only
/*
 * CVQ fault rules (vsb_fault_rule.h): checking a rule, keeping a device's
 * list, and picking the rule that acts on a command. Kernel-free.
 */

#include "vsb_fault_rule.h"
#include "vsb_coal.h"
#include "vsb_devstats.h"

/*
 * The commands of each class the device knows, numbered from 0 without
 * a gap; a class not here is no class of virtio-net.
 */
static const u8 vsb_fault_class_cmds[] = {
	[VIRTIO_NET_CTRL_RX] = VIRTIO_NET_CTRL_RX_NOBCAST + 1,
	[VIRTIO_NET_CTRL_MAC] = VIRTIO_NET_CTRL_MAC_ADDR_SET + 1,
	[VIRTIO_NET_CTRL_VLAN] = VIRTIO_NET_CTRL_VLAN_DEL + 1,
	[VIRTIO_NET_CTRL_ANNOUNCE] = VIRTIO_NET_CTRL_ANNOUNCE_ACK + 1,
	/* VQ_PAIRS_SET, RSS_CONFIG, HASH_CONFIG */
	[VIRTIO_NET_CTRL_MQ] = 3,
	[VIRTIO_NET_CTRL_GUEST_OFFLOADS] =
		VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET + 1,
	[VSB_CTRL_NOTF_COAL] = VSB_CTRL_NOTF_COAL_VQ_GET + 1,
	[VSB_CTRL_STATS] = VSB_CTRL_STATS_GET + 1,
};

static const char *const vsb_fault_action_names[] = {
	[VSB_FAULT_ACTION_NACK] = "nack",
	[VSB_FAULT_ACTION_STALL] = "stall",
	[VSB_FAULT_ACTION_DELAY] = "delay",
	[VSB_FAULT_ACTION_REORDER] = "reorder",
	[VSB_FAULT_ACTION_SILENT] = "silent",
	[VSB_FAULT_ACTION_RESET] = "reset",
};

const char *vsb_fault_action_name(u8 action)
{
	if (action >= ARRAY_SIZE(vsb_fault_action_names) ||
	    !vsb_fault_action_names[action])
		return "unknown";
	return vsb_fault_action_names[action];
}

/**
 * vsb_fault_rule_check - what is wrong with a rule a user asks for
 * @rule: the rule, as netlink gave it
 *
 * Return: NULL if the device can hold it, else the reason, for extack.
 */
const char *vsb_fault_rule_check(const struct vsb_fault_rule *rule)
{
	if (rule->action == VSB_FAULT_ACTION_UNSPEC ||
	    rule->action > VSB_FAULT_ACTION_MAX)
		return "unknown fault action";
	if (rule->class != VSB_FAULT_RULE_ANY &&
	    (rule->class >= ARRAY_SIZE(vsb_fault_class_cmds) ||
	     !vsb_fault_class_cmds[rule->class]))
		return "unknown command class";
	if (rule->cmd != VSB_FAULT_RULE_ANY) {
		if (rule->class == VSB_FAULT_RULE_ANY)
			return "a command needs its class";
		if (rule->cmd >= vsb_fault_class_cmds[rule->class])
			return "unknown command of this class";
	}
	if (rule->probability > VSB_FAULT_PROBABILITY_ONE)
		return "probability above 100 %";
	if (rule->action != VSB_FAULT_ACTION_DELAY && rule->delay_ns)
		return "a delay is only for the delay action";
	if (rule->action == VSB_FAULT_ACTION_DELAY && !rule->delay_ns)
		return "the delay action needs a delay";
	if (rule->delay_ns > VSB_COST_MAX_NS)
		return "delay above 1 s";
	return NULL;
}

/**
 * vsb_fault_rules_add - append a rule, its counts from zero
 * @rules: the device's rules
 * @rule: a rule vsb_fault_rule_check() found good
 * @why: set to the reason on failure
 *
 * Return: 0, or -ENOSPC with VSB_FAULT_RULES_MAX rules already set.
 */
int vsb_fault_rules_add(struct vsb_fault_rules *rules,
			const struct vsb_fault_rule *rule, const char **why)
{
	struct vsb_fault_rule *r;

	if (rules->count == VSB_FAULT_RULES_MAX) {
		*why = "the device holds 16 fault rules at most";
		return -ENOSPC;
	}
	r = &rules->rule[rules->count++];
	*r = *rule;
	r->id = ++rules->last_id;
	r->matched = 0;
	r->hits = 0;
	/* xorshift32 needs a state other than 0; any seed is one. */
	r->rng = rule->seed ^ 0x9e3779b9;
	if (!r->rng)
		r->rng = 1;
	return 0;
}

void vsb_fault_rules_clear(struct vsb_fault_rules *rules)
{
	rules->count = 0;
}

/* A device reset: the rules not set to persist are dropped. */
void vsb_fault_rules_reset(struct vsb_fault_rules *rules)
{
	u32 i, kept = 0;

	for (i = 0; i < rules->count; i++)
		if (rules->rule[i].persist)
			rules->rule[kept++] = rules->rule[i];
	rules->count = kept;
}

/* Marsaglia's xorshift32: reproducible from the seed, and cheap. */
static u32 vsb_fault_rule_draw(struct vsb_fault_rule *rule)
{
	u32 x = rule->rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rule->rng = x;
	return x;
}

static bool vsb_fault_rule_matches(const struct vsb_fault_rule *rule, u8 class,
				   u8 cmd)
{
	return (rule->class == VSB_FAULT_RULE_ANY || rule->class == class) &&
	       (rule->cmd == VSB_FAULT_RULE_ANY || rule->cmd == cmd);
}

/* @rule matched the command just counted: does it fire? */
static bool vsb_fault_rule_fires(struct vsb_fault_rule *rule)
{
	if (rule->times && rule->hits >= rule->times)
		return false;
	if (rule->nth && rule->matched != rule->nth)
		return false;
	if (rule->interval && rule->matched % rule->interval)
		return false;
	/* Drawn last: the draws follow the eligible commands only. */
	if (rule->probability &&
	    (((u64)vsb_fault_rule_draw(rule) * VSB_FAULT_PROBABILITY_ONE) >>
	     32) >= rule->probability)
		return false;
	return true;
}

/**
 * vsb_fault_rules_pick - the rule that acts on a command, if any
 * @rules: the device's rules
 * @class: the command's class
 * @cmd: and command
 *
 * Every rule whose class and command match counts the command; the first
 * of them that fires acts on it (and counts a hit), the later ones only
 * count it, so that each rule's Nth is its own whatever the others do.
 *
 * Return: the rule, or NULL.
 */
const struct vsb_fault_rule *vsb_fault_rules_pick(struct vsb_fault_rules *rules,
						  u8 class, u8 cmd)
{
	struct vsb_fault_rule *picked = NULL;
	u32 i;

	for (i = 0; i < rules->count; i++) {
		struct vsb_fault_rule *rule = &rules->rule[i];

		if (!vsb_fault_rule_matches(rule, class, cmd))
			continue;
		rule->matched++;
		if (!picked && vsb_fault_rule_fires(rule)) {
			rule->hits++;
			picked = rule;
		}
	}
	return picked;
}
