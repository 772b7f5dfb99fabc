// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "dev": show, add and delete vdpa devices and show their config, printed
 * as iproute2's "vdpa dev" prints them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/dev_usage.h"
#include "cli/feature_print.h"
#include "cli/log.h"
#include "cli/opt.h"
#include "cli/vdpactl.h"
#include "cli/vsb_cmds.h"

/* Help for opt_parse()'s callers: one command's usage, with notes. */
static void dev_add_help(void)
{
	usage_print(&dev_add_usage, true, true);
}

static void dev_set_help(void)
{
	usage_print(&dev_set_usage, true, true);
}

static void dev_config_help(void)
{
	usage_print(&dev_config_usage, true, true);
}

static const char *device_type_name(uint32_t device_id)
{
	switch (device_id) {
	case VIRTIO_ID_NET:
		return "network";
	case VIRTIO_ID_BLOCK:
		return "block";
	default:
		return "<unknown type>";
	}
}

static int print_dev(const struct vdpa_dev_info *info, void *data)
{
	struct vdpactl *ctx = data;
	struct output *o = &ctx->out;
	char mgmtdev[2 * VDPA_NAME_LEN + 2];

	if (info->mgmtdev_bus[0])
		snprintf(mgmtdev, sizeof(mgmtdev), "%s/%s", info->mgmtdev_bus,
			 info->mgmtdev_name);
	else
		snprintf(mgmtdev, sizeof(mgmtdev), "%s", info->mgmtdev_name);
	print_handle_open(&ctx->out, info->name);
	print_string(o, PRINT_ANY, "type", "type %s",
		     device_type_name(info->device_id));
	print_string(o, PRINT_ANY, "mgmtdev", " mgmtdev %s", mgmtdev);
	if (nl_has(info->present, VDPA_ATTR_DEV_VENDOR_ID))
		print_uint(o, PRINT_ANY, "vendor_id", " vendor_id %u",
			   info->vendor_id);
	if (nl_has(info->present, VDPA_ATTR_DEV_MAX_VQS))
		print_uint(o, PRINT_ANY, "max_vqs", " max_vqs %u",
			   info->max_vqs);
	if (nl_has(info->present, VDPA_ATTR_DEV_MAX_VQ_SIZE))
		print_uint(o, PRINT_ANY, "max_vq_size", " max_vq_size %u",
			   info->max_vq_size);
	print_handle_close(&ctx->out);
	return 0;
}

static int get_devs(struct vdpactl *ctx, struct vdpa_client *nl,
		    const char *name)
{
	return vdpa_client_dev_get(nl, name, print_dev, ctx);
}

static int dev_show(struct vdpactl *ctx, int argc, char **argv)
{
	static const struct show_cmd show = {
		.section = "dev",
		.what = "dev show",
		.name = "DEV",
		.usage = &dev_show_usage,
		.get = get_devs,
	};

	return cmd_show(ctx, argc, argv, &show);
}

/* iproute2 starts a feature list on its own, indented line. */
static void print_feature_line(struct output *o, const char *key,
			       uint64_t features)
{
	print_text(o, "\n  %s", key);
	print_net_features(o, key, features);
}

static void print_net_config(struct output *o,
			     const struct vdpa_dev_config *cfg)
{
	char mac[MAC_STR_LEN];

	if (nl_has(cfg->present, VDPA_ATTR_DEV_NET_CFG_MACADDR)) {
		format_mac(cfg->mac, mac);
		print_string(o, PRINT_ANY, "mac", "mac %s ", mac);
	}
	if (nl_has(cfg->present, VDPA_ATTR_DEV_NET_STATUS)) {
		print_string(o, PRINT_ANY, "link", "link %s ",
			     cfg->status & VIRTIO_NET_S_LINK_UP ? "up" :
								  "down");
		print_bool(o, PRINT_ANY, "link_announce", "link_announce %s ",
			   cfg->status & VIRTIO_NET_S_ANNOUNCE);
	}
	if (nl_has(cfg->present, VDPA_ATTR_DEV_NET_CFG_MAX_VQP))
		print_uint(o, PRINT_ANY, "max_vq_pairs", "max_vq_pairs %u ",
			   cfg->max_vqp);
	if (nl_has(cfg->present, VDPA_ATTR_DEV_NET_CFG_MTU))
		print_uint(o, PRINT_ANY, "mtu", "mtu %u ", cfg->mtu);
	if (nl_has(cfg->present, VDPA_ATTR_DEV_NEGOTIATED_FEATURES))
		print_feature_line(o, "negotiated_features",
				   cfg->negotiated_features);
}

