// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Diagnostics on stderr.
 */
#include <stdio.h>

#include "cli/log.h"

static void stderr_sink(const char *line)
{
	fprintf(stderr, "%s: %s\n", PROG_NAME, line);
}

void log_to_stderr(void)
{
	diag_set_sink(stderr_sink);
}
