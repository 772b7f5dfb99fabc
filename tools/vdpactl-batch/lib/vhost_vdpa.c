// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /dev/vhost-vdpa-N ioctls and IOTLB messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/diag.h"
#include "lib/vhost_vdpa.h"

int vhost_vdpa_open(struct vhost_vdpa *v, const char *path, int verbose)
{
	int err;

	*v = (struct vhost_vdpa){ .verbose = verbose };
	snprintf(v->path, sizeof(v->path), "%s", path);
	v->fd = open(path, O_RDWR | O_CLOEXEC);
	if (v->fd >= 0)
		return 0;
	err = errno;
	if (err == EBUSY)
		pr_err("open %s: %s (another process is using the device)",
		       path, strerror(err));
	else
		pr_errno(err, "open %s", path);
	return -err;
}

void vhost_vdpa_close(struct vhost_vdpa *v)
{
	if (v->fd >= 0)
		close(v->fd);
	v->fd = -1;
}

int vhost_vdpa_ioctl_quiet(struct vhost_vdpa *v, unsigned long req, void *arg,
			   const char *name)
{
	pr_verbose(v->verbose, 2, "%s on %s", name, v->path);
	if (ioctl(v->fd, req, arg) < 0)
		return -errno;
	return 0;
}

int vhost_vdpa_ioctl(struct vhost_vdpa *v, unsigned long req, void *arg,
		     const char *name)
{
	int err = vhost_vdpa_ioctl_quiet(v, req, arg, name);

	if (err)
		pr_errno(err, "%s on %s", name, v->path);
	return err;
}

int vhost_vdpa_set_status(struct vhost_vdpa *v, uint8_t status)
{
	pr_verbose(v->verbose, 2, "status 0x%02x", status);
	return VHOST_IOCTL(v, VHOST_VDPA_SET_STATUS, &status);
}

int vhost_vdpa_get_status(struct vhost_vdpa *v, uint8_t *status)
{
	return VHOST_IOCTL(v, VHOST_VDPA_GET_STATUS, status);
}

int vhost_vdpa_get_config(struct vhost_vdpa *v, uint32_t offset, void *buf,
			  uint32_t len)
{
	struct vhost_vdpa_config *cfg;
	int err;

	cfg = calloc(1, sizeof(*cfg) + len);
	if (!cfg)
		return pr_errno(ENOMEM, "VHOST_VDPA_GET_CONFIG on %s", v->path);
	cfg->off = offset;
	cfg->len = len;
	err = VHOST_IOCTL(v, VHOST_VDPA_GET_CONFIG, cfg);
	if (!err)
		memcpy(buf, cfg->buf, len);
	free(cfg);
	return err;
}

int vhost_vdpa_ack_backend(struct vhost_vdpa *v, uint64_t wanted,
			   uint64_t *offered, uint64_t *acked)
{
	int err = VHOST_IOCTL(v, VHOST_GET_BACKEND_FEATURES, offered);

	if (err)
		return err;
	*acked = *offered & wanted;
	err = VHOST_IOCTL(v, VHOST_SET_BACKEND_FEATURES, acked);
	if (err)
		return err;
	v->iotlb_batch = *acked & (1ULL << VHOST_BACKEND_F_IOTLB_BATCH);
	return 0;
}

struct vhost_vring_addr vhost_vdpa_vring_addr(const struct vq_layout *l,
					      unsigned int index,
					      uint64_t driver, uint64_t device)
{
	return (struct vhost_vring_addr){
		.index = index,
		.desc_user_addr = vq_area_addr(&l->desc, driver, device),
		.avail_user_addr = vq_area_addr(&l->driver, driver, device),
		.used_user_addr = vq_area_addr(&l->device, driver, device),
	};
}

/* A vring ioctl on queue @index, named with the queue in a failure. */
static int vring_ioctl(struct vhost_vdpa *v, unsigned int index,
		       unsigned long req, void *arg, const char *name)
{
	char what[64];

	snprintf(what, sizeof(what), "%s (vq %u)", name, index);
	return vhost_vdpa_ioctl(v, req, arg, what);
}

#define VRING_IOCTL(v, index, req, arg) vring_ioctl(v, index, req, arg, #req)

