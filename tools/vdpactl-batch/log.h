/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Diagnostics on stderr. Every failure is reported once, by the layer that
 * knows the operation, as "vdpactl-batch: <operation>: <reason>".
 */
#ifndef VDPACTL_LOG_H
#define VDPACTL_LOG_H

#include "util.h"

void pr_err(const char *fmt, ...) __printf(1, 2);

/* Like pr_err(), followed by ": strerror(errnum)"; returns -errnum. */
int pr_errno(int errnum, const char *fmt, ...) __printf(2, 3);

/* Printed only when the user asked for at least @level -v flags. */
void pr_verbose(int verbosity, int level, const char *fmt, ...) __printf(3, 4);

#endif
