// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vdpa_sim_batch netlink replies: DEV_GET, STATS_GET with histograms,
 * STATE_GET and the CVQ fault rules, malformed ones included; requests;
 * VLAN ranges; how fault rules print.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "cli/vsb_print.h"
#include "lib/log2_hist.h"
#include "tests/netlink/genl_build.h"
#include "netlink/vsb_msg.h"

#define FAKE_FAMILY 0x21

static union genl_buf buf;

static struct nlmsghdr *start(uint8_t cmd, const char *name)
{
	struct nlmsghdr *nlh =
		genl_build_start(&buf, FAKE_FAMILY, cmd, VSB_GENL_VERSION);

	if (name)
		mnl_attr_put_strz(nlh, VSB_A_DEV_NAME, name);
	return nlh;
}

static void dev_reply(void **state)
{
	struct nlmsghdr *nlh = start(VSB_CMD_DEV_GET, "b0");
	struct vsb_dev_settings dev;
	const char *what = NULL;

	(void)state;
	mnl_attr_put_u8(nlh, VSB_A_COMPLETION, VSB_COMPLETION_MODE_IMMEDIATE);
	mnl_attr_put_u32(nlh, VSB_A_BATCH_LIMIT, 16);
	mnl_attr_put_u32(nlh, VSB_A_MAX + 3, 7); /* newer: skipped */
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), 0);
	assert_string_equal(dev.name, "b0");
	assert_int_equal(dev.completion, VSB_COMPLETION_MODE_IMMEDIATE);
	assert_int_equal(dev.batch_limit, 16);
	assert_true(nl_has(dev.present, VSB_A_BATCH_LIMIT));
	assert_string_equal(vsb_completion_name(dev.completion), "immediate");
}

static void dev_reply_errors(void **state)
{
	struct vsb_dev_settings dev;
	struct nlmsghdr *nlh;
	const char *what;

	(void)state;
	nlh = start(VSB_CMD_DEV_GET, NULL);
	mnl_attr_put_u8(nlh, VSB_A_COMPLETION, 1);
	what = NULL;
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), -EBADMSG);
	assert_string_equal(what, "mandatory attribute missing");

	nlh = start(VSB_CMD_DEV_GET, "b0");
	mnl_attr_put_u32(nlh, VSB_A_COMPLETION, 1); /* u32 for a u8 */
	what = NULL;
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), -EBADMSG);
	assert_string_equal(what, "attribute of the wrong size");

	nlh = start(VSB_CMD_DEV_GET, "b0");
	mnl_attr_put_u32(nlh, VSB_A_BATCH_LIMIT, 1);
	nlh->nlmsg_len -= 2; /* cut into the last attribute */
	what = NULL;
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), -EBADMSG);
	assert_string_equal(what, "truncated attribute");

	nlh = start(VSB_CMD_DEV_GET, NULL);
	mnl_attr_put(nlh, VSB_A_DEV_NAME, 2, "b0"); /* no NUL */
	what = NULL;
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), -EBADMSG);
	assert_string_equal(what, "string attribute without its NUL");
}

static void put_hist(struct nlmsghdr *nlh, int type, unsigned int buckets,
		     uint64_t base)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, type);
	unsigned int i;

	for (i = 0; i < buckets; i++)
		mnl_attr_put_u64(nlh, VSB_HIST_BUCKET, base + i);
	mnl_attr_nest_end(nlh, nest);
}

static void stats_reply(void **state)
{
	struct nlmsghdr *nlh = start(VSB_CMD_STATS_GET, "b0");
	struct vsb_stats stats;
	const char *what = NULL;
	struct nlattr *nest;

	(void)state;
	nest = mnl_attr_nest_start(nlh, VSB_A_STATS);
	mnl_attr_put_u64(nlh, VSB_STAT_COMMANDS, 30);
	mnl_attr_put(nlh, VSB_STAT_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, VSB_STAT_REDUNDANT, 4);
	mnl_attr_put_u64(nlh, VSB_STAT_MAX + 1, 99); /* newer: skipped */
	mnl_attr_nest_end(nlh, nest);
	put_hist(nlh, VSB_A_HIST_CMDS_PER_BATCH, VSB_HIST_BUCKETS, 0);
	put_hist(nlh, VSB_A_HIST_KICK_NS, VSB_HIST_BUCKETS, 100);
	assert_int_equal(vsb_msg_parse_stats(nlh, &stats, &what), 0);
	assert_int_equal(stats.stat[VSB_STAT_COMMANDS], 30);
	assert_int_equal(stats.stat[VSB_STAT_REDUNDANT], 4);
	assert_int_equal(stats.stat_present,
			 1ULL << VSB_STAT_COMMANDS |
				 1ULL << VSB_STAT_REDUNDANT);
	assert_true(stats.has_hist[VSB_HIST_ID_CMDS_PER_BATCH]);
	assert_false(stats.has_hist[VSB_HIST_ID_CMD_NS]);
	assert_int_equal(stats.hist[VSB_HIST_ID_CMDS_PER_BATCH][31], 31);
	assert_int_equal(stats.hist[VSB_HIST_ID_KICK_NS][0], 100);
	assert_string_equal(vsb_stat_name(VSB_STAT_REDUNDANT), "redundant");
	assert_null(vsb_stat_name(VSB_STAT_MAX + 1));
}

