/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages of the "vdpa" generic netlink family: building requests and
 * parsing replies into plain structs. Pure functions over buffers, so they
 * are unit-tested without a kernel. Replies are checked strictly: a
 * truncated or wrongly sized attribute, or a missing mandatory one, makes
 * the whole message -EBADMSG; unknown attributes are skipped.
 */
#ifndef VDPACTL_VDPA_MSG_H
#define VDPACTL_VDPA_MSG_H

#include <stdbool.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

#include "lib/compat.h"
#include "lib/strparse.h"
#include "netlink/nl_attr.h"

#define VDPA_NAME_LEN 64
#define VDPA_VSTATS_MAX 32
#define VDPA_VSTAT_NAME_LEN 64

struct vdpa_mgmtdev_info {
	nl_attr_set present;
	char bus_name[VDPA_NAME_LEN];
	char dev_name[VDPA_NAME_LEN];
	uint64_t supported_classes;
	uint32_t max_vqs;
	uint64_t supported_features;
};

struct vdpa_dev_info {
	nl_attr_set present;
	char name[VDPA_NAME_LEN];
	uint32_t device_id;
	uint32_t vendor_id;
	uint32_t max_vqs;
	uint16_t max_vq_size;
	uint16_t min_vq_size;
	char mgmtdev_bus[VDPA_NAME_LEN];
	char mgmtdev_name[VDPA_NAME_LEN];
};

struct vdpa_dev_config {
	nl_attr_set present;
	char name[VDPA_NAME_LEN];
	uint32_t device_id;
	uint8_t mac[MAC_LEN];
	uint16_t status;
	uint16_t max_vqp;
	uint16_t mtu;
	uint64_t negotiated_features;
	uint64_t device_features;
};

struct vdpa_vstat {
	char name[VDPA_VSTAT_NAME_LEN];
	uint64_t value;
};

struct vdpa_vstats {
	nl_attr_set present;
	char dev_name[VDPA_NAME_LEN];
	uint32_t device_id;
	uint16_t max_vqp;
	uint64_t negotiated_features;
	uint32_t queue_index;
	unsigned int n;
	struct vdpa_vstat entries[VDPA_VSTATS_MAX];
};

/* Arguments of VDPA_CMD_DEV_NEW. */
struct vdpa_dev_new_args {
	const char *name;
	const char *mgmtdev_bus; /* NULL if the handle has no bus part */
	const char *mgmtdev_name;
	bool has_mac;
	uint8_t mac[MAC_LEN];
	bool has_mtu;
	uint16_t mtu;
	bool has_max_vqp;
	uint16_t max_vqp;
	bool has_device_features;
	uint64_t device_features;
};

/* Request bodies; @nlh comes from nl_gen_prepare(). */
void vdpa_msg_put_dev_name(struct nlmsghdr *nlh, const char *name);
void vdpa_msg_put_mgmtdev(struct nlmsghdr *nlh, const char *bus,
			  const char *name);
void vdpa_msg_put_dev_new(struct nlmsghdr *nlh,
			  const struct vdpa_dev_new_args *args);
void vdpa_msg_put_vstats(struct nlmsghdr *nlh, const char *name,
			 uint32_t queue_index);

/* Reply parsers: 0, or -EBADMSG with @what naming the problem. */
int vdpa_msg_parse_mgmtdev(const struct nlmsghdr *nlh,
			   struct vdpa_mgmtdev_info *info, const char **what);
int vdpa_msg_parse_dev(const struct nlmsghdr *nlh, struct vdpa_dev_info *info,
		       const char **what);
int vdpa_msg_parse_config(const struct nlmsghdr *nlh,
			  struct vdpa_dev_config *config, const char **what);
int vdpa_msg_parse_vstats(const struct nlmsghdr *nlh, struct vdpa_vstats *stats,
			  const char **what);

/* "bus/name" or "name" into the two parts; -EINVAL for more slashes. */
int vdpa_split_mgmtdev_handle(const char *handle, char bus[VDPA_NAME_LEN],
			      char name[VDPA_NAME_LEN]);

#endif
