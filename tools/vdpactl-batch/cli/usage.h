/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Usage text in iproute2's shape, and usage errors that say what was
 * wrong before they show the usage of the one command concerned.
 */
#ifndef VDPACTL_USAGE_H
#define VDPACTL_USAGE_H

#include <stdbool.h>

#include "lib/util.h"

/*
 * A command's usage: synopsis lines without the program name (a line
 * that starts with a blank continues the one above it), NULL-terminated,
 * and notes, whole lines, or NULL.
 */
struct usage {
	const char *const *synopsis;
	const char *notes;
};

/*
 * Prints @u on stderr: its first synopsis line as "Usage: PROG ..." if
 * @first, else aligned under one; its notes only if @notes.
 */
void usage_print(const struct usage *u, bool first, bool notes);

/*
 * A wrong command line: "@cmd: <what was wrong>" on stderr, then the
 * usage of that command alone. Returns CMD_USAGE.
 */
int usage_error(const struct usage *u, const char *cmd, const char *fmt, ...)
	__printf(3, 4);

/*
 * For commands that take @min to @max words and no options: true, with
 * *status set, when the words are "help" (CMD_OK, usage printed) or
 * their number is wrong (CMD_USAGE, the error said). @what names the
 * words in the error, e.g. "DEV".
 */
bool usage_words_wrong(const struct usage *u, const char *cmd, int argc,
		       char **argv, int min, int max, const char *what,
		       int *status);

#endif
