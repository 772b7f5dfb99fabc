// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Quantiles estimated from log2 histograms.
 */
#include <errno.h>

#include "lib/log2_hist.h"

uint64_t log2_hist_bucket_low(unsigned int i)
{
	return i ? 1ULL << (i - 1) : 0;
}

int log2_hist_quantile(const uint64_t *counts, unsigned int n_buckets,
		       unsigned int permille, struct log2_hist_estimate *est)
{
	uint64_t total = 0, rank, before = 0;
	unsigned int i;
	double low, width;

	if (!n_buckets || n_buckets > 64 || !permille || permille > 1000)
		return -EINVAL;
	for (i = 0; i < n_buckets; i++)
		total += counts[i];
	if (!total)
		return -EINVAL;
	/* ceil(total * permille / 1000) without overflowing */
	rank = total / 1000 * permille + (total % 1000 * permille + 999) / 1000;
	for (i = 0; i < n_buckets; i++) {
		if (before + counts[i] >= rank)
			break;
		before += counts[i];
	}
	*est = (struct log2_hist_estimate){ 0 };
	if (i == 0)
		return 0;
	low = (double)log2_hist_bucket_low(i);
	if (i == n_buckets - 1) {
		est->value = low;
		est->at_least = true;
		return 0;
	}
	width = (double)log2_hist_bucket_low(i + 1) - low;
	est->value = low + width * ((double)(rank - before) - 0.5) /
				   (double)counts[i];
	return 0;
}
