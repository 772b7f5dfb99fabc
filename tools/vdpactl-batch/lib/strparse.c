// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Strict parsing of numbers and MAC addresses.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/strparse.h"

int parse_u64(const char *s, int base, uint64_t min, uint64_t max,
	      uint64_t *value)
{
	unsigned long long v;
	char *end;

	/* strtoull() would accept blanks and a minus sign. */
	if (!s || !(base == 16 ? isxdigit((unsigned char)s[0]) :
				 isdigit((unsigned char)s[0])))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
	if (*end != '\0')
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*value = v;
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int parse_mac(const char *s, uint8_t mac[MAC_LEN])
{
	unsigned int i;

	for (i = 0; i < MAC_LEN; i++) {
		int hi = hex_digit(s[0]);
		int lo = hi < 0 ? -1 : hex_digit(s[1]);

		if (hi < 0)
			return -EINVAL;
		/* One digit or two, as iproute2's ll_addr_a2n() reads. */
		if (lo < 0) {
			mac[i] = (uint8_t)hi;
			s++;
		} else {
			mac[i] = (uint8_t)(hi << 4 | lo);
			s += 2;
		}
		if (i < MAC_LEN - 1 && *s++ != ':')
			return -EINVAL;
	}
	return *s ? -EINVAL : 0;
}

void format_mac(const uint8_t mac[MAC_LEN], char buf[MAC_STR_LEN])
{
	snprintf(buf, MAC_STR_LEN, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0],
		 mac[1], mac[2], mac[3], mac[4], mac[5]);
}

static const struct time_unit {
	const char *name;
	uint64_t ns;
} time_units[] = {
	{ "ns", 1 },	     { "nsec", 1 },	    { "nsecs", 1 },
	{ "us", 1000 },	     { "usec", 1000 },	    { "usecs", 1000 },
	{ "ms", 1000000 },   { "msec", 1000000 },   { "msecs", 1000000 },
	{ "s", 1000000000 }, { "sec", 1000000000 }, { "secs", 1000000000 },
};

static const struct time_unit *find_time_unit(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++)
		if (!strcasecmp(name, time_units[i].name))
			return &time_units[i];
	return NULL;
}

/* Digits at *p into *v (saturating past UINT64_MAX); how many there were. */
static size_t take_digits(const char **p, uint64_t *v, bool *overflow)
{
	size_t n = 0;

	for (; isdigit((unsigned char)**p); (*p)++, n++) {
		unsigned int d = (unsigned int)(**p - '0');

		if (*v > (UINT64_MAX - d) / 10)
			*overflow = true;
		else
			*v = *v * 10 + d;
	}
	return n;
}

enum time_parse parse_time_ns(const char *s, uint64_t *ns)
{
	uint64_t whole = 0, frac = 0, scale = 1, value;
	const struct time_unit *unit;
	bool overflow = false;
	size_t frac_digits = 0;
	const char *p = s;

	if (!s)
		return TIME_PARSE_NOT_A_NUMBER;
	if (*p == '-') {
		/* Say "negative" only of what would otherwise be a time. */
		p++;
		if (!isdigit((unsigned char)*p))
			return TIME_PARSE_NOT_A_NUMBER;
		return TIME_PARSE_NEGATIVE;
	}
	if (!take_digits(&p, &whole, &overflow))
		return TIME_PARSE_NOT_A_NUMBER;
	if (*p == '.') {
		p++;
		for (; isdigit((unsigned char)*p); p++, frac_digits++) {
			/* Past 18 digits only zeros can still be exact. */
			if (frac_digits >= 18) {
				if (*p != '0')
					return TIME_PARSE_FRACTION;
				continue;
			}
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
		if (!frac_digits)
			return TIME_PARSE_NOT_A_NUMBER;
	}
	if (!*p)
		return TIME_PARSE_NO_UNIT;
	unit = find_time_unit(p);
	if (!unit)
		return TIME_PARSE_BAD_UNIT;
	if (overflow || whole > UINT64_MAX / unit->ns)
		return TIME_PARSE_TOO_LARGE;
	value = whole * unit->ns;
	/*
	 * frac / scale of the unit, both powers of 10 (scale = 10^k, the
	 * unit 10^m): exact when frac ends in k - m zeros. It is below the
	 * unit, so below 1e9, and cannot overflow.
	 */
	if (frac) {
		uint64_t unit_ns = unit->ns, part;

		while (scale > 1 && unit_ns > 1) {
			scale /= 10;
			unit_ns /= 10;
		}
		if (frac % scale)
			return TIME_PARSE_FRACTION;
		part = frac / scale * unit_ns;
		if (value > UINT64_MAX - part)
			return TIME_PARSE_TOO_LARGE;
		value += part;
	}
	*ns = value;
	return TIME_PARSE_OK;
}

void format_time_ns(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		uint64_t ns;
		const char *name;
	} units[] = {
		{ 1000000000, "s" },
		{ 1000000, "ms" },
		{ 1000, "us" },
	};
	size_t i;

	for (i = 0; ns && i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns % units[i].ns == 0) {
			snprintf(buf, len, "%llu%s",
				 (unsigned long long)(ns / units[i].ns),
				 units[i].name);
			return;
		}
	}
	snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

enum percent_parse parse_percent_ppm(const char *s, uint32_t *ppm)
{
	uint64_t whole = 0, frac = 0, value;
	bool overflow = false, too_precise = false;
	size_t frac_digits = 0;
	const char *p = s;

	if (!s)
		return PERCENT_PARSE_NOT_A_NUMBER;
	if (*p == '-')
		return isdigit((unsigned char)p[1]) ?
			       PERCENT_PARSE_NEGATIVE :
			       PERCENT_PARSE_NOT_A_NUMBER;
	if (!take_digits(&p, &whole, &overflow))
		return PERCENT_PARSE_NOT_A_NUMBER;
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, frac_digits++) {
			if (frac_digits == PERCENT_DECIMALS_MAX)
				too_precise = true;
			else
				frac = frac * 10 + (uint64_t)(*p - '0');
		}
		if (!frac_digits)
			return PERCENT_PARSE_NOT_A_NUMBER;
	}
	if (*p == '%')
		p++;
	if (*p)
		return PERCENT_PARSE_NOT_A_NUMBER;
	if (too_precise)
		return PERCENT_PARSE_TOO_PRECISE;
	for (; frac_digits < PERCENT_DECIMALS_MAX; frac_digits++)
		frac *= 10;
	if (overflow || whole > 100)
		return PERCENT_PARSE_ABOVE_100;
	value = whole * PPM_PER_PERCENT + frac;
	if (value > 100 * PPM_PER_PERCENT)
		return PERCENT_PARSE_ABOVE_100;
	if (!value)
		return PERCENT_PARSE_ZERO;
	*ppm = (uint32_t)value;
	return PERCENT_PARSE_OK;
}

void format_ppm_percent(uint32_t ppm, char *buf, size_t len)
{
	unsigned int frac = ppm % PPM_PER_PERCENT, decimals = 4;

	if (!frac) {
		snprintf(buf, len, "%u", ppm / PPM_PER_PERCENT);
		return;
	}
	for (; frac % 10 == 0; frac /= 10)
		decimals--;
	snprintf(buf, len, "%u.%0*u", ppm / PPM_PER_PERCENT, (int)decimals,
		 frac);
}
