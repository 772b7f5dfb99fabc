// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CVQ cost model's accounting (vsb_cost.h). Kernel-free.
 */

#include "vsb_cost.h"
#include "vsb_coal.h"
#include "vsb_devstats.h"

/* The items' names, as the module parameter and vdpactl-batch spell them. */
const char *const vsb_cost_names[VSB_COST_ITEMS] = {
	[VSB_COST_OP] = "op",
	[VSB_COST_CMD] = "cmd",
	[VSB_COST_RX] = "rx",
	[VSB_COST_MAC] = "mac",
	[VSB_COST_MAC_TABLE] = "mac_table",
	[VSB_COST_VLAN] = "vlan",
	[VSB_COST_ANNOUNCE] = "announce",
	[VSB_COST_MQ] = "mq",
	[VSB_COST_RSS] = "rss",
	[VSB_COST_OFFLOADS] = "offloads",
	[VSB_COST_COAL] = "coal",
	[VSB_COST_STATS] = "stats",
};

/* The item called @name, or -EINVAL. */
int vsb_cost_item_by_name(const char *name)
{
	int i;

	for (i = VSB_COST_OP; i < VSB_COST_ITEMS; i++)
		if (!strcmp(vsb_cost_names[i], name))
			return i;
	return -EINVAL;
}

/*
 * The item whose extra a command of @class and @cmd pays besides cmd:
 * VSB_COST_CMD (no extra) for a command of no known class, such as a
 * framing error's.
 */
u8 vsb_cost_item(u8 class, u8 cmd)
{
	switch (class) {
	case VIRTIO_NET_CTRL_RX:
		return VSB_COST_RX;
	case VIRTIO_NET_CTRL_MAC:
		if (cmd == VIRTIO_NET_CTRL_MAC_TABLE_SET)
			return VSB_COST_MAC_TABLE;
		return VSB_COST_MAC;
	case VIRTIO_NET_CTRL_VLAN:
		return VSB_COST_VLAN;
	case VIRTIO_NET_CTRL_ANNOUNCE:
		return VSB_COST_ANNOUNCE;
	case VIRTIO_NET_CTRL_MQ:
		if (cmd == VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET)
			return VSB_COST_MQ;
		return VSB_COST_RSS;
	case VIRTIO_NET_CTRL_GUEST_OFFLOADS:
		return VSB_COST_OFFLOADS;
	case VSB_CTRL_NOTF_COAL:
		return VSB_COST_COAL;
	case VSB_CTRL_STATS:
		return VSB_COST_STATS;
	default:
		return VSB_COST_CMD;
	}
}

/* A command completed: it owes cmd and its item's extra. */
void vsb_cost_count(struct vsb_cost_owed *owed, u8 class, u8 cmd)
{
	owed->cmds++;
	owed->by_item[vsb_cost_item(class, cmd)]++;
}

/*
 * What the operation completing the commands counted so far costs, in
 * ns, priced with @cost: 0 if it completes none. Starts a new count.
 */
u64 vsb_cost_take(const struct vsb_cost *cost, struct vsb_cost_owed *owed)
{
	u64 ns;
	unsigned int i;

	if (!owed->cmds)
		return 0;
	ns = cost->ns[VSB_COST_OP] + (u64)owed->cmds * cost->ns[VSB_COST_CMD];
	for (i = VSB_COST_RX; i < VSB_COST_ITEMS; i++)
		ns += (u64)owed->by_item[i] * cost->ns[i];
	memset(owed, 0, sizeof(*owed));
	return ns;
}
