/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The CVQ cost model (uapi/vdpa_sim_batch.h, VSB_A_COST): what the
 * device's operations would cost on hardware -- a model, spent asleep by
 * the module, whose realized cost is measured, not assumed. Kernel-free:
 * which item a command pays, what an operation owes.
 *
 * An operation is one publish of the CVQ's used index; it owes op, plus
 * cmd and its class's extra for every command it completes. Commands are
 * counted by item as they are executed and priced when the operation is
 * paid, so a change of the model applies from the next operation on.
 */
#ifndef VSB_COST_H
#define VSB_COST_H

#include "vsb_seam.h"
#include "uapi/vdpa_sim_batch.h"

/* The items of the model, indexed as their netlink attributes. */
#define VSB_COST_ITEMS (VSB_COST_STATS + 1)

struct vsb_cost {
	u32 ns[VSB_COST_ITEMS]; /* [VSB_COST_OP ... VSB_COST_STATS] */
	bool precise; /* sleep, then spin to the deadline */
};

/* What the commands completed since the last payment owe, by item. */
struct vsb_cost_owed {
	u32 cmds;
	u32 by_item[VSB_COST_ITEMS];
};

/* Nothing to pay: the device is as fast as it can be. */
static inline bool vsb_cost_free(const struct vsb_cost *cost)
{
	u32 any = 0;
	unsigned int i;

	for (i = VSB_COST_OP; i < VSB_COST_ITEMS; i++)
		any |= cost->ns[i];
	return !any;
}

extern const char *const vsb_cost_names[VSB_COST_ITEMS];

int vsb_cost_item_by_name(const char *name);
u8 vsb_cost_item(u8 class, u8 cmd);
void vsb_cost_count(struct vsb_cost_owed *owed, u8 class, u8 cmd);
u64 vsb_cost_take(const struct vsb_cost *cost, struct vsb_cost_owed *owed);

#endif /* VSB_COST_H */