static void stats_reply_errors(void **state)
{
	struct vsb_stats stats;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	const char *what;

	(void)state;
	nlh = start(VSB_CMD_STATS_GET, "b0");
	put_hist(nlh, VSB_A_HIST_CMD_NS, VSB_HIST_BUCKETS - 1, 0);
	what = NULL;
	assert_int_equal(vsb_msg_parse_stats(nlh, &stats, &what), -EBADMSG);
	assert_string_equal(what, "too few histogram buckets");

	nlh = start(VSB_CMD_STATS_GET, "b0");
	put_hist(nlh, VSB_A_HIST_CMD_NS, VSB_HIST_BUCKETS + 1, 0);
	what = NULL;
	assert_int_equal(vsb_msg_parse_stats(nlh, &stats, &what), -EBADMSG);
	assert_string_equal(what, "too many histogram buckets");

	nlh = start(VSB_CMD_STATS_GET, "b0");
	nest = mnl_attr_nest_start(nlh, VSB_A_STATS);
	mnl_attr_put_u32(nlh, VSB_STAT_KICKS, 1);
	mnl_attr_nest_end(nlh, nest);
	what = NULL;
	assert_int_equal(vsb_msg_parse_stats(nlh, &stats, &what), -EBADMSG);
	assert_string_equal(what, "statistic of the wrong size");
}

static void put_macs(struct nlmsghdr *nlh, int type, unsigned int n)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, type);
	uint8_t mac[MAC_LEN] = { 2, 0, 0, 0, 0, 0 };
	unsigned int i;

	for (i = 0; i < n; i++) {
		mac[5] = (uint8_t)i;
		mnl_attr_put(nlh, VSB_A_MAC, MAC_LEN, mac);
	}
	mnl_attr_nest_end(nlh, nest);
}

static void state_reply(void **state)
{
	static const uint8_t mac[MAC_LEN] = { 2, 0, 0, 0, 0, 0x1e };
	static const uint16_t table[] = { 0, 1, 0, 1 };
	struct nlmsghdr *nlh = start(VSB_CMD_STATE_GET, "b0");
	uint8_t key[VSB_RSS_KEY_LEN];
	uint8_t vlans[VSB_VLAN_BYTES] = { 0 };
	char text[VSB_VLAN_TEXT_LEN];
	struct vsb_state st;
	const char *what = NULL;
	unsigned int vid;

	(void)state;
	for (vid = 0; vid < sizeof(key); vid++)
		key[vid] = (uint8_t)(0x6d + vid);
	for (vid = 1; vid <= 4094; vid++)
		vsb_vlan_assign(vlans, vid, true);
	mnl_attr_put_u8(nlh, VSB_A_STATUS, 0xf);
	mnl_attr_put_u64(nlh, VSB_A_FEATURES, 1ULL << 17);
	mnl_attr_put(nlh, VSB_A_MAC, MAC_LEN, mac);
	mnl_attr_put_u32(nlh, VSB_A_RX_MODES, 3);
	put_macs(nlh, VSB_A_UNI_MACS, 2);
	put_macs(nlh, VSB_A_MULTI_MACS, 0);
	mnl_attr_put(nlh, VSB_A_MULTI_OVERFLOW, 0, NULL);
	mnl_attr_put(nlh, VSB_A_VLANS, sizeof(vlans), vlans);
	mnl_attr_put_u16(nlh, VSB_A_PAIRS, 2);
	mnl_attr_put_u16(nlh, VSB_A_MAX_PAIRS, 8);
	mnl_attr_put_u64(nlh, VSB_A_OFFLOADS, 0x2);
	mnl_attr_put_u32(nlh, VSB_A_RSS_HASH_TYPES, 0x3f);
	mnl_attr_put(nlh, VSB_A_RSS_KEY, sizeof(key), key);
	mnl_attr_put(nlh, VSB_A_RSS_TABLE, sizeof(table), table);
	mnl_attr_put_u16(nlh, VSB_A_RSS_UNCLASSIFIED, 1);
	mnl_attr_put(nlh, VSB_A_RSS_STEERING, 0, NULL);
	assert_int_equal(vsb_msg_parse_state(nlh, &st, &what), 0);
	assert_int_equal(st.status, 0xf);
	assert_memory_equal(st.cvq.mac, mac, MAC_LEN);
	assert_int_equal(st.cvq.rx_modes, 3);
	assert_int_equal(st.cvq.uni.n, 2);
	assert_int_equal(st.cvq.uni.addr[1][5], 1);
	assert_false(st.cvq.uni.overflow);
	assert_int_equal(st.cvq.multi.n, 0);
	assert_true(st.cvq.multi.overflow);
	assert_int_equal(st.cvq.pairs, 2);
	assert_int_equal(st.max_pairs, 8);
	assert_int_equal(st.cvq.offloads, 2);
	assert_int_equal(st.rss_hash_types, 0x3f);
	assert_memory_equal(st.rss_key, key, sizeof(key));
	assert_int_equal(st.rss_table_len, 4);
	assert_int_equal(st.rss_table[3], 1);
	assert_int_equal(st.rss_unclassified, 1);
	assert_true(st.rss_steering);
	assert_int_equal(format_vlan_ranges(st.cvq.vlans, text, sizeof(text)),
			 4094);
	assert_string_equal(text, "1-4094");
}

