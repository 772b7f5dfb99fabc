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
bool vsb_range_ok(u64 addr, u64 len);
int vsb_ring_read16(struct vsb_ring *ring, u64 addr, u16 *val);
int vsb_ring_write16(struct vsb_ring *ring, u64 addr, u16 val);
int vsb_chain_add(struct vsb_ring *ring, struct vsb_chain *chain, u64 addr,
		  u32 len, bool writable, bool *seen_writable);
enum vsb_fault vsb_indirect_check(const struct vsb_ring *ring, u64 addr,
				  u32 len, u16 flags, bool in_indirect);

enum vsb_fault vsb_packed_setup(struct vsb_ring *ring);
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
