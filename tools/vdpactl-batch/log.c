// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Diagnostics on stderr.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log.h"

static void vprint_line(const char *fmt, va_list ap, int errnum)
{
	fprintf(stderr, "%s: ", PROG_NAME);
	vfprintf(stderr, fmt, ap);
	if (errnum)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
}

void pr_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_line(fmt, ap, 0);
	va_end(ap);
}

int pr_errno(int errnum, const char *fmt, ...)
{
	va_list ap;

	if (errnum < 0)
		errnum = -errnum;
	va_start(ap, fmt);
	vprint_line(fmt, ap, errnum);
	va_end(ap);
	return -errnum;
}

void pr_verbose(int verbosity, int level, const char *fmt, ...)
{
	va_list ap;

	if (verbosity < level)
		return;
	va_start(ap, fmt);
	vprint_line(fmt, ap, 0);
	va_end(ap);
}
