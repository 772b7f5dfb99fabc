// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vdpactl-batch: a userspace control virtqueue driver over vhost-vdpa and
 * the vdpa netlink family that runs command loads and reports timings.
 */
#include "cli/vdpactl.h"

int main(int argc, char **argv)
{
	struct vdpactl ctx;
	int status;

	vdpactl_init(&ctx);
	status = vdpactl_run(&ctx, argc - 1, argv + 1);
	vdpactl_fini(&ctx);
	return status;
}
