/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a ring target checks of a chain it took, whatever the layout
 * (split or packed): its shape, and that serving it as kmod/vdpa/vsb_run.c
 * does -- read part of its readable buffers, write part of its writable
 * ones -- reads what memory holds and writes only where it may.
 */
#ifndef FUZZ_CHAIN_H
#define FUZZ_CHAIN_H

#include "vsb_ring.h"
#include "fuzz_mem.h"

/* A chain being served and what the checks need to see of it. */
struct fch {
	struct fuzz_input *in;
	struct fuzz_mem *fm;
	struct vsb_ring *ring;
	const struct vsb_chain *chain;
};

/* Room for max_segs buffers: the queue size with @full, else fuzzed. */
void fch_alloc_segs(struct vsb_chain *chain, struct fuzz_input *in, u16 num,
		    bool full);

/*
 * Well formed: head below the queue size, at most the queue size and
 * max_segs buffers, none empty or wrapping, lengths that add up.
 */
void fch_check_shape(const struct fch *c);
/*
 * Serve the chain as a command or frame: read up to @read_len bytes from
 * a fuzzed offset and compare them with memory, write up to @write_len
 * from the start. Returns the bytes written, or -1 if memory refused,
 * which the module treats as the driver's error: the ring faults
 * (BUFFER_ACCESS) and the chain must be given back.
 */
int fch_serve(const struct fch *c, u16 read_len, u16 write_len);
/*
 * Right after a pop that read a batch of heads and took a chain, before
 * any racing write landed: the ring's window holds what memory holds.
 */
void fch_check_window(const struct fch *c);

#endif /* FUZZ_CHAIN_H */
