/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A throw-away sysfs and /dev tree shaped like the vdpa bus, for the tests
 * of device discovery and of the command line.
 */
#ifndef VDPACTL_TESTBED_TREE_H
#define VDPACTL_TESTBED_TREE_H

#include <stdbool.h>

#include "cli/sysfs_dev.h"

struct fake_tree {
	char root[64];
	char sys[VDPA_PATH_LEN];
	char dev[VDPA_PATH_LEN];
	char proc[VDPA_PATH_LEN];
	struct sysfs_roots roots;
	int saved_stderr; /* for a test group that mutes stderr */
};

struct fake_tree *fake_tree_create(void);

/*
 * Adds device @name bound to @driver (NULL: unbound); with vhost_vdpa,
 * @minor >= 0 gives it a vhost-vdpa-<minor> child and /dev node.
 */
void fake_tree_add(struct fake_tree *t, const char *name, const char *driver,
		   int minor);

void fake_tree_destroy(struct fake_tree *t);

/*
 * Puts the tool in another network namespace than init's (@child) or in
 * init's, as /proc/self/ns/net and /proc/1/ns/net tell; init's at first.
 */
void fake_tree_netns(struct fake_tree *t, bool child);

/*
 * Sends stderr to /dev/null (the messages the code under test prints on
 * purpose) unless VDPACTL_TEST_STDERR is set; returns what to restore.
 */
int stderr_mute(void);
void stderr_restore(int saved);

#endif
