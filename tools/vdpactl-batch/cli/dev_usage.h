/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The usage of each "dev" command, for its own help and usage errors,
 * and all of them for "dev help".
 */
#ifndef VDPACTL_DEV_USAGE_H
#define VDPACTL_DEV_USAGE_H

#include "cli/usage.h"

extern const struct usage dev_show_usage, dev_add_usage, dev_del_usage,
	dev_config_usage, dev_set_usage, dev_batching_usage, dev_cost_usage,
	dev_state_usage, dev_vstats_usage, dev_link_usage, dev_announce_usage,
	dev_fault_show_usage, dev_fault_add_usage, dev_fault_clear_usage;

/* "dev help": every command's synopsis. */
void dev_usage(void);

/* "dev fault help": the synopses of its commands, then what they do. */
void dev_fault_usage(void);

#endif
