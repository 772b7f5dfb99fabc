/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two outputs of a run's report: the one-page verdict (text) and the
 * self-contained HTML page with its plots.
 */
#ifndef BENCH_REPORT_REPORT_H
#define BENCH_REPORT_REPORT_H

#include <stdio.h>

#include "spec.h"

/* The run's facts, from DIR/run.meta ("key=value" lines). */
struct run_meta {
	char commit[NAME_LEN];
	char kernel[NAME_LEN];
	char date[NAME_LEN];
	char elapsed[NAME_LEN];
	char load_before[NAME_LEN];
	char load_after[NAME_LEN];
	unsigned int cpus;
	/* /proc/stat jiffies around the run, and the run's own CPU time. */
	double busy_before, busy_after, total_before, total_after, own;
	double other_pct; /* < 0: unknown */
};

/* Other work above this share of the CPUs makes the verdict warn. */
#define BUSY_HOST_PCT 10.0

/*
 * A value (not a ratio, not a count) whose interquartile range is over
 * this share of its median is read "unstable": its median may move by
 * half or more from one run to the next. Under TCG most series' middle
 * half spans 15 to 35 % of the median (make run at 8525d73: 63 of its
 * 94 timed series, 79 below 40 %). A wider one can be two populations,
 * as stock's serial loads are (kick each: about 8 and about 21 us/cmd),
 * and its median lands on whichever holds the larger half of the loads:
 * 21.0 us/cmd [10.7-22.9] in one run, 39.9 [24.3-44.9] in another (58
 * and 52 %).
 */
#define UNSTABLE_IQR_PCT 50

/* Missing file or keys leave fields empty; never fails. */
void run_meta_load(struct run_meta *m, const char *path);

void print_verdict(FILE *f, const struct spec *spec,
		   const struct run_meta *meta);

/* Three significant digits or so, never an exponent. */
void format_number(char *buf, unsigned int len, double v);

/* A figure as "2.31x [2.10-2.52]" or "9.40 us/cmd [9.10-9.80]". */
void format_figure(char *buf, unsigned int len, const struct figure *fig,
		   bool ratio);
const char *figure_reading(const struct figure *fig);
/* A value's reading: "" or that it is unstable (UNSTABLE_IQR_PCT). */
const char *value_reading(const struct figure *fig);

/* XML-escapes @s for text content and attributes. */
void print_escaped(FILE *f, const char *s);

/* One horizontal bar chart; ratios get a line at 1. */
void print_svg_bars(FILE *f, const char *const *labels,
		    const struct figure *figs, unsigned int n, bool ratios);

/*
 * Filter: "KEY VALUE" lines in, one summary line per key out
 * (summarize.c). -EINVAL for a bad line, -ENOMEM; printed.
 */
int summarize(FILE *in, FILE *out);

/*
 * --table: OUT/PREFIX.csv and OUT/PREFIX.md from the stages PREFIX-*
 * (table.c). -errno with @err (size @len).
 */
int write_table(const struct sample_set *set, const char *prefix,
		const char *baseline, const char *out, char *err,
		unsigned int len);

int write_html(const char *path, const struct spec *spec,
	       const struct run_meta *meta, const char *verdict);

#endif
