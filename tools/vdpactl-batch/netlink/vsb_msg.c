// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vdpa_sim_batch generic netlink messages.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <linux/genetlink.h>

#include "lib/util.h"
#include "netlink/nl_attr.h"
#include "netlink/vsb_msg.h"

static const struct nl_attr_rule vsb_rules[VSB_A_MAX + 1] = {
	[VSB_A_DEV_NAME] = { NL_ATTR_STRING, 0 },
	[VSB_A_COMPLETION] = { NL_ATTR_FIXED, 1 },
	[VSB_A_BATCH_LIMIT] = { NL_ATTR_FIXED, 4 },
	[VSB_A_STATS] = { NL_ATTR_NEST, 0 },
	[VSB_A_HIST_CMDS_PER_BATCH] = { NL_ATTR_NEST, 0 },
	[VSB_A_HIST_CMD_NS] = { NL_ATTR_NEST, 0 },
	[VSB_A_HIST_KICK_NS] = { NL_ATTR_NEST, 0 },
	[VSB_A_STATUS] = { NL_ATTR_FIXED, 1 },
	[VSB_A_FEATURES] = { NL_ATTR_FIXED, 8 },
	[VSB_A_MAC] = { NL_ATTR_FIXED, MAC_LEN },
	[VSB_A_RX_MODES] = { NL_ATTR_FIXED, 4 },
	[VSB_A_UNI_MACS] = { NL_ATTR_NEST, 0 },
	[VSB_A_MULTI_MACS] = { NL_ATTR_NEST, 0 },
	[VSB_A_UNI_OVERFLOW] = { NL_ATTR_FLAG, 0 },
	[VSB_A_MULTI_OVERFLOW] = { NL_ATTR_FLAG, 0 },
	[VSB_A_VLANS] = { NL_ATTR_FIXED, VSB_VLAN_BYTES },
	[VSB_A_PAIRS] = { NL_ATTR_FIXED, 2 },
	[VSB_A_MAX_PAIRS] = { NL_ATTR_FIXED, 2 },
	[VSB_A_OFFLOADS] = { NL_ATTR_FIXED, 8 },
	[VSB_A_LINK] = { NL_ATTR_FIXED, 1 },
	[VSB_A_ANNOUNCE_PENDING] = { NL_ATTR_FLAG, 0 },
	[VSB_A_RSS_HASH_TYPES] = { NL_ATTR_FIXED, 4 },
	[VSB_A_RSS_KEY] = { NL_ATTR_FIXED, VSB_RSS_KEY_LEN },
	[VSB_A_RSS_TABLE] = { NL_ATTR_ARRAY, 2, 2 * VSB_RSS_TABLE_MAX },
	[VSB_A_RSS_UNCLASSIFIED] = { NL_ATTR_FIXED, 2 },
	[VSB_A_RSS_STEERING] = { NL_ATTR_FLAG, 0 },
	[VSB_A_COST] = { NL_ATTR_NEST, 0 },
	[VSB_A_HIST_COST_NS] = { NL_ATTR_NEST, 0 },
	[VSB_A_HIST_COST_REAL_NS] = { NL_ATTR_NEST, 0 },
	[VSB_A_FAULT_RULE] = { NL_ATTR_NEST, 0 },
	[VSB_A_FAULT_RULES] = { NL_ATTR_NEST, 0 },
};

static const struct nl_attr_policy vsb_policy = {
	.rules = vsb_rules,
	.max = VSB_A_MAX,
	.pad = VSB_A_PAD,
	.str_max = VDPA_NAME_LEN,
};

/* Last-one-wins table of the known top-level attributes. */
struct vsb_table {
	const struct nlattr *tb[VSB_A_MAX + 1];
	nl_attr_set present;
};

/* The table of a reply about one device, which must name it in @name. */
static int parse_dev_table(const struct nlmsghdr *nlh, struct vsb_table *t,
			   char name[VDPA_NAME_LEN], const char **what)
{
	static const int required[] = { VSB_A_DEV_NAME };
	int err;

	err = nl_attr_parse(nlh, &vsb_policy, t->tb, &t->present, required,
			    ARRAY_SIZE(required), what);
	if (err)
		return err;
	snprintf(name, VDPA_NAME_LEN, "%s",
		 mnl_attr_get_str(t->tb[VSB_A_DEV_NAME]));
	return 0;
}

