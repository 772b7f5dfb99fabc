/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages of vdpa_sim_batch's own generic netlink family
 * (kmod/uapi/vdpa_sim_batch.h): building requests and parsing replies
 * into plain structs, as vdpa_msg.h does for the "vdpa" family. Replies
 * are checked strictly: a truncated or wrongly sized attribute, or a
 * missing device name, makes the whole message -EBADMSG; unknown
 * attributes are skipped.
 */
#ifndef VDPACTL_VSB_MSG_H
#define VDPACTL_VSB_MSG_H

#include <stdbool.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#include <vdpa_sim_batch.h>

#include "lib/strparse.h"
#include "netlink/vdpa_msg.h"

/* The device's MAC filter holds this many entries over both lists. */
#define VSB_MAC_ENTRIES 64
#define VSB_VLAN_BYTES 512
/* The device's RSS limits (rss_max_key_size, rss_max_indirection_table_length). */
#define VSB_RSS_KEY_LEN 40
#define VSB_RSS_TABLE_MAX 128
#define VSB_VLAN_IDS (VSB_VLAN_BYTES * 8)

/*
 * VSB_A_COST, the CVQ cost model: item[VSB_COST_OP..VSB_COST_STATS] in
 * ns, item[VSB_COST_PRECISE] 0 or 1; @present has a bit per item given.
 */
struct vsb_cost {
	uint32_t present; /* BIT(VSB_COST_*) */
	uint32_t item[VSB_COST_MAX + 1];
};

/* The first and last of the items in ns. */
#define VSB_COST_FIRST_NS VSB_COST_OP
#define VSB_COST_LAST_NS VSB_COST_STATS

static inline bool vsb_cost_has(const struct vsb_cost *cost, unsigned int item)
{
	return item <= VSB_COST_MAX && (cost->present & (1u << item));
}

static inline void vsb_cost_set(struct vsb_cost *cost, unsigned int item,
				uint32_t value)
{
	cost->item[item] = value;
	cost->present |= 1u << item;
}

/*
 * DEV_GET replies; also what DEV_SET sends (vsb_msg_put_dev_set()), a
 * change being the attributes in @present and the items in cost.present.
 */
struct vsb_dev_settings {
	nl_attr_set present;
	char name[VDPA_NAME_LEN];
	uint8_t completion; /* enum vsb_genl_completion */
	uint32_t batch_limit;
	struct vsb_cost cost; /* with VSB_A_COST */
};

/* The histograms of STATS_GET, in reply order. */
enum vsb_hist_id {
	VSB_HIST_ID_CMDS_PER_BATCH,
	VSB_HIST_ID_CMD_NS,
	VSB_HIST_ID_KICK_NS,
	VSB_HIST_ID_COST_NS, /* each operation's requested cost */
	VSB_HIST_ID_COST_REAL_NS, /* what it realized */
	VSB_HIST_IDS,
};

struct vsb_stats {
	nl_attr_set present;
	char name[VDPA_NAME_LEN];
	uint64_t stat_present; /* bit per VSB_STAT_* */
	uint64_t stat[VSB_STAT_MAX + 1];
	bool has_hist[VSB_HIST_IDS];
	uint64_t hist[VSB_HIST_IDS][VSB_HIST_BUCKETS];
};

struct vsb_mac_list {
	unsigned int n;
	bool overflow;
	uint8_t addr[VSB_MAC_ENTRIES][MAC_LEN];
};

/*
 * The part of the CVQ-set state that the skip-unchanged model
 * (load/ctrl_model.h) follows as well as STATE_GET reports it, so both
 * hold the same struct. RSS, also set through the CVQ, the model does
 * not follow.
 */
struct vsb_cvq_state {
	uint8_t mac[MAC_LEN];
	uint32_t rx_modes; /* BIT(VIRTIO_NET_CTRL_RX_*) */
	struct vsb_mac_list uni;
	struct vsb_mac_list multi;
	uint8_t vlans[VSB_VLAN_BYTES];
	uint16_t pairs;
	uint64_t offloads;
};

/* STATE_GET */
struct vsb_state {
	nl_attr_set present;
	char name[VDPA_NAME_LEN];
	uint8_t status;
	uint64_t features;
	struct vsb_cvq_state cvq;
	uint16_t max_pairs;
	bool link_up;
	bool announce_pending;
	/* with RSS or HASH_REPORT: what RSS_CONFIG or HASH_CONFIG set */
	uint32_t rss_hash_types;
	uint8_t rss_key[VSB_RSS_KEY_LEN];
	uint16_t rss_table[VSB_RSS_TABLE_MAX];
	unsigned int rss_table_len;
	uint16_t rss_unclassified;
	bool rss_steering;
};

