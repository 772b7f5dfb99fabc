/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The module's trace events as the tracefs "trace" file prints them, e.g.
 *   kworker/u4:1-42 [001] ..... 12.345678: vsb_cvq_cmd: dev=b0 head=0 ...
 * and what "load --trace" makes of them: per-device event counts and
 * order statistics of per-command and kick-to-completion times. Pure
 * functions over strings, unit-tested without a kernel.
 */
#ifndef VDPACTL_TRACE_PARSE_H
#define VDPACTL_TRACE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "load/timestats.h"

#define TRACE_SYSTEM_NAME "vdpa_sim_batch"
#define TRACE_DEV_LEN 64
#define TRACE_REASON_LEN 64
/* vsb_cvq_cmd's ack when the device wrote none (a framing fault). */
#define TRACE_ACK_NONE 255

enum trace_event_id {
	TRACE_EV_KICK, /* vsb_cvq_kick: dev */
	TRACE_EV_CMD, /* vsb_cvq_cmd: dev head class cmd ack bytes ns */
	TRACE_EV_BATCH, /* vsb_cvq_batch: dev cmds notified ns kick_ns */
	TRACE_EV_NEEDS_RESET, /* vsb_needs_reset: dev queue reason */
};

struct trace_event {
	enum trace_event_id id;
	char dev[TRACE_DEV_LEN];
	uint64_t head, class, cmd, ack, bytes, ns; /* ns: also the batch's */
	uint64_t cmds, notified, kick_ns; /* batch */
	uint64_t queue; /* needs_reset */
	char reason[TRACE_REASON_LEN];
};

/*
 * 0 for one of the module's events; -ENOENT for any other line (comments,
 * other events); -EBADMSG for one of ours with a field missing or bad.
 */
int trace_parse_line(const char *line, struct trace_event *ev);

/*
 * The "# entries-in-buffer/entries-written: IN/WRITTEN" header line:
 * 0 and the counts, -ENOENT for other lines.
 */
int trace_parse_entries(const char *line, uint64_t *in_buffer,
			uint64_t *written);

/* Growable list of samples. */
struct sample_list {
	uint64_t *v;
	size_t n, cap;
};

/* What one device's events added up to. */
struct trace_tally {
	char dev[TRACE_DEV_LEN];
	uint64_t kicks, commands, batches, needs_reset;
	uint64_t no_ack; /* commands with ack 255 */
	uint64_t notified; /* batches that notified the driver */
	uint64_t malformed; /* lines of our events that did not parse */
	uint64_t lost; /* entries the ring buffer overwrote */
	struct sample_list cmd_ns;
	struct sample_list kick_ns;
};

void trace_tally_init(struct trace_tally *t, const char *dev);
void trace_tally_free(struct trace_tally *t);

/* Counts one line if it is an event of t->dev; -ENOMEM on allocation. */
int trace_tally_line(struct trace_tally *t, const char *line);

/* mean, p50 (the median) and p99 of a sample list; -EINVAL if empty. */
struct trace_summary {
	unsigned int n;
	double mean, p50, p99;
};

int trace_summarize(const struct sample_list *l, struct trace_summary *s);

#endif
