/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A one-line status of a long run on a terminal: rounds done, their
 * rate and an estimate of the time left, redrawn a few times a second on
 * stderr and cleared at the end. Off when stderr is not a terminal, when
 * TERM is unset or "dumb" (a serial line that is recorded, not watched),
 * or the output is JSON, so logs and scripts never see it.
 */
#ifndef VDPACTL_PROGRESS_H
#define VDPACTL_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct progress {
	FILE *f; /* NULL: off */
	const char *what; /* "load", "compare" */
	unsigned int total;
	uint64_t start_ns, drawn_ns;
	bool drawn;
};

/* Should a command with -j or not (@json) show progress on @f? */
bool progress_wanted(FILE *f, bool json);

/* Starts a status of @total rounds on @f (NULL: none) at @now_ns. */
void progress_start(struct progress *p, FILE *f, const char *what,
		    unsigned int total, uint64_t now_ns);

/* @done rounds at @now_ns; redrawn at most every 250 ms. */
void progress_update(struct progress *p, unsigned int done, uint64_t now_ns);

/* Clears the line, so what follows starts clean. */
void progress_end(struct progress *p);

/* Clears whatever status line is shown, before a message is printed. */
void progress_erase(void);

/* CLOCK_MONOTONIC in ns. */
uint64_t progress_now_ns(void);

#endif