static int print_config(const struct vdpa_dev_config *cfg, void *data)
{
	struct vdpactl *ctx = data;

	print_handle_open(&ctx->out, cfg->name);
	if (cfg->device_id == VIRTIO_ID_NET)
		print_net_config(&ctx->out, cfg);
	print_handle_close(&ctx->out);
	return 0;
}

static int get_configs(struct vdpactl *ctx, struct vdpa_client *nl,
		       const char *name)
{
	return vdpa_client_config_get(nl, name, print_config, ctx);
}

static int config_show(struct vdpactl *ctx, int argc, char **argv)
{
	static const struct show_cmd show = {
		.section = "config",
		.what = "dev config show",
		.name = "DEV",
		.usage = &dev_config_usage,
		.get = get_configs,
	};

	return cmd_show(ctx, argc, argv, &show);
}

static int dev_config(struct vdpactl *ctx, int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "show", config_show },
		{ NULL, NULL },
	};

	return cmd_dispatch(ctx, "dev config", cmds, argc, argv,
			    dev_config_help, config_show);
}

struct dev_add_args {
	const char *name;
	const char *mgmtdev;
	uint8_t mac[MAC_LEN];
	unsigned int mtu;
	unsigned int max_vqp;
	uint64_t device_features;
	bool has_mac, has_mtu, has_max_vqp, has_device_features;
};

static int dev_add(struct vdpactl *ctx, int argc, char **argv)
{
	struct dev_add_args a = { 0 };
	const struct opt opts[] = {
		{ .name = "name",
		  .kind = OPT_STRING,
		  .value = &a.name,
		  .required = true },
		{ .name = "mgmtdev",
		  .kind = OPT_STRING,
		  .value = &a.mgmtdev,
		  .required = true },
		{ .name = "mac",
		  .kind = OPT_MAC,
		  .value = a.mac,
		  .given = &a.has_mac },
		{ .name = "mtu",
		  .kind = OPT_UINT,
		  .value = &a.mtu,
		  .min = 68,
		  .max = UINT16_MAX,
		  .given = &a.has_mtu },
		{ .name = "max_vqp",
		  .kind = OPT_UINT,
		  .value = &a.max_vqp,
		  .min = VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MIN,
		  .max = VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MAX,
		  .given = &a.has_max_vqp },
		{ .name = "device_features",
		  .kind = OPT_HEX64,
		  .value = &a.device_features,
		  .max = UINT64_MAX,
		  .given = &a.has_device_features },
	};
	char bus[VDPA_NAME_LEN], mgmtdev[VDPA_NAME_LEN];
	struct vdpa_dev_new_args req;
	struct vdpa_client *nl;
	int err, status;

	if (!cmd_opts_ok(opt_parse("dev add", opts, ARRAY_SIZE(opts),
				   OPT_STYLE_KEYWORDS, argc, argv),
			 dev_add_help, &status))
		return status;
	if (vdpa_split_mgmtdev_handle(a.mgmtdev, bus, mgmtdev)) {
		return usage_error(
			&dev_add_usage, "dev add",
			"\"%s\" is not a management device (BUS/NAME or NAME)",
			a.mgmtdev);
	}
	req = (struct vdpa_dev_new_args){
		.name = a.name,
		.mgmtdev_bus = bus[0] ? bus : NULL,
		.mgmtdev_name = mgmtdev,
		.has_mac = a.has_mac,
		.has_mtu = a.has_mtu,
		.mtu = (uint16_t)a.mtu,
		.has_max_vqp = a.has_max_vqp,
		.max_vqp = (uint16_t)a.max_vqp,
		.has_device_features = a.has_device_features,
		.device_features = a.device_features,
	};
	memcpy(req.mac, a.mac, MAC_LEN);
	if (vdpactl_netlink(ctx, &nl))
		return CMD_FAIL;
	err = vdpa_client_dev_add(nl, &req);
	if (err) {
		vdpa_client_report(nl, err, "dev add %s", a.name);
		return CMD_FAIL;
	}
	return CMD_OK;
}

