/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Control of the fake device-facing layers test_cli links against.
 */
#ifndef VDPACTL_FAKE_BACKEND_H
#define VDPACTL_FAKE_BACKEND_H

#include <stdbool.h>

/* Forgets the commands earlier runs sent. */
void fake_backend_reset(void);

/*
 * From now on the fake's vstats count every @nth command it processed as
 * redundant ("cvq redundant"), as vdpa_sim_batch does for commands that
 * change nothing; 0 (the default): none. A reset keeps the setting.
 */
void fake_backend_redundant_every(unsigned int nth);

/*
 * From now on every @nth command the fake loads send (counting across a
 * session's loads) is acked VIRTIO_NET_ERR; 0 (the default): none. A
 * reset keeps the setting.
 */
void fake_backend_nack_every(unsigned int nth);

/*
 * Raises @signo during the @load-th timed load (1-based) of the runs that
 * follow, across sessions; 0: never. A reset keeps the setting.
 */
void fake_backend_signal_at(unsigned int load, int signo);

/* From now on the vdpa netlink families cannot be opened (-ENOENT). */
void fake_backend_families_absent(bool absent);

/*
 * From now on the vdpa family's DEV_GET of a named device fails with
 * @err, a negative errno (0, the default: it answers). A reset keeps the
 * setting.
 */
void fake_backend_dev_get_err(int err);

/*
 * The statistics requests of the current run, in order: "reset DEV; ",
 * "vstats DEV; " and "module DEV; " (vendor and module counters).
 */
const char *fake_backend_stats_log(void);

struct vdpa_dev_new_args;

/*
 * What the last "dev add" of the current run asked the vdpa family for
 * (its name strings cleared: they pointed into the command line).
 */
const struct vdpa_dev_new_args *fake_backend_last_add(void);

#endif
