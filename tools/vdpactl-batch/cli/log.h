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
 * The last error sent, without the program's name ("" if none yet); the
 * -v lines ("debug: ...") never count.
 */
const char *log_last_error(void);

#endif
