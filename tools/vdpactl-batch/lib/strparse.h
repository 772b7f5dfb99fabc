/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strict parsing of the numbers and addresses users type.
 */
#ifndef VDPACTL_STRPARSE_H
#define VDPACTL_STRPARSE_H

#include <stddef.h>
#include <stdint.h>

#define MAC_LEN 6
#define MAC_STR_LEN sizeof("00:00:00:00:00:00")

/*
 * Whole-string unsigned number in @base (0 = C prefixes; 16 takes an
 * optional 0x), no sign, no blanks. -EINVAL if not a number, -ERANGE if
 * outside [min, max].
 */
int parse_u64(const char *s, int base, uint64_t min, uint64_t max,
	      uint64_t *value);

/*
 * Six bytes of one or two hex digits each, colon-separated, as iproute2
 * reads them: "02:00:00:00:00:01" or "2:0:0:0:0:1"; -EINVAL otherwise.
 */
int parse_mac(const char *s, uint8_t mac[MAC_LEN]);
void format_mac(const uint8_t mac[MAC_LEN], char buf[MAC_STR_LEN]);

/* Why parse_time_ns() refused a time. */
enum time_parse {
	TIME_PARSE_OK,
	TIME_PARSE_NOT_A_NUMBER, /* "", "abc", "+5us", "1.us", ".5us" */
	TIME_PARSE_NEGATIVE, /* "-5us" */
	TIME_PARSE_NO_UNIT, /* "20": a bare number */
	TIME_PARSE_BAD_UNIT, /* "20xs" */
	TIME_PARSE_FRACTION, /* "1.5ns": not a whole number of ns */
	TIME_PARSE_TOO_LARGE, /* past UINT64_MAX ns */
};

/*
 * A time as tc(8) takes it: a decimal number ("2", "2.5") and a unit,
 * ns (nsec, nsecs), us (usec, usecs), ms (msec, msecs) or s (sec, secs),
 * case-insensitive, no blanks. Exact: no float on the way, so "1.5ns"
 * is refused rather than rounded. @ns is set only on TIME_PARSE_OK.
 */
enum time_parse parse_time_ns(const char *s, uint64_t *ns);

/*
 * @ns in the largest unit that keeps it exact, as iproute2 prints
 * times: 20000 -> "20us", 1500 -> "1500ns", 0 -> "0ns", 2000000000 ->
 * "2s". Fits any value in TIME_STR_LEN.
 */
#define TIME_STR_LEN sizeof("18446744073709551615ns")
void format_time_ns(uint64_t ns, char *buf, size_t len);

/* Why parse_percent_ppm() refused a percentage. */
enum percent_parse {
	PERCENT_PARSE_OK,
	PERCENT_PARSE_NOT_A_NUMBER, /* "", "abc", "1e3", "12.5.1", ".5", "5." */
	PERCENT_PARSE_NEGATIVE, /* "-5" */
	PERCENT_PARSE_ZERO, /* "0", "0.000" */
	PERCENT_PARSE_ABOVE_100, /* "100.1" */
	PERCENT_PARSE_TOO_PRECISE, /* "0.00001": more than 4 decimals */
};

#define PPM_PER_PERCENT 10000U
#define PERCENT_DECIMALS_MAX 4

/*
 * A percentage above 0 and at most 100, as parts per million: a decimal
 * number with at most 4 decimals, "%" after it optional ("12.5",
 * "0.0001", "100%"). Exact, as parse_time_ns(): a fifth decimal is
 * refused, even a 0, rather than dropped. @ppm is set only on
 * PERCENT_PARSE_OK.
 */
enum percent_parse parse_percent_ppm(const char *s, uint32_t *ppm);

/*
 * @ppm as a percentage without trailing zeros and without "%": 125000 ->
 * "12.5", 1 -> "0.0001", 1000000 -> "100". Fits any value in
 * PERCENT_STR_LEN.
 */
#define PERCENT_STR_LEN sizeof("429496.7295")
void format_ppm_percent(uint32_t ppm, char *buf, size_t len);

#endif
