// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The device side of "inject" for test_cli: no device is touched. Every
 * case comes back as skipped, so the command line and output paths run;
 * on vdpa2 it comes back with nothing observed (a deviation for any case)
 * and on vdpa5 the run fails, so the exit statuses can be told apart.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "inject/inject_run.h"
#include "lib/cvq_cmd.h"

int inject_run(const struct inject_case *c, const struct inject_opts *o,
	       struct inject_obs *obs)
{
	if (!strcmp(o->devname, "vdpa5"))
		return -EIO;
	if (!strcmp(o->devname, "vdpa2")) {
		/* The case's chain was sent and never came back. */
		*obs = (struct inject_obs){ .timed_out = true, .n_chains = 1 };
		obs->chain[0].has_ack = true;
		obs->chain[0].ack = CVQ_ACK_UNSET;
		inject_verdict(c, obs);
		return 0;
	}
	*obs = (struct inject_obs){ .skipped = true };
	snprintf(obs->skip_reason, sizeof(obs->skip_reason),
		 "fake backend: %s not run", c->name);
	inject_verdict(c, obs);
	return 0;
}
