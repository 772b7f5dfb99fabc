/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by every file of vdpactl-batch.
 */
#ifndef VDPACTL_UTIL_H
#define VDPACTL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define PROG_NAME "vdpactl-batch"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT_ULL(nr) (1ULL << (nr))

#define __printf(fmt_idx, arg_idx) \
	__attribute__((format(printf, fmt_idx, arg_idx)))

static inline size_t align_up(size_t value, size_t align)
{
	return (value + align - 1) & ~(align - 1);
}

static inline int is_power_of_2(unsigned long n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

/* Copies @src if it fits in @size bytes; else leaves @dst empty. */
static inline bool str_copy(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src);

	if (len >= size) {
		if (size)
			dst[0] = '\0';
		return false;
	}
	memcpy(dst, src, len + 1);
	return true;
}

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

/* Milliseconds of CLOCK_MONOTONIC, for timeouts. */
static inline uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 +
	       (uint64_t)ts.tv_nsec / NSEC_PER_MSEC;
}

#endif
