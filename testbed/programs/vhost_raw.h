/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the raw-ioctl vhost-vdpa test driver (vsbfeat.c) builds on: a
 * fatal error that names the step and errno, a millisecond clock, an ioctl
 * that must succeed, an IOTLB message, the status. A program defines
 * VHOST_RAW_PROG, its name, before it includes this.
 */
#ifndef VHOST_RAW_H
#define VHOST_RAW_H

#include <errno.h>
#include <linux/vhost.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/* Exit 2: a set-up step failed (both programs' convention). */
static void __attribute__((format(printf, 1, 2), noreturn))
die(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	fprintf(stderr, VHOST_RAW_PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err));
	exit(2);
}

static inline uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static inline void vhost_raw_ioctl(int fd, unsigned long req, void *arg,
				   const char *name)
{
	if (ioctl(fd, req, arg))
		die("%s", name);
}

static inline void vhost_raw_iotlb(int fd, uint32_t asid, uint8_t type,
				   uint64_t iova, uint64_t size, uint64_t uaddr,
				   uint8_t perm)
{
	struct vhost_msg_v2 msg = {
		.type = VHOST_IOTLB_MSG_V2,
		.asid = asid,
		.iotlb = { .iova = iova,
			   .size = size,
			   .uaddr = uaddr,
			   .perm = perm,
			   .type = type },
	};

	if (write(fd, &msg, sizeof(msg)) != sizeof(msg))
		die("IOTLB message %u at 0x%llx, address space %u", type,
		    (unsigned long long)iova, asid);
}

static inline uint8_t vhost_raw_get_status(int fd)
{
	uint8_t status;

	vhost_raw_ioctl(fd, VHOST_VDPA_GET_STATUS, &status,
			"VHOST_VDPA_GET_STATUS");
	return status;
}

#endif /* VHOST_RAW_H */