static void state_reply_errors(void **state)
{
	struct vsb_state st;
	struct nlmsghdr *nlh;
	const char *what;

	(void)state;
	nlh = start(VSB_CMD_STATE_GET, "b0");
	put_macs(nlh, VSB_A_UNI_MACS, VSB_MAC_ENTRIES + 1);
	what = NULL;
	assert_int_equal(vsb_msg_parse_state(nlh, &st, &what), -EBADMSG);
	assert_string_equal(what, "too many MAC table entries");

	nlh = start(VSB_CMD_STATE_GET, "b0");
	mnl_attr_put(nlh, VSB_A_VLANS, 64, buf.bytes + 4096);
	what = NULL;
	assert_int_equal(vsb_msg_parse_state(nlh, &st, &what), -EBADMSG);
	assert_string_equal(what, "attribute of the wrong size");

	nlh = start(VSB_CMD_STATE_GET, "b0");
	mnl_attr_put(nlh, VSB_A_RSS_TABLE, 3, buf.bytes + 4096);
	what = NULL;
	assert_int_equal(vsb_msg_parse_state(nlh, &st, &what), -EBADMSG);
	assert_string_equal(what, "array attribute of the wrong size");

	nlh = start(VSB_CMD_STATE_GET, "b0");
	mnl_attr_put(nlh, VSB_A_RSS_TABLE, 2 * VSB_RSS_TABLE_MAX + 2,
		     buf.bytes + 4096);
	what = NULL;
	assert_int_equal(vsb_msg_parse_state(nlh, &st, &what), -EBADMSG);
	assert_string_equal(what, "array attribute of the wrong size");

	nlh = start(VSB_CMD_STATE_GET, "b0");
	mnl_attr_put_u8(nlh, VSB_A_UNI_OVERFLOW, 1);
	what = NULL;
	assert_int_equal(vsb_msg_parse_state(nlh, &st, &what), -EBADMSG);
	assert_string_equal(what, "flag attribute with a payload");

	nlh = start(VSB_CMD_STATE_GET, "b0");
	nlh->nlmsg_len = sizeof(*nlh) + 2; /* no room for the genl header */
	what = NULL;
	assert_int_equal(vsb_msg_parse_state(nlh, &st, &what), -EBADMSG);
	assert_string_equal(what, "no generic netlink header");
}

static void dev_set_request(void **state)
{
	struct nlmsghdr *nlh = start(VSB_CMD_DEV_SET, NULL);
	struct vsb_dev_settings set = {
		.present = 1ULL << VSB_A_COMPLETION,
		.name = "b1",
		.completion = VSB_COMPLETION_MODE_BATCH,
		/* not sent: VSB_A_COST is not in present */
		.cost = { .present = 1u << VSB_COST_OP, .item = { 0, 5 } },
	};
	struct vsb_dev_settings dev;
	const char *what = NULL;

	(void)state;
	vsb_msg_put_dev_set(nlh, &set);
	/* The request parses as the reply it mirrors. */
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), 0);
	assert_string_equal(dev.name, "b1");
	assert_true(nl_has(dev.present, VSB_A_COMPLETION));
	assert_false(nl_has(dev.present, VSB_A_BATCH_LIMIT));
	assert_false(nl_has(dev.present, VSB_A_COST));
	assert_int_equal(dev.completion, VSB_COMPLETION_MODE_BATCH);
}

/* The first attribute of @type in the nest @nest, or NULL. */
static const struct nlattr *nest_find(const struct nlattr *nest, uint16_t type)
{
	const struct nlattr *attr;

	mnl_attr_for_each_nested(attr, nest) if (mnl_attr_get_type(attr) ==
						 type) return attr;
	return NULL;
}

static void dev_set_partial_cost(void **state)
{
	struct nlmsghdr *nlh = start(VSB_CMD_DEV_SET, NULL);
	struct vsb_dev_settings set = {
		.present = 1ULL << VSB_A_COST,
		.name = "b1",
	};
	struct vsb_dev_settings dev;
	const struct nlattr *attr, *cost = NULL;
	const char *what = NULL;
	unsigned int items = 0;

	(void)state;
	vsb_cost_set(&set.cost, VSB_COST_OP, 20000);
	vsb_cost_set(&set.cost, VSB_COST_VLAN, 0); /* 0 is a value: sent */
	vsb_cost_set(&set.cost, VSB_COST_PRECISE, 1);
	set.cost.item[VSB_COST_CMD] = 999; /* not in present: not sent */
	vsb_msg_put_dev_set(nlh, &set);

	/* On the wire: the name and one nest of exactly the three items. */
	mnl_attr_for_each(attr, nlh, GENL_HDRLEN)
	{
		assert_true(mnl_attr_get_type(attr) == VSB_A_DEV_NAME ||
			    mnl_attr_get_type(attr) == VSB_A_COST);
		if (mnl_attr_get_type(attr) == VSB_A_COST) {
			assert_null(cost);
			cost = attr;
		}
	}
	assert_non_null(cost);
	mnl_attr_for_each_nested(attr, cost) items++;
	assert_int_equal(items, 3);
	attr = nest_find(cost, VSB_COST_OP);
	assert_non_null(attr);
	assert_int_equal(mnl_attr_get_payload_len(attr), 4);
	assert_int_equal(mnl_attr_get_u32(attr), 20000);
	attr = nest_find(cost, VSB_COST_VLAN);
	assert_non_null(attr);
	assert_int_equal(mnl_attr_get_u32(attr), 0);
	attr = nest_find(cost, VSB_COST_PRECISE);
	assert_non_null(attr);
	assert_int_equal(mnl_attr_get_payload_len(attr), 1);
	assert_int_equal(mnl_attr_get_u8(attr), 1);
	assert_null(nest_find(cost, VSB_COST_CMD));

	/* ... and parses back as the partial model it is. */
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), 0);
	assert_true(nl_has(dev.present, VSB_A_COST));
	assert_false(nl_has(dev.present, VSB_A_COMPLETION));
	assert_int_equal(dev.cost.present, 1u << VSB_COST_OP |
						   1u << VSB_COST_VLAN |
						   1u << VSB_COST_PRECISE);
	assert_int_equal(dev.cost.item[VSB_COST_OP], 20000);
	assert_int_equal(dev.cost.item[VSB_COST_PRECISE], 1);

	/* A change without items sends no nest at all. */
	nlh = start(VSB_CMD_DEV_SET, NULL);
	set.cost.present = 0;
	vsb_msg_put_dev_set(nlh, &set);
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), 0);
	assert_false(nl_has(dev.present, VSB_A_COST));
}

