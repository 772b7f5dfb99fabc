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
		/* iproute2's device_features: hex, 0x optional */
		{ "300020000", 16, 0, UINT64_MAX, 0, 0x300020000ULL },
		{ "0x300020000", 16, 0, UINT64_MAX, 0, 0x300020000ULL },
		{ "010", 16, 0, UINT64_MAX, 0, 0x10 },
		{ "ff", 16, 0, UINT64_MAX, 0, 0xff },
		{ "0x", 16, 0, UINT64_MAX, -EINVAL, 0 },
		{ "0xg", 16, 0, UINT64_MAX, -EINVAL, 0 },
		{ "-1", 16, 0, UINT64_MAX, -EINVAL, 0 },
		{ "x10", 16, 0, UINT64_MAX, -EINVAL, 0 },
		{ "10000000000000000", 16, 0, UINT64_MAX, -ERANGE, 0 },
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
	/* iproute2's short form: one digit for a byte below 0x10. */
	assert_int_equal(parse_mac("2:0:0:0:0:1", mac), 0);
	format_mac(mac, text);
	assert_string_equal(text, "02:00:00:00:00:01");
	assert_int_equal(parse_mac("2:ab:c:00:1:ff", mac), 0);
	format_mac(mac, text);
	assert_string_equal(text, "02:ab:0c:00:01:ff");
	assert_int_equal(parse_mac("002:ab:cd:00:01:ff", mac), -EINVAL);
	assert_int_equal(parse_mac("2::0:0:0:1", mac), -EINVAL);
	assert_int_equal(parse_mac("2:0:0:0:0:", mac), -EINVAL);
	assert_int_equal(parse_mac("2:0:0:0:0:1:", mac), -EINVAL);
	assert_int_equal(parse_mac("0g:ab:cd:00:01:ff", mac), -EINVAL);
	assert_int_equal(parse_mac("", mac), -EINVAL);
}

struct time_case {
	const char *text;
	enum time_parse result;
	uint64_t ns;
};

static void times(void **state)
{
	static const struct time_case cases[] = {
		{ "20us", TIME_PARSE_OK, 20000 },
		{ "20usec", TIME_PARSE_OK, 20000 },
		{ "20usecs", TIME_PARSE_OK, 20000 },
		{ "20US", TIME_PARSE_OK, 20000 }, /* tc: case-insensitive */
		{ "2.5us", TIME_PARSE_OK, 2500 },
		{ "0.001us", TIME_PARSE_OK, 1 },
		{ "1500ns", TIME_PARSE_OK, 1500 },
		{ "7nsec", TIME_PARSE_OK, 7 },
		{ "1.000ns", TIME_PARSE_OK, 1 },
		{ "3ms", TIME_PARSE_OK, 3000000 },
		{ "3msec", TIME_PARSE_OK, 3000000 },
		{ "1.25msecs", TIME_PARSE_OK, 1250000 },
		{ "1s", TIME_PARSE_OK, 1000000000 },
		{ "0.5sec", TIME_PARSE_OK, 500000000 },
		{ "2secs", TIME_PARSE_OK, 2000000000 },
		{ "0.000000001s", TIME_PARSE_OK, 1 },
		{ "0ns", TIME_PARSE_OK, 0 },
		{ "0s", TIME_PARSE_OK, 0 },
		{ "18446744073709551615ns", TIME_PARSE_OK, UINT64_MAX },
		{ "20", TIME_PARSE_NO_UNIT, 0 },
		{ "2.5", TIME_PARSE_NO_UNIT, 0 },
		{ "-5us", TIME_PARSE_NEGATIVE, 0 },
		{ "-0.5ms", TIME_PARSE_NEGATIVE, 0 },
		{ "20xs", TIME_PARSE_BAD_UNIT, 0 },
		{ "20 us", TIME_PARSE_BAD_UNIT, 0 },
		{ "20usx", TIME_PARSE_BAD_UNIT, 0 },
		{ "1e3us", TIME_PARSE_BAD_UNIT, 0 },
		{ "1.5ns", TIME_PARSE_FRACTION, 0 },
		{ "0.0000000001s", TIME_PARSE_FRACTION, 0 },
		{ "0.0000000000000000000001s", TIME_PARSE_FRACTION, 0 },
		{ "0.1000000000000000000000s", TIME_PARSE_OK, 100000000 },
		{ "18446744073709551616ns", TIME_PARSE_TOO_LARGE, 0 },
		{ "18446744074s", TIME_PARSE_TOO_LARGE, 0 },
		{ "", TIME_PARSE_NOT_A_NUMBER, 0 },
		{ "us", TIME_PARSE_NOT_A_NUMBER, 0 },
		{ "abc", TIME_PARSE_NOT_A_NUMBER, 0 },
		{ "+5us", TIME_PARSE_NOT_A_NUMBER, 0 },
		{ " 5us", TIME_PARSE_NOT_A_NUMBER, 0 },
		{ ".5us", TIME_PARSE_NOT_A_NUMBER, 0 },
		{ "1.us", TIME_PARSE_NOT_A_NUMBER, 0 },
		{ "-", TIME_PARSE_NOT_A_NUMBER, 0 },
		{ "--5us", TIME_PARSE_NOT_A_NUMBER, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t ns = 12345;

		print_message("time \"%s\"\n", cases[i].text);
		assert_int_equal(parse_time_ns(cases[i].text, &ns),
				 cases[i].result);
		assert_int_equal(ns, cases[i].result == TIME_PARSE_OK ?
					     cases[i].ns :
					     12345);
	}
	assert_int_equal(parse_time_ns(NULL, NULL), TIME_PARSE_NOT_A_NUMBER);
}

static void time_text(void **state)
{
	static const struct {
		uint64_t ns;
		const char *text;
	} cases[] = {
		{ 0, "0ns" },
		{ 1, "1ns" },
		{ 999, "999ns" },
		{ 1000, "1us" },
		{ 1500, "1500ns" },
		{ 20000, "20us" },
		{ 2500000, "2500us" },
		{ 3000000, "3ms" },
		{ 1000000000, "1s" },
		{ 1500000000, "1500ms" },
		{ UINT64_MAX, "18446744073709551615ns" },
	};
	char text[TIME_STR_LEN];
	uint64_t back;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		format_time_ns(cases[i].ns, text, sizeof(text));
		assert_string_equal(text, cases[i].text);
		/* What is printed parses back to the same time. */
		assert_int_equal(parse_time_ns(text, &back), TIME_PARSE_OK);
		assert_int_equal(back, cases[i].ns);
	}
}

