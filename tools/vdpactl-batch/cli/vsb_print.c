// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Printing vdpa_sim_batch's settings, state and statistics.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/feature_print.h"
#include "cli/vsb_print.h"
#include "lib/compat.h"
#include "lib/cvq_cmd.h"
#include "lib/log2_hist.h"

#define HIST_BAR_WIDTH 40

void print_vsb_settings(struct output *o, const struct vsb_dev_settings *dev)
{
	if (nl_has(dev->present, VSB_A_COMPLETION))
		print_string(o, PRINT_ANY, "completion", "completion %s ",
			     vsb_completion_name(dev->completion));
	if (nl_has(dev->present, VSB_A_BATCH_LIMIT))
		print_uint(o, PRINT_ANY, "batch_limit", "batch_limit %u ",
			   dev->batch_limit);
	if (nl_has(dev->present, VSB_A_COST))
		print_vsb_cost(o, &dev->cost);
}

void print_vsb_cost(struct output *o, const struct vsb_cost *cost)
{
	char key[32], time[TIME_STR_LEN];
	bool any = false;
	unsigned int i;

	open_json_object(o, "cost");
	print_text(o, "cost ");
	for (i = VSB_COST_FIRST_NS; i <= VSB_COST_LAST_NS; i++) {
		if (!vsb_cost_has(cost, i) || !vsb_cost_name(i))
			continue;
		snprintf(key, sizeof(key), "%s_ns", vsb_cost_name(i));
		print_u64(o, PRINT_JSON, key, NULL, cost->item[i]);
		if (!cost->item[i])
			continue;
		format_time_ns(cost->item[i], time, sizeof(time));
		print_text(o, "%s %s ", vsb_cost_name(i), time);
		any = true;
	}
	if (!any)
		print_text(o, "none ");
	if (vsb_cost_has(cost, VSB_COST_PRECISE)) {
		print_bool(o, PRINT_JSON, "precise", NULL,
			   cost->item[VSB_COST_PRECISE]);
		print_text(o, "precise %s ",
			   cost->item[VSB_COST_PRECISE] ? "on" : "off");
	}
	close_json_object(o);
}

/* The members of one rule, those it gives; text "id N action A ...". */
static void print_fault_rule(struct output *o, const struct vsb_fault_rule *r)
{
	char code[CVQ_CODE_LEN], delay[TIME_STR_LEN], percent[PERCENT_STR_LEN];
	const char *action = vsb_fault_action_name(r->action);
	nl_attr_set p = r->present;

	if (nl_has(p, VSB_FRULE_ID))
		print_uint(o, PRINT_ANY, "id", "\n  id %u ", r->id);
	else
		print_text(o, "\n  ");
	/* A newer module's action: its number, as for a class or command. */
	if (!action) {
		snprintf(code, sizeof(code), "%u", r->action);
		action = code;
	}
	print_string(o, PRINT_ANY, "action", "action %s", action);
	if (nl_has(p, VSB_FRULE_DELAY_NS)) {
		print_uint(o, PRINT_JSON, "delay_ns", NULL, r->delay_ns);
		format_time_ns(r->delay_ns, delay, sizeof(delay));
		print_text(o, " %s", delay);
	}
	if (nl_has(p, VSB_FRULE_CLASS))
		print_string(o, PRINT_ANY, "class", " class %s",
			     cvq_class_format(r->class, code, sizeof(code)));
	else
		print_text(o, " class any");
	if (nl_has(p, VSB_FRULE_CMD))
		print_string(o, PRINT_ANY, "cmd", " cmd %s",
			     cvq_cmd_format(r->class, r->cmd, code,
					    sizeof(code)));
	if (nl_has(p, VSB_FRULE_NTH))
		print_uint(o, PRINT_ANY, "nth", " nth %u", r->nth);
	if (nl_has(p, VSB_FRULE_INTERVAL))
		print_uint(o, PRINT_ANY, "every", " every %u", r->interval);
	if (nl_has(p, VSB_FRULE_PROBABILITY)) {
		print_uint(o, PRINT_JSON, "probability_ppm", NULL,
			   r->probability);
		format_ppm_percent(r->probability, percent, sizeof(percent));
		print_text(o, " probability %s%%", percent);
	}
	if (nl_has(p, VSB_FRULE_SEED))
		print_uint(o, PRINT_ANY, "seed", " seed %u", r->seed);
	if (nl_has(p, VSB_FRULE_TIMES))
		print_uint(o, PRINT_ANY, "times", " times %u", r->times);
	print_bool(o, PRINT_JSON, "persist", NULL,
		   nl_has(p, VSB_FRULE_PERSIST));
	if (nl_has(p, VSB_FRULE_PERSIST))
		print_text(o, " persist");
	if (nl_has(p, VSB_FRULE_MATCHED))
		print_u64(o, PRINT_ANY, "matched", " matched %" PRIu64,
			  r->matched);
	if (nl_has(p, VSB_FRULE_HITS))
		print_u64(o, PRINT_ANY, "hits", " hits %" PRIu64, r->hits);
}