static void dev_reply_with_cost(void **state)
{
	struct nlmsghdr *nlh = start(VSB_CMD_DEV_GET, "b0");
	struct vsb_dev_settings dev;
	const char *what = NULL;
	struct nlattr *nest;
	unsigned int i;

	(void)state;
	mnl_attr_put_u8(nlh, VSB_A_COMPLETION, VSB_COMPLETION_MODE_BATCH);
	mnl_attr_put_u32(nlh, VSB_A_BATCH_LIMIT, 0);
	nest = mnl_attr_nest_start(nlh, VSB_A_COST);
	for (i = VSB_COST_OP; i <= VSB_COST_STATS; i++)
		mnl_attr_put_u32(nlh, (uint16_t)i,
				 i == VSB_COST_OP   ? 20000 :
				 i == VSB_COST_CMD  ? 1000 :
				 i == VSB_COST_VLAN ? 3000 :
						      0);
	mnl_attr_put_u8(nlh, VSB_COST_PRECISE, 0);
	mnl_attr_put_u32(nlh, VSB_COST_MAX + 1, 5); /* newer: skipped */
	mnl_attr_nest_end(nlh, nest);
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), 0);
	assert_true(nl_has(dev.present, VSB_A_COST));
	assert_int_equal(dev.cost.present, (1u << (VSB_COST_MAX + 1)) - 2);
	assert_int_equal(dev.cost.item[VSB_COST_OP], 20000);
	assert_int_equal(dev.cost.item[VSB_COST_CMD], 1000);
	assert_int_equal(dev.cost.item[VSB_COST_VLAN], 3000);
	assert_int_equal(dev.cost.item[VSB_COST_MQ], 0);
	assert_int_equal(dev.cost.item[VSB_COST_PRECISE], 0);
	assert_string_equal(vsb_cost_name(VSB_COST_MAC_TABLE), "mac_table");
	assert_string_equal(vsb_cost_name(VSB_COST_PRECISE), "precise");
	assert_null(vsb_cost_name(VSB_COST_UNSPEC));
	assert_null(vsb_cost_name(VSB_COST_MAX + 1));

	/* A reply without the nest (an older module): no cost model. */
	nlh = start(VSB_CMD_DEV_GET, "b0");
	mnl_attr_put_u8(nlh, VSB_A_COMPLETION, VSB_COMPLETION_MODE_BATCH);
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), 0);
	assert_false(nl_has(dev.present, VSB_A_COST));
	assert_int_equal(dev.cost.present, 0);
}

static void dev_reply_cost_errors(void **state)
{
	struct vsb_dev_settings dev;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	const char *what;

	(void)state;
	nlh = start(VSB_CMD_DEV_GET, "b0");
	nest = mnl_attr_nest_start(nlh, VSB_A_COST);
	mnl_attr_put_u64(nlh, VSB_COST_OP, 1); /* u64 for a u32 */
	mnl_attr_nest_end(nlh, nest);
	what = NULL;
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), -EBADMSG);
	assert_string_equal(what, "cost item of the wrong size");

	nlh = start(VSB_CMD_DEV_GET, "b0");
	nest = mnl_attr_nest_start(nlh, VSB_A_COST);
	mnl_attr_put_u32(nlh, VSB_COST_PRECISE, 1); /* u32 for a u8 */
	mnl_attr_nest_end(nlh, nest);
	what = NULL;
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), -EBADMSG);
	assert_string_equal(what, "cost item of the wrong size");

	nlh = start(VSB_CMD_DEV_GET, "b0");
	nest = mnl_attr_nest_start(nlh, VSB_A_COST);
	mnl_attr_put_u32(nlh, VSB_COST_OP, 1);
	mnl_attr_nest_end(nlh, nest);
	nest->nla_len -= 2; /* the nest cuts into its item */
	what = NULL;
	assert_int_equal(vsb_msg_parse_dev(nlh, &dev, &what), -EBADMSG);
}

