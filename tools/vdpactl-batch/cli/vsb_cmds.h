/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What only vdpa_sim_batch devices have, through the module's own netlink
 * family: the completion settings, the CVQ-visible state, and the note a
 * command prints when a device does not offer them. The command-line core
 * (vdpactl.c) knows none of it.
 */
#ifndef VDPACTL_VSB_CMDS_H
#define VDPACTL_VSB_CMDS_H

#include "cli/vdpactl.h"

/*
 * "dev batching DEV [ completion M ] [ batch_limit N ]"; @what names the
 * command as the user spelled it ("dev batching", or "dev set" for the
 * old form "dev set DEV completion M batch-limit N"). "dev batching DEV"
 * alone shows the settings; the old form needs something to set.
 */
int cmd_dev_batching(struct vdpactl *ctx, const char *what, int argc,
		     char **argv);

/*
 * "dev cost DEV [ ITEM TIME ]... [ precise { on | off } ]": shows the
 * device's CVQ cost model, after changing the items given.
 */
int cmd_dev_cost(struct vdpactl *ctx, int argc, char **argv);

/*
 * "dev fault [ DEV [ show ] ]", "dev fault DEV add ACTION ..." and
 * "dev fault DEV clear": a device's CVQ fault rules.
 */
int cmd_dev_fault(struct vdpactl *ctx, int argc, char **argv);

/* "dev state [ DEV ]". */
int cmd_dev_state(struct vdpactl *ctx, int argc, char **argv);

/* "dev link DEV { up | down }" and "dev announce DEV". */
int cmd_dev_link(struct vdpactl *ctx, int argc, char **argv);
int cmd_dev_announce(struct vdpactl *ctx, int argc, char **argv);

/*
 * The module's family for command @what on @dev; 0, or an errno with the
 * error printed.
 */
int vsb_open_for(struct vdpactl *ctx, const char *what, const char *dev,
		 struct vdpa_client **vsb);

/*
 * After the module answered -ENODEV about @dev, which it does for any
 * device it does not know: does the vdpa family know it? If not, or if
 * it could not be asked, true after "@what: no such vdpa device" or
 * "@what: could not ask whether the device exists: REASON"; false when
 * @dev is a vdpa device, just not one of the module's.
 */
bool vsb_dev_missing(struct vdpactl *ctx, const char *what, const char *dev);

/*
 * The one-line stderr note of a feature a device does not offer:
 * "DEV: WHAT not offered by this device (REASON)[; CONSEQUENCE]", the
 * reason from @err and the kernel's extack when @client is not NULL,
 * else why ctx could not open the family.
 */
void vsb_note_absent(const struct vdpactl *ctx,
		     const struct vdpa_client *client, const char *dev,
		     const char *what, int err, const char *consequence);

#endif