void print_vsb_fault_rules(struct output *o,
			   const struct vsb_fault_rules *rules)
{
	unsigned int i;

	print_text(o, "rules %u", rules->n);
	open_json_array(o, "rules");
	for (i = 0; i < rules->n; i++) {
		open_json_object(o, NULL);
		print_fault_rule(o, &rules->rule[i]);
		close_json_object(o);
	}
	close_json_array(o);
}

static void print_status(struct output *o, uint8_t status)
{
	static const struct {
		uint8_t bit;
		const char *name;
	} bits[] = {
		{ VIRTIO_CONFIG_S_ACKNOWLEDGE, "ACKNOWLEDGE" },
		{ VIRTIO_CONFIG_S_DRIVER, "DRIVER" },
		{ VIRTIO_CONFIG_S_FEATURES_OK, "FEATURES_OK" },
		{ VIRTIO_CONFIG_S_DRIVER_OK, "DRIVER_OK" },
		{ VIRTIO_CONFIG_S_NEEDS_RESET, "NEEDS_RESET" },
		{ VIRTIO_CONFIG_S_FAILED, "FAILED" },
	};
	unsigned int i;

	print_uint(o, PRINT_ANY, "status", "status 0x%02x", status);
	open_json_array(o, "status_bits");
	for (i = 0; i < ARRAY_SIZE(bits); i++)
		if (status & bits[i].bit)
			print_string(o, PRINT_ANY, NULL, " %s", bits[i].name);
	close_json_array(o);
}

static const char *const rx_mode_names[] = {
	[VIRTIO_NET_CTRL_RX_PROMISC] = "promisc",
	[VIRTIO_NET_CTRL_RX_ALLMULTI] = "allmulti",
	[VIRTIO_NET_CTRL_RX_ALLUNI] = "alluni",
	[VIRTIO_NET_CTRL_RX_NOMULTI] = "nomulti",
	[VIRTIO_NET_CTRL_RX_NOUNI] = "nouni",
	[VIRTIO_NET_CTRL_RX_NOBCAST] = "nobcast",
};

/* Text: " name" then @sep between names, or " none". */
static void print_rx_modes(struct output *o, uint32_t modes, const char *sep)
{
	const char *prefix = " ";
	unsigned int i;

	open_json_array(o, "rx_modes");
	for (i = 0; i < 32; i++) {
		if (!(modes & (1u << i)))
			continue;
		print_text(o, "%s", prefix);
		if (i < ARRAY_SIZE(rx_mode_names))
			print_string(o, PRINT_ANY, NULL, "%s",
				     rx_mode_names[i]);
		else
			print_uint(o, PRINT_ANY, NULL, "bit_%u", i);
		prefix = sep;
	}
	close_json_array(o);
	if (!modes)
		print_text(o, " none");
}

static void print_mac_list(struct output *o, const char *key,
			   const char *overflow_key,
			   const struct vsb_mac_list *list)
{
	char mac[MAC_STR_LEN];
	unsigned int i;

	print_text(o, "\n  %s", key);
	open_json_array(o, key);
	for (i = 0; i < list->n; i++) {
		format_mac(list->addr[i], mac);
		print_string(o, PRINT_ANY, NULL, " %s", mac);
	}
	close_json_array(o);
	print_bool(o, PRINT_ANY, overflow_key, " overflow %s", list->overflow);
}

unsigned int format_vlan_ranges(const uint8_t *vlans, char *buf, size_t len)
{
	unsigned int vid = 0, first, count = 0;
	size_t used = 0;

	buf[0] = '\0';
	while (vid < VSB_VLAN_IDS) {
		if (!vsb_vlan_test(vlans, vid)) {
			vid++;
			continue;
		}
		first = vid;
		while (vid < VSB_VLAN_IDS && vsb_vlan_test(vlans, vid))
			vid++;
		count += vid - first;
		if (used >= len)
			continue;
		if (vid - 1 == first)
			used += (size_t)snprintf(buf + used, len - used, "%s%u",
						 used ? " " : "", first);
		else
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%u-%u", used ? " " : "",
						 first, vid - 1);
	}
	return count;
}