static void stats_reply_cost(void **state)
{
	struct nlmsghdr *nlh = start(VSB_CMD_STATS_GET, "b0");
	struct vsb_stats stats;
	const char *what = NULL;
	struct nlattr *nest;

	(void)state;
	nest = mnl_attr_nest_start(nlh, VSB_A_STATS);
	mnl_attr_put_u64(nlh, VSB_STAT_COST_OPS, 10);
	mnl_attr_put_u64(nlh, VSB_STAT_COST_NS, 200000);
	mnl_attr_put_u64(nlh, VSB_STAT_COST_REAL_NS, 260000);
	mnl_attr_put_u64(nlh, VSB_STAT_CVQ_BUSY_NS, 40000);
	mnl_attr_nest_end(nlh, nest);
	put_hist(nlh, VSB_A_HIST_COST_NS, VSB_HIST_BUCKETS, 0);
	put_hist(nlh, VSB_A_HIST_COST_REAL_NS, VSB_HIST_BUCKETS, 1000);
	assert_int_equal(vsb_msg_parse_stats(nlh, &stats, &what), 0);
	assert_int_equal(stats.stat[VSB_STAT_COST_OPS], 10);
	assert_int_equal(stats.stat[VSB_STAT_COST_NS], 200000);
	assert_int_equal(stats.stat[VSB_STAT_COST_REAL_NS], 260000);
	assert_int_equal(stats.stat[VSB_STAT_CVQ_BUSY_NS], 40000);
	assert_true(stats.has_hist[VSB_HIST_ID_COST_NS]);
	assert_true(stats.has_hist[VSB_HIST_ID_COST_REAL_NS]);
	assert_false(stats.has_hist[VSB_HIST_ID_KICK_NS]);
	assert_int_equal(stats.hist[VSB_HIST_ID_COST_NS][31], 31);
	assert_int_equal(stats.hist[VSB_HIST_ID_COST_REAL_NS][0], 1000);
	assert_string_equal(vsb_stat_name(VSB_STAT_CVQ_BUSY_NS), "cvq_busy_ns");
	assert_string_equal(vsb_stat_name(VSB_STAT_FAULTS), "faults");
	assert_string_equal(vsb_stat_name(VSB_STAT_COST_REAL_NS),
			    "cost_real_ns");
	assert_string_equal(vsb_hist_name(VSB_HIST_ID_COST_NS), "cost_ns");
	assert_string_equal(vsb_hist_name(VSB_HIST_ID_COST_REAL_NS),
			    "cost_real_ns");

	nlh = start(VSB_CMD_STATS_GET, "b0");
	put_hist(nlh, VSB_A_HIST_COST_REAL_NS, VSB_HIST_BUCKETS - 1, 0);
	what = NULL;
	assert_int_equal(vsb_msg_parse_stats(nlh, &stats, &what), -EBADMSG);
	assert_string_equal(what, "too few histogram buckets");
}

/* A rule with every setting, and reply-only members that must stay home. */
static const struct vsb_fault_rule every_setting = {
	.present = 1ULL << VSB_FRULE_ACTION | 1ULL << VSB_FRULE_CLASS |
		   1ULL << VSB_FRULE_CMD | 1ULL << VSB_FRULE_NTH |
		   1ULL << VSB_FRULE_INTERVAL | 1ULL << VSB_FRULE_PROBABILITY |
		   1ULL << VSB_FRULE_SEED | 1ULL << VSB_FRULE_TIMES |
		   1ULL << VSB_FRULE_DELAY_NS | 1ULL << VSB_FRULE_PERSIST |
		   1ULL << VSB_FRULE_ID | 1ULL << VSB_FRULE_MATCHED |
		   1ULL << VSB_FRULE_HITS,
	.action = VSB_FAULT_ACTION_DELAY,
	.class = 1,
	.cmd = 1,
	.nth = 3,
	.interval = 5,
	.probability = 125000,
	.seed = 7,
	.times = 2,
	.delay_ns = 2000000,
	.id = 9,
	.matched = 10,
	.hits = 11,
};

/* The one attribute of @type in @nest, checked for its payload's size. */
static const struct nlattr *nest_get(const struct nlattr *nest, uint16_t type,
				     uint16_t len)
{
	const struct nlattr *attr = nest_find(nest, type);

	assert_non_null(attr);
	assert_int_equal(mnl_attr_get_payload_len(attr), len);
	return attr;
}

/* The FAULT_RULE nest of an ADD request, after its device name. */
static const struct nlattr *added_rule(const struct nlmsghdr *nlh)
{
	const struct nlattr *attr, *rule = NULL;

	mnl_attr_for_each(attr, nlh, GENL_HDRLEN)
	{
		if (mnl_attr_get_type(attr) == VSB_A_DEV_NAME) {
			assert_string_equal(mnl_attr_get_str(attr), "b0");
			continue;
		}
		assert_int_equal(mnl_attr_get_type(attr), VSB_A_FAULT_RULE);
		assert_null(rule);
		rule = attr;
	}
	assert_non_null(rule);
	return rule;
}

static unsigned int nest_count(const struct nlattr *nest)
{
	const struct nlattr *attr;
	unsigned int n = 0;

	mnl_attr_for_each_nested(attr, nest) n++;
	return n;
}

