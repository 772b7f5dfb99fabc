/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Order statistics of timing samples (one sample per load).
 */
#ifndef VDPACTL_TIMESTATS_H
#define VDPACTL_TIMESTATS_H

#include <stdint.h>

struct time_summary {
	unsigned int n;
	double min;
	double median; /* mean of the middle two for even n */
	double p99; /* nearest rank: the ceil(0.99 n)-th smallest */
	double max;
	double mean;
	double total;
};

/* -EINVAL for no samples, -ENOMEM; @samples is left untouched. */
int time_summary_compute(const uint64_t *samples, unsigned int n,
			 struct time_summary *s);

/* Divides every figure but n, e.g. per load -> per command. */
void time_summary_scale(const struct time_summary *in, double divisor,
			struct time_summary *out);

#endif
