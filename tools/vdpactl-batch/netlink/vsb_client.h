/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Client of vdpa_sim_batch's generic netlink family. It shares struct
 * vdpa_client (a socket plus the reason of a rejected reply) with the
 * "vdpa" family's client, so vdpa_client_report() and vdpa_client_close()
 * serve both. Functions return -errno and print nothing; -ENOENT from
 * vsb_client_open() means the module (its family) is not loaded.
 */
#ifndef VDPACTL_VSB_CLIENT_H
#define VDPACTL_VSB_CLIENT_H

#include "netlink/vdpa_client.h"
#include "netlink/vsb_msg.h"

typedef int (*vsb_dev_cb)(const struct vsb_dev_settings *dev, void *data);
typedef int (*vsb_stats_cb)(const struct vsb_stats *stats, void *data);
typedef int (*vsb_state_cb)(const struct vsb_state *state, void *data);
typedef int (*vsb_faults_cb)(const struct vsb_fault_rules *rules, void *data);

int vsb_client_open(struct vdpa_client *c);

/* A NULL name dumps every device of the module. */
int vsb_client_dev_get(struct vdpa_client *c, const char *name, vsb_dev_cb cb,
		       void *data);
int vsb_client_stats_get(struct vdpa_client *c, const char *name,
			 vsb_stats_cb cb, void *data);
int vsb_client_state_get(struct vdpa_client *c, const char *name,
			 vsb_state_cb cb, void *data);
/* The CVQ fault rules of @name, or of every device. */
int vsb_client_fault_get(struct vdpa_client *c, const char *name,
			 vsb_faults_cb cb, void *data);

/*
 * Changes; the kernel wants CAP_NET_ADMIN. DEV_SET changes what @set
 * has (vsb_msg_put_dev_set()) on the device @set->name.
 */
int vsb_client_dev_set(struct vdpa_client *c,
		       const struct vsb_dev_settings *set);
int vsb_client_stats_reset(struct vdpa_client *c, const char *name);
/* The link status the driver sees; an announcement request to it. */
int vsb_client_link_set(struct vdpa_client *c, const char *name, bool up);
int vsb_client_announce(struct vdpa_client *c, const char *name);
/*
 * Adds @rule after @name's CVQ fault rules; @cb gets the rules the device
 * then has, as its reply gives them (named @name if the reply is not).
 * *@replied says whether a reply came.
 */
int vsb_client_fault_add(struct vdpa_client *c, const char *name,
			 const struct vsb_fault_rule *rule, vsb_faults_cb cb,
			 void *data, bool *replied);
/* Drops every CVQ fault rule of @name. */
int vsb_client_fault_clear(struct vdpa_client *c, const char *name);

#endif
