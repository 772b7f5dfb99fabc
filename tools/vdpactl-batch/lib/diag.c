// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Diagnostics formatted into one line and handed to the program's sink.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/diag.h"

static diag_sink_t diag_sink;

diag_sink_t diag_set_sink(diag_sink_t sink)
{
	diag_sink_t old = diag_sink;

	diag_sink = sink;
	return old;
}

static void emit_line(enum diag_level level, const char *fmt, va_list ap,
		      int errnum)
{
	char line[DIAG_LINE_LEN];
	int n;

	if (!diag_sink)
		return;
	n = vsnprintf(line, sizeof(line), fmt, ap);
	if (n < 0)
		return;
	if (errnum && (size_t)n < sizeof(line))
		snprintf(line + n, sizeof(line) - (size_t)n, ": %s",
			 strerror(errnum));
	diag_sink(level, line);
}

void pr_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_line(DIAG_ERR, fmt, ap, 0);
	va_end(ap);
}

void pr_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_line(DIAG_WARN, fmt, ap, 0);
	va_end(ap);
}

int pr_errno(int errnum, const char *fmt, ...)
{
	va_list ap;

	if (errnum < 0)
		errnum = -errnum;
	va_start(ap, fmt);
	emit_line(DIAG_ERR, fmt, ap, errnum);
	va_end(ap);
	return -errnum;
}

void pr_verbose(int verbosity, int level, const char *fmt, ...)
{
	va_list ap;

	if (verbosity < level)
		return;
	va_start(ap, fmt);
	emit_line(DIAG_DEBUG, fmt, ap, 0);
	va_end(ap);
}
