// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Usage text in iproute2's shape, and usage errors.
 */
#include <stdarg.h>
#include <stdio.h>

#include "cli/log.h"
#include "cli/opt.h"
#include "cli/usage.h"
#include "cli/vdpactl.h"

void usage_print(const struct usage *u, bool first, bool notes)
{
	const char *const *line;

	for (line = u->synopsis; *line; line++) {
		if (**line == ' ') {
			fprintf(stderr, "%s\n", *line);
			continue;
		}
		fprintf(stderr, "%s" PROG_NAME " %s\n",
			first ? "Usage: " : "       ", *line);
		first = false;
	}
	if (notes && u->notes)
		fputs(u->notes, stderr);
}

int usage_error(const struct usage *u, const char *cmd, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pr_err("%s: %s", cmd, what);
	usage_print(u, true, true);
	return CMD_USAGE;
}

bool usage_words_wrong(const struct usage *u, const char *cmd, int argc,
		       char **argv, int min, int max, const char *what,
		       int *status)
{
	if (argc >= 1 && opt_is_help(argv[0])) {
		usage_print(u, true, true);
		*status = CMD_OK;
		return true;
	}
	if (argc < min) {
		*status = usage_error(u, cmd, "%s expected", what);
		return true;
	}
	if (argc > max && argv[max][0] == '-') {
		*status = usage_error(u, cmd,
				      "unexpected \"%s\": " PROG_NAME
				      "'s options go before the object",
				      argv[max]);
		return true;
	}
	if (argc > max) {
		*status =
			max ? usage_error(u, cmd, "unexpected \"%s\" after %s",
					  argv[max], what) :
			      usage_error(u, cmd, "unexpected \"%s\"", argv[0]);
		return true;
	}
	return false;
}
