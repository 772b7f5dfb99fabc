// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Strict number and MAC address parsing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lib/strparse.h"

struct number_case {
	const char *text;
	int base;
	uint64_t min, max;
	int err;
	uint64_t value;
};

static void numbers(void **state)
{
	static const struct number_case cases[] = {
		{ "30", 10, 1, 65536, 0, 30 },
		{ "65536", 10, 1, 65536, 0, 65536 },
		{ "65537", 10, 1, 65536, -ERANGE, 0 },
		{ "0", 10, 1, 65536, -ERANGE, 0 },
		{ "", 10, 0, 10, -EINVAL, 0 },
		{ "abc", 10, 0, 10, -EINVAL, 0 },
		{ "12abc", 10, 0, 100, -EINVAL, 0 },
		{ "-1", 10, 0, UINT64_MAX, -EINVAL, 0 },
		{ " 5", 10, 0, 10, -EINVAL, 0 },
		{ "+5", 10, 0, 10, -EINVAL, 0 },
		{ "0x10", 10, 0, 100, -EINVAL, 0 },
		{ "0x10", 0, 0, 100, 0, 16 },
		{ "18446744073709551615", 10, 0, UINT64_MAX, 0, UINT64_MAX },
		{ "18446744073709551616", 10, 0, UINT64_MAX, -ERANGE, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 12345;
		int err = parse_u64(cases[i].text, cases[i].base, cases[i].min,
				    cases[i].max, &v);

		assert_int_equal(err, cases[i].err);
		if (!err)
			assert_int_equal(v, cases[i].value);
	}
}

static void macs(void **state)
{
	uint8_t mac[MAC_LEN];
	char text[MAC_STR_LEN];

	(void)state;
	assert_int_equal(parse_mac("02:AB:cd:00:01:ff", mac), 0);
	format_mac(mac, text);
	assert_string_equal(text, "02:ab:cd:00:01:ff");
	assert_int_equal(parse_mac("02:ab:cd:00:01", mac), -EINVAL);
	assert_int_equal(parse_mac("02:ab:cd:00:01:ff:00", mac), -EINVAL);
	assert_int_equal(parse_mac("02-ab-cd-00-01-ff", mac), -EINVAL);
	assert_int_equal(parse_mac("2:ab:cd:00:01:ff", mac), -EINVAL);
	assert_int_equal(parse_mac("0g:ab:cd:00:01:ff", mac), -EINVAL);
	assert_int_equal(parse_mac("", mac), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers),
		cmocka_unit_test(macs),
	};

	return cmocka_run_group_tests_name("strparse", tests, NULL, NULL);
}
