// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Diagnostics on stderr.
 */
#include <stdio.h>

#include "cli/log.h"

/* A report can then say what failed, e.g. a load's last error. */
static char last_line[DIAG_LINE_LEN];

static void stderr_sink(const char *line)
{
	fprintf(stderr, "%s: %s\n", PROG_NAME, line);
	snprintf(last_line, sizeof(last_line), "%s", line);
}

const char *log_last_line(void)
{
	return last_line;
}

void log_to_stderr(void)
{
	diag_set_sink(stderr_sink);
}
