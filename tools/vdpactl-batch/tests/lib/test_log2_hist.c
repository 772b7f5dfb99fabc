// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Median and p99 estimated from a log2 histogram.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lib/log2_hist.h"

#define BUCKETS 32

static void empty_and_bad_arguments(void **state)
{
	uint64_t counts[BUCKETS] = { 0 };
	struct log2_hist_estimate est;

	(void)state;
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 500, &est),
			 -EINVAL);
	counts[3] = 1;
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 0, &est), -EINVAL);
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 1001, &est),
			 -EINVAL);
	assert_int_equal(log2_hist_quantile(counts, 0, 500, &est), -EINVAL);
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 1000, &est), 0);
}

static void one_bucket(void **state)
{
	uint64_t counts[BUCKETS] = { 0 };
	struct log2_hist_estimate est;

	(void)state;
	/* One value in [16384, 32768): the bucket's middle. */
	counts[15] = 1;
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 500, &est), 0);
	assert_true(est.value == 24576.0);
	assert_false(est.at_least);
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 990, &est), 0);
	assert_true(est.value == 24576.0);

	/* Four values in [1024, 2048): ranks 1..4 at 1/8, 3/8, 5/8, 7/8. */
	counts[15] = 0;
	counts[11] = 4;
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 500, &est), 0);
	assert_true(est.value == 1024.0 + 1024.0 * 3 / 8); /* rank 2 */
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 990, &est), 0);
	assert_true(est.value == 1024.0 + 1024.0 * 7 / 8); /* rank 4 */
}

static void median_and_p99_apart(void **state)
{
	uint64_t counts[BUCKETS] = { 0 };
	struct log2_hist_estimate est;

	(void)state;
	/* 100 values: 98 in [64, 128), 2 in [4096, 8192). */
	counts[7] = 98;
	counts[13] = 2;
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 500, &est), 0);
	/* rank 50 of 98 in [64, 128) */
	assert_true(est.value == 64.0 + 64.0 * 49.5 / 98);
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 990, &est), 0);
	/* rank 99: the first of the two in [4096, 8192) */
	assert_true(est.value == 4096.0 + 4096.0 * 0.5 / 2);
	/* p98 is still in the lower bucket: its last rank */
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 980, &est), 0);
	assert_true(est.value == 64.0 + 64.0 * 97.5 / 98);
}

static void zero_and_open_buckets(void **state)
{
	uint64_t counts[BUCKETS] = { 0 };
	struct log2_hist_estimate est;

	(void)state;
	counts[0] = 3; /* the value 0 */
	counts[BUCKETS - 1] = 1; /* 2^30 or more */
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 500, &est), 0);
	assert_true(est.value == 0.0);
	assert_false(est.at_least);
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 990, &est), 0);
	assert_true(est.value == 1073741824.0);
	assert_true(est.at_least);
}

static void huge_counts(void **state)
{
	uint64_t counts[BUCKETS] = { 0 };
	struct log2_hist_estimate est;

	(void)state;
	/*
	 * total * 990 would overflow 64 bits; in doubles, a rank can reach
	 * its bucket's upper bound.
	 */
	counts[2] = UINT64_MAX / 2;
	counts[4] = UINT64_MAX / 2;
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 990, &est), 0);
	assert_true(est.value >= 8.0 && est.value <= 16.0);
	assert_int_equal(log2_hist_quantile(counts, BUCKETS, 500, &est), 0);
	assert_true(est.value >= 2.0 && est.value <= 4.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_and_bad_arguments),
		cmocka_unit_test(one_bucket),
		cmocka_unit_test(median_and_p99_apart),
		cmocka_unit_test(zero_and_open_buckets),
		cmocka_unit_test(huge_counts),
	};

	return cmocka_run_group_tests_name("log2_hist", tests, NULL, NULL);
}
