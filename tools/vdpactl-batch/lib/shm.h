/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory the device reaches through the IOTLB. It must be a shared file
 * mapping: in VA mode (vdpa_sim's default, VDUSE) vhost-vdpa silently skips
 * anything else, so a malloc()ed ring would never be seen by the device.
 */
#ifndef VDPACTL_SHM_H
#define VDPACTL_SHM_H

#include <stddef.h>

struct shm_region {
	void *base;
	size_t size;
	int fd;
};

/* Zero-filled memfd mapped MAP_SHARED; prints the failure, returns -errno. */
int shm_region_create(struct shm_region *r, const char *name, size_t size);
void shm_region_destroy(struct shm_region *r);

#endif
