// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Timing statistics: min, quartiles, p99 (nearest rank), max, mean; the
 * spread of paired ratios.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "load/timestats.h"

static void no_samples(void **state)
{
	struct time_summary s;
	uint64_t one = 1;

	(void)state;
	assert_int_equal(time_summary_compute(&one, 0, &s), -EINVAL);
}

static void one_sample(void **state)
{
	uint64_t v = 42;
	struct time_summary s;

	(void)state;
	assert_int_equal(time_summary_compute(&v, 1, &s), 0);
	assert_int_equal(s.n, 1);
	assert_true(s.min == 42 && s.median == 42 && s.p99 == 42 &&
		    s.max == 42 && s.mean == 42 && s.total == 42);
}

static void odd_and_even_medians(void **state)
{
	uint64_t odd[] = { 9, 1, 5 };
	uint64_t even[] = { 10, 1, 4, 7 };
	struct time_summary s;

	(void)state;
	assert_int_equal(time_summary_compute(odd, 3, &s), 0);
	assert_true(s.median == 5);
	assert_true(s.min == 1 && s.max == 9 && s.total == 15);
	/* The input is left as it was. */
	assert_int_equal(odd[0], 9);

	assert_int_equal(time_summary_compute(even, 4, &s), 0);
	assert_true(s.median == 5.5);
	assert_true(s.mean == 5.5);
}

static void p99_is_nearest_rank(void **state)
{
	uint64_t samples[1000];
	struct time_summary s;
	unsigned int i;

	(void)state;
	/* 1..1000 shuffled: the 990th smallest is 990. */
	for (i = 0; i < 1000; i++)
		samples[i] = (i * 7919) % 1000 + 1;
	assert_int_equal(time_summary_compute(samples, 1000, &s), 0);
	assert_true(s.p99 == 990);
	assert_true(s.median == 500.5);
	assert_true(s.min == 1 && s.max == 1000);

	/* 100 samples: rank 99. 10 samples: rank 10, the maximum. */
	assert_int_equal(time_summary_compute(samples, 100, &s), 0);
	assert_true(s.p99 != s.max || s.n < 100);
	for (i = 0; i < 10; i++)
		samples[i] = i;
	assert_int_equal(time_summary_compute(samples, 10, &s), 0);
	assert_true(s.p99 == 9);
}

static void one_outlier_moves_the_mean_not_the_median(void **state)
{
	uint64_t samples[101];
	struct time_summary s;
	unsigned int i;

	(void)state;
	for (i = 0; i < 100; i++)
		samples[i] = 4000;
	samples[100] = 4000000; /* one scheduler tick */
	assert_int_equal(time_summary_compute(samples, 101, &s), 0);
	assert_true(s.median == 4000);
	assert_true(s.p99 == 4000);
	assert_true(s.mean > 40000);
}

static void scaling_to_per_command(void **state)
{
	uint64_t samples[] = { 300, 600, 900 };
	struct time_summary per_load, per_cmd;

	(void)state;
	assert_int_equal(time_summary_compute(samples, 3, &per_load), 0);
	time_summary_scale(&per_load, 30, &per_cmd);
	assert_int_equal(per_cmd.n, 3);
	assert_true(per_cmd.min == 10 && per_cmd.median == 20 &&
		    per_cmd.max == 30 && per_cmd.total == 60);
}

static void quartiles_interpolate_like_the_median(void **state)
{
	uint64_t samples[] = { 40, 10, 30, 20, 50 };
	uint64_t four[] = { 1, 2, 3, 4 };
	struct time_summary s;

	(void)state;
	/* Positions 1, 2, 3 of 0..4: exact order statistics. */
	assert_int_equal(time_summary_compute(samples, 5, &s), 0);
	assert_true(s.q1 == 20 && s.median == 30 && s.q3 == 40);
	/* Positions 0.75, 1.5, 2.25 of 0..3. */
	assert_int_equal(time_summary_compute(four, 4, &s), 0);
	assert_true(s.q1 == 1.75 && s.median == 2.5 && s.q3 == 3.25);
	/* One sample: every quantile is that sample. */
	assert_int_equal(time_summary_compute(four, 1, &s), 0);
	assert_true(s.q1 == 1 && s.q3 == 1);
}

static void values_summarize_like_samples(void **state)
{
	double v[] = { 2.5, 0.5, 1.5, 4.5, 3.5 };
	struct time_summary s;

	(void)state;
	assert_int_equal(time_summary_of(v, 5, &s), 0);
	assert_true(s.min == 0.5 && s.q1 == 1.5 && s.median == 2.5 &&
		    s.q3 == 3.5 && s.p99 == 4.5 && s.max == 4.5);
	assert_true(s.mean == 2.5 && s.total == 12.5);
	/* The input keeps its order. */
	assert_true(v[0] == 2.5);
	assert_int_equal(time_summary_of(v, 0, &s), -EINVAL);
}

static void ratios_pair_round_by_round(void **state)
{
	/* The baseline took 100 each round; this run 50, 25, 100, 0 (none). */
	uint64_t base[] = { 100, 100, 100, 100 };
	uint64_t run[] = { 50, 25, 100, 0 };
	struct ratio_summary r;

	(void)state;
	assert_int_equal(ratio_summary_compute(base, run, 4, &r), 0);
	/* Ratios 1, 2, 4: the round without a time does not count. */
	assert_int_equal(r.n, 3);
	assert_true(r.min == 1 && r.median == 2 && r.max == 4);
	assert_true(r.q1 == 1.5 && r.q3 == 3);
	assert_false(ratio_within_noise(&r));
	assert_int_equal(ratio_summary_compute(base, run + 3, 1, &r), -EINVAL);
	assert_int_equal(ratio_summary_compute(base, run, 0, &r), -EINVAL);
}

static void noise_is_a_middle_half_around_one(void **state)
{
	double mixed[] = { 0.8, 1.3, 0.9, 1.2 };
	double slower[] = { 0.5, 0.6, 0.7, 0.8, 0.99 };
	struct ratio_summary r;

	(void)state;
	assert_int_equal(ratio_summary_of(mixed, 4, &r), 0);
	assert_true(ratio_within_noise(&r));
	/* The input keeps its order. */
	assert_true(mixed[0] == 0.8);
	assert_int_equal(ratio_summary_of(slower, 5, &r), 0);
	assert_false(ratio_within_noise(&r));
	assert_true(r.median == 0.7);
	assert_int_equal(ratio_summary_of(slower, 0, &r), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_samples),
		cmocka_unit_test(one_sample),
		cmocka_unit_test(odd_and_even_medians),
		cmocka_unit_test(p99_is_nearest_rank),
		cmocka_unit_test(one_outlier_moves_the_mean_not_the_median),
		cmocka_unit_test(scaling_to_per_command),
		cmocka_unit_test(quartiles_interpolate_like_the_median),
		cmocka_unit_test(values_summarize_like_samples),
		cmocka_unit_test(ratios_pair_round_by_round),
		cmocka_unit_test(noise_is_a_middle_half_around_one),
	};

	return cmocka_run_group_tests_name("timestats", tests, NULL, NULL);
}