static void print_vlans(struct output *o, const uint8_t *vlans)
{
	char text[VSB_VLAN_TEXT_LEN];
	unsigned int vid, count;

	count = format_vlan_ranges(vlans, text, sizeof(text));
	print_text(o, "\n  vlans %u: %s", count, count ? text : "none");
	open_json_array(o, "vlans");
	if (o->json)
		for (vid = 0; vid < VSB_VLAN_IDS; vid++)
			if (vsb_vlan_test(vlans, vid))
				print_uint(o, PRINT_JSON, NULL, NULL, vid);
	close_json_array(o);
}

/* RSS_CONFIG's or HASH_CONFIG's state, as the device holds it. */
static void print_rss(struct output *o, const struct vsb_state *st)
{
	char key[3 * VSB_RSS_KEY_LEN];
	unsigned int i;

	print_bool(o, PRINT_ANY, "rss_steering", "\n  rss steering %s",
		   st->rss_steering);
	print_uint(o, PRINT_ANY, "rss_hash_types", " hash_types %#x",
		   st->rss_hash_types);
	print_uint(o, PRINT_ANY, "rss_unclassified", " unclassified %u",
		   st->rss_unclassified);
	/* "xx:" per byte, the last one's ':' the NUL */
	for (i = 0; i < VSB_RSS_KEY_LEN; i++)
		snprintf(key + 3 * i, sizeof(key) - 3 * i, "%02x%s",
			 st->rss_key[i], i + 1 < VSB_RSS_KEY_LEN ? ":" : "");
	print_string(o, PRINT_ANY, "rss_key", "\n  rss_key %s", key);
	print_text(o, "\n  rss_table %u:", st->rss_table_len);
	open_json_array(o, "rss_table");
	for (i = 0; i < st->rss_table_len; i++)
		print_uint(o, PRINT_ANY, NULL, " %u", st->rss_table[i]);
	close_json_array(o);
}

static void print_mac(struct output *o, const struct vsb_state *st,
		      const char *fmt)
{
	char mac[MAC_STR_LEN];

	format_mac(st->cvq.mac, mac);
	print_string(o, PRINT_ANY, "mac", fmt, mac);
}

void print_vsb_state(struct output *o, const struct vsb_state *st)
{
	nl_attr_set p = st->present;

	if (nl_has(p, VSB_A_STATUS))
		print_status(o, st->status);
	if (nl_has(p, VSB_A_MAC))
		print_mac(o, st, "\n  mac %s");
	if (nl_has(p, VSB_A_RX_MODES)) {
		print_text(o, " rx_modes");
		print_rx_modes(o, st->cvq.rx_modes, " ");
		print_mac_list(o, "uni_macs", "uni_overflow", &st->cvq.uni);
		print_mac_list(o, "multi_macs", "multi_overflow",
			       &st->cvq.multi);
	}
	if (nl_has(p, VSB_A_VLANS))
		print_vlans(o, st->cvq.vlans);
	if (nl_has(p, VSB_A_PAIRS))
		print_uint(o, PRINT_ANY, "pairs", "\n  pairs %u",
			   st->cvq.pairs);
	if (nl_has(p, VSB_A_MAX_PAIRS))
		print_uint(o, PRINT_ANY, "max_pairs", " max_pairs %u",
			   st->max_pairs);
	if (nl_has(p, VSB_A_OFFLOADS)) {
		print_text(o, "\n  offloads");
		print_net_features(o, "offloads", st->cvq.offloads);
	}
	if (nl_has(p, VSB_A_LINK)) {
		print_string(o, PRINT_ANY, "link", "\n  link %s",
			     st->link_up ? "up" : "down");
		print_bool(o, PRINT_JSON, "announce_pending", NULL,
			   st->announce_pending);
		if (st->announce_pending)
			print_text(o, " announce_pending");
	}
	if (nl_has(p, VSB_A_RSS_KEY))
		print_rss(o, st);
	if (nl_has(p, VSB_A_FEATURES)) {
		print_text(o, "\n  features");
		print_net_features(o, "features", st->features);
	}
}

