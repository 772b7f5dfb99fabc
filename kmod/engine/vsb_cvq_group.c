// SPDX-License-Identifier: GPL-2.0-only
/*
 * Control commands answered together (vsb_cvq_group.h).
 */

#include "vsb_cvq_group.h"

/**
 * vsb_cvq_group_restart - start the next group with a command turned away
 * @g: the group, answered and emptied (n = 0)
 * @slot: where the command vsb_cvq_group_add() turned away was checked:
 *	  the group's n when it was
 *
 * The command is then the next group's first, not yet taken in.
 */
void vsb_cvq_group_restart(struct vsb_cvq_group *g, u16 slot)
{
	g->cmd[0] = g->cmd[slot];
	g->res[0] = g->res[slot];
}

/**
 * vsb_cvq_group_ack - write the group's acks
 * @g: the group, n > 0
 * @ring: the control queue
 *
 * In one access; if that fails, one by one in order, to find the first
 * command whose ack cannot reach the driver: it is a framing error
 * (vsb_cvq_unanswered()), and the ones after it are left unanswered.
 *
 * Return: the commands answered, each with used_len 1: n, or the index
 * of the one that failed.
 */
u16 vsb_cvq_group_ack(struct vsb_cvq_group *g, const struct vsb_ring *ring)
{
	u16 i, done = 0;

	if (!vsb_mem_write(&ring->mem, g->ack_addr, g->acks, g->n)) {
		done = g->n;
	} else if (g->n > 1) {
		/* A lone ack's write was already its own. */
		for (; done < g->n; done++)
			if (vsb_mem_write(&ring->mem, g->ack_addr + done,
					  &g->acks[done], 1))
				break;
	}
	if (done < g->n)
		vsb_cvq_unanswered(&g->res[done]);
	for (i = 0; i < done; i++)
		g->res[i].used_len = 1;
	return done;
}
