/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Finding a vdpa device's driver and vhost-vdpa character device through
 * sysfs: /sys/bus/vdpa/devices/NAME exists iff the device does, its
 * "driver" link names the bound driver, and under vhost_vdpa it has a
 * vhost-vdpa-N child matching /dev/vhost-vdpa-N.
 */
#ifndef VDPACTL_SYSFS_DEV_H
#define VDPACTL_SYSFS_DEV_H

#include "netlink/vdpa_msg.h"

#define VDPA_VHOST_DRIVER "vhost_vdpa"
#define VDPA_DRIVER_LEN 64
#define VDPA_PATH_LEN 256

/* Where sysfs and /dev are; tests point these at a fake tree. */
struct sysfs_roots {
	const char *sys;
	const char *dev;
	const char *proc;
};

struct vdpa_location {
	char name[VDPA_NAME_LEN];
	char driver[VDPA_DRIVER_LEN]; /* empty if unbound */
	char chardev[VDPA_PATH_LEN]; /* empty unless bound to vhost_vdpa */
};

/*
 * Could @name be a vdpa device: 1 to VDPA_NAME_LEN - 1 bytes, not "." or
 * "..", no '/'? Checked before any copy that could cut it.
 */
bool vdpa_name_valid(const char *name);

/* Quiet: 0, -EINVAL for a bad name, -ENODEV if there is no such device. */
int vdpa_locate(const struct sysfs_roots *roots, const char *name,
		struct vdpa_location *loc);

/*
 * The device must exist and be bound to vhost_vdpa with its character
 * device present; otherwise prints why in one line.
 */
int vdpa_locate_vhost(const struct sysfs_roots *roots, const char *name,
		      struct vdpa_location *loc);

/*
 * Names of the vdpa devices bound to vhost_vdpa, in natural order
 * (vdpa2 before vdpa10). Quiet; -ENODEV if the vdpa bus is absent.
 */
int vdpa_list_vhost(const struct sysfs_roots *roots,
		    char (*names)[VDPA_NAME_LEN], unsigned int max,
		    unsigned int *n);

/*
 * Like vdpa_list_vhost(), keeping the first @max in natural order, and
 * *found says how many there are in all.
 */
int vdpa_list_vhost_counted(const struct sysfs_roots *roots,
			    char (*names)[VDPA_NAME_LEN], unsigned int max,
			    unsigned int *n, unsigned int *found);

#endif
