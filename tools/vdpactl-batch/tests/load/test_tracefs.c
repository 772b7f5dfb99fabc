// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace instance's buffer: sized by the run, bounded by the machine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "load/tracefs.h"

#define GIB_KB (1024ULL * 1024)

static void buffer_fits_the_run_within_the_machine(void **state)
{
	(void)state;
	/* 30 x 200 events: 750 KiB and the 1 MiB floor. */
	assert_int_equal(trace_buffer_kb(6000, 2, 2 * GIB_KB), 1774);
	/* Nothing to record: the floor. */
	assert_int_equal(trace_buffer_kb(0, 2, 2 * GIB_KB), 1024);
	/* 30 million events on 2 CPUs and 2 GiB: 128 MiB in all. */
	assert_int_equal(trace_buffer_kb(30000000, 2, 2 * GIB_KB), 65536);
	/* ... on 64 CPUs and 1 TiB: 256 MiB in all, 4 MiB each. */
	assert_int_equal(trace_buffer_kb(30000000, 64, 1024 * GIB_KB), 4096);
	/* A small machine still gets the floor. */
	assert_int_equal(trace_buffer_kb(30000000, 64, GIB_KB / 4), 1024);
	/* Memory unknown (0): the floor. */
	assert_int_equal(trace_buffer_kb(30000000, 1, 0), 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buffer_fits_the_run_within_the_machine),
	};

	return cmocka_run_group_tests_name("tracefs", tests, NULL, NULL);
}
