/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Client of the "vdpa" generic netlink family: management devices, devices,
 * their config and vendor statistics. Functions return -errno and print
 * nothing; vdpa_client_report() prints a failure with the kernel's extack.
 */
#ifndef VDPACTL_VDPA_CLIENT_H
#define VDPACTL_VDPA_CLIENT_H

#include "lib/util.h"
#include "netlink/nl_gen.h"
#include "netlink/vdpa_msg.h"

struct vdpa_client {
	struct nl_gen nl;
	const char *bad_reply; /* what was wrong with a rejected reply */
};

typedef int (*vdpa_mgmtdev_cb)(const struct vdpa_mgmtdev_info *info,
			       void *data);
typedef int (*vdpa_dev_cb)(const struct vdpa_dev_info *info, void *data);
typedef int (*vdpa_config_cb)(const struct vdpa_dev_config *config, void *data);

int vdpa_client_open(struct vdpa_client *c);
void vdpa_client_close(struct vdpa_client *c);

/* A NULL handle or name dumps them all. */
int vdpa_client_mgmtdev_get(struct vdpa_client *c, const char *handle,
			    vdpa_mgmtdev_cb cb, void *data);
int vdpa_client_dev_get(struct vdpa_client *c, const char *name, vdpa_dev_cb cb,
			void *data);
int vdpa_client_config_get(struct vdpa_client *c, const char *name,
			   vdpa_config_cb cb, void *data);
int vdpa_client_vstats_get(struct vdpa_client *c, const char *name,
			   uint32_t queue_index, struct vdpa_vstats *stats);
int vdpa_client_dev_add(struct vdpa_client *c,
			const struct vdpa_dev_new_args *args);
int vdpa_client_dev_del(struct vdpa_client *c, const char *name);
/* VDPA_CMD_DEV_ATTR_SET of the MAC (Linux 6.12, parents that allow it). */
int vdpa_client_dev_set_mac(struct vdpa_client *c, const char *name,
			    const uint8_t mac[MAC_LEN]);

/* "<operation>: <strerror>[: <extack>]"; returns @err. */
int vdpa_client_report(const struct vdpa_client *c, int err, const char *fmt,
		       ...) __printf(3, 4);

#endif