static unsigned int count_vlans(const uint8_t *vlans)
{
	unsigned int vid, n = 0;

	for (vid = 0; vid < VSB_VLAN_IDS; vid++)
		n += vsb_vlan_test(vlans, vid);
	return n;
}

void print_vsb_state_summary(struct output *o, const struct vsb_state *st)
{
	if (o->json) {
		open_json_object(o, "state");
		print_vsb_state(o, st);
		close_json_object(o);
		return;
	}
	print_text(o, "\n  state");
	print_mac(o, st, " mac %s");
	print_text(o, " rx_modes");
	print_rx_modes(o, st->cvq.rx_modes, ",");
	print_text(o, " uni %u%s multi %u%s vlans %u pairs %u/%u",
		   st->cvq.uni.n, st->cvq.uni.overflow ? "+overflow" : "",
		   st->cvq.multi.n, st->cvq.multi.overflow ? "+overflow" : "",
		   count_vlans(st->cvq.vlans), st->cvq.pairs, st->max_pairs);
	print_text(o, " offloads 0x%" PRIx64, st->cvq.offloads);
}

void format_time_approx(double ns, bool at_least, char *buf, size_t len)
{
	static const struct {
		double ns;
		const char *fmt;
	} units[] = {
		{ 1e9, "%s%.2fs" },
		{ 1e6, "%s%.1fms" },
		{ 1e3, "%s%.1fus" },
	};
	const char *prefix = at_least ? ">=" : "";
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (ns >= units[i].ns) {
			snprintf(buf, len, units[i].fmt, prefix,
				 ns / units[i].ns);
			return;
		}
	}
	snprintf(buf, len, "%s%.0fns", prefix, ns);
}

static void bucket_range(unsigned int i, const char *unit, char *buf,
			 size_t len)
{
	const char *sep = unit[0] ? " " : "";

	if (i == 0)
		snprintf(buf, len, "[0, 1)%s%s", sep, unit);
	else if (i == VSB_HIST_BUCKETS - 1)
		snprintf(buf, len, "[%" PRIu64 ", inf)%s%s",
			 log2_hist_bucket_low(i), sep, unit);
	else
		snprintf(buf, len, "[%" PRIu64 ", %" PRIu64 ")%s%s",
			 log2_hist_bucket_low(i), log2_hist_bucket_low(i + 1),
			 sep, unit);
}

/* Text: the buckets from the first to the last used, bars scaled to the top. */
static void print_hist_text(struct output *o, const char *name,
			    const char *unit, const uint64_t *counts,
			    uint64_t total)
{
	unsigned int i, first = VSB_HIST_BUCKETS, last = 0, bar;
	uint64_t top = 0;
	char range[48], bars[HIST_BAR_WIDTH + 1];

	for (i = 0; i < VSB_HIST_BUCKETS; i++) {
		if (!counts[i])
			continue;
		if (first == VSB_HIST_BUCKETS)
			first = i;
		last = i;
		if (counts[i] > top)
			top = counts[i];
	}
	print_text(o, "\n  %s total %" PRIu64, name, total);
	for (i = first; i <= last && first < VSB_HIST_BUCKETS; i++) {
		bar = (unsigned int)(counts[i] * HIST_BAR_WIDTH / top);
		if (counts[i] && !bar)
			bar = 1;
		memset(bars, '#', bar);
		bars[bar] = '\0';
		bucket_range(i, unit, range, sizeof(range));
		print_text(o, "\n    %-28s %12" PRIu64 " %s", range, counts[i],
			   bars);
	}
}

static bool is_cost_hist(enum vsb_hist_id id)
{
	return id == VSB_HIST_ID_COST_NS || id == VSB_HIST_ID_COST_REAL_NS;
}

/* JSON: the bucket estimates of a cost histogram that counted something. */
static void print_hist_estimates(struct output *o, const uint64_t *counts)
{
	struct log2_hist_estimate median, p99;

	if (log2_hist_quantile(counts, VSB_HIST_BUCKETS, 500, &median) ||
	    log2_hist_quantile(counts, VSB_HIST_BUCKETS, 990, &p99))
		return;
	print_u64(o, PRINT_JSON, "median_estimate_ns", NULL,
		  (uint64_t)(median.value + 0.5));
	print_u64(o, PRINT_JSON, "p99_estimate_ns", NULL,
		  (uint64_t)(p99.value + 0.5));
}

