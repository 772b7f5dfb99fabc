// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Order statistics of timing samples.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "load/timestats.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int time_summary_compute(const uint64_t *samples, unsigned int n,
			 struct time_summary *s)
{
	uint64_t *sorted;
	unsigned int i, rank;
	double total = 0;

	if (n == 0)
		return -EINVAL;
	sorted = malloc(sizeof(*sorted) * n);
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, samples, sizeof(*sorted) * n);
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	for (i = 0; i < n; i++)
		total += (double)sorted[i];

	rank = (unsigned int)(((uint64_t)n * 99 + 99) / 100);
	*s = (struct time_summary){
		.n = n,
		.min = (double)sorted[0],
		.max = (double)sorted[n - 1],
		.p99 = (double)sorted[rank - 1],
		.total = total,
		.mean = total / n,
	};
	if (n % 2)
		s->median = (double)sorted[n / 2];
	else
		s->median =
			((double)sorted[n / 2 - 1] + (double)sorted[n / 2]) / 2;
	free(sorted);
	return 0;
}

void time_summary_scale(const struct time_summary *in, double divisor,
			struct time_summary *out)
{
	*out = (struct time_summary){
		.n = in->n,
		.min = in->min / divisor,
		.median = in->median / divisor,
		.p99 = in->p99 / divisor,
		.max = in->max / divisor,
		.mean = in->mean / divisor,
		.total = in->total / divisor,
	};
}
