/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * vdpa_sim_batch's own generic netlink family: per-device CVQ completion
 * settings, statistics with histograms, and the device's CVQ-visible
 * state. Shared by the module and by vdpactl-batch.
 *
 * Every request names its device with VSB_A_DEV_NAME (the vdpa device
 * name); GET requests without it, sent with NLM_F_DUMP, return one message
 * per device. Changes (DEV_SET, STATS_RESET, LINK_SET, ANNOUNCE) need
 * CAP_NET_ADMIN.
 *
 * The CVQ cost model (VSB_A_COST) is a model, not a measurement of any
 * device: an operation -- one publish of the CVQ's used index, so once
 * per command in immediate completion and once per batch in batch
 * completion -- costs VSB_COST_OP, plus VSB_COST_CMD and the extra of the
 * command's class (VSB_COST_RX ...) for each command it completes. The
 * device spends it asleep before the operation's commands take effect
 * and are published, and measures what it realized (VSB_STAT_COST_*,
 * VSB_A_HIST_COST_*).
 */
#ifndef _UAPI_VDPA_SIM_BATCH_H
#define _UAPI_VDPA_SIM_BATCH_H

#define VSB_GENL_NAME "vdpa_sim_batch"
#define VSB_GENL_VERSION 1

enum vsb_genl_cmd {
	VSB_CMD_UNSPEC,
	VSB_CMD_DEV_GET, /* reply: DEV_NAME, COMPLETION, BATCH_LIMIT, COST */
	/* DEV_NAME and any of COMPLETION, BATCH_LIMIT, COST */
	VSB_CMD_DEV_SET,
	VSB_CMD_STATS_GET, /* reply: DEV_NAME, STATS, HIST_* */
	VSB_CMD_STATS_RESET, /* DEV_NAME: zero counters and histograms */
	VSB_CMD_STATE_GET, /* reply: DEV_NAME and the state attributes */
	VSB_CMD_LINK_SET, /* DEV_NAME and LINK: the link the driver sees */
	VSB_CMD_ANNOUNCE, /* DEV_NAME: ask the driver to announce itself */
	/* DEV_NAME and FAULT_RULE: add a rule; reply: FAULT_RULES */
	VSB_CMD_FAULT_ADD,
	VSB_CMD_FAULT_GET, /* reply: DEV_NAME, FAULT_RULES */
	VSB_CMD_FAULT_CLEAR, /* DEV_NAME: drop every rule */

	__VSB_CMD_MAX,
	VSB_CMD_MAX = __VSB_CMD_MAX - 1,
};

/* VSB_A_COMPLETION */
enum vsb_genl_completion {
	VSB_COMPLETION_MODE_IMMEDIATE, /* publish and notify every command */
	VSB_COMPLETION_MODE_BATCH, /* publish once per batch */
};

