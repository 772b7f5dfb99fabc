/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tracefs instance of the tool's own (instances/vdpactl-batch-PID), so
 * "load --trace" neither disturbs nor reads anybody else's tracing: made
 * with its buffer sized for the run, the module's events enabled in it,
 * read back and removed.
 */
#ifndef VDPACTL_TRACEFS_H
#define VDPACTL_TRACEFS_H

#include <stdbool.h>
#include <stdint.h>

#include "load/trace_parse.h"

#define TRACEFS_PATH_LEN 256

struct trace_instance {
	char dir[TRACEFS_PATH_LEN];
	bool created;
	bool enabled; /* the module's events are on in it */
};

/*
 * Creates the instance under @sys (normally "/sys") for about @events
 * events and enables the module's events in it. -ENOENT: no tracefs or no
 * vdpa_sim_batch events (the module is not loaded); @why says which.
 * Other failures are printed.
 */
int trace_instance_start(struct trace_instance *t, const char *sys,
			 uint64_t events, char *why, size_t why_len);

/* Stops recording and counts tally->dev's events. Prints failures. */
int trace_instance_collect(struct trace_instance *t, struct trace_tally *tally);

/* Removes the instance (its events are disabled first); safe if not made. */
void trace_instance_remove(struct trace_instance *t);

/*
 * Opens trace_marker of the top-level buffer under @sys (normally "/sys")
 * for writing. Returns the descriptor or a negative errno; quiet.
 */
int trace_marker_open(const char *sys);

/*
 * The per-CPU buffer for @events, in KiB, on a machine of @cpus CPUs and
 * @mem_kb of memory: room for them all, unless all CPUs' buffers would
 * take more than 256 MiB or a 16th of the memory; 1 MiB at least.
 */
uint64_t trace_buffer_kb(uint64_t events, unsigned int cpus, uint64_t mem_kb);

#endif