static void fault_add_request(void **state)
{
	struct nlmsghdr *nlh = start(VSB_CMD_FAULT_ADD, NULL);
	const struct nlattr *rule;
	struct vsb_fault_rule back;
	const char *what = NULL;

	(void)state;
	vsb_msg_put_fault_add(nlh, "b0", &every_setting);
	rule = added_rule(nlh);
	/* Each setting as the kernel's policy wants it; no reply member. */
	assert_int_equal(nest_count(rule), 10);
	assert_int_equal(mnl_attr_get_u8(nest_get(rule, VSB_FRULE_ACTION, 1)),
			 VSB_FAULT_ACTION_DELAY);
	assert_int_equal(mnl_attr_get_u8(nest_get(rule, VSB_FRULE_CLASS, 1)),
			 1);
	assert_int_equal(mnl_attr_get_u8(nest_get(rule, VSB_FRULE_CMD, 1)), 1);
	assert_int_equal(mnl_attr_get_u32(nest_get(rule, VSB_FRULE_NTH, 4)), 3);
	assert_int_equal(
		mnl_attr_get_u32(nest_get(rule, VSB_FRULE_INTERVAL, 4)), 5);
	assert_int_equal(
		mnl_attr_get_u32(nest_get(rule, VSB_FRULE_PROBABILITY, 4)),
		125000);
	assert_int_equal(mnl_attr_get_u32(nest_get(rule, VSB_FRULE_SEED, 4)),
			 7);
	assert_int_equal(mnl_attr_get_u32(nest_get(rule, VSB_FRULE_TIMES, 4)),
			 2);
	assert_int_equal(
		mnl_attr_get_u32(nest_get(rule, VSB_FRULE_DELAY_NS, 4)),
		2000000);
	nest_get(rule, VSB_FRULE_PERSIST, 0);
	assert_null(nest_find(rule, VSB_FRULE_ID));
	assert_null(nest_find(rule, VSB_FRULE_MATCHED));
	assert_null(nest_find(rule, VSB_FRULE_HITS));

	/* ... and parses back as what it was sent from. */
	assert_int_equal(vsb_msg_parse_fault_rule(rule, &back, &what), 0);
	assert_int_equal(back.present,
			 every_setting.present & ~(1ULL << VSB_FRULE_ID |
						   1ULL << VSB_FRULE_MATCHED |
						   1ULL << VSB_FRULE_HITS));
	assert_int_equal(back.action, every_setting.action);
	assert_int_equal(back.class, 1);
	assert_int_equal(back.cmd, 1);
	assert_int_equal(back.nth, 3);
	assert_int_equal(back.interval, 5);
	assert_int_equal(back.probability, 125000);
	assert_int_equal(back.seed, 7);
	assert_int_equal(back.times, 2);
	assert_int_equal(back.delay_ns, 2000000);
	assert_int_equal(back.id, 0);

	/* Only what a rule gives is sent: an action alone. */
	nlh = start(VSB_CMD_FAULT_ADD, NULL);
	back = (struct vsb_fault_rule){ .action = VSB_FAULT_ACTION_NACK };
	vsb_fault_rule_give(&back, VSB_FRULE_ACTION);
	back.nth = 4; /* not given: not sent */
	vsb_msg_put_fault_add(nlh, "b0", &back);
	rule = added_rule(nlh);
	assert_int_equal(nest_count(rule), 1);
	assert_int_equal(mnl_attr_get_u8(nest_get(rule, VSB_FRULE_ACTION, 1)),
			 VSB_FAULT_ACTION_NACK);
}

/* Two rules as FAULT_GET gives them, with what a newer module adds. */
static struct nlmsghdr *two_rules(const char *name)
{
	struct nlmsghdr *nlh = start(VSB_CMD_FAULT_GET, name);
	struct nlattr *rules, *rule;

	rules = mnl_attr_nest_start(nlh, VSB_A_FAULT_RULES);
	rule = mnl_attr_nest_start(nlh, VSB_A_FAULT_RULE);
	mnl_attr_put_u32(nlh, VSB_FRULE_ID, 1);
	mnl_attr_put_u8(nlh, VSB_FRULE_ACTION, VSB_FAULT_ACTION_NACK);
	mnl_attr_put_u8(nlh, VSB_FRULE_CLASS, VIRTIO_NET_CTRL_MAC);
	mnl_attr_put_u8(nlh, VSB_FRULE_CMD, VIRTIO_NET_CTRL_MAC_ADDR_SET);
	mnl_attr_put_u32(nlh, VSB_FRULE_NTH, 3);
	mnl_attr_put(nlh, VSB_FRULE_PERSIST, 0, NULL);
	mnl_attr_put_u64(nlh, VSB_FRULE_MATCHED, 5);
	mnl_attr_put_u64(nlh, VSB_FRULE_HITS, 1);
	mnl_attr_nest_end(nlh, rule);
	mnl_attr_put_u32(nlh, VSB_A_FAULT_RULE + 40, 1); /* newer: skipped */
	rule = mnl_attr_nest_start(nlh, VSB_A_FAULT_RULE);
	mnl_attr_put_u32(nlh, VSB_FRULE_ID, 2);
	mnl_attr_put_u8(nlh, VSB_FRULE_ACTION, VSB_FAULT_ACTION_DELAY);
	mnl_attr_put_u32(nlh, VSB_FRULE_DELAY_NS, 2000000);
	mnl_attr_put_u32(nlh, VSB_FRULE_INTERVAL, 10);
	mnl_attr_put_u32(nlh, VSB_FRULE_PROBABILITY, 125000);
	mnl_attr_put_u32(nlh, VSB_FRULE_SEED, 7);
	mnl_attr_put_u32(nlh, VSB_FRULE_TIMES, 3);
	mnl_attr_put(nlh, VSB_FRULE_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, VSB_FRULE_MATCHED, 20);
	mnl_attr_put_u64(nlh, VSB_FRULE_HITS, 2);
	mnl_attr_put_u32(nlh, VSB_FRULE_MAX + 1, 9); /* newer: skipped */
	mnl_attr_nest_end(nlh, rule);
	mnl_attr_nest_end(nlh, rules);
	return nlh;
}

