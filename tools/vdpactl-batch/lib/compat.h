/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The UAPI headers this tool uses, plus the few constants newer than the
 * oldest headers it must build against (Debian bookworm's linux-libc-dev,
 * Linux 6.1). Each is defined only when the system headers lack it, with
 * the kernel release that added it.
 */
#ifndef VDPACTL_COMPAT_H
#define VDPACTL_COMPAT_H

#include <linux/vdpa.h>
#include <linux/vhost.h>
#include <linux/vhost_types.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ids.h>
#include <linux/virtio_net.h>
#include <linux/virtio_ring.h>

/* Linux 6.3 */
#ifndef VHOST_BACKEND_F_RESUME
#define VHOST_BACKEND_F_RESUME 0x5
#endif

/* Linux 6.3 */
#ifndef VHOST_VDPA_RESUME
#define VHOST_VDPA_RESUME _IO(VHOST_VIRTIO, 0x7E)
#endif

/* Linux 6.4 */
#ifndef VIRTIO_F_NOTIFICATION_DATA
#define VIRTIO_F_NOTIFICATION_DATA 38
#endif

/* Linux 6.5: notification coalescing per virtqueue. */
#ifndef VIRTIO_NET_F_VQ_NOTF_COAL
#define VIRTIO_NET_F_VQ_NOTF_COAL 52
#endif

/* Linux 6.5 */
#ifndef VIRTIO_NET_CTRL_NOTF_COAL_VQ_SET
#define VIRTIO_NET_CTRL_NOTF_COAL_VQ_SET 2
#endif

/* Linux 6.5 */
#ifndef VIRTIO_NET_CTRL_NOTF_COAL_VQ_GET
#define VIRTIO_NET_CTRL_NOTF_COAL_VQ_GET 3
#endif

/* Linux 6.10: the device statistics class (VIRTIO_NET_F_DEVICE_STATS). */
#ifndef VIRTIO_NET_CTRL_STATS
#define VIRTIO_NET_CTRL_STATS 8
#endif

/* Linux 6.10 */
#ifndef VIRTIO_NET_F_DEVICE_STATS
#define VIRTIO_NET_F_DEVICE_STATS 50
#endif

/* Linux 6.10 */
#ifndef VIRTIO_NET_CTRL_STATS_QUERY
#define VIRTIO_NET_CTRL_STATS_QUERY 0
#endif

/* Linux 6.6 */
#ifndef VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK
#define VHOST_BACKEND_F_ENABLE_AFTER_DRIVER_OK 0x6
#endif

/* Linux 6.7 */
#ifndef VHOST_BACKEND_F_DESC_ASID
#define VHOST_BACKEND_F_DESC_ASID 0x7
#endif

/* Linux 6.7 */
#ifndef VHOST_BACKEND_F_IOTLB_PERSIST
#define VHOST_BACKEND_F_IOTLB_PERSIST 0x8
#endif

/*
 * Linux 6.12: VDPA_CMD_DEV_ATTR_SET ("vdpa dev set name DEV mac M"). It is
 * an enum constant, which #ifndef cannot see, so it has a name of our own:
 * the command after VDPA_CMD_DEV_VSTATS_GET.
 */
#define VDPACTL_CMD_DEV_ATTR_SET (VDPA_CMD_DEV_VSTATS_GET + 1)

/*
 * Linux 6.9: per-virtqueue size; older kernels only have GET_VRING_NUM.
 * (6.9-rc1 to -rc3 used number 0x80; the release moved it to 0x82.)
 */
#ifndef VHOST_VDPA_GET_VRING_SIZE
#define VHOST_VDPA_GET_VRING_SIZE \
	_IOWR(VHOST_VIRTIO, 0x82, struct vhost_vring_state)
#endif

#endif
