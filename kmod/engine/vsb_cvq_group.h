/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Control commands answered together: a driver that queues several
 * commands at once (QEMU's CVQ state load, vdpactl-batch) gives each its
 * ack byte right after the previous one's. The device checks them one by
 * one (vsb_cvq_check()), writes their acks in one access, and only then
 * puts them in force, in order: a command still changes nothing unless
 * its ack reached the driver. Kernel-free.
 */
#ifndef VSB_CVQ_GROUP_H
#define VSB_CVQ_GROUP_H

#include "vsb_cvq.h"

/* Commands per group: a batch of heads (see VSB_RING_BATCH). */
#define VSB_CVQ_GROUP VSB_RING_BATCH

/*
 * Checked commands whose ack bytes lie at [ack_addr, ack_addr + n) of
 * the device's address space, in the order the commands were taken.
 */
struct vsb_cvq_group {
	u16 n;
	u64 ack_addr;
	u8 acks[VSB_CVQ_GROUP];
	u16 heads[VSB_CVQ_GROUP];
	struct vsb_cvq_cmd cmd[VSB_CVQ_GROUP];
	struct vsb_cvq_result res[VSB_CVQ_GROUP];
};

/*
 * Where the next command is checked (vsb_cvq_check()) before
 * vsb_cvq_group_add() takes it in.
 */
static inline struct vsb_cvq_cmd *vsb_cvq_group_cmd(struct vsb_cvq_group *g)
{
	return &g->cmd[g->n];
}

static inline struct vsb_cvq_result *vsb_cvq_group_res(struct vsb_cvq_group *g)
{
	return &g->res[g->n];
}

/* No room for another command: answer the group, then empty it. */
static inline bool vsb_cvq_group_full(const struct vsb_cvq_group *g)
{
	return g->n == VSB_CVQ_GROUP;
}

/**
 * vsb_cvq_group_add - take in the command checked at vsb_cvq_group_cmd()
 * @g: the group, with room (see vsb_cvq_group_full())
 * @chain: the command's chain
 *
 * Only a command vsb_cvq_check() found no fault in joins, and only a
 * group that is empty or whose last ack byte comes right before its own.
 *
 * Inline: every command of a batch comes through here.
 *
 * Return: true if it joined; false if the group must be answered first
 * and emptied, then vsb_cvq_group_restart() makes the command the first
 * of the next.
 */
static inline bool vsb_cvq_group_add(struct vsb_cvq_group *g,
				     const struct vsb_chain *chain)
{
	/* vsb_cvq_check() faults a command without a writable byte. */
	u64 ack_addr = chain->segs[chain->nr_out].addr;

	if (!g->n)
		g->ack_addr = ack_addr;
	else if (ack_addr != g->ack_addr + g->n)
		return false;
	g->acks[g->n] = g->res[g->n].ack;
	g->heads[g->n] = chain->head;
	g->n++;
	return true;
}

void vsb_cvq_group_restart(struct vsb_cvq_group *g, u16 slot);
u16 vsb_cvq_group_ack(struct vsb_cvq_group *g, const struct vsb_ring *ring);

#endif /* VSB_CVQ_GROUP_H */
