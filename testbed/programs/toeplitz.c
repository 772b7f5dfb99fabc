// SPDX-License-Identifier: GPL-2.0-only
/*
 * toeplitz: the RSS hash of a flow, computed apart from the device, for the
 * VM tests of RSS steering and hash reports.
 *
 *   toeplitz KEY SRC_IP DST_IP [SPORT DPORT]
 *
 * KEY is hex bytes separated by colons, as "ethtool -x" prints it (at most
 * 40). The input is the source and destination address, then the source
 * and destination port, in network byte order, as Microsoft's RSS
 * specification and virtio's "Hash calculation for incoming packets" say;
 * the hash is printed in decimal. Exit status 0, or 2 on a usage error.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define KEY_MAX 40

static int usage(void)
{
	fputs("Usage: toeplitz KEY SRC_IP DST_IP [SPORT DPORT]\n"
	      "Print the Toeplitz hash of the addresses (and ports) under KEY\n"
	      "(hex bytes separated by colons, at most 40).\n",
	      stderr);
	return 2;
}

static int parse_key(const char *s, uint8_t *key)
{
	int n = 0;

	while (*s) {
		char *end;
		unsigned long b;

		if (n == KEY_MAX)
			return -1;
		errno = 0;
		b = strtoul(s, &end, 16);
		if (errno || end == s || end - s > 2 || b > 0xff)
			return -1;
		key[n++] = b;
		s = *end == ':' ? end + 1 : end;
		if (*end && *end != ':')
			return -1;
	}
	return n;
}

/* Bit i of the key, counted from the most significant bit of byte 0. */
static unsigned int key_bit(const uint8_t *key, unsigned int i)
{
	return i / 8 < KEY_MAX ? (key[i / 8] >> (7 - i % 8)) & 1 : 0;
}

static uint32_t toeplitz(const uint8_t *key, const uint8_t *in, size_t len)
{
	uint32_t hash = 0;
	unsigned int i, k;

	for (i = 0; i < len * 8; i++) {
		uint32_t window = 0;

		if (!((in[i / 8] >> (7 - i % 8)) & 1))
			continue;
		for (k = 0; k < 32; k++)
			window = window << 1 | key_bit(key, i + k);
		hash ^= window;
	}
	return hash;
}

static int parse_port(const char *s, uint8_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v > 0xffff)
		return -1;
	out[0] = v >> 8;
	out[1] = v & 0xff;
	return 0;
}

int main(int argc, char **argv)
{
	uint8_t key[KEY_MAX] = { 0 }, in[36];
	int family, alen;
	size_t len;

	if (argc != 4 && argc != 6)
		return usage();
	if (parse_key(argv[1], key) < 0) {
		fprintf(stderr, "toeplitz: KEY '%s': not hex bytes\n", argv[1]);
		return usage();
	}
	family = strchr(argv[2], ':') ? AF_INET6 : AF_INET;
	alen = family == AF_INET6 ? 16 : 4;
	if (inet_pton(family, argv[2], in) != 1 ||
	    inet_pton(family, argv[3], in + alen) != 1) {
		fprintf(stderr, "toeplitz: addresses not of one family\n");
		return usage();
	}
	len = 2 * alen;
	if (argc == 6) {
		if (parse_port(argv[4], in + len) ||
		    parse_port(argv[5], in + len + 2)) {
			fprintf(stderr, "toeplitz: ports: want 0-65535\n");
			return usage();
		}
		len += 4;
	}
	printf("%u\n", toeplitz(key, in, len));
	return 0;
}