/* What print_vsb_fault_rules() prints of @rules (caller frees). */
static char *printed(const struct vsb_fault_rules *rules, bool json)
{
	struct output o;
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	output_init(&o, f, json, false);
	open_json_object(&o, NULL);
	print_vsb_fault_rules(&o, rules);
	close_json_object(&o);
	fclose(f);
	return text;
}

static void fault_rules_reply(void **state)
{
	struct vsb_fault_rules rules;
	const char *what = NULL;
	char *text;

	(void)state;
	assert_int_equal(
		vsb_msg_parse_fault_rules(two_rules("b0"), &rules, &what), 0);
	assert_string_equal(rules.name, "b0");
	assert_int_equal(rules.n, 2);
	assert_int_equal(rules.rule[0].id, 1);
	assert_int_equal(rules.rule[0].action, VSB_FAULT_ACTION_NACK);
	assert_int_equal(rules.rule[0].cmd, VIRTIO_NET_CTRL_MAC_ADDR_SET);
	assert_true(nl_has(rules.rule[0].present, VSB_FRULE_PERSIST));
	assert_false(nl_has(rules.rule[0].present, VSB_FRULE_SEED));
	assert_int_equal(rules.rule[0].matched, 5);
	assert_int_equal(rules.rule[1].delay_ns, 2000000);
	assert_int_equal(rules.rule[1].interval, 10);
	assert_int_equal(rules.rule[1].hits, 2);
	assert_false(nl_has(rules.rule[1].present, VSB_FRULE_CLASS));
	assert_string_equal(vsb_fault_action_name(VSB_FAULT_ACTION_REORDER),
			    "reorder");
	assert_null(vsb_fault_action_name(VSB_FAULT_ACTION_MAX + 1));

	text = printed(&rules, false);
	assert_string_equal(text,
			    "rules 2"
			    "\n  id 1 action nack class MAC cmd MAC_ADDR_SET "
			    "nth 3 persist matched 5 hits 1"
			    "\n  id 2 action delay 2ms class any every 10 "
			    "probability 12.5% seed 7 times 3 matched 20 "
			    "hits 2");
	free(text);
	text = printed(&rules, true);
	assert_string_equal(text,
			    "{\"rules\":[{\"id\":1,\"action\":\"nack\","
			    "\"class\":\"MAC\",\"cmd\":\"MAC_ADDR_SET\","
			    "\"nth\":3,\"persist\":true,\"matched\":5,"
			    "\"hits\":1},{\"id\":2,\"action\":\"delay\","
			    "\"delay_ns\":2000000,\"every\":10,"
			    "\"probability_ppm\":125000,\"seed\":7,"
			    "\"times\":3,\"persist\":false,\"matched\":20,"
			    "\"hits\":2}]}\n");
	free(text);

	/* FAULT_ADD's reply may leave the name out; no rules, no nest. */
	assert_int_equal(
		vsb_msg_parse_fault_rules(two_rules(NULL), &rules, &what), 0);
	assert_string_equal(rules.name, "");
	assert_int_equal(rules.n, 2);
	assert_int_equal(vsb_msg_parse_fault_rules(
				 start(VSB_CMD_FAULT_GET, "b0"), &rules, &what),
			 0);
	assert_int_equal(rules.n, 0);
	text = printed(&rules, false);
	assert_string_equal(text, "rules 0");
	free(text);
}

/* A reply whose only rule has @put's attributes: the parse's verdict. */
static int one_rule(void (*put)(struct nlmsghdr *nlh), const char **what)
{
	struct nlmsghdr *nlh = start(VSB_CMD_FAULT_GET, "b0");
	struct nlattr *rules = mnl_attr_nest_start(nlh, VSB_A_FAULT_RULES);
	struct nlattr *rule = mnl_attr_nest_start(nlh, VSB_A_FAULT_RULE);
	struct vsb_fault_rules parsed;

	put(nlh);
	mnl_attr_nest_end(nlh, rule);
	mnl_attr_nest_end(nlh, rules);
	*what = NULL;
	return vsb_msg_parse_fault_rules(nlh, &parsed, what);
}

static void put_no_action(struct nlmsghdr *nlh)
{
	mnl_attr_put_u32(nlh, VSB_FRULE_NTH, 2);
}

static void put_short_nth(struct nlmsghdr *nlh)
{
	mnl_attr_put_u8(nlh, VSB_FRULE_ACTION, VSB_FAULT_ACTION_NACK);
	mnl_attr_put_u16(nlh, VSB_FRULE_NTH, 2);
}

static void put_persist_payload(struct nlmsghdr *nlh)
{
	mnl_attr_put_u8(nlh, VSB_FRULE_ACTION, VSB_FAULT_ACTION_NACK);
	mnl_attr_put_u8(nlh, VSB_FRULE_PERSIST, 1);
}

static void put_wide_action(struct nlmsghdr *nlh)
{
	mnl_attr_put_u32(nlh, VSB_FRULE_ACTION, VSB_FAULT_ACTION_NACK);
}

