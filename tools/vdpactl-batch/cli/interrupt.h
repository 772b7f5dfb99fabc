/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ctrl-C and SIGTERM: a long command finishes the load in progress,
 * cleans up (the trace instance, the trace marks) and reports what it
 * measured, instead of dying with the device's files and the kernel's
 * trace buffers left behind. A second signal kills as usual.
 */
#ifndef VDPACTL_INTERRUPT_H
#define VDPACTL_INTERRUPT_H

#include <signal.h>

/*
 * SIGINT and SIGTERM set interrupt_signal from now on. Only for commands
 * that poll it (load, compare): any other must die of them as usual.
 */
int interrupt_install(void);

/* The signal that asked to stop (0: none yet); the engine polls it. */
extern volatile sig_atomic_t interrupt_signal;

/* The exit status of a command stopped by it: 128 + the signal. */
int interrupt_status(void);

/* "SIGINT" or "SIGTERM", for reports. */
const char *interrupt_name(void);

#endif
