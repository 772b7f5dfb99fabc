// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "mgmtdev show": vdpa management devices, printed as iproute2's
 * "vdpa mgmtdev show" prints them.
 */
#include <stdio.h>

#include "cli/feature_print.h"
#include "cli/log.h"
#include "cli/vdpactl.h"

static const struct usage mgmtdev_show_usage = {
	.synopsis =
		(const char *const[]){ "mgmtdev { show | list } [ MGMTDEV ]",
				       "mgmtdev help", NULL },
	.notes = "Shows vDPA management devices (all, or MGMTDEV: BUS/NAME or\n"
		 "NAME), as \"vdpa mgmtdev show\".\n",
};

static void mgmtdev_usage(void)
{
	usage_print(&mgmtdev_show_usage, true, true);
}

static const char *class_name(unsigned int id)
{
	switch (id) {
	case VIRTIO_ID_NET:
		return "net";
	case VIRTIO_ID_BLOCK:
		return "block";
	default:
		return "< unknown class >";
	}
}

static void print_classes(struct output *o, uint64_t classes)
{
	unsigned int id;

	print_text(o, "\n  supported_classes");
	open_json_array(o, "supported_classes");
	for (id = 1; id < 64; id++)
		if (classes & BIT_ULL(id))
			print_string(o, PRINT_ANY, NULL, " %s", class_name(id));
	close_json_array(o);
}

static int print_mgmtdev(const struct vdpa_mgmtdev_info *info, void *data)
{
	struct output *o = data;
	char handle[2 * VDPA_NAME_LEN + 2];

	if (info->bus_name[0])
		snprintf(handle, sizeof(handle), "%s/%s", info->bus_name,
			 info->dev_name);
	else
		snprintf(handle, sizeof(handle), "%s", info->dev_name);
	print_handle_open(o, handle);
	if (nl_has(info->present, VDPA_ATTR_MGMTDEV_SUPPORTED_CLASSES))
		print_classes(o, info->supported_classes);
	if (nl_has(info->present, VDPA_ATTR_DEV_MGMTDEV_MAX_VQS))
		print_uint(o, PRINT_ANY, "max_supported_vqs",
			   "\n  max_supported_vqs %u", info->max_vqs);
	if (nl_has(info->present, VDPA_ATTR_DEV_SUPPORTED_FEATURES)) {
		print_text(o, "\n  dev_features");
		print_net_features(o, "dev_features", info->supported_features);
	}
	print_handle_close(o);
	return 0;
}

static int get_mgmtdevs(struct vdpactl *ctx, struct vdpa_client *nl,
			const char *handle)
{
	return vdpa_client_mgmtdev_get(nl, handle, print_mgmtdev, &ctx->out);
}

static int mgmtdev_show(struct vdpactl *ctx, int argc, char **argv)
{
	static const struct show_cmd show = {
		.section = "mgmtdev",
		.what = "mgmtdev show",
		.name = "MGMTDEV",
		.usage = &mgmtdev_show_usage,
		.get = get_mgmtdevs,
	};

	return cmd_show(ctx, argc, argv, &show);
}

int cmd_mgmtdev(struct vdpactl *ctx, int argc, char **argv)
{
	static const struct cmd cmds[] = {
		{ "show", mgmtdev_show },
		{ "list", mgmtdev_show },
		{ NULL, NULL },
	};

	/* As iproute2's "vdpa mgmtdev": bare, it prints its help. */
	if (argc == 0) {
		mgmtdev_usage();
		return CMD_OK;
	}
	return cmd_dispatch(ctx, "mgmtdev", cmds, argc, argv, mgmtdev_usage,
			    NULL);
}
