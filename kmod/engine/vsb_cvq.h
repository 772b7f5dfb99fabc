/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Control virtqueue commands (virtio-net "Control Virtqueue"): parsing,
 * validation against the negotiated features, and their effect on the
 * device's control state. Kernel-free. In two steps: vsb_cvq_fetch()
 * reads, checks and answers a command (guest memory only; itself
 * vsb_cvq_check() then vsb_cvq_ack(), which vsb_cvq_group.h takes apart
 * to answer several at once), vsb_cvq_apply() puts it in force (control
 * state only), so the module guards the state with a lock it never holds
 * across guest memory access.
 */
#ifndef VSB_CVQ_H
#define VSB_CVQ_H

#include "vsb_seam.h"
#include "vsb_coal.h"
#include "vsb_devstats.h"
#include "vsb_features.h"
#include "vsb_net.h"
#include "vsb_ring.h"
#include "vsb_rss.h"

/*
 * MAC filter entries, shared by the unicast and the multicast list as in
 * QEMU's virtio-net: a list that does not fit what the unicast one left
 * overflows.
 */
#define VSB_MAC_TABLE_ENTRIES 64
#define VSB_VLAN_IDS 4096
/*
 * The classes numbered from 0 without a gap; the module counts them one
 * by one, and VSB_CTRL_STATS, and the rest as "other".
 */
#define VSB_CVQ_CLASSES (VIRTIO_NET_CTRL_GUEST_OFFLOADS + 1)
/*
 * The class of a command whose header was never read (a framing error):
 * none, so it counts as "other", never as the RX class 0.
 */
#define VSB_CVQ_NO_CLASS 0xff

/* Guest offloads GUEST_OFFLOADS_SET may enable, by feature bit. */
#define VSB_GUEST_OFFLOADS                                                     \
	(BIT_ULL(VIRTIO_NET_F_GUEST_CSUM) | BIT_ULL(VIRTIO_NET_F_GUEST_TSO4) | \
	 BIT_ULL(VIRTIO_NET_F_GUEST_TSO6) | BIT_ULL(VIRTIO_NET_F_GUEST_ECN) |  \
	 BIT_ULL(VIRTIO_NET_F_GUEST_UFO))

struct vsb_mac_table {
	u32 count;
	/* the driver asked for more than fit: match every address */
	bool overflow;
	u8 addr[VSB_MAC_TABLE_ENTRIES][ETH_ALEN];
};

/* The receive modes the RX class sets (VIRTIO_NET_CTRL_RX_*). */
struct vsb_rx_mode {
	bool promisc;
	bool allmulti;
	bool alluni;
	bool nomulti;
	bool nouni;
	bool nobcast;
};

/* Everything the control queue can change, as the device holds it. */
struct vsb_net_ctrl {
	u8 mac[ETH_ALEN];
	bool announce_pending;
	struct vsb_rx_mode rx;
	struct vsb_mac_table uni;
	struct vsb_mac_table multi;
	u64 vlans[VSB_VLAN_IDS / 64];
	u16 pairs;
	u16 max_pairs;
	u64 offloads;
	/* per data queue (receive 2i, transmit 2i + 1) */
	struct vsb_coal coal[VSB_NET_MAX_DATA_VQS];
	/* RSS_CONFIG's or HASH_CONFIG's, whichever came last */
	struct vsb_rss rss;
};

/*
 * Room for what a command carries beyond a few bytes (a MAC table, an
 * RSS configuration), read and checked before the ack is written; the
 * caller provides it.
 */
struct vsb_cvq_scratch {
	struct vsb_mac_table uni;
	struct vsb_mac_table multi;
	/* what vsb_cvq_reply() writes after the ack, of reply_len bytes */
	u32 reply_len;
	/* a statistics query, and the counters its answer reports */
	struct vsb_devstats_req stats_req;
	struct vsb_devstats stats;
	/* NOTF_COAL_VQ_GET: the queue, and its parameters */
	u16 coal_vq;
	struct vsb_coal coal;
	u8 rss_data[VSB_RSS_CONFIG_MAX];
	struct vsb_rss_cmd rss;
};

/* Which parts of struct vsb_net_ctrl a command changed. */
#define VSB_CTRL_CHANGED_MAC BIT(0)
#define VSB_CTRL_CHANGED_STATUS BIT(1)
#define VSB_CTRL_CHANGED_RX_MODES BIT(2)
#define VSB_CTRL_CHANGED_PAIRS BIT(3)
#define VSB_CTRL_CHANGED_OFFLOADS BIT(4)
#define VSB_CTRL_CHANGED_MAC_TABLE BIT(5)
#define VSB_CTRL_CHANGED_VLANS BIT(6)
#define VSB_CTRL_CHANGED_COAL BIT(7)
#define VSB_CTRL_CHANGED_RSS BIT(8)
/* The changes the receive filter sees. */
#define VSB_CTRL_CHANGED_FILTER                             \
	(VSB_CTRL_CHANGED_MAC | VSB_CTRL_CHANGED_RX_MODES | \
	 VSB_CTRL_CHANGED_MAC_TABLE | VSB_CTRL_CHANGED_VLANS)
/* The changes the driver sees in the config space. */
#define VSB_CTRL_CHANGED_CONFIG (VSB_CTRL_CHANGED_MAC | VSB_CTRL_CHANGED_STATUS)

