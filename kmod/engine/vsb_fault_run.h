/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the fault rules that acted on a CVQ run's commands (vsb_fault_rule.h)
 * owe it: the delay and the silence of its next publish, and a completion
 * held back to follow a later one (reorder). Kernel-free, so each action's
 * effect on the ring is unit-tested as the module runs it; the run itself
 * (vsb_run.c) decides when to publish, stalls and refuses.
 */
#ifndef VSB_FAULT_RUN_H
#define VSB_FAULT_RUN_H

#include "vsb_seam.h"
#include "vsb_fault_rule.h"
#include "vsb_ring.h"

struct vsb_fault_run {
	u64 delay_ns; /* to wait before the next publish */
	bool silent; /* the next publish notifies nobody */
	/* a completion held back to follow a later one */
	bool held;
	u16 held_head;
	u32 held_len;
};

u8 vsb_fault_run_note(struct vsb_fault_run *fr,
		      const struct vsb_fault_rule *rule);
int vsb_fault_run_reorder(struct vsb_fault_run *fr, struct vsb_ring *ring,
			  struct vsb_chain *chain, u32 len, u8 action);
int vsb_fault_run_release(struct vsb_fault_run *fr, struct vsb_ring *ring);

/*
 * Complete @chain, taken from @ring, with @len written; @action is the
 * fault rule's that acted on it (vsb_fault_run_note()).
 *
 * Return: 0, or -EIO if a used entry could not be written; if it is a
 * held one's, @chain is completed and its head is cleared (U16_MAX) so
 * that it is not given back as well.
 */
static inline int vsb_fault_run_push(struct vsb_fault_run *fr,
				     struct vsb_ring *ring,
				     struct vsb_chain *chain, u32 len,
				     u8 action)
{
	/* No reorder in play: as fast as without rules. */
	if (action != VSB_FAULT_ACTION_REORDER && !fr->held)
		return vsb_ring_push(ring, chain->head, len) ? -EIO : 0;
	return vsb_fault_run_reorder(fr, ring, chain, len, action);
}

/* The delay the next publish owes, which is then paid. */
static inline u64 vsb_fault_run_take_delay(struct vsb_fault_run *fr)
{
	u64 ns = fr->delay_ns;

	fr->delay_ns = 0;
	return ns;
}

/* Whether the next publish is silent; the publish after it is not. */
static inline bool vsb_fault_run_take_silent(struct vsb_fault_run *fr)
{
	bool silent = fr->silent;

	fr->silent = false;
	return silent;
}

#endif /* VSB_FAULT_RUN_H */