struct percent_case {
	const char *text;
	enum percent_parse result;
	uint32_t ppm;
};

static void percentages(void **state)
{
	static const struct percent_case cases[] = {
		{ "12.5", PERCENT_PARSE_OK, 125000 },
		{ "12.5%", PERCENT_PARSE_OK, 125000 },
		{ "0.0001", PERCENT_PARSE_OK, 1 },
		{ "0.0001%", PERCENT_PARSE_OK, 1 },
		{ "100", PERCENT_PARSE_OK, 1000000 },
		{ "100.0000", PERCENT_PARSE_OK, 1000000 },
		{ "1", PERCENT_PARSE_OK, 10000 },
		{ "99.9999", PERCENT_PARSE_OK, 999999 },
		{ "007.25", PERCENT_PARSE_OK, 72500 },
		{ "0", PERCENT_PARSE_ZERO, 0 },
		{ "0.0000%", PERCENT_PARSE_ZERO, 0 },
		{ "100.1", PERCENT_PARSE_ABOVE_100, 0 },
		{ "100.0001", PERCENT_PARSE_ABOVE_100, 0 },
		{ "101", PERCENT_PARSE_ABOVE_100, 0 },
		{ "99999999999999999999999", PERCENT_PARSE_ABOVE_100, 0 },
		{ "0.00001", PERCENT_PARSE_TOO_PRECISE, 0 },
		{ "12.34567", PERCENT_PARSE_TOO_PRECISE, 0 },
		{ "12.50000", PERCENT_PARSE_TOO_PRECISE, 0 },
		{ "-5", PERCENT_PARSE_NEGATIVE, 0 },
		{ "-0.5%", PERCENT_PARSE_NEGATIVE, 0 },
		{ "1e3", PERCENT_PARSE_NOT_A_NUMBER, 0 },
		{ "12.5.1", PERCENT_PARSE_NOT_A_NUMBER, 0 },
		{ "", PERCENT_PARSE_NOT_A_NUMBER, 0 },
		{ "%", PERCENT_PARSE_NOT_A_NUMBER, 0 },
		{ "abc", PERCENT_PARSE_NOT_A_NUMBER, 0 },
		{ ".5", PERCENT_PARSE_NOT_A_NUMBER, 0 },
		{ "5.", PERCENT_PARSE_NOT_A_NUMBER, 0 },
		{ "12,5", PERCENT_PARSE_NOT_A_NUMBER, 0 },
		{ "+5", PERCENT_PARSE_NOT_A_NUMBER, 0 },
		{ " 5", PERCENT_PARSE_NOT_A_NUMBER, 0 },
		{ "5 %", PERCENT_PARSE_NOT_A_NUMBER, 0 },
		{ "5%%", PERCENT_PARSE_NOT_A_NUMBER, 0 },
		{ "-", PERCENT_PARSE_NOT_A_NUMBER, 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t ppm = 12345;

		print_message("percentage \"%s\"\n", cases[i].text);
		assert_int_equal(parse_percent_ppm(cases[i].text, &ppm),
				 cases[i].result);
		assert_int_equal(ppm, cases[i].result == PERCENT_PARSE_OK ?
					      cases[i].ppm :
					      12345);
	}
	assert_int_equal(parse_percent_ppm(NULL, NULL),
			 PERCENT_PARSE_NOT_A_NUMBER);
}

static void percentage_text(void **state)
{
	static const struct {
		uint32_t ppm;
		const char *text;
	} cases[] = {
		{ 1, "0.0001" },
		{ 10, "0.001" },
		{ 125000, "12.5" },
		{ 123456, "12.3456" },
		{ 10000, "1" },
		{ 1000000, "100" },
		{ 999999, "99.9999" },
		{ 100, "0.01" },
		{ UINT32_MAX, "429496.7295" },
	};
	char text[PERCENT_STR_LEN];
	uint32_t back;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		format_ppm_percent(cases[i].ppm, text, sizeof(text));
		assert_string_equal(text, cases[i].text);
		/* What is printed (up to 100%) parses back to the same. */
		if (cases[i].ppm <= 100 * PPM_PER_PERCENT) {
			assert_int_equal(parse_percent_ppm(text, &back),
					 PERCENT_PARSE_OK);
			assert_int_equal(back, cases[i].ppm);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers),
		cmocka_unit_test(macs),
		cmocka_unit_test(times),
		cmocka_unit_test(time_text),
		cmocka_unit_test(percentages),
		cmocka_unit_test(percentage_text),
	};

	return cmocka_run_group_tests_name("strparse", tests, NULL, NULL);
}
