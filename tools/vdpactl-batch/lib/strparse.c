// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Strict parsing of numbers and MAC addresses.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/strparse.h"

int parse_u64(const char *s, int base, uint64_t min, uint64_t max,
	      uint64_t *value)
{
	unsigned long long v;
	char *end;

	/* strtoull() would accept blanks and a minus sign. */
	if (!s || !isdigit((unsigned char)s[0]))
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

		if (lo < 0)
			return -EINVAL;
		mac[i] = (uint8_t)(hi << 4 | lo);
		s += 2;
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
