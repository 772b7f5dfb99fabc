/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the split and the packed engines share (vsb_chain.c, below both),
 * and the packed engine's entry points, which vsb_ring.c's public
 * functions dispatch to. Only the engines include this.
 */
#ifndef VSB_RING_PRIV_H
#define VSB_RING_PRIV_H

#include "vsb_ring.h"

int vsb_ring_fail(struct vsb_ring *ring, enum vsb_fault fault);
int vsb_ring_read16(struct vsb_ring *ring, u64 addr, u16 *val);
int vsb_ring_write16(struct vsb_ring *ring, u64 addr, u16 val);

/* Whether [addr, addr + len) does not wrap; len > 0. */
static inline bool vsb_range_ok(u64 addr, u64 len)
{
	u64 last;

	return !check_add_overflow(addr, len - 1, &last);
}

/*
 * Append one buffer. @seen_writable says a writable descriptor came
 * earlier, even a zero-length one: the order rule holds for all of them.
 * Inline: every descriptor of every chain comes through here.
 */
static inline int vsb_chain_add(struct vsb_ring *ring, struct vsb_chain *chain,
				u64 addr, u32 len, bool writable,
				bool *seen_writable)
{
	u16 nr = chain->nr_out + chain->nr_in;
	u32 total;

	if (!writable && *seen_writable)
		return vsb_ring_fail(ring, VSB_FAULT_WRITE_ORDER);
	*seen_writable |= writable;
	/* A zero-length buffer carries nothing; it only counts as a step. */
	if (!len)
		return 0;
	if (!vsb_range_ok(addr, len))
		return vsb_ring_fail(ring, VSB_FAULT_ADDR_WRAP);
	/* The spec bounds the whole chain, both directions, by 2^32 - 1. */
	if (check_add_overflow(chain->out_len, chain->in_len, &total) ||
	    check_add_overflow(total, len, &total))
		return vsb_ring_fail(ring, VSB_FAULT_CHAIN_BYTES);
	if (writable)
		chain->in_len += len;
	else
		chain->out_len += len;
	if (nr >= ring->num || nr >= chain->max_segs)
		return vsb_ring_fail(ring, VSB_FAULT_CHAIN_LONG);
	chain->segs[nr].addr = addr;
	chain->segs[nr].len = len;
	if (writable)
		chain->nr_in++;
	else
		chain->nr_out++;
	return 0;
}

enum vsb_fault vsb_indirect_check(const struct vsb_ring *ring, u64 addr,
				  u32 len, u16 flags, bool in_indirect);

enum vsb_fault vsb_packed_setup(struct vsb_ring *ring);
void vsb_packed_area(const struct vsb_ring *ring, unsigned int i, u64 *start,
		     u64 *len);
void vsb_packed_set_base(struct vsb_ring *ring, u32 base);
u32 vsb_packed_base(const struct vsb_ring *ring);
int vsb_packed_start(struct vsb_ring *ring);
int vsb_packed_pop(struct vsb_ring *ring, struct vsb_chain *chain);
int vsb_packed_push(struct vsb_ring *ring, u16 id, u32 len);
int vsb_packed_publish(struct vsb_ring *ring);
bool vsb_packed_need_notify(struct vsb_ring *ring);
int vsb_packed_disable_kicks(struct vsb_ring *ring);
int vsb_packed_enable_kicks(struct vsb_ring *ring);
int vsb_packed_poll(struct vsb_ring *ring);

#endif /* VSB_RING_PRIV_H */
