/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Thin layer over a /dev/vhost-vdpa-N file descriptor: ioctls that report
 * their own failures ("VHOST_SET_FEATURES on /dev/vhost-vdpa-0: ...") and
 * IOTLB updates written as vhost_msg_v2.
 */
#ifndef VDPACTL_VHOST_VDPA_H
#define VDPACTL_VHOST_VDPA_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/compat.h"
#include "lib/vring.h"

#define VHOST_VDPA_PATH_LEN 64

struct vhost_vdpa {
	int fd;
	char path[VHOST_VDPA_PATH_LEN];
	int verbose;
	bool iotlb_batch; /* VHOST_BACKEND_F_IOTLB_BATCH acked */
};

struct iotlb_map {
	uint64_t iova;
	uint64_t size;
	uint64_t uaddr;
	uint8_t perm; /* VHOST_ACCESS_RO / _WO / _RW */
};

/* Prints the failure; EBUSY says another process holds the device. */
int vhost_vdpa_open(struct vhost_vdpa *v, const char *path, int verbose);
void vhost_vdpa_close(struct vhost_vdpa *v);

/* Issues @req, printing "<name> on <path>: <error>" on failure. */
int vhost_vdpa_ioctl(struct vhost_vdpa *v, unsigned long req, void *arg,
		     const char *name);
/* The same without printing, for ioctls a device may lack. */
int vhost_vdpa_ioctl_quiet(struct vhost_vdpa *v, unsigned long req, void *arg,
			   const char *name);

#define VHOST_IOCTL(v, req, arg) vhost_vdpa_ioctl(v, req, arg, #req)
#define VHOST_IOCTL_QUIET(v, req, arg) vhost_vdpa_ioctl_quiet(v, req, arg, #req)

int vhost_vdpa_set_status(struct vhost_vdpa *v, uint8_t status);
int vhost_vdpa_get_status(struct vhost_vdpa *v, uint8_t *status);
/* Reads @len bytes of the virtio config space at @offset. */
int vhost_vdpa_get_config(struct vhost_vdpa *v, uint32_t offset, void *buf,
			  uint32_t len);
/*
 * Acks the backend features of @wanted the device offers (IOTLB_BATCH
 * among them makes the maps go in batches); *offered and *acked say what.
 */
int vhost_vdpa_ack_backend(struct vhost_vdpa *v, uint64_t wanted,
			   uint64_t *offered, uint64_t *acked);

/* VHOST_SET_VRING_ADDR's argument for a ring vq_layout() placed. */
struct vhost_vring_addr vhost_vdpa_vring_addr(const struct vq_layout *l,
					      unsigned int index,
					      uint64_t driver, uint64_t device);

/*
 * One queue's vring ioctls in vhost_virtqueue_start()'s order less the
 * enable: size, base (vq_base()'s encoding), addresses, kick and call
 * eventfds. An fd < 0 is first made a new non-blocking eventfd.
 */
int vhost_vdpa_setup_vring(struct vhost_vdpa *v, unsigned int index,
			   unsigned int num, uint32_t base,
			   const struct vhost_vring_addr *addr, int *kick_fd,
			   int *call_fd);
int vhost_vdpa_enable_vring(struct vhost_vdpa *v, unsigned int index);

/* Maps all of @maps into @asid, in one batch when the backend allows. */
int vhost_vdpa_iotlb_map(struct vhost_vdpa *v, uint32_t asid,
			 const struct iotlb_map *maps, unsigned int n);

/* Removes each of @maps from @asid, each with its own message. */
int vhost_vdpa_iotlb_unmap(struct vhost_vdpa *v, uint32_t asid,
			   const struct iotlb_map *maps, unsigned int n);

#endif
