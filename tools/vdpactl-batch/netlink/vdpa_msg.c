// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "vdpa" generic netlink messages.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/genetlink.h>

#include "lib/util.h"
#include "netlink/nl_attr.h"
#include "netlink/vdpa_msg.h"

/* The attributes this tool reads; everything else is skipped. */
#define VDPA_ATTR_KNOWN_MAX VDPA_ATTR_DEV_FEATURES

static const struct nl_attr_rule vdpa_rules[VDPA_ATTR_KNOWN_MAX + 1] = {
	[VDPA_ATTR_MGMTDEV_BUS_NAME] = { NL_ATTR_STRING, 0 },
	[VDPA_ATTR_MGMTDEV_DEV_NAME] = { NL_ATTR_STRING, 0 },
	[VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES] = { NL_ATTR_FIXED, 8 },
	[VDPA_ATTR_DEV_NAME] = { NL_ATTR_STRING, 0 },
	[VDPA_ATTR_DEV_ID] = { NL_ATTR_FIXED, 4 },
	[VDPA_ATTR_DEV_VENDOR_ID] = { NL_ATTR_FIXED, 4 },
	[VDPA_ATTR_DEV_MAX_VQS] = { NL_ATTR_FIXED, 4 },
	[VDPA_ATTR_DEV_MAX_VQ_SIZE] = { NL_ATTR_FIXED, 2 },
	[VDPA_ATTR_DEV_MIN_VQ_SIZE] = { NL_ATTR_FIXED, 2 },
	[VDPA_ATTR_DEV_NET_CFG_MACADDR] = { NL_ATTR_FIXED, MAC_LEN },
	/* The UAPI comment says u8; the kernel sends a u16. */
	[VDPA_ATTR_DEV_NET_STATUS] = { NL_ATTR_FIXED, 2 },
	[VDPA_ATTR_DEV_NET_CFG_MAX_VQP] = { NL_ATTR_FIXED, 2 },
	[VDPA_ATTR_DEV_NET_CFG_MTU] = { NL_ATTR_FIXED, 2 },
	[VDPA_ATTR_DEV_NEGOTIATED_FEATURES] = { NL_ATTR_FIXED, 8 },
	[VDPA_ATTR_DEV_MGMTDEV_MAX_VQS] = { NL_ATTR_FIXED, 4 },
	[VDPA_ATTR_DEV_SUPPORTED_FEATURES] = { NL_ATTR_FIXED, 8 },
	[VDPA_ATTR_DEV_QUEUE_INDEX] = { NL_ATTR_FIXED, 4 },
	[VDPA_ATTR_DEV_VENDOR_ATTR_NAME] = { NL_ATTR_STRING, 0 },
	[VDPA_ATTR_DEV_VENDOR_ATTR_VALUE] = { NL_ATTR_FIXED, 8 },
	[VDPA_ATTR_DEV_FEATURES] = { NL_ATTR_FIXED, 8 },
};

static const struct nl_attr_policy vdpa_policy = {
	.rules = vdpa_rules,
	.max = VDPA_ATTR_KNOWN_MAX,
	.pad = VDPA_ATTR_PAD,
	.str_max = VDPA_NAME_LEN,
};

/* Last-one-wins table of the known attributes of one message. */
struct attr_table {
	const struct nlattr *tb[VDPA_ATTR_KNOWN_MAX + 1];
	nl_attr_set present;
};

static void copy_str(char *dst, const struct nlattr *attr)
{
	if (attr)
		snprintf(dst, VDPA_NAME_LEN, "%s", mnl_attr_get_str(attr));
}

static uint64_t get_u64(const struct nlattr *attr)
{
	return attr ? mnl_attr_get_u64(attr) : 0;
}

static uint32_t get_u32(const struct nlattr *attr)
{
	return attr ? mnl_attr_get_u32(attr) : 0;
}

static uint16_t get_u16(const struct nlattr *attr)
{
	return attr ? mnl_attr_get_u16(attr) : 0;
}

int vdpa_msg_parse_mgmtdev(const struct nlmsghdr *nlh,
			   struct vdpa_mgmtdev_info *info, const char **what)
{
	static const int required[] = { VDPA_ATTR_MGMTDEV_DEV_NAME };
	struct attr_table t;
	int err;

