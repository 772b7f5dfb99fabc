/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Printing what vdpa_sim_batch's family reports, in text and JSON through
 * the one print path: device settings, the CVQ-visible state (in full or
 * as a one-line summary), counters and histograms.
 */
#ifndef VDPACTL_VSB_PRINT_H
#define VDPACTL_VSB_PRINT_H

#include "cli/output.h"
#include "netlink/vsb_msg.h"

/*
 * "completion batch batch_limit 0 cost ..." members of an open object,
 * the cost model when the device reports one (print_vsb_cost()).
 */
void print_vsb_settings(struct output *o, const struct vsb_dev_settings *dev);

/*
 * The cost model as the member "cost": text "cost op 20us cmd 1us
 * precise off " (items at 0 left out, "cost none" if all are), JSON
 * {"op_ns": 20000, ..., "precise": false} with every item reported.
 */
void print_vsb_cost(struct output *o, const struct vsb_cost *cost);

/* Every state member of an open object; text starts each group on a line. */
void print_vsb_state(struct output *o, const struct vsb_state *st);

/*
 * The state under "state": the full object in JSON, a one-line summary
 * in text (MAC, modes, table sizes, VLAN count, pairs, offloads).
 */
void print_vsb_state_summary(struct output *o, const struct vsb_state *st);

/*
 * A device's CVQ fault rules as the member "rules", an array of objects
 * (id, action, delay_ns, class, cmd, nth, every, probability_ppm, seed,
 * times, persist, matched, hits: those the rule gives); text "rules N"
 * and a line per rule, its selector "class any" when it
 * has no class and its probability as a percentage.
 */
void print_vsb_fault_rules(struct output *o,
			   const struct vsb_fault_rules *rules);

/* "counters" and "histograms" members of an open object. */
void print_vsb_stats(struct output *o, const struct vsb_stats *stats);

/* "1-4094" or "1 3-5 9"; fits any set in VSB_VLAN_TEXT_LEN. */
#define VSB_VLAN_TEXT_LEN (VSB_VLAN_IDS * 6)
unsigned int format_vlan_ranges(const uint8_t *vlans, char *buf, size_t len);

/*
 * A time in ns the way tc prints one, 3 digits at most after the point in
 * the largest unit under it: "850ns", "24.6us", "1.5ms", "2.00s"; ">="
 * first for a lower bound. VSB_TIME_APPROX_LEN fits any.
 */
#define VSB_TIME_APPROX_LEN 40
void format_time_approx(double ns, bool at_least, char *buf, size_t len);

#endif
