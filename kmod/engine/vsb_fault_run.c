// SPDX-License-Identifier: GPL-2.0-only
/*
 * The effects of CVQ fault rules on a run (vsb_fault_run.h). Kernel-free.
 */

#include "vsb_fault_run.h"

/*
 * Note what @rule, which acts on the command just taken (NULL: none),
 * owes the run, and return its action. Delayed together, commands
 * complete after the longest delay; one silent command silences its
 * publish. nack, stall and reset owe the publish nothing: the run
 * answers, stops or refuses the command itself.
 */
u8 vsb_fault_run_note(struct vsb_fault_run *fr,
		      const struct vsb_fault_rule *rule)
{
	if (!rule)
		return VSB_FAULT_ACTION_UNSPEC;
	if (rule->action == VSB_FAULT_ACTION_DELAY)
		fr->delay_ns = max_t(u64, fr->delay_ns, rule->delay_ns);
	else if (rule->action == VSB_FAULT_ACTION_SILENT)
		fr->silent = true;
	return rule->action;
}

/*
 * vsb_fault_run_push() with a reorder rule in play: a command the rule
 * acts on is held back while none is held, to follow the next completion,
 * so the driver sees the two out of order -- without VIRTIO_F_IN_ORDER,
 * which the device never offers, any device's right.
 */
int vsb_fault_run_reorder(struct vsb_fault_run *fr, struct vsb_ring *ring,
			  struct vsb_chain *chain, u32 len, u8 action)
{
	if (action == VSB_FAULT_ACTION_REORDER && !fr->held) {
		fr->held = true;
		fr->held_head = chain->head;
		fr->held_len = len;
		return 0;
	}
	if (vsb_ring_push(ring, chain->head, len))
		return -EIO;
	if (!vsb_fault_run_release(fr, ring))
		return 0;
	chain->head = U16_MAX;
	return -EIO;
}

/*
 * Complete the command held back, if any, with no later one to pass it:
 * at the end of a run, also one that ends in an error, for it was done
 * and its driver waits for it.
 *
 * Return: 0, or -EIO if its used entry could not be written.
 */
int vsb_fault_run_release(struct vsb_fault_run *fr, struct vsb_ring *ring)
{
	if (!fr->held)
		return 0;
	fr->held = false;
	return vsb_ring_push(ring, fr->held_head, fr->held_len) ? -EIO : 0;
}