	err = nl_attr_parse(nlh, &vdpa_policy, t.tb, &t.present, required,
			    ARRAY_SIZE(required), what);
	if (err)
		return err;
	*info = (struct vdpa_mgmtdev_info){ .present = t.present };
	copy_str(info->bus_name, t.tb[VDPA_ATTR_MGMTDEV_BUS_NAME]);
	copy_str(info->dev_name, t.tb[VDPA_ATTR_MGMTDEV_DEV_NAME]);
	info->supported_classes =
		get_u64(t.tb[VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES]);
	info->max_vqs = get_u32(t.tb[VDPA_ATTR_DEV_MGMTDEV_MAX_VQS]);
	info->supported_features =
		get_u64(t.tb[VDPA_ATTR_DEV_SUPPORTED_FEATURES]);
	return 0;
}

int vdpa_msg_parse_dev(const struct nlmsghdr *nlh, struct vdpa_dev_info *info,
		       const char **what)
{
	static const int required[] = { VDPA_ATTR_DEV_NAME, VDPA_ATTR_DEV_ID,
					VDPA_ATTR_MGMTDEV_DEV_NAME };
	struct attr_table t;
	int err;

	err = nl_attr_parse(nlh, &vdpa_policy, t.tb, &t.present, required,
			    ARRAY_SIZE(required), what);
	if (err)
		return err;
	*info = (struct vdpa_dev_info){ .present = t.present };
	copy_str(info->name, t.tb[VDPA_ATTR_DEV_NAME]);
	copy_str(info->mgmtdev_bus, t.tb[VDPA_ATTR_MGMTDEV_BUS_NAME]);
	copy_str(info->mgmtdev_name, t.tb[VDPA_ATTR_MGMTDEV_DEV_NAME]);
	info->device_id = get_u32(t.tb[VDPA_ATTR_DEV_ID]);
	info->vendor_id = get_u32(t.tb[VDPA_ATTR_DEV_VENDOR_ID]);
	info->max_vqs = get_u32(t.tb[VDPA_ATTR_DEV_MAX_VQS]);
	info->max_vq_size = get_u16(t.tb[VDPA_ATTR_DEV_MAX_VQ_SIZE]);
	info->min_vq_size = get_u16(t.tb[VDPA_ATTR_DEV_MIN_VQ_SIZE]);
	return 0;
}

int vdpa_msg_parse_config(const struct nlmsghdr *nlh,
			  struct vdpa_dev_config *config, const char **what)
{
	static const int required[] = { VDPA_ATTR_DEV_NAME, VDPA_ATTR_DEV_ID };
	const struct nlattr *mac;
	struct attr_table t;
	int err;

	err = nl_attr_parse(nlh, &vdpa_policy, t.tb, &t.present, required,
			    ARRAY_SIZE(required), what);
	if (err)
		return err;
	*config = (struct vdpa_dev_config){ .present = t.present };
	copy_str(config->name, t.tb[VDPA_ATTR_DEV_NAME]);
	config->device_id = get_u32(t.tb[VDPA_ATTR_DEV_ID]);
	mac = t.tb[VDPA_ATTR_DEV_NET_CFG_MACADDR];
	if (mac)
		memcpy(config->mac, mnl_attr_get_payload(mac), MAC_LEN);
	config->status = get_u16(t.tb[VDPA_ATTR_DEV_NET_STATUS]);
	config->max_vqp = get_u16(t.tb[VDPA_ATTR_DEV_NET_CFG_MAX_VQP]);
	config->mtu = get_u16(t.tb[VDPA_ATTR_DEV_NET_CFG_MTU]);
	config->negotiated_features =
		get_u64(t.tb[VDPA_ATTR_DEV_NEGOTIATED_FEATURES]);
	config->device_features = get_u64(t.tb[VDPA_ATTR_DEV_FEATURES]);
	return 0;
}

/* Vendor stats come as repeated NAME, VALUE pairs, so order matters. */
struct vstats_walk {
	struct vdpa_vstats *stats;
	bool have_name;
};