static int dev_del(struct vdpactl *ctx, int argc, char **argv)
{
	struct vdpa_client *nl;
	int err, status;

	if (usage_words_wrong(&dev_del_usage, "dev del", argc, argv, 1, 1,
			      "DEV", &status))
		return status;
	if (vdpactl_netlink(ctx, &nl))
		return CMD_FAIL;
	err = vdpa_client_dev_del(nl, argv[0]);
	if (err) {
		vdpa_client_report(nl, err, "dev del %s", argv[0]);
		return CMD_FAIL;
	}
	return CMD_OK;
}

/* iproute2's "vdpa dev set name DEV mac MACADDR" (Linux 6.12). */
static int dev_set_attrs(struct vdpactl *ctx, int argc, char **argv)
{
	const char *name = NULL;
	uint8_t mac[MAC_LEN];
	const struct opt opts[] = {
		{ .name = "name",
		  .kind = OPT_STRING,
		  .value = &name,
		  .required = true },
		{ .name = "mac",
		  .kind = OPT_MAC,
		  .value = mac,
		  .required = true },
	};
	struct vdpa_client *nl;
	int err, status;

	if (!cmd_opts_ok(opt_parse("dev set", opts, ARRAY_SIZE(opts),
				   OPT_STYLE_KEYWORDS, argc, argv),
			 dev_set_help, &status))
		return status;
	if (vdpactl_netlink(ctx, &nl))
		return CMD_FAIL;
	err = vdpa_client_dev_set_mac(nl, name, mac);
	if (err) {
		vdpa_client_report(nl, err, "dev set %s", name);
		return CMD_FAIL;
	}
	return CMD_OK;
}

/*
 * "dev set name DEV ..." is iproute2's; "dev set DEV completion ..." the
 * old spelling of "dev batching DEV ...", kept for scripts.
 */
static int dev_set(struct vdpactl *ctx, int argc, char **argv)
{
	int status;

	if (usage_words_wrong(&dev_set_usage, "dev set", argc, argv, 1, argc,
			      "name DEV", &status))
		return status;
	if (!strcmp(argv[0], "name"))
		return dev_set_attrs(ctx, argc, argv);
	return cmd_dev_batching(ctx, "dev set", argc, argv);
}

static void dev_vstats_help(void)
{
	usage_print(&dev_vstats_usage, true, true);
}

static int dev_vstats_show(struct vdpactl *ctx, int argc, char **argv)
{
	return cmd_stats_as(ctx, argc, argv, "dev vstats show",
			    dev_vstats_help);
}

/* iproute2's "vdpa dev vstats show DEV qidx N": stats by another name. */
static int dev_vstats(struct vdpactl *ctx, int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "show", dev_vstats_show },
		{ NULL, NULL },
	};

	return cmd_dispatch(ctx, "dev vstats", cmds, argc, argv,
			    dev_vstats_help, NULL);
}

static int dev_batching(struct vdpactl *ctx, int argc, char **argv)
{
	return cmd_dev_batching(ctx, "dev batching", argc, argv);
}

int cmd_dev(struct vdpactl *ctx, int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "show", dev_show },
		{ "list", dev_show },
		{ "add", dev_add },
		{ "del", dev_del },
		{ "config", dev_config },
		{ "set", dev_set },
		{ "batching", dev_batching },
		{ "cost", cmd_dev_cost },
		{ "fault", cmd_dev_fault },
		{ "state", cmd_dev_state },
		{ "vstats", dev_vstats },
		{ "link", cmd_dev_link },
		{ "announce", cmd_dev_announce },
		{ NULL, NULL },
	};

	return cmd_dispatch(ctx, "dev", cmds, argc, argv, dev_usage, dev_show);
}
