/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Diagnostics on stderr: the program's sink for lib/diag.h, so that the
 * library's lines and the command line's own read the same,
 * "vdpactl-batch: <operation>: <reason>".
 */
#ifndef VDPACTL_LOG_H
#define VDPACTL_LOG_H

#include "lib/diag.h"

/* Sends every diagnostic line to stderr. */
void log_to_stderr(void);

/*
 * The last error sent, without the program's name ("" if none since the
 * start or log_clear_last_error()); the -v lines ("debug: ...") and
 * warnings ("warning: ...") never count.
 */
const char *log_last_error(void);

/* Forgets the last error: what a run then fails of is its own. */
void log_clear_last_error(void);

#endif
