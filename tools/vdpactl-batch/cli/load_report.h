/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report of a "load" run, in text or JSON with stable field names.
 */
#ifndef VDPACTL_LOAD_REPORT_H
#define VDPACTL_LOAD_REPORT_H

#include "cli/load_cli.h"
#include "cli/load_extras.h"
#include "cli/output.h"
#include "load/load.h"
#include "load/timestats.h"
#include "netlink/vdpa_msg.h"

#define LOAD_NOTE_LEN 192

struct load_report {
	const struct load_target *target;
	const struct load_config *cfg;
	const struct load_info *info;
	const struct load_counters *counters;
	const struct load_extras *extras; /* NULL: none */
	const struct load_nacks *nacks; /* NULL: none kept */
	struct time_summary per_load_ns;
	struct time_summary per_command_ns;
	struct time_summary cmds_ns; /* per load, cold loads only */
	bool has_vstats;
	struct vdpa_vstats vstats_before;
	struct vdpa_vstats vstats_after;
	char vstats_note[LOAD_NOTE_LEN];
	/* The CVQ's ring base after the loads, by the device and the driver. */
	bool has_vring_base;
	uint32_t vring_base_device;
	uint32_t vring_base_driver;
	/*
	 * A load failed, or a signal stopped the run (interrupted), after
	 * others: the report covers those before it.
	 */
	bool failed;
	bool interrupted;
	/* The start MAC was put back after the loads (--restore-mac). */
	bool mac_restored;
	unsigned int loads_done;
	char failure[LOAD_NOTE_LEN];
};

void print_load_report(struct output *o, const struct load_report *r);

/* Why there are no vstats, for "vstats_note", from load_read_vstats(). */
void load_vstats_note(char *note, size_t size, int err);

/*
 * A time summary in microseconds as a JSON object under @key (min, q1,
 * median, q3, p99, max, mean) and, with PRINT_FP in @kind, a text line
 * without the quartiles.
 */
void print_summary_us(struct output *o, enum print_kind kind, const char *key,
		      const struct time_summary *ns);

/* The counters of @s as a JSON object under @key (nothing in text). */
void print_vstat_set(struct output *o, const char *key,
		     const struct vdpa_vstats *s);

#endif
