// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The device side of "inject" for test_cli: no device is touched; every
 * case comes back as skipped, so the command line and output paths run.
 */
#include <stdio.h>

#include "inject/inject_run.h"

int inject_run(const struct inject_case *c, const struct inject_opts *o,
	       struct inject_obs *obs)
{
	(void)o;
	*obs = (struct inject_obs){ .skipped = true };
	snprintf(obs->skip_reason, sizeof(obs->skip_reason),
		 "fake backend: %s not run", c->name);
	inject_verdict(c, obs);
	return 0;
}
