/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Device-side fault injection on the CVQ: the rules a user sets through
 * netlink (uapi/vdpa_sim_batch.h, VSB_CMD_FAULT_*), and which command
 * each one acts on. Kernel-free, so the selector is unit-tested and
 * fuzzed as the module runs it. Debian's kernels have no
 * CONFIG_FAULT_INJECTION: the selector is the module's own, in its
 * vocabulary (interval, probability, times).
 */
#ifndef VSB_FAULT_RULE_H
#define VSB_FAULT_RULE_H

#include "vsb_seam.h"
#include "uapi/vdpa_sim_batch.h"

/* A rule's class or command that matches any. */
#define VSB_FAULT_RULE_ANY 0xffff

struct vsb_fault_rule {
	u32 id;
	u8 action; /* VSB_FAULT_ACTION_* */
	u16 class; /* or VSB_FAULT_RULE_ANY */
	u16 cmd; /* or VSB_FAULT_RULE_ANY */
	u32 nth; /* 0: any count */
	u32 interval; /* 0: any count */
	u32 probability; /* parts per million; 0: always */
	u32 seed;
	u32 times; /* 0: no limit */
	u32 delay_ns;
	bool persist;
	/* counted since the rule was added */
	u64 matched;
	u64 hits;
	u32 rng; /* the generator's state, from seed */
};

struct vsb_fault_rules {
	struct vsb_fault_rule rule[VSB_FAULT_RULES_MAX];
	u32 count;
	u32 last_id;
};

const char *vsb_fault_rule_check(const struct vsb_fault_rule *rule);
int vsb_fault_rules_add(struct vsb_fault_rules *rules,
			const struct vsb_fault_rule *rule, const char **why);
void vsb_fault_rules_clear(struct vsb_fault_rules *rules);
void vsb_fault_rules_reset(struct vsb_fault_rules *rules);
const struct vsb_fault_rule *vsb_fault_rules_pick(struct vsb_fault_rules *rules,
						  u8 class, u8 cmd);
const char *vsb_fault_action_name(u8 action);

#endif /* VSB_FAULT_RULE_H */
