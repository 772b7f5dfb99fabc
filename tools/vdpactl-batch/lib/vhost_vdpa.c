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