enum vsb_genl_attr {
	VSB_A_UNSPEC,
	VSB_A_PAD,
	VSB_A_DEV_NAME, /* string: the vdpa device name */
	VSB_A_COMPLETION, /* u8: enum vsb_genl_completion */
	VSB_A_BATCH_LIMIT, /* u32: commands per batch, 0: the ring size */
	VSB_A_STATS, /* nest: VSB_STAT_* */
	VSB_A_HIST_CMDS_PER_BATCH, /* nest: VSB_HIST_* */
	VSB_A_HIST_CMD_NS, /* nest: per-command processing time, ns */
	VSB_A_HIST_KICK_NS, /* nest: kick to used-index publish, ns */
	/* state (STATE_GET replies) */
	VSB_A_STATUS, /* u8: the virtio device status */
	VSB_A_FEATURES, /* u64: negotiated features */
	VSB_A_MAC, /* binary, 6 bytes: the config space MAC */
	VSB_A_RX_MODES, /* u32: BIT(VIRTIO_NET_CTRL_RX_*) of modes on */
	VSB_A_UNI_MACS, /* nest: VSB_A_MAC per unicast table entry */
	VSB_A_MULTI_MACS, /* nest: VSB_A_MAC per multicast table entry */
	VSB_A_UNI_OVERFLOW, /* flag: the unicast list did not fit */
	VSB_A_MULTI_OVERFLOW, /* flag: the multicast list did not fit */
	/* binary, 512 bytes: VLAN n is bit n % 8 of byte n / 8 */
	VSB_A_VLANS,
	VSB_A_PAIRS, /* u16: active queue pairs */
	VSB_A_MAX_PAIRS, /* u16: the device's queue pairs */
	VSB_A_OFFLOADS, /* u64: guest offloads on, by feature bit */
	VSB_A_LINK, /* u8: 1 link up, 0 down (VIRTIO_NET_S_LINK_UP) */
	/* flag: an announcement (VIRTIO_NET_S_ANNOUNCE) not yet acked */
	VSB_A_ANNOUNCE_PENDING,
	/*
	 * With RSS or HASH_REPORT negotiated: what RSS_CONFIG or HASH_CONFIG
	 * last set, as a migrated device would have to restore it.
	 */
	VSB_A_RSS_HASH_TYPES, /* u32: VIRTIO_NET_RSS_HASH_TYPE_* enabled */
	VSB_A_RSS_KEY, /* binary, 40 bytes: the key, zero past its length */
	VSB_A_RSS_TABLE, /* binary: the indirection table, u16 each */
	VSB_A_RSS_UNCLASSIFIED, /* u16: the queue of unhashed frames */
	VSB_A_RSS_STEERING, /* flag: the table steers (RSS_CONFIG last) */
	/*
	 * nest: VSB_COST_*, the cost model. In DEV_SET, only the items given
	 * change; every item is in DEV_GET replies.
	 */
	VSB_A_COST,
	VSB_A_HIST_COST_NS, /* nest: each operation's requested cost, ns */
	VSB_A_HIST_COST_REAL_NS, /* nest: what each one realized, ns */
	VSB_A_FAULT_RULE, /* nest: VSB_FRULE_*, one rule */
	VSB_A_FAULT_RULES, /* nest: VSB_A_FAULT_RULE per rule, in order */

	__VSB_A_MAX,
	VSB_A_MAX = __VSB_A_MAX - 1,
};

/* In VSB_A_STATS, each a u64. */
enum vsb_genl_stat {
	VSB_STAT_UNSPEC,
	VSB_STAT_PAD,
	VSB_STAT_KICKS, /* CVQ kicks */
	VSB_STAT_WORK_RUNS, /* runs of the device's work item */
	VSB_STAT_COMMANDS, /* CVQ commands taken */
	VSB_STAT_OK, /* acked VIRTIO_NET_OK */
	VSB_STAT_ERRORS, /* acked VIRTIO_NET_ERR, or a framing error */
	VSB_STAT_BATCHES, /* used-index publishes of the CVQ */
	VSB_STAT_NOTIFICATIONS, /* CVQ interrupts to the driver */
	VSB_STAT_REDUNDANT, /* OK, but set the state already held */
	VSB_STAT_FILTER_UPDATES, /* receive filter updates */
	VSB_STAT_COST_OPS, /* operations that had a cost to pay */
	VSB_STAT_COST_NS, /* the cost they requested, ns */
	VSB_STAT_COST_REAL_NS, /* the time they spent paying it, ns */
	/*
	 * The device's own work on the CVQ, ns: its runs, from the first look
	 * at the ring to the last publish, less the cost paid in them.
	 */
	VSB_STAT_CVQ_BUSY_NS,
	VSB_STAT_FAULTS, /* CVQ commands a fault rule acted on */

	__VSB_STAT_MAX,
	VSB_STAT_MAX = __VSB_STAT_MAX - 1,
};

/*
 * In VSB_A_COST: u32 each, ns, at most VSB_COST_MAX_NS. The per-class
 * items are added to VSB_COST_CMD for the commands of their class (MAC
 * is MAC_ADDR_SET, MAC_TABLE is MAC_TABLE_SET, MQ is VQ_PAIRS_SET, RSS is
 * RSS_CONFIG and HASH_CONFIG).
 */
#define VSB_COST_MAX_NS 1000000000U

enum vsb_genl_cost {
	VSB_COST_UNSPEC,
	VSB_COST_OP, /* per operation */
	VSB_COST_CMD, /* per command */
	VSB_COST_RX, /* VIRTIO_NET_CTRL_RX */
	VSB_COST_MAC, /* VIRTIO_NET_CTRL_MAC_ADDR_SET */
	VSB_COST_MAC_TABLE, /* VIRTIO_NET_CTRL_MAC_TABLE_SET */
	VSB_COST_VLAN, /* VIRTIO_NET_CTRL_VLAN */
	VSB_COST_ANNOUNCE, /* VIRTIO_NET_CTRL_ANNOUNCE */
	VSB_COST_MQ, /* VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET */
	VSB_COST_RSS, /* VIRTIO_NET_CTRL_MQ_RSS_CONFIG, _HASH_CONFIG */
	VSB_COST_OFFLOADS, /* VIRTIO_NET_CTRL_GUEST_OFFLOADS */
	VSB_COST_COAL, /* VIRTIO_NET_CTRL_NOTF_COAL */
	VSB_COST_STATS, /* VIRTIO_NET_CTRL_STATS */
	/*
	 * u8, 1: sleep to shortly before the deadline, then spin to it,
	 * spending CPU for a realized cost closer to the request.
	 */
	VSB_COST_PRECISE,