static int setup_eventfd(struct vhost_vdpa *v, unsigned int index, int *fd,
			 unsigned long req, const char *name)
{
	struct vhost_vring_file file = { .index = index };

	/* A restart hands the device the eventfds it had. */
	if (*fd < 0)
		*fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (*fd < 0)
		return pr_errno(errno, "eventfd for %s (vq %u)", name, index);
	file.fd = *fd;
	return vring_ioctl(v, index, req, &file, name);
}

int vhost_vdpa_setup_vring(struct vhost_vdpa *v, unsigned int index,
			   unsigned int num, uint32_t base,
			   const struct vhost_vring_addr *addr, int *kick_fd,
			   int *call_fd)
{
	struct vhost_vring_state state = { .index = index, .num = num };
	struct vhost_vring_addr a = *addr;
	int err;

	err = VRING_IOCTL(v, index, VHOST_SET_VRING_NUM, &state);
	state.num = base;
	if (!err)
		err = VRING_IOCTL(v, index, VHOST_SET_VRING_BASE, &state);
	if (!err)
		err = VRING_IOCTL(v, index, VHOST_SET_VRING_ADDR, &a);
	if (!err)
		err = setup_eventfd(v, index, kick_fd, VHOST_SET_VRING_KICK,
				    "VHOST_SET_VRING_KICK");
	/*
	 * A call fd even for a driver that busy-polls: QEMU's shadow
	 * virtqueue has one, so the device does the same work either way.
	 */
	if (!err)
		err = setup_eventfd(v, index, call_fd, VHOST_SET_VRING_CALL,
				    "VHOST_SET_VRING_CALL");
	return err;
}

int vhost_vdpa_enable_vring(struct vhost_vdpa *v, unsigned int index)
{
	struct vhost_vring_state state = { .index = index, .num = 1 };

	return VRING_IOCTL(v, index, VHOST_VDPA_SET_VRING_ENABLE, &state);
}

static int iotlb_write(struct vhost_vdpa *v, uint32_t asid, uint8_t type,
		       const struct iotlb_map *map)
{
	struct vhost_msg_v2 msg = {
		.type = VHOST_IOTLB_MSG_V2,
		.asid = asid,
		.iotlb.type = type,
	};
	ssize_t n;

	if (map) {
		msg.iotlb.iova = map->iova;
		msg.iotlb.size = map->size;
		msg.iotlb.uaddr = map->uaddr;
		msg.iotlb.perm = map->perm;
		pr_verbose(v->verbose, 2,
			   "IOTLB asid %" PRIu32 " iova 0x%" PRIx64
			   " size 0x%" PRIx64 " perm %u",
			   asid, map->iova, map->size, map->perm);
	}
	n = write(v->fd, &msg, sizeof(msg));
	if (n == (ssize_t)sizeof(msg))
		return 0;
	/* Every error of the kernel's IOTLB handler surfaces as EFAULT. */
	if (map)
		return pr_errno(n < 0 ? errno : EIO,
				"IOTLB %s asid %" PRIu32 " iova 0x%" PRIx64
				" size 0x%" PRIx64 " on %s",
				type == VHOST_IOTLB_UPDATE ? "update" :
							     "invalidate",
				asid, map->iova, map->size, v->path);
	return pr_errno(n < 0 ? errno : EIO, "IOTLB batch %s on %s",
			type == VHOST_IOTLB_BATCH_BEGIN ? "begin" : "end",
			v->path);
}

int vhost_vdpa_iotlb_map(struct vhost_vdpa *v, uint32_t asid,
			 const struct iotlb_map *maps, unsigned int n)
{
	unsigned int i;
	int err;

	if (v->iotlb_batch) {
		err = iotlb_write(v, asid, VHOST_IOTLB_BATCH_BEGIN, NULL);
		if (err)
			return err;
	}
	for (i = 0; i < n; i++) {
		err = iotlb_write(v, asid, VHOST_IOTLB_UPDATE, &maps[i]);
		if (err)
			return err;
	}
	/* Parents with set_map() apply the whole batch here. */
	if (v->iotlb_batch)
		return iotlb_write(v, asid, VHOST_IOTLB_BATCH_END, NULL);
	return 0;
}

int vhost_vdpa_iotlb_unmap(struct vhost_vdpa *v, uint32_t asid,
			   const struct iotlb_map *maps, unsigned int n)
{
	unsigned int i;
	int err;

	/* One at a time: each removal reaches the device on its own. */
	for (i = 0; i < n; i++) {
		err = iotlb_write(v, asid, VHOST_IOTLB_INVALIDATE, &maps[i]);
		if (err)
			return err;
	}
	return 0;
}