static void put_short_hits(struct nlmsghdr *nlh)
{
	mnl_attr_put_u8(nlh, VSB_FRULE_ACTION, VSB_FAULT_ACTION_NACK);
	mnl_attr_put_u32(nlh, VSB_FRULE_HITS, 1);
}

static void fault_rules_reply_errors(void **state)
{
	struct vsb_fault_rules rules;
	struct nlmsghdr *nlh;
	struct nlattr *nest, *rule;
	const char *what;
	unsigned int i;

	(void)state;
	assert_int_equal(one_rule(put_no_action, &what), -EBADMSG);
	assert_string_equal(what, "fault rule without an action");
	assert_int_equal(one_rule(put_short_nth, &what), -EBADMSG);
	assert_string_equal(what, "attribute of the wrong size");
	assert_int_equal(one_rule(put_persist_payload, &what), -EBADMSG);
	assert_string_equal(what, "flag attribute with a payload");
	assert_int_equal(one_rule(put_wide_action, &what), -EBADMSG);
	assert_string_equal(what, "attribute of the wrong size");
	assert_int_equal(one_rule(put_short_hits, &what), -EBADMSG);
	assert_string_equal(what, "attribute of the wrong size");

	/* More rules than a device can hold. */
	nlh = start(VSB_CMD_FAULT_GET, "b0");
	nest = mnl_attr_nest_start(nlh, VSB_A_FAULT_RULES);
	for (i = 0; i <= VSB_FAULT_RULES_MAX; i++) {
		rule = mnl_attr_nest_start(nlh, VSB_A_FAULT_RULE);
		mnl_attr_put_u8(nlh, VSB_FRULE_ACTION, VSB_FAULT_ACTION_NACK);
		mnl_attr_nest_end(nlh, rule);
	}
	mnl_attr_nest_end(nlh, nest);
	what = NULL;
	assert_int_equal(vsb_msg_parse_fault_rules(nlh, &rules, &what),
			 -EBADMSG);
	assert_string_equal(what, "too many fault rules");

	/* A rule nest that cuts into its last attribute. */
	nlh = start(VSB_CMD_FAULT_GET, "b0");
	nest = mnl_attr_nest_start(nlh, VSB_A_FAULT_RULES);
	rule = mnl_attr_nest_start(nlh, VSB_A_FAULT_RULE);
	mnl_attr_put_u8(nlh, VSB_FRULE_ACTION, VSB_FAULT_ACTION_NACK);
	mnl_attr_put_u32(nlh, VSB_FRULE_NTH, 2);
	mnl_attr_nest_end(nlh, rule);
	mnl_attr_nest_end(nlh, nest);
	rule->nla_len -= 2;
	what = NULL;
	assert_int_equal(vsb_msg_parse_fault_rules(nlh, &rules, &what),
			 -EBADMSG);
	assert_string_equal(what, "truncated attribute");
}

static void time_approx_text(void **state)
{
	char text[VSB_TIME_APPROX_LEN];

	(void)state;
	format_time_approx(850.0, false, text, sizeof(text));
	assert_string_equal(text, "850ns");
	format_time_approx(24576.0, false, text, sizeof(text));
	assert_string_equal(text, "24.6us");
	format_time_approx(1500000.0, false, text, sizeof(text));
	assert_string_equal(text, "1.5ms");
	format_time_approx(1073741824.0, true, text, sizeof(text));
	assert_string_equal(text, ">=1.07s");
}

static void vlan_ranges(void **state)
{
	uint8_t vlans[VSB_VLAN_BYTES] = { 0 };
	char text[VSB_VLAN_TEXT_LEN];

	(void)state;
	assert_int_equal(format_vlan_ranges(vlans, text, sizeof(text)), 0);
	assert_string_equal(text, "");
	vsb_vlan_assign(vlans, 0, true);
	vsb_vlan_assign(vlans, 2, true);
	vsb_vlan_assign(vlans, 3, true);
	vsb_vlan_assign(vlans, 4, true);
	vsb_vlan_assign(vlans, 4095, true);
	assert_int_equal(format_vlan_ranges(vlans, text, sizeof(text)), 5);
	assert_string_equal(text, "0 2-4 4095");
	vsb_vlan_assign(vlans, 3, false);
	assert_int_equal(format_vlan_ranges(vlans, text, sizeof(text)), 4);
	assert_string_equal(text, "0 2 4 4095");
	assert_int_equal(log2_hist_bucket_low(0), 0);
	assert_int_equal(log2_hist_bucket_low(1), 1);
	assert_int_equal(log2_hist_bucket_low(7), 64);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dev_reply),
		cmocka_unit_test(dev_reply_errors),
		cmocka_unit_test(stats_reply),
		cmocka_unit_test(stats_reply_errors),
		cmocka_unit_test(state_reply),
		cmocka_unit_test(state_reply_errors),
		cmocka_unit_test(dev_set_request),
		cmocka_unit_test(dev_set_partial_cost),
		cmocka_unit_test(dev_reply_with_cost),
		cmocka_unit_test(dev_reply_cost_errors),
		cmocka_unit_test(stats_reply_cost),
		cmocka_unit_test(fault_add_request),
		cmocka_unit_test(fault_rules_reply),
		cmocka_unit_test(fault_rules_reply_errors),
		cmocka_unit_test(time_approx_text),
		cmocka_unit_test(vlan_ranges),
	};

	return cmocka_run_group_tests_name("vsb_msg", tests, NULL, NULL);
}
