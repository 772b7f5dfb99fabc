/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The loop a ring target serves a queue with, as kmod/vdpa/vsb_run.c does
 * (vsb_process_cvq()): pop and serve chains up to a batch limit; when
 * none is left, watch the ring once if kicks are off, then re-arm kicks
 * and look again if they say more came. Each target brings its own
 * checked calls; the loop checks what holds for any layout.
 */
#ifndef FUZZ_SERVE_H
#define FUZZ_SERVE_H

#include "fuzz_mem.h"
#include "vsb_ring.h"

/*
 * The mode byte of both ring targets' setup(): negotiated features, how
 * the module serves the queue, and two bits the target's ring layout.
 */
#define FSV_EVENT_IDX 0x01
#define FSV_INDIRECT 0x02
#define FSV_IMMEDIATE 0x04
#define FSV_LAYOUT(mode) ((mode) >> 3 & 3)
#define FSV_SUPPRESS 0x20
#define FSV_WATCH 0x40
#define FSV_FULL_SEGS 0x80 /* chains with room for the queue size */

struct fsv_ops {
	/* As vsb_ring_pop(), vsb_ring_poll(), vsb_ring_*_kicks(). */
	int (*pop)(void *q);
	int (*poll)(void *q);
	int (*enable_kicks)(void *q);
	void (*disable_kicks)(void *q);
	/* Serve the chain just taken; false if it must be given back. */
	bool (*serve_chain)(void *q);
};

struct fsv {
	const struct fsv_ops *ops;
	void *q;
	struct fuzz_mem *fm;
	struct vsb_ring *ring;
	const bool *kicks_off; /* the target's view: asked off, not re-armed */
	u32 limit; /* chains per run, as the module's batch_limit; 0: num */
	bool immediate; /* publish each chain, as completion=immediate */
	bool suppress; /* kicks off while serving, as suppress_kicks */
	bool watch; /* and a look at the ring before re-arming them */
};

/* Take the mode byte: the ring's features, the loop's; the layout. */
unsigned int fsv_set_mode(struct fsv *s, u8 mode);

/*
 * Serve until the ring is empty, faulted or the limit is reached, kicks
 * off first if suppress says so (0 at once if that faults the ring).
 * Checked: re-armed kicks or an announced chain are followed by a chain
 * or a fault, unless the racing driver or a device write changed memory
 * in between. Returns the last pop's answer, -EIO for a chain that
 * could not be served.
 */
int fsv_run(const struct fsv *s);

#endif /* FUZZ_SERVE_H */
