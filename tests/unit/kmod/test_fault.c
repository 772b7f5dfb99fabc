// SPDX-License-Identifier: GPL-2.0-only
/* Fault names (kmod/engine/vsb_fault.c): what logs and traces show. */

#include "unit.h"

#include "vsb_seam.h"
#include "vsb_fault.h"

static void fault_name_every_value_named_and_distinct(void **state)
{
	unsigned int i, j;

	(void)state;
	for (i = 0; i < VSB_FAULT_COUNT; i++) {
		const char *name = vsb_fault_name(i);

		if (!name || !*name)
			fail_msg("fault %u has no name", i);
		for (j = 0; j < i; j++)
			if (!strcmp(name, vsb_fault_name(j)))
				fail_msg("faults %u and %u both \"%s\"", j, i,
					 name);
	}
	assert_string_equal(vsb_fault_name(VSB_FAULT_NONE), "none");
}

static void fault_name_out_of_range_is_unknown(void **state)
{
	static const unsigned int bad[] = { VSB_FAULT_COUNT,
					    VSB_FAULT_COUNT + 1, 0x7fffffff };
	unsigned int i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *name = vsb_fault_name(bad[i]);

		assert_non_null(name);
		assert_string_equal(name, "unknown");
		for (j = 0; j < VSB_FAULT_COUNT; j++)
			assert_string_not_equal(name, vsb_fault_name(j));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fault_name_every_value_named_and_distinct),
		cmocka_unit_test(fault_name_out_of_range_is_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