/* A command's header: { u8 class; u8 cmd; } */
#define VSB_CVQ_HDR_LEN 2

/*
 * Data bytes read along with the header: every command but a MAC table
 * and the RSS ones.
 */
#define VSB_CVQ_DATA_MAX 16

/* A command as vsb_cvq_fetch() read it, for vsb_cvq_apply(). */
struct vsb_cvq_cmd {
	const struct vsb_ring *ring;
	const struct vsb_chain *chain;
	u64 features;
	u16 max_pairs;
	u32 len; /* data bytes in the command */
	/* The header and the first data bytes, read in one access. */
	union {
		struct {
			u8 class;
			u8 cmd;
			u8 data[VSB_CVQ_DATA_MAX]; /* the first data bytes */
		};
		u8 head[VSB_CVQ_HDR_LEN + VSB_CVQ_DATA_MAX];
	};
	struct vsb_cvq_scratch *scratch;
};

/* The outcome of one control command. */
struct vsb_cvq_result {
	u8 class; /* VSB_CVQ_NO_CLASS without a header */
	u8 cmd;
	u8 ack; /* VIRTIO_NET_OK or VIRTIO_NET_ERR */
	u32 used_len; /* bytes written to the driver's buffers */
	/* answer bytes vsb_cvq_reply() is still to write after the ack */
	u32 reply_len;
	u32 changed; /* VSB_CTRL_CHANGED_* */
	/* acked OK, but set the state the device already had */
	bool redundant;
	enum vsb_fault fault; /* not NONE: the device needs a reset */
};

void vsb_net_ctrl_reset(struct vsb_net_ctrl *ctrl, const u8 *mac, u16 max_pairs,
			u64 features);
void vsb_cvq_check(const struct vsb_ring *ring, const struct vsb_chain *chain,
		   u64 features, u16 max_pairs, struct vsb_cvq_scratch *scratch,
		   struct vsb_cvq_cmd *cmd, struct vsb_cvq_result *res);
void vsb_cvq_ack(const struct vsb_cvq_cmd *cmd, struct vsb_cvq_result *res);
void vsb_cvq_unanswered(struct vsb_cvq_result *res);
void vsb_cvq_fetch(const struct vsb_ring *ring, const struct vsb_chain *chain,
		   u64 features, u16 max_pairs, struct vsb_cvq_scratch *scratch,
		   struct vsb_cvq_cmd *cmd, struct vsb_cvq_result *res);
int vsb_cvq_peek(const struct vsb_ring *ring, const struct vsb_chain *chain,
		 u8 *class, u8 *cmd);
void vsb_cvq_refuse(u8 class, u8 cmd, enum vsb_fault fault,
		    struct vsb_cvq_result *res);
void vsb_cvq_nack(const struct vsb_cvq_cmd *cmd, struct vsb_cvq_result *res);
void vsb_cvq_apply(const struct vsb_cvq_cmd *cmd, struct vsb_net_ctrl *ctrl,
		   struct vsb_cvq_result *res);
void vsb_cvq_reply(const struct vsb_cvq_cmd *cmd, struct vsb_cvq_result *res);

/*
 * The command reader the class handlers share, here and in a file of
 * their own (vsb_devstats.c): inline, so that no handler calls back into
 * the file that dispatches to it.
 */

/* Read data bytes [off, off + len) of the command from guest memory. */
static inline int vsb_cvq_read_data(const struct vsb_cvq_cmd *c, u32 off,
				    void *buf, u32 len)
{
	return vsb_chain_read(c->ring, c->chain, VSB_CVQ_HDR_LEN + off, buf,
			      len);
}

/**
 * vsb_cvq_pairs - the queue pairs the device has for this command
 * @c: the command
 *
 * One without MQ and RSS, whatever max_vqp says (vsb_net_pairs()); never
 * more than per-queue state has room for (the module has no more). The
 * control queue comes after them.
 */
static inline u16 vsb_cvq_pairs(const struct vsb_cvq_cmd *c)
{
	return min_t(u16, vsb_net_pairs(c->features, c->max_pairs),
		     VSB_NET_MAX_PAIRS);
}

/**
 * vsb_cvq_self_contained - whether a checked command can wait to be applied
 * @cmd: the command, as vsb_cvq_check() left it
 * @res: its result
 *
 * True when vsb_cvq_apply() and vsb_cvq_reply() need nothing but @cmd
 * itself: not its chain, which the next pop reuses, nor the scratch
 * area, which the next check overwrites. A command answered
 * VIRTIO_NET_ERR changes nothing, so it can always wait.
 */
static inline bool vsb_cvq_self_contained(const struct vsb_cvq_cmd *cmd,
					  const struct vsb_cvq_result *res)
{
	if (res->ack != VIRTIO_NET_OK)
		return true;
	switch (cmd->class) {
	case VIRTIO_NET_CTRL_MAC:
		return cmd->cmd != VIRTIO_NET_CTRL_MAC_TABLE_SET;
	case VIRTIO_NET_CTRL_MQ:
		return cmd->cmd == VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET;
	case VSB_CTRL_NOTF_COAL:
		return cmd->cmd != VSB_CTRL_NOTF_COAL_VQ_GET;
	case VSB_CTRL_STATS:
		return false;
	default:
		return true;
	}
}

#endif /* VSB_CVQ_H */
