// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Order statistics of timing samples and of paired ratios.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "load/timestats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The p-quantile of @n sorted values, interpolated at p (n - 1). */
static double quantile(const double *sorted, unsigned int n, double p)
{
	double pos = p * (n - 1);
	unsigned int lo = (unsigned int)pos;
	double frac = pos - lo;

	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/* Sorts @sorted in place. */
static void summarize_sorted(double *sorted, unsigned int n,
			     struct time_summary *s)
{
	unsigned int i, rank;
	double total = 0;

	for (i = 0; i < n; i++)
		total += sorted[i];
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	rank = (unsigned int)(((uint64_t)n * 99 + 99) / 100);
	*s = (struct time_summary){
		.n = n,
		.min = sorted[0],
		.q1 = quantile(sorted, n, 0.25),
		.median = quantile(sorted, n, 0.5),
		.q3 = quantile(sorted, n, 0.75),
		.max = sorted[n - 1],
		.p99 = sorted[rank - 1],
		.total = total,
		.mean = total / n,
	};
}

/*
 * Doubles hold nanosecond samples exactly up to 2^53 ns (104 days), so
 * both summaries sort doubles.
 */
int time_summary_compute(const uint64_t *samples, unsigned int n,
			 struct time_summary *s)
{
	double *sorted;
	unsigned int i;

	if (n == 0)
		return -EINVAL;
	sorted = malloc(sizeof(*sorted) * n);
	if (!sorted)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		sorted[i] = (double)samples[i];
	summarize_sorted(sorted, n, s);
	free(sorted);
	return 0;
}

int time_summary_of(const double *values, unsigned int n,
		    struct time_summary *s)
{
	double *sorted;

	if (n == 0)
		return -EINVAL;
	sorted = malloc(sizeof(*sorted) * n);
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, values, sizeof(*sorted) * n);
	summarize_sorted(sorted, n, s);
	free(sorted);
	return 0;
}

void time_summary_scale(const struct time_summary *in, double divisor,
			struct time_summary *out)
{
	*out = (struct time_summary){
		.n = in->n,
		.min = in->min / divisor,
		.q1 = in->q1 / divisor,
		.median = in->median / divisor,
		.q3 = in->q3 / divisor,
		.p99 = in->p99 / divisor,
		.max = in->max / divisor,
		.mean = in->mean / divisor,
		.total = in->total / divisor,
	};
}

/* Sorts @ratios in place. */
static void summarize_ratios(double *ratios, unsigned int n,
			     struct ratio_summary *r)
{
	qsort(ratios, n, sizeof(*ratios), cmp_double);
	*r = (struct ratio_summary){
		.n = n,
		.min = ratios[0],
		.q1 = quantile(ratios, n, 0.25),
		.median = quantile(ratios, n, 0.5),
		.q3 = quantile(ratios, n, 0.75),
		.max = ratios[n - 1],
	};
}

int ratio_summary_compute(const uint64_t *num, const uint64_t *den,
			  unsigned int n, struct ratio_summary *r)
{
	unsigned int i, k = 0;
	double *ratios;

	if (n == 0)
		return -EINVAL;
	ratios = malloc(sizeof(*ratios) * n);
	if (!ratios)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (den[i])
			ratios[k++] = (double)num[i] / (double)den[i];
	if (k)
		summarize_ratios(ratios, k, r);
	free(ratios);
	return k ? 0 : -EINVAL;
}

int ratio_summary_of(const double *ratios, unsigned int n,
		     struct ratio_summary *r)
{
	double *copy;

	if (n == 0)
		return -EINVAL;
	copy = malloc(sizeof(*copy) * n);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, ratios, sizeof(*copy) * n);
	summarize_ratios(copy, n, r);
	free(copy);
	return 0;
}

bool ratio_within_noise(const struct ratio_summary *r)
{
	return r->q1 <= 1.0 && r->q3 >= 1.0;
}
