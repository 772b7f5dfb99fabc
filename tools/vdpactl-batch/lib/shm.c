// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared memory for rings and buffers.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/diag.h"
#include "lib/shm.h"

int shm_region_create(struct shm_region *r, const char *name, size_t size)
{
	int err;

	*r = (struct shm_region){ .fd = -1 };
	r->fd = memfd_create(name, MFD_CLOEXEC);
	if (r->fd < 0)
		return pr_errno(errno, "memfd_create %s", name);
	if (ftruncate(r->fd, (off_t)size) < 0) {
		err = pr_errno(errno, "ftruncate memfd %s to %zu bytes", name,
			       size);
		goto close_fd;
	}
	r->base =
		mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->base == MAP_FAILED) {
		err = pr_errno(errno, "mmap memfd %s (%zu bytes)", name, size);
		r->base = NULL;
		goto close_fd;
	}
	r->size = size;
	return 0;

close_fd:
	close(r->fd);
	r->fd = -1;
	return err;
}

void shm_region_destroy(struct shm_region *r)
{
	if (r->base)
		munmap(r->base, r->size);
	if (r->fd >= 0)
		close(r->fd);
	*r = (struct shm_region){ .fd = -1 };
}