static void print_hist(struct output *o, enum vsb_hist_id id,
		       const uint64_t *counts)
{
	const char *unit = id == VSB_HIST_ID_CMDS_PER_BATCH ? "" : "ns";
	const char *name = vsb_hist_name(id);
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < VSB_HIST_BUCKETS; i++)
		total += counts[i];
	if (!o->json) {
		print_hist_text(o, name, unit, counts, total);
		return;
	}
	open_json_object(o, name);
	print_string(o, PRINT_JSON, "unit", NULL, unit[0] ? unit : "commands");
	print_u64(o, PRINT_JSON, "total", NULL, total);
	open_json_array(o, "lower_bounds");
	for (i = 0; i < VSB_HIST_BUCKETS; i++)
		print_u64(o, PRINT_JSON, NULL, NULL, log2_hist_bucket_low(i));
	close_json_array(o);
	open_json_array(o, "counts");
	for (i = 0; i < VSB_HIST_BUCKETS; i++)
		print_u64(o, PRINT_JSON, NULL, NULL, counts[i]);
	close_json_array(o);
	if (is_cost_hist(id))
		print_hist_estimates(o, counts);
	close_json_object(o);
}

/* Text: " median X p99 Y" of a histogram, " none" when it is empty. */
static void print_text_estimates(struct output *o, const uint64_t *counts)
{
	char median_text[VSB_TIME_APPROX_LEN], p99_text[VSB_TIME_APPROX_LEN];
	struct log2_hist_estimate median, p99;

	if (log2_hist_quantile(counts, VSB_HIST_BUCKETS, 500, &median) ||
	    log2_hist_quantile(counts, VSB_HIST_BUCKETS, 990, &p99)) {
		print_text(o, " none");
		return;
	}
	format_time_approx(median.value, median.at_least, median_text,
			   sizeof(median_text));
	format_time_approx(p99.value, p99.at_least, p99_text, sizeof(p99_text));
	print_text(o, " median %s p99 %s", median_text, p99_text);
}

static bool has_stat(const struct vsb_stats *stats, unsigned int stat)
{
	return stats->stat_present & (1ULL << stat);
}

/*
 * Text: the cost model's per-operation figures, estimated from their
 * histograms, and how the device's time split between its own work and
 * the cost it paid.
 */
static void print_cost_summary(struct output *o, const struct vsb_stats *stats)
{
	char busy[VSB_TIME_APPROX_LEN], paid[VSB_TIME_APPROX_LEN];
	uint64_t busy_ns, paid_ns;

	if (o->json)
		return;
	if (stats->has_hist[VSB_HIST_ID_COST_NS] &&
	    stats->has_hist[VSB_HIST_ID_COST_REAL_NS]) {
		print_text(o, "\n  cost requested");
		print_text_estimates(o, stats->hist[VSB_HIST_ID_COST_NS]);
		print_text(o, "  realized");
		print_text_estimates(o, stats->hist[VSB_HIST_ID_COST_REAL_NS]);
	}
	if (!has_stat(stats, VSB_STAT_CVQ_BUSY_NS) ||
	    !has_stat(stats, VSB_STAT_COST_REAL_NS))
		return;
	busy_ns = stats->stat[VSB_STAT_CVQ_BUSY_NS];
	paid_ns = stats->stat[VSB_STAT_COST_REAL_NS];
	format_time_approx((double)busy_ns, false, busy, sizeof(busy));
	format_time_approx((double)paid_ns, false, paid, sizeof(paid));
	print_text(o, "\n  device time busy %s cost realized %s", busy, paid);
	if (busy_ns + paid_ns)
		print_text(o, " (cost %.1f%%)",
			   100.0 * (double)paid_ns /
				   ((double)busy_ns + (double)paid_ns));
}

void print_vsb_stats(struct output *o, const struct vsb_stats *stats)
{
	unsigned int i;

	open_json_object(o, "counters");
	for (i = 0; i <= VSB_STAT_MAX; i++)
		if ((stats->stat_present & (1ULL << i)) && vsb_stat_name(i))
			print_named_u64(o, vsb_stat_name(i), stats->stat[i]);
	close_json_object(o);
	open_json_object(o, "histograms");
	for (i = 0; i < VSB_HIST_IDS; i++)
		if (stats->has_hist[i])
			print_hist(o, (enum vsb_hist_id)i, stats->hist[i]);
	close_json_object(o);
	print_cost_summary(o, stats);
}
