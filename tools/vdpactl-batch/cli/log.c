// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Diagnostics on stderr.
 */
#include <stdio.h>

#include "cli/log.h"
#include "cli/progress.h"

/* A report can then say what failed, e.g. a load's last error. */
static char last_error[DIAG_LINE_LEN];

static void stderr_sink(enum diag_level level, const char *line)
{
	/* Not glued to the end of a status line. */
	progress_erase();
	/*
	 * -v's lines and warnings must not read as errors, nor stand for
	 * one: a warning failed nothing.
	 */
	switch (level) {
	case DIAG_DEBUG:
		fprintf(stderr, "%s: debug: %s\n", PROG_NAME, line);
		return;
	case DIAG_WARN:
		fprintf(stderr, "%s: warning: %s\n", PROG_NAME, line);
		return;
	case DIAG_ERR:
		break;
	}
	fprintf(stderr, "%s: %s\n", PROG_NAME, line);
	snprintf(last_error, sizeof(last_error), "%s", line);
}

const char *log_last_error(void)
{
	return last_error;
}

void log_clear_last_error(void)
{
	last_error[0] = '\0';
}

void log_to_stderr(void)
{
	diag_set_sink(stderr_sink);
}