	__VSB_COST_MAX,
	VSB_COST_MAX = __VSB_COST_MAX - 1,
};

/*
 * Device-side fault injection on the CVQ: rules, consulted in order for
 * every command whose header the device read; the first whose selector
 * fires acts on it. Every rule whose class and command match counts the
 * command, whether or not it fires. A rule fires on a matching command
 * when all of what it gives holds: it is the NTH it counted, the count is
 * a multiple of INTERVAL, a draw from its own generator (seeded with
 * SEED) falls under PROBABILITY; and it has fired fewer than TIMES times.
 * Rules are dropped at a device reset unless PERSIST.
 */
#define VSB_FAULT_RULES_MAX 16
#define VSB_FAULT_PROBABILITY_ONE 1000000 /* PROBABILITY: parts per million */

enum vsb_genl_fault_action {
	VSB_FAULT_ACTION_UNSPEC,
	VSB_FAULT_ACTION_NACK, /* ack VIRTIO_NET_ERR; the state is unchanged */
	VSB_FAULT_ACTION_STALL, /* take it; serve the CVQ no more until reset */
	VSB_FAULT_ACTION_DELAY, /* complete it DELAY_NS later */
	/* complete it after a later command (the device has no IN_ORDER) */
	VSB_FAULT_ACTION_REORDER,
	/* publish it without the used buffer notification */
	VSB_FAULT_ACTION_SILENT,
	/* set DEVICE_NEEDS_RESET; the command is not completed */
	VSB_FAULT_ACTION_RESET,

	__VSB_FAULT_ACTION_MAX,
	VSB_FAULT_ACTION_MAX = __VSB_FAULT_ACTION_MAX - 1,
};

enum vsb_genl_fault_rule {
	VSB_FRULE_UNSPEC,
	VSB_FRULE_PAD,
	VSB_FRULE_ACTION, /* u8: enum vsb_genl_fault_action, required */
	VSB_FRULE_CLASS, /* u8: the command class; absent: any */
	VSB_FRULE_CMD, /* u8: the command, with CLASS; absent: any */
	VSB_FRULE_NTH, /* u32 >= 1: only the Nth matching command */
	VSB_FRULE_INTERVAL, /* u32 >= 1: every Nth matching command */
	VSB_FRULE_PROBABILITY, /* u32, 1 to VSB_FAULT_PROBABILITY_ONE */
	VSB_FRULE_SEED, /* u32: the generator's seed, 0 if absent */
	VSB_FRULE_TIMES, /* u32 >= 1: fire at most this often */
	VSB_FRULE_DELAY_NS, /* u32, DELAY only: at most VSB_COST_MAX_NS */
	VSB_FRULE_PERSIST, /* flag: keep the rule across device resets */
	/* in replies */
	VSB_FRULE_ID, /* u32: the rule's number, unique per device */
	VSB_FRULE_MATCHED, /* u64: matching commands counted */
	VSB_FRULE_HITS, /* u64: commands it acted on */

	__VSB_FRULE_MAX,
	VSB_FRULE_MAX = __VSB_FRULE_MAX - 1,
};

/*
 * A histogram: VSB_HIST_BUCKET repeated VSB_HIST_BUCKETS times, in order.
 * Bucket 0 counts the value 0, bucket i > 0 the values [2^(i-1), 2^i);
 * the last bucket also counts everything above.
 */
#define VSB_HIST_BUCKETS 32

enum vsb_genl_hist {
	VSB_HIST_UNSPEC,
	VSB_HIST_PAD,
	VSB_HIST_BUCKET, /* u64 */

	__VSB_HIST_MAX,
	VSB_HIST_MAX = __VSB_HIST_MAX - 1,
};

#endif /* _UAPI_VDPA_SIM_BATCH_H */