static int cost_visit(const struct nlattr *attr, void *data, const char **what)
{
	struct vsb_cost *cost = data;
	uint16_t type = mnl_attr_get_type(attr);
	uint16_t len = mnl_attr_get_payload_len(attr);

	if (type >= VSB_COST_FIRST_NS && type <= VSB_COST_LAST_NS) {
		if (len != sizeof(uint32_t)) {
			*what = "cost item of the wrong size";
			return -EBADMSG;
		}
		vsb_cost_set(cost, type, mnl_attr_get_u32(attr));
	} else if (type == VSB_COST_PRECISE) {
		if (len != sizeof(uint8_t)) {
			*what = "cost item of the wrong size";
			return -EBADMSG;
		}
		vsb_cost_set(cost, type, mnl_attr_get_u8(attr) ? 1 : 0);
	}
	/* type 0 and a newer kernel's items are skipped */
	return 0;
}

int vsb_msg_parse_dev(const struct nlmsghdr *nlh, struct vsb_dev_settings *dev,
		      const char **what)
{
	struct vsb_table t;
	int err;

	*dev = (struct vsb_dev_settings){ 0 };
	err = parse_dev_table(nlh, &t, dev->name, what);
	if (err)
		return err;
	dev->present = t.present;
	if (t.tb[VSB_A_COMPLETION])
		dev->completion = mnl_attr_get_u8(t.tb[VSB_A_COMPLETION]);
	if (t.tb[VSB_A_BATCH_LIMIT])
		dev->batch_limit = mnl_attr_get_u32(t.tb[VSB_A_BATCH_LIMIT]);
	if (t.tb[VSB_A_COST])
		return nl_attr_walk_nest(t.tb[VSB_A_COST], cost_visit,
					 &dev->cost, what);
	return 0;
}

static int stat_visit(const struct nlattr *attr, void *data, const char **what)
{
	struct vsb_stats *s = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (type == VSB_STAT_UNSPEC || type == VSB_STAT_PAD ||
	    type > VSB_STAT_MAX)
		return 0;
	if (mnl_attr_get_payload_len(attr) != sizeof(uint64_t)) {
		*what = "statistic of the wrong size";
		return -EBADMSG;
	}
	s->stat[type] = mnl_attr_get_u64(attr);
	s->stat_present |= 1ULL << type;
	return 0;
}

struct hist_walk {
	uint64_t *buckets;
	unsigned int n;
};

static int bucket_visit(const struct nlattr *attr, void *data,
			const char **what)
{
	struct hist_walk *h = data;

	if (mnl_attr_get_type(attr) != VSB_HIST_BUCKET)
		return 0;
	if (mnl_attr_get_payload_len(attr) != sizeof(uint64_t)) {
		*what = "histogram bucket of the wrong size";
		return -EBADMSG;
	}
	if (h->n == VSB_HIST_BUCKETS) {
		*what = "too many histogram buckets";
		return -EBADMSG;
	}
	h->buckets[h->n++] = mnl_attr_get_u64(attr);
	return 0;
}

static const int hist_attr[VSB_HIST_IDS] = {
	[VSB_HIST_ID_CMDS_PER_BATCH] = VSB_A_HIST_CMDS_PER_BATCH,
	[VSB_HIST_ID_CMD_NS] = VSB_A_HIST_CMD_NS,
	[VSB_HIST_ID_KICK_NS] = VSB_A_HIST_KICK_NS,
	[VSB_HIST_ID_COST_NS] = VSB_A_HIST_COST_NS,
	[VSB_HIST_ID_COST_REAL_NS] = VSB_A_HIST_COST_REAL_NS,
};

