/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The raw data of a benchmark run: one file per stage (NAME.samples), one
 * line per measurement, "SERIES ROUND VALUE [DIVISOR]". Series measured in
 * the same round were measured side by side, so a ratio pairs them round
 * by round. Header lines:
 *
 *   @unit NAME FACTOR   display VALUE / DIVISOR * FACTOR in NAME
 *   @cond TEXT          the conditions, for the verdict and the report
 *   @count              deterministic counts: one round, no spread
 */
#ifndef BENCH_REPORT_SAMPLES_H
#define BENCH_REPORT_SAMPLES_H

#include <stdbool.h>

#define NAME_LEN 64
#define TEXT_LEN 256

struct series {
	char name[NAME_LEN];
	double *values; /* by round, in display units; NaN: not measured */
	unsigned int n_rounds;
};

struct stage {
	char name[NAME_LEN];
	char unit[NAME_LEN];
	char cond[TEXT_LEN];
	double factor;
	bool counts;
	struct series *series;
	unsigned int n_series;
};

struct sample_set {
	struct stage *stages;
	unsigned int n_stages;
};

/*
 * Reads every DIR/ *.samples file. -errno with @err (size @len) naming
 * the file and line.
 */
int samples_load(struct sample_set *set, const char *dir, char *err,
		 unsigned int len);
void samples_free(struct sample_set *set);

const struct stage *samples_stage(const struct sample_set *set,
				  const char *name);
const struct series *stage_series(const struct stage *st, const char *name);

/* The measured values of @s, NaNs dropped, into @out (n_rounds long). */
unsigned int series_values(const struct series *s, double *out);

#endif