static int vstats_visit(const struct nlattr *attr, void *data,
			const char **what)
{
	struct vstats_walk *w = data;
	struct vdpa_vstats *s = w->stats;
	uint16_t type = mnl_attr_get_type(attr);

	s->present |= 1ULL << type;
	switch (type) {
	case VDPA_ATTR_DEV_NAME:
		copy_str(s->dev_name, attr);
		break;
	case VDPA_ATTR_DEV_ID:
		s->device_id = mnl_attr_get_u32(attr);
		break;
	case VDPA_ATTR_DEV_NET_CFG_MAX_VQP:
		s->max_vqp = mnl_attr_get_u16(attr);
		break;
	case VDPA_ATTR_DEV_NEGOTIATED_FEATURES:
		s->negotiated_features = mnl_attr_get_u64(attr);
		break;
	case VDPA_ATTR_DEV_QUEUE_INDEX:
		s->queue_index = mnl_attr_get_u32(attr);
		break;
	case VDPA_ATTR_DEV_VENDOR_ATTR_NAME:
		if (w->have_name) {
			*what = "vendor stat name without a value";
			return -EBADMSG;
		}
		if (s->n == VDPA_VSTATS_MAX) {
			*what = "too many vendor stats";
			return -EBADMSG;
		}
		if (mnl_attr_get_payload_len(attr) > VDPA_VSTAT_NAME_LEN) {
			*what = "vendor stat name too long";
			return -EBADMSG;
		}
		snprintf(s->entries[s->n].name, VDPA_VSTAT_NAME_LEN, "%s",
			 mnl_attr_get_str(attr));
		w->have_name = true;
		break;
	case VDPA_ATTR_DEV_VENDOR_ATTR_VALUE:
		if (!w->have_name) {
			*what = "vendor stat value without a name";
			return -EBADMSG;
		}
		s->entries[s->n++].value = mnl_attr_get_u64(attr);
		w->have_name = false;
		break;
	}
	return 0;
}

int vdpa_msg_parse_vstats(const struct nlmsghdr *nlh, struct vdpa_vstats *stats,
			  const char **what)
{
	struct vstats_walk w = { .stats = stats };
	int err;

	*stats = (struct vdpa_vstats){ 0 };
	err = nl_attr_walk_genl(nlh, &vdpa_policy, vstats_visit, &w, what);
	if (err)
		return err;
	if (w.have_name) {
		*what = "vendor stat name without a value";
		return -EBADMSG;
	}
	if (!nl_has(stats->present, VDPA_ATTR_DEV_NAME) ||
	    !nl_has(stats->present, VDPA_ATTR_DEV_ID)) {
		*what = "mandatory attribute missing";
		return -EBADMSG;
	}
	return 0;
}

void vdpa_msg_put_dev_name(struct nlmsghdr *nlh, const char *name)
{
	mnl_attr_put_strz(nlh, VDPA_ATTR_DEV_NAME, name);
}

void vdpa_msg_put_mgmtdev(struct nlmsghdr *nlh, const char *bus,
			  const char *name)
{
	if (bus)
		mnl_attr_put_strz(nlh, VDPA_ATTR_MGMTDEV_BUS_NAME, bus);
	mnl_attr_put_strz(nlh, VDPA_ATTR_MGMTDEV_DEV_NAME, name);
}

void vdpa_msg_put_dev_new(struct nlmsghdr *nlh,
			  const struct vdpa_dev_new_args *args)
{
	vdpa_msg_put_mgmtdev(nlh, args->mgmtdev_bus, args->mgmtdev_name);
	vdpa_msg_put_dev_name(nlh, args->name);
	if (args->has_mac)
		mnl_attr_put(nlh, VDPA_ATTR_DEV_NET_CFG_MACADDR, MAC_LEN,
			     args->mac);
	if (args->has_mtu)
		mnl_attr_put_u16(nlh, VDPA_ATTR_DEV_NET_CFG_MTU, args->mtu);
	if (args->has_max_vqp)
		mnl_attr_put_u16(nlh, VDPA_ATTR_DEV_NET_CFG_MAX_VQP,
				 args->max_vqp);
	if (args->has_device_features)
		mnl_attr_put_u64(nlh, VDPA_ATTR_DEV_FEATURES,
				 args->device_features);
}

void vdpa_msg_put_vstats(struct nlmsghdr *nlh, const char *name,
			 uint32_t queue_index)
{
	vdpa_msg_put_dev_name(nlh, name);
	mnl_attr_put_u32(nlh, VDPA_ATTR_DEV_QUEUE_INDEX, queue_index);
}

int vdpa_split_mgmtdev_handle(const char *handle, char bus[VDPA_NAME_LEN],
			      char name[VDPA_NAME_LEN])
{
	const char *slash = strchr(handle, '/');

	bus[0] = '\0';
	if (!slash) {
		if (!*handle || strlen(handle) >= VDPA_NAME_LEN)
			return -EINVAL;
		snprintf(name, VDPA_NAME_LEN, "%s", handle);
		return 0;
	}
	if (strchr(slash + 1, '/') || slash == handle || !slash[1] ||
	    (size_t)(slash - handle) >= VDPA_NAME_LEN ||
	    strlen(slash + 1) >= VDPA_NAME_LEN)
		return -EINVAL;
	snprintf(bus, VDPA_NAME_LEN, "%.*s", (int)(slash - handle), handle);
	snprintf(name, VDPA_NAME_LEN, "%s", slash + 1);
	return 0;
}