int vsb_msg_parse_stats(const struct nlmsghdr *nlh, struct vsb_stats *stats,
			const char **what)
{
	struct vsb_table t;
	unsigned int i;
	int err;

	*stats = (struct vsb_stats){ 0 };
	err = parse_dev_table(nlh, &t, stats->name, what);
	if (err)
		return err;
	stats->present = t.present;
	if (t.tb[VSB_A_STATS]) {
		err = nl_attr_walk_nest(t.tb[VSB_A_STATS], stat_visit, stats,
					what);
		if (err)
			return err;
	}
	for (i = 0; i < VSB_HIST_IDS; i++) {
		struct hist_walk h = { .buckets = stats->hist[i] };

		if (!t.tb[hist_attr[i]])
			continue;
		err = nl_attr_walk_nest(t.tb[hist_attr[i]], bucket_visit, &h,
					what);
		if (err)
			return err;
		if (h.n != VSB_HIST_BUCKETS) {
			*what = "too few histogram buckets";
			return -EBADMSG;
		}
		stats->has_hist[i] = true;
	}
	return 0;
}

static int mac_visit(const struct nlattr *attr, void *data, const char **what)
{
	struct vsb_mac_list *list = data;

	if (mnl_attr_get_type(attr) != VSB_A_MAC)
		return 0;
	if (mnl_attr_get_payload_len(attr) != MAC_LEN) {
		*what = "MAC table entry of the wrong size";
		return -EBADMSG;
	}
	if (list->n == VSB_MAC_ENTRIES) {
		*what = "too many MAC table entries";
		return -EBADMSG;
	}
	memcpy(list->addr[list->n++], mnl_attr_get_payload(attr), MAC_LEN);
	return 0;
}

static int parse_mac_list(const struct nlattr *nest, bool overflow,
			  struct vsb_mac_list *list, const char **what)
{
	list->overflow = overflow;
	return nest ? nl_attr_walk_nest(nest, mac_visit, list, what) : 0;
}

static void parse_rss(const struct nlattr *const *tb, struct vsb_state *state)
{
	const struct nlattr *table = tb[VSB_A_RSS_TABLE];

	if (tb[VSB_A_RSS_HASH_TYPES])
		state->rss_hash_types =
			mnl_attr_get_u32(tb[VSB_A_RSS_HASH_TYPES]);
	if (tb[VSB_A_RSS_KEY])
		memcpy(state->rss_key, mnl_attr_get_payload(tb[VSB_A_RSS_KEY]),
		       VSB_RSS_KEY_LEN);
	if (table) {
		state->rss_table_len = mnl_attr_get_payload_len(table) / 2;
		memcpy(state->rss_table, mnl_attr_get_payload(table),
		       2 * state->rss_table_len);
	}
	if (tb[VSB_A_RSS_UNCLASSIFIED])
		state->rss_unclassified =
			mnl_attr_get_u16(tb[VSB_A_RSS_UNCLASSIFIED]);
	state->rss_steering = tb[VSB_A_RSS_STEERING];
}

int vsb_msg_parse_state(const struct nlmsghdr *nlh, struct vsb_state *state,
			const char **what)
{
	const struct nlattr *const *tb;
	struct vsb_table t;
	int err;

	*state = (struct vsb_state){ 0 };
	err = parse_dev_table(nlh, &t, state->name, what);
	if (err)
		return err;
	tb = t.tb;
	state->present = t.present;
	if (tb[VSB_A_STATUS])
		state->status = mnl_attr_get_u8(tb[VSB_A_STATUS]);
	if (tb[VSB_A_FEATURES])
		state->features = mnl_attr_get_u64(tb[VSB_A_FEATURES]);
	if (tb[VSB_A_MAC])
		memcpy(state->cvq.mac, mnl_attr_get_payload(tb[VSB_A_MAC]),
		       MAC_LEN);
	if (tb[VSB_A_RX_MODES])
		state->cvq.rx_modes = mnl_attr_get_u32(tb[VSB_A_RX_MODES]);
	if (tb[VSB_A_VLANS])
		memcpy(state->cvq.vlans, mnl_attr_get_payload(tb[VSB_A_VLANS]),
		       VSB_VLAN_BYTES);
	if (tb[VSB_A_PAIRS])
		state->cvq.pairs = mnl_attr_get_u16(tb[VSB_A_PAIRS]);
	if (tb[VSB_A_MAX_PAIRS])
		state->max_pairs = mnl_attr_get_u16(tb[VSB_A_MAX_PAIRS]);
	if (tb[VSB_A_OFFLOADS])
		state->cvq.offloads = mnl_attr_get_u64(tb[VSB_A_OFFLOADS]);
	if (tb[VSB_A_LINK])
		state->link_up = mnl_attr_get_u8(tb[VSB_A_LINK]);
	state->announce_pending = tb[VSB_A_ANNOUNCE_PENDING];
	parse_rss(tb, state);
	err = parse_mac_list(tb[VSB_A_UNI_MACS], tb[VSB_A_UNI_OVERFLOW],
			     &state->cvq.uni, what);
	if (!err)
		err = parse_mac_list(tb[VSB_A_MULTI_MACS],
				     tb[VSB_A_MULTI_OVERFLOW],
				     &state->cvq.multi, what);
	return err;
}

