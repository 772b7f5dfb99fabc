// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A one-line status of a long run on a terminal.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/progress.h"

#define PROGRESS_REDRAW_NS 250000000ULL
#define NS_PER_SEC 1000000000ULL

/* The line on the screen, if any: progress_erase() clears it. */
static struct progress *shown;

bool progress_wanted(FILE *f, bool json)
{
	const char *term = getenv("TERM");

	/* \r and ESC [K redraw the line: a terminal that has them. */
	return !json && isatty(fileno(f)) && term && *term &&
	       strcmp(term, "dumb");
}

void progress_start(struct progress *p, FILE *f, const char *what,
		    unsigned int total, uint64_t now_ns)
{
	*p = (struct progress){
		.f = f,
		.what = what,
		.total = total,
		.start_ns = now_ns,
		.drawn_ns = now_ns,
	};
}

void progress_update(struct progress *p, unsigned int done, uint64_t now_ns)
{
	uint64_t elapsed = now_ns - p->start_ns;
	double rate, left;

	if (!p->f || done >= p->total ||
	    now_ns - p->drawn_ns < PROGRESS_REDRAW_NS)
		return;
	rate = elapsed ? done * (double)NS_PER_SEC / (double)elapsed : 0;
	left = rate > 0 ? (p->total - done) / rate : 0;
	/* \r and erase to the end of the line: one line, redrawn. */
	fprintf(p->f,
		"\r%s: %u/%u rounds, %.1f rounds/s, about %.0f s left\033[K",
		p->what, done, p->total, rate, left);
	fflush(p->f);
	p->drawn = true;
	p->drawn_ns = now_ns;
	shown = p;
}

void progress_end(struct progress *p)
{
	if (p->f && p->drawn) {
		fputs("\r\033[K", p->f);
		fflush(p->f);
	}
	p->drawn = false;
	if (shown == p)
		shown = NULL;
}

void progress_erase(void)
{
	/* Redrawn at the next update, below what was printed. */
	if (shown)
		progress_end(shown);
}

uint64_t progress_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}
