// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "dev link" and "dev announce": a vdpa_sim_batch device's link status as
 * its driver sees it (VIRTIO_NET_S_LINK_UP, with a config interrupt), and
 * a request to its driver to announce itself (VIRTIO_NET_S_ANNOUNCE,
 * cleared when the driver acks), through the module's own family.
 */
#include <stdio.h>
#include <string.h>

#include "cli/dev_usage.h"
#include "cli/log.h"
#include "cli/vdpactl.h"
#include "cli/vsb_cmds.h"
#include "netlink/vsb_client.h"

int cmd_dev_link(struct vdpactl *ctx, int argc, char **argv)
{
	struct vdpa_client *vsb;
	int err, status;
	bool up;

	if (usage_words_wrong(&dev_link_usage, "dev link", argc, argv, 2, 2,
			      "DEV { up | down }", &status))
		return status;
	if (strcmp(argv[1], "up") && strcmp(argv[1], "down"))
		return usage_error(&dev_link_usage, "dev link",
				   "%s: \"%s\" is not up or down", argv[0],
				   argv[1]);
	up = !strcmp(argv[1], "up");
	if (vsb_open_for(ctx, "dev link", argv[0], &vsb))
		return CMD_FAIL;
	err = vsb_client_link_set(vsb, argv[0], up);
	if (err) {
		vdpa_client_report(vsb, err, "dev link %s", argv[0]);
		return CMD_FAIL;
	}
	return CMD_OK;
}

int cmd_dev_announce(struct vdpactl *ctx, int argc, char **argv)
{
	struct vdpa_client *vsb;
	int err, status;

	if (usage_words_wrong(&dev_announce_usage, "dev announce", argc, argv,
			      1, 1, "DEV", &status))
		return status;
	if (vsb_open_for(ctx, "dev announce", argv[0], &vsb))
		return CMD_FAIL;
	err = vsb_client_announce(vsb, argv[0]);
	if (err) {
		vdpa_client_report(vsb, err, "dev announce %s", argv[0]);
		return CMD_FAIL;
	}
	return CMD_OK;
}
