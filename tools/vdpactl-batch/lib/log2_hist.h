/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Order statistics estimated from a log2 histogram, the layout of
 * vdpa_sim_batch's (kmod/uapi/vdpa_sim_batch.h): bucket 0 counts the
 * value 0, bucket i > 0 the values [2^(i-1), 2^i), the last bucket also
 * everything above. The values themselves are gone; only estimates are
 * left.
 */
#ifndef VDPACTL_LOG2_HIST_H
#define VDPACTL_LOG2_HIST_H

#include <stdbool.h>
#include <stdint.h>

struct log2_hist_estimate {
	double value;
	/*
	 * The value fell in the last, open bucket: the estimate is its
	 * lower bound, and the value at least that.
	 */
	bool at_least;
};

/*
 * The quantile of @permille (1..1000: 500 the median, 990 p99) of the values
 * counted in @counts[0..n_buckets-1], by nearest rank as timestats.h
 * takes it (the ceil(permille * total / 1000)-th smallest), placed inside its bucket by
 * linear interpolation at the rank's midpoint: one value alone in
 * [2^(i-1), 2^i) is estimated at 1.5 * 2^(i-1). Bucket 0 gives 0.
 * -EINVAL for an empty histogram or a @permille out of range.
 */
/* The lowest value bucket @i counts. */
uint64_t log2_hist_bucket_low(unsigned int i);

int log2_hist_quantile(const uint64_t *counts, unsigned int n_buckets,
		       unsigned int permille, struct log2_hist_estimate *est);

#endif