static const struct nl_attr_rule frule_rules[VSB_FRULE_MAX + 1] = {
	[VSB_FRULE_ACTION] = { NL_ATTR_FIXED, 1 },
	[VSB_FRULE_CLASS] = { NL_ATTR_FIXED, 1 },
	[VSB_FRULE_CMD] = { NL_ATTR_FIXED, 1 },
	[VSB_FRULE_NTH] = { NL_ATTR_FIXED, 4 },
	[VSB_FRULE_INTERVAL] = { NL_ATTR_FIXED, 4 },
	[VSB_FRULE_PROBABILITY] = { NL_ATTR_FIXED, 4 },
	[VSB_FRULE_SEED] = { NL_ATTR_FIXED, 4 },
	[VSB_FRULE_TIMES] = { NL_ATTR_FIXED, 4 },
	[VSB_FRULE_DELAY_NS] = { NL_ATTR_FIXED, 4 },
	[VSB_FRULE_PERSIST] = { NL_ATTR_FLAG, 0 },
	[VSB_FRULE_ID] = { NL_ATTR_FIXED, 4 },
	[VSB_FRULE_MATCHED] = { NL_ATTR_FIXED, 8 },
	[VSB_FRULE_HITS] = { NL_ATTR_FIXED, 8 },
};

static const struct nl_attr_policy frule_policy = {
	.rules = frule_rules,
	.max = VSB_FRULE_MAX,
	.pad = VSB_FRULE_PAD,
};

/* Where each field of struct vsb_fault_rule goes, by attribute and size. */
struct frule_field {
	uint16_t attr;
	uint16_t size; /* 0: a flag */
	size_t offset;
	bool reply_only; /* the kernel's counters, never sent */
};

#define FRULE_FIELD(attr, field, reply_only)                               \
	{                                                                  \
		attr, sizeof(((struct vsb_fault_rule *)0)->field),         \
			offsetof(struct vsb_fault_rule, field), reply_only \
	}

static const struct frule_field frule_fields[] = {
	FRULE_FIELD(VSB_FRULE_ACTION, action, false),
	FRULE_FIELD(VSB_FRULE_CLASS, class, false),
	FRULE_FIELD(VSB_FRULE_CMD, cmd, false),
	FRULE_FIELD(VSB_FRULE_NTH, nth, false),
	FRULE_FIELD(VSB_FRULE_INTERVAL, interval, false),
	FRULE_FIELD(VSB_FRULE_PROBABILITY, probability, false),
	FRULE_FIELD(VSB_FRULE_SEED, seed, false),
	FRULE_FIELD(VSB_FRULE_TIMES, times, false),
	FRULE_FIELD(VSB_FRULE_DELAY_NS, delay_ns, false),
	{ VSB_FRULE_PERSIST, 0, 0, false },
	FRULE_FIELD(VSB_FRULE_ID, id, true),
	FRULE_FIELD(VSB_FRULE_MATCHED, matched, true),
	FRULE_FIELD(VSB_FRULE_HITS, hits, true),
};