/*
 * One CVQ fault rule (VSB_A_FAULT_RULE): what FAULT_ADD sends, and each
 * rule of a FAULT_GET reply, with its id and counters. @present has a bit
 * per VSB_FRULE_* attribute given; PERSIST is a flag, nothing more.
 */
struct vsb_fault_rule {
	nl_attr_set present;
	uint8_t action; /* enum vsb_genl_fault_action */
	uint8_t class; /* VIRTIO_NET_CTRL_* */
	uint8_t cmd;
	uint32_t nth;
	uint32_t interval;
	uint32_t probability; /* parts per million */
	uint32_t seed;
	uint32_t times;
	uint32_t delay_ns;
	/* in replies */
	uint32_t id;
	uint64_t matched;
	uint64_t hits;
};

static inline void vsb_fault_rule_give(struct vsb_fault_rule *rule,
				       unsigned int attr)
{
	rule->present |= 1ULL << attr;
}

/* A device's rules, in the order it consults them (FAULT_GET, FAULT_ADD). */
struct vsb_fault_rules {
	char name[VDPA_NAME_LEN]; /* empty if the reply did not name it */
	unsigned int n;
	struct vsb_fault_rule rule[VSB_FAULT_RULES_MAX];
};

static inline bool vsb_vlan_test(const uint8_t *vlans, unsigned int vid)
{
	return vlans[vid / 8] & (1u << (vid % 8));
}

static inline void vsb_vlan_assign(uint8_t *vlans, unsigned int vid, bool on)
{
	if (on)
		vlans[vid / 8] |= (uint8_t)(1u << (vid % 8));
	else
		vlans[vid / 8] &= (uint8_t) ~(1u << (vid % 8));
}

/* Request bodies; @nlh comes from nl_gen_prepare(). */
void vsb_msg_put_dev_name(struct nlmsghdr *nlh, const char *name);
/*
 * DEV_SET for @set->name: COMPLETION and BATCH_LIMIT when in
 * @set->present, and when VSB_A_COST is, a VSB_A_COST nest with only the
 * items in set->cost.present (the kernel changes only those).
 */
void vsb_msg_put_dev_set(struct nlmsghdr *nlh,
			 const struct vsb_dev_settings *set);
void vsb_msg_put_link(struct nlmsghdr *nlh, const char *name, bool up);
/*
 * FAULT_ADD of @rule to @name: a VSB_A_FAULT_RULE nest with what @rule
 * gives, its settings only (never the id or the counters of a reply).
 */
void vsb_msg_put_fault_add(struct nlmsghdr *nlh, const char *name,
			   const struct vsb_fault_rule *rule);

/* Reply parsers: 0, or -EBADMSG with @what naming the problem. */
int vsb_msg_parse_dev(const struct nlmsghdr *nlh, struct vsb_dev_settings *dev,
		      const char **what);
int vsb_msg_parse_stats(const struct nlmsghdr *nlh, struct vsb_stats *stats,
			const char **what);
int vsb_msg_parse_state(const struct nlmsghdr *nlh, struct vsb_state *state,
			const char **what);
/* FAULT_GET and FAULT_ADD replies; the device name is optional in them. */
int vsb_msg_parse_fault_rules(const struct nlmsghdr *nlh,
			      struct vsb_fault_rules *rules, const char **what);
/* One VSB_A_FAULT_RULE nest; it must give an action. */
int vsb_msg_parse_fault_rule(const struct nlattr *nest,
			     struct vsb_fault_rule *rule, const char **what);

/* Names for output; "bit_N"-style fallbacks are the caller's. */
const char *vsb_completion_name(uint8_t completion);
/* The stat's JSON/text name, NULL for a stat this tool does not know. */
const char *vsb_stat_name(unsigned int stat);
const char *vsb_hist_name(enum vsb_hist_id id);
/*
 * A cost item's keyword ("op", "mac_table", "precise"), NULL for one
 * this tool does not know; JSON adds "_ns" to the items in ns.
 */
const char *vsb_cost_name(unsigned int item);
/* "nack", "stall", "delay", ...; NULL for an action this tool does not know. */
const char *vsb_fault_action_name(unsigned int action);

#endif
