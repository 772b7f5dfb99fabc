// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Timing statistics: min, median, p99 (nearest rank), max, mean.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_samples),
		cmocka_unit_test(one_sample),
		cmocka_unit_test(odd_and_even_medians),
		cmocka_unit_test(p99_is_nearest_rank),
		cmocka_unit_test(one_outlier_moves_the_mean_not_the_median),
		cmocka_unit_test(scaling_to_per_command),
	};

	return cmocka_run_group_tests_name("timestats", tests, NULL, NULL);
}
