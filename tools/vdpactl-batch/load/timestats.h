/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Order statistics of timing samples (one sample per load), and of the
 * ratios of paired samples (one pair per round of an interleaved run).
 * Quantiles interpolate linearly between order statistics (the p-quantile
 * of n sorted samples sits at position p (n - 1)), so q1, median and q3
 * agree with each other; p99 is a nearest rank, as tail latencies are
 * usually reported.
 */
#ifndef VDPACTL_TIMESTATS_H
#define VDPACTL_TIMESTATS_H

#include <stdbool.h>
#include <stdint.h>

struct time_summary {
	unsigned int n;
	double min;
	double q1;
	double median; /* mean of the middle two for even n */
	double q3;
	double p99; /* nearest rank: the ceil(0.99 n)-th smallest */
	double max;
	double mean;
	double total;
};

/* -EINVAL for no samples, -ENOMEM; @samples is left untouched. */
int time_summary_compute(const uint64_t *samples, unsigned int n,
			 struct time_summary *s);

/* The same of values measured elsewhere (ms, counts); -EINVAL, -ENOMEM. */
int time_summary_of(const double *values, unsigned int n,
		    struct time_summary *s);

/* Divides every figure but n, e.g. per load -> per command. */
void time_summary_scale(const struct time_summary *in, double divisor,
			struct time_summary *out);

/* The spread of a ratio measured n times. */
struct ratio_summary {
	unsigned int n;
	double min;
	double q1;
	double median;
	double q3;
	double max;
};

/*
 * The ratios num[i] / den[i] over the pairs whose den is not 0: a
 * speed-up per round when num is the baseline's time and den this run's,
 * measured in the same round. -EINVAL when no pair counts, -ENOMEM.
 */
int ratio_summary_compute(const uint64_t *num, const uint64_t *den,
			  unsigned int n, struct ratio_summary *r);

/*
 * The same from ratios already formed (e.g. one per repetition of a
 * benchmark); -EINVAL for none, -ENOMEM.
 */
int ratio_summary_of(const double *ratios, unsigned int n,
		     struct ratio_summary *r);

/*
 * No difference shown: the middle half of the ratios straddles 1, so
 * one device was as often faster as slower, round by round.
 */
bool ratio_within_noise(const struct ratio_summary *r);

#endif
