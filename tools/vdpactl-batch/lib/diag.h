/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Diagnostics of the library. Every failure is reported once, by the layer
 * that knows the operation, as one line "<operation>: <reason>". The
 * library prints nothing itself: it hands each line to the sink a program
 * sets (as libbpf_set_print() does); with no sink the lines are dropped.
 */
#ifndef VDPACTL_DIAG_H
#define VDPACTL_DIAG_H

#include "lib/util.h"

#define DIAG_LINE_LEN 512

enum diag_level {
	DIAG_ERR, /* something failed, or the user must know */
	DIAG_WARN, /* the command goes on, but the user should know */
	DIAG_DEBUG, /* what -v and -vv ask for */
};

/* @line has no trailing newline. */
typedef void (*diag_sink_t)(enum diag_level level, const char *line);

/* Returns the previous sink. */
diag_sink_t diag_set_sink(diag_sink_t sink);

void pr_err(const char *fmt, ...) __printf(1, 2);

/*
 * Something the user should know that fails nothing, such as a choice
 * made for them; the sink marks it "warning:".
 */
void pr_warn(const char *fmt, ...) __printf(1, 2);

/* Like pr_err(), followed by ": strerror(errnum)"; returns -errnum. */
int pr_errno(int errnum, const char *fmt, ...) __printf(2, 3);

/* Reported only when the user asked for at least @level -v flags. */
void pr_verbose(int verbosity, int level, const char *fmt, ...) __printf(3, 4);

#endif
