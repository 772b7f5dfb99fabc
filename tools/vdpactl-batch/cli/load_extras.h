/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What "load" does around the loads themselves on request: with
 * --skip-unchanged it reads the device's state after setup and sends,
 * load by load, only the commands that change it; with --trace it records
 * the module's trace events in an instance of its own and sums them up;
 * and on a vdpa_sim_batch device it always reads the end state back
 * before the device is closed (which resets it). Features a device does
 * not offer are one-line notes on stderr, never failures.
 */
#ifndef VDPACTL_LOAD_EXTRAS_H
#define VDPACTL_LOAD_EXTRAS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/vdpactl.h"
#include "load/ctrl_model.h"
#include "load/load.h"
#include "load/trace_parse.h"
#include "load/tracefs.h"
#include "netlink/vsb_msg.h"

struct load_skip {
	bool on;
	bool from_module; /* seeded by STATE_GET, else by the config MAC */
	struct ctrl_model model;
	/* The model the last load was planned from, its acks not yet seen. */
	struct ctrl_model before;
	bool unsettled;
	unsigned int *order;
	unsigned int last_sent; /* at order */
	uint64_t sent, skipped;
	unsigned int skipped_first, skipped_min, skipped_max;
	unsigned int empty_loads; /* sent nothing: not run, not timed */
	unsigned int loads;
	/*
	 * After the run, the model against the state the device reports:
	 * checked, and the first part they disagree on (NULL: none).
	 */
	bool checked;
	const char *differs;
};

struct load_trace {
	bool on; /* asked for */
	bool recording;
	bool collected;
	struct trace_instance inst;
	struct trace_tally tally;
	bool has_cmd_ns, has_kick_ns;
	struct trace_summary cmd_ns, kick_ns;
};

struct load_extras {
	const char *dev;
	bool module_device; /* the module's family knows the device */
	struct load_skip skip;
	struct load_trace trace;
	bool has_end_state;
	struct vsb_state end_state;
};

void load_extras_init(struct load_extras *x, const char *dev, bool skip,
		      bool trace);

/*
 * After setup (DRIVER_OK), before the first load: reads the state for
 * --skip-unchanged and starts tracing. Returns -errno only for failures
 * that must stop the run (printed).
 */
int load_extras_begin(struct vdpactl *ctx, struct load_extras *x,
		      const struct load_config *cfg);

/*
 * The commands of the next load of @s's @count: all (*@order NULL), or
 * only those that change state.
 */
unsigned int load_extras_plan(struct load_extras *x,
			      const struct load_session *s, unsigned int count,
			      const unsigned int **order);

/* After the last load, with the device still held: end state, trace. */
int load_extras_end(struct vdpactl *ctx, struct load_extras *x,
		    const struct load_session *s);

void load_extras_free(struct load_extras *x);

#endif