int vsb_msg_parse_fault_rule(const struct nlattr *nest,
			     struct vsb_fault_rule *rule, const char **what)
{
	const struct nlattr *tb[VSB_FRULE_MAX + 1];
	uint8_t *base = (uint8_t *)rule;
	unsigned int i;
	int err;

	*rule = (struct vsb_fault_rule){ 0 };
	err = nl_attr_parse_nest(nest, &frule_policy, tb, &rule->present, NULL,
				 0, what);
	if (err)
		return err;
	if (!tb[VSB_FRULE_ACTION]) {
		*what = "fault rule without an action";
		return -EBADMSG;
	}
	for (i = 0; i < ARRAY_SIZE(frule_fields); i++) {
		const struct nlattr *attr = tb[frule_fields[i].attr];

		/* The policy checked the sizes. */
		if (attr && frule_fields[i].size)
			memcpy(base + frule_fields[i].offset,
			       mnl_attr_get_payload(attr),
			       frule_fields[i].size);
	}
	return 0;
}

static int fault_rule_visit(const struct nlattr *attr, void *data,
			    const char **what)
{
	struct vsb_fault_rules *rules = data;

	if (mnl_attr_get_type(attr) != VSB_A_FAULT_RULE)
		return 0;
	if (rules->n == VSB_FAULT_RULES_MAX) {
		*what = "too many fault rules";
		return -EBADMSG;
	}
	return vsb_msg_parse_fault_rule(attr, &rules->rule[rules->n++], what);
}

int vsb_msg_parse_fault_rules(const struct nlmsghdr *nlh,
			      struct vsb_fault_rules *rules, const char **what)
{
	struct vsb_table t;
	int err;

	*rules = (struct vsb_fault_rules){ 0 };
	err = nl_attr_parse(nlh, &vsb_policy, t.tb, &t.present, NULL, 0, what);
	if (err)
		return err;
	if (t.tb[VSB_A_DEV_NAME])
		snprintf(rules->name, sizeof(rules->name), "%s",
			 mnl_attr_get_str(t.tb[VSB_A_DEV_NAME]));
	if (!t.tb[VSB_A_FAULT_RULES])
		return 0;
	return nl_attr_walk_nest(t.tb[VSB_A_FAULT_RULES], fault_rule_visit,
				 rules, what);
}

void vsb_msg_put_dev_name(struct nlmsghdr *nlh, const char *name)
{
	mnl_attr_put_strz(nlh, VSB_A_DEV_NAME, name);
}

static void put_cost(struct nlmsghdr *nlh, const struct vsb_cost *cost)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, VSB_A_COST);
	unsigned int i;

	for (i = VSB_COST_FIRST_NS; i <= VSB_COST_LAST_NS; i++)
		if (vsb_cost_has(cost, i))
			mnl_attr_put_u32(nlh, (uint16_t)i, cost->item[i]);
	if (vsb_cost_has(cost, VSB_COST_PRECISE))
		mnl_attr_put_u8(nlh, VSB_COST_PRECISE,
				cost->item[VSB_COST_PRECISE] ? 1 : 0);
	mnl_attr_nest_end(nlh, nest);
}

void vsb_msg_put_dev_set(struct nlmsghdr *nlh,
			 const struct vsb_dev_settings *set)
{
	vsb_msg_put_dev_name(nlh, set->name);
	if (nl_has(set->present, VSB_A_COMPLETION))
		mnl_attr_put_u8(nlh, VSB_A_COMPLETION, set->completion);
	if (nl_has(set->present, VSB_A_BATCH_LIMIT))
		mnl_attr_put_u32(nlh, VSB_A_BATCH_LIMIT, set->batch_limit);
	if (nl_has(set->present, VSB_A_COST) && set->cost.present)
		put_cost(nlh, &set->cost);
}

void vsb_msg_put_link(struct nlmsghdr *nlh, const char *name, bool up)
{
	vsb_msg_put_dev_name(nlh, name);
	mnl_attr_put_u8(nlh, VSB_A_LINK, up);
}

void vsb_msg_put_fault_add(struct nlmsghdr *nlh, const char *name,
			   const struct vsb_fault_rule *rule)
{
	const uint8_t *base = (const uint8_t *)rule;
	struct nlattr *nest;
	unsigned int i;

	vsb_msg_put_dev_name(nlh, name);
	nest = mnl_attr_nest_start(nlh, VSB_A_FAULT_RULE);
	for (i = 0; i < ARRAY_SIZE(frule_fields); i++) {
		uint16_t attr = frule_fields[i].attr;

		if (!nl_has(rule->present, attr) || frule_fields[i].reply_only)
			continue;
		mnl_attr_put(nlh, attr, frule_fields[i].size,
			     base + frule_fields[i].offset);
	}
	mnl_attr_nest_end(nlh, nest);
}

const char *vsb_completion_name(uint8_t completion)
{
	switch (completion) {
	case VSB_COMPLETION_MODE_IMMEDIATE:
		return "immediate";
	case VSB_COMPLETION_MODE_BATCH:
		return "batch";
	}
	return "unknown";
}

static const char *const stat_names[VSB_STAT_MAX + 1] = {
	[VSB_STAT_KICKS] = "kicks",
	[VSB_STAT_WORK_RUNS] = "work_runs",
	[VSB_STAT_COMMANDS] = "commands",
	[VSB_STAT_OK] = "ok",
	[VSB_STAT_ERRORS] = "errors",
	[VSB_STAT_BATCHES] = "batches",
	[VSB_STAT_NOTIFICATIONS] = "notifications",
	[VSB_STAT_REDUNDANT] = "redundant",
	[VSB_STAT_FILTER_UPDATES] = "filter_updates",
	[VSB_STAT_COST_OPS] = "cost_ops",
	[VSB_STAT_COST_NS] = "cost_ns",
	[VSB_STAT_COST_REAL_NS] = "cost_real_ns",
	[VSB_STAT_CVQ_BUSY_NS] = "cvq_busy_ns",
	[VSB_STAT_FAULTS] = "faults",
};

const char *vsb_stat_name(unsigned int stat)
{
	return stat < ARRAY_SIZE(stat_names) ? stat_names[stat] : NULL;
}

const char *vsb_hist_name(enum vsb_hist_id id)
{
	static const char *const names[VSB_HIST_IDS] = {
		[VSB_HIST_ID_CMDS_PER_BATCH] = "cmds_per_batch",
		[VSB_HIST_ID_CMD_NS] = "cmd_ns",
		[VSB_HIST_ID_KICK_NS] = "kick_ns",
		[VSB_HIST_ID_COST_NS] = "cost_ns",
		[VSB_HIST_ID_COST_REAL_NS] = "cost_real_ns",
	};

	return id < VSB_HIST_IDS ? names[id] : NULL;
}

const char *vsb_fault_action_name(unsigned int action)
{
	static const char *const names[VSB_FAULT_ACTION_MAX + 1] = {
		[VSB_FAULT_ACTION_NACK] = "nack",
		[VSB_FAULT_ACTION_STALL] = "stall",
		[VSB_FAULT_ACTION_DELAY] = "delay",
		[VSB_FAULT_ACTION_REORDER] = "reorder",
		[VSB_FAULT_ACTION_SILENT] = "silent",
		[VSB_FAULT_ACTION_RESET] = "reset",
	};

	return action < ARRAY_SIZE(names) ? names[action] : NULL;
}

const char *vsb_cost_name(unsigned int item)
{
	static const char *const names[VSB_COST_MAX + 1] = {
		[VSB_COST_OP] = "op",
		[VSB_COST_CMD] = "cmd",
		[VSB_COST_RX] = "rx",
		[VSB_COST_MAC] = "mac",
		[VSB_COST_MAC_TABLE] = "mac_table",
		[VSB_COST_VLAN] = "vlan",
		[VSB_COST_ANNOUNCE] = "announce",
		[VSB_COST_MQ] = "mq",
		[VSB_COST_RSS] = "rss",
		[VSB_COST_OFFLOADS] = "offloads",
		[VSB_COST_COAL] = "coal",
		[VSB_COST_STATS] = "stats",
		[VSB_COST_PRECISE] = "precise",
	};

	return item < ARRAY_SIZE(names) ? names[item] : NULL;
}
