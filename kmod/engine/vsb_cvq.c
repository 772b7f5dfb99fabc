// SPDX-License-Identifier: GPL-2.0-only
/*
 * Control virtqueue commands.
 *
 * A command is { u8 class; u8 command; u8 data[]; } in the readable
 * buffers and { u8 ack; } at the start of the writable ones, with no
 * assumption about how they are split into descriptors ("Message
 * Framing"). What the spec leaves open follows QEMU's device, which
 * drivers are written against:
 *   - no room for the header or for the ack byte is a framing error: the
 *     chain is completed with length 0 and the device needs a reset;
 *   - an unknown class or command, a class whose feature was not
 *     negotiated, data of the wrong size or a value out of range is
 *     answered VIRTIO_NET_ERR, with the state unchanged;
 *   - every other command is answered with used length 1.
 * Every answer is written fresh: an ERR can never be left over from an
 * earlier OK, nor the other way round.
 *
 * A command that sets the state the device already has is acked OK and
 * changes nothing, so nothing is re-programmed; it is reported as
 * redundant (as QEMU learnt with MSI routes, re-programming what did not
 * change is where the time goes).
 *
 * Each command is checked first (with apply == false: everything read
 * from the driver lands in the scratch area, and the control state is not
 * looked at), its ack written, and only then applied: a command whose ack
 * cannot reach the driver changes nothing, checking costs no copy of the
 * state, and applying touches no guest memory.
 */

#include "vsb_cvq.h"

/*
 * A handler's verdict besides VIRTIO_NET_OK and VIRTIO_NET_ERR: the
 * command's data could not be read, a framing error like any other.
 */
#define VSB_CVQ_FAULT 0xff

static_assert(offsetof(struct vsb_cvq_cmd, data) ==
		      offsetof(struct vsb_cvq_cmd, head) + VSB_CVQ_HDR_LEN,
	      "a command's data follows its header in struct vsb_cvq_cmd");

static bool vsb_has(u64 features, unsigned int bit)
{
	return features & BIT_ULL(bit);
}

/*
 * One list of a MAC_TABLE_SET at data offset *off: { le32 entries;
 * u8 macs[entries][6]; }. Fills @table if the list fits in @room entries,
 * else marks it overflowed (its entries are then not read), and moves *off
 * past the list. Return: 0, -EINVAL if the list does not fit
 * the data (ERR), -EFAULT if guest memory could not be read (a fault).
 */
static int vsb_cvq_read_mac_list(const struct vsb_cvq_cmd *c, u64 *off,
				 u32 room, struct vsb_mac_table *table)
{
	__le32 raw;
	u64 end;
	u32 n;

	if (*off + sizeof(raw) > c->len)
		return -EINVAL;
	if (vsb_cvq_read_data(c, *off, &raw, sizeof(raw)))
		return -EFAULT;
	n = le32_to_cpu(raw);
	/* 64-bit: 4 + 6 * U32_MAX cannot overflow. */
	end = *off + sizeof(raw) + (u64)n * ETH_ALEN;
	if (end > c->len)
		return -EINVAL;
	table->overflow = n > room;
	table->count = table->overflow ? 0 : n;
	if (table->count &&
	    vsb_cvq_read_data(c, *off + sizeof(raw), table->addr,
			      table->count * ETH_ALEN))
		return -EFAULT;
	*off = end;
	return 0;
}

static __always_inline u8 vsb_cvq_rx(const struct vsb_cvq_cmd *c,
				     struct vsb_net_ctrl *ctrl, bool apply,
				     u32 *changed)
{
	bool *mode;

	if (!vsb_has(c->features, VIRTIO_NET_F_CTRL_RX) || c->len != 1 ||
	    c->data[0] > 1 || c->cmd > VIRTIO_NET_CTRL_RX_NOBCAST)
		return VIRTIO_NET_ERR;
	if (c->cmd > VIRTIO_NET_CTRL_RX_ALLMULTI &&
	    !vsb_has(c->features, VIRTIO_NET_F_CTRL_RX_EXTRA))
		return VIRTIO_NET_ERR;
	if (!apply)
		return VIRTIO_NET_OK;
	switch (c->cmd) {
	case VIRTIO_NET_CTRL_RX_PROMISC:
		mode = &ctrl->rx.promisc;
		break;
	case VIRTIO_NET_CTRL_RX_ALLMULTI:
		mode = &ctrl->rx.allmulti;
		break;
	case VIRTIO_NET_CTRL_RX_ALLUNI:
		mode = &ctrl->rx.alluni;
		break;
	case VIRTIO_NET_CTRL_RX_NOMULTI:
		mode = &ctrl->rx.nomulti;
		break;
	case VIRTIO_NET_CTRL_RX_NOUNI:
		mode = &ctrl->rx.nouni;
		break;
	default:
		mode = &ctrl->rx.nobcast;
		break;
	}
	if (*mode != c->data[0]) {
		*mode = c->data[0];
		*changed |= VSB_CTRL_CHANGED_RX_MODES;
	}
	return VIRTIO_NET_OK;
}

static bool vsb_mac_table_equal(const struct vsb_mac_table *a,
				const struct vsb_mac_table *b)
{
	return a->count == b->count && a->overflow == b->overflow &&
	       !memcmp(a->addr, b->addr, a->count * ETH_ALEN);
}

static noinline u8 vsb_cvq_mac_table(const struct vsb_cvq_cmd *c,
				     struct vsb_net_ctrl *ctrl, bool apply,
				     u32 *changed)
{
	struct vsb_cvq_scratch *s = c->scratch;
	u64 off = 0;
	u32 room;
	int ret;

	if (!vsb_has(c->features, VIRTIO_NET_F_CTRL_RX))
		return VIRTIO_NET_ERR;
	if (apply) {
		if (vsb_mac_table_equal(&ctrl->uni, &s->uni) &&
		    vsb_mac_table_equal(&ctrl->multi, &s->multi))
			return VIRTIO_NET_OK;
		ctrl->uni = s->uni;
		ctrl->multi = s->multi;
		*changed |= VSB_CTRL_CHANGED_MAC_TABLE;
		return VIRTIO_NET_OK;
	}
	ret = vsb_cvq_read_mac_list(c, &off, VSB_MAC_TABLE_ENTRIES, &s->uni);
	/* The multicast list gets what the unicast one left. */
	room = VSB_MAC_TABLE_ENTRIES - s->uni.count;
	if (!ret)
		ret = vsb_cvq_read_mac_list(c, &off, room, &s->multi);
	if (ret == -EFAULT)
		return VSB_CVQ_FAULT;
	if (ret || off != c->len)
		return VIRTIO_NET_ERR;
	return VIRTIO_NET_OK;
}

static __always_inline u8 vsb_cvq_mac(const struct vsb_cvq_cmd *c,
				      struct vsb_net_ctrl *ctrl, bool apply,
				      u32 *changed)
{
	switch (c->cmd) {
	case VIRTIO_NET_CTRL_MAC_TABLE_SET:
		return vsb_cvq_mac_table(c, ctrl, apply, changed);
	case VIRTIO_NET_CTRL_MAC_ADDR_SET:
		if (!vsb_has(c->features, VIRTIO_NET_F_CTRL_MAC_ADDR) ||
		    c->len != ETH_ALEN)
			return VIRTIO_NET_ERR;
		if (apply && memcmp(ctrl->mac, c->data, ETH_ALEN)) {
			memcpy(ctrl->mac, c->data, ETH_ALEN);
			*changed |= VSB_CTRL_CHANGED_MAC;
		}
		return VIRTIO_NET_OK;
	default:
		return VIRTIO_NET_ERR;
	}
}

static __always_inline u8 vsb_cvq_vlan(const struct vsb_cvq_cmd *c,
				       struct vsb_net_ctrl *ctrl, bool apply,
				       u32 *changed)
{
	u64 *word, bit;
	bool adding;
	u16 vid;

	if (!vsb_has(c->features, VIRTIO_NET_F_CTRL_VLAN) || c->len != 2 ||
	    (c->cmd != VIRTIO_NET_CTRL_VLAN_ADD &&
	     c->cmd != VIRTIO_NET_CTRL_VLAN_DEL))
		return VIRTIO_NET_ERR;
	vid = get_unaligned_le16(c->data);
	if (vid >= VSB_VLAN_IDS)
		return VIRTIO_NET_ERR;
	if (!apply)
		return VIRTIO_NET_OK;
	word = &ctrl->vlans[vid / 64];
	bit = BIT_ULL(vid % 64);
	/* Adding a VLAN that is there, or deleting one that is not. */
	adding = c->cmd == VIRTIO_NET_CTRL_VLAN_ADD;
	if (!!(*word & bit) != adding) {
		*word ^= bit;
		*changed |= VSB_CTRL_CHANGED_VLANS;
	}
	return VIRTIO_NET_OK;
}

static __always_inline u8 vsb_cvq_announce(const struct vsb_cvq_cmd *c,
					   struct vsb_net_ctrl *ctrl,
					   bool apply, u32 *changed)
{
	if (c->cmd != VIRTIO_NET_CTRL_ANNOUNCE_ACK ||
	    !vsb_has(c->features, VIRTIO_NET_F_GUEST_ANNOUNCE) || c->len)
		return VIRTIO_NET_ERR;
	if (apply && ctrl->announce_pending) {
		ctrl->announce_pending = false;
		*changed |= VSB_CTRL_CHANGED_STATUS;
	}
	return VIRTIO_NET_OK;
}

/*
 * VQ_PAIRS_SET: automatic receive steering over that many pairs. It ends
 * RSS steering, as in QEMU's device: a driver that sets the pairs without
 * a table wants pair-to-pair steering back.
 */
static __always_inline u8 vsb_cvq_mq_pairs(const struct vsb_cvq_cmd *c,
					   struct vsb_net_ctrl *ctrl,
					   bool apply, u32 *changed)
{
	u16 pairs;

	if (!vsb_has(c->features, VIRTIO_NET_F_MQ) || c->len != 2)
		return VIRTIO_NET_ERR;
	pairs = get_unaligned_le16(c->data);
	if (pairs < VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MIN ||
	    pairs > VIRTIO_NET_CTRL_MQ_VQ_PAIRS_MAX || pairs > c->max_pairs)
		return VIRTIO_NET_ERR;
	if (!apply)
		return VIRTIO_NET_OK;
	if (pairs != ctrl->pairs) {
		ctrl->pairs = pairs;
		*changed |= VSB_CTRL_CHANGED_PAIRS;
	}
	if (ctrl->rss.steering) {
		ctrl->rss.steering = false;
		*changed |= VSB_CTRL_CHANGED_RSS;
	}
	return VIRTIO_NET_OK;
}

/*
 * RSS_CONFIG (with RSS) and HASH_CONFIG (with HASH_REPORT) set the one
 * hash state the device steers and reports with. RSS_CONFIG also puts
 * max_tx_vq pairs in force, as VQ_PAIRS_SET would; HASH_CONFIG means
 * automatic steering, so it ends RSS steering (QEMU's device does the
 * same).
 */
static noinline u8 vsb_cvq_mq_hash(const struct vsb_cvq_cmd *c,
				   struct vsb_net_ctrl *ctrl, bool apply,
				   u32 *changed)
{
	struct vsb_cvq_scratch *s = c->scratch;
	bool rss = c->cmd == VIRTIO_NET_CTRL_MQ_RSS_CONFIG;
	u16 max_pairs;
	int ret;

	if (!vsb_has(c->features,
		     rss ? VIRTIO_NET_F_RSS : VIRTIO_NET_F_HASH_REPORT))
		return VIRTIO_NET_ERR;
	if (apply) {
		if (memcmp(&ctrl->rss, &s->rss.rss, sizeof(ctrl->rss))) {
			memcpy(&ctrl->rss, &s->rss.rss, sizeof(ctrl->rss));
			*changed |= VSB_CTRL_CHANGED_RSS;
		}
		if (rss && s->rss.pairs != ctrl->pairs) {
			ctrl->pairs = s->rss.pairs;
			*changed |= VSB_CTRL_CHANGED_PAIRS;
		}
		return VIRTIO_NET_OK;
	}
	/* Longer than the longest the device takes: no need to read it. */
	if (c->len > sizeof(s->rss_data))
		return VIRTIO_NET_ERR;
	if (vsb_cvq_read_data(c, 0, s->rss_data, c->len))
		return VSB_CVQ_FAULT;
	max_pairs = vsb_cvq_pairs(c);
	if (rss)
		ret = vsb_rss_parse_rss(s->rss_data, c->len, max_pairs,
					&s->rss);
	else
		ret = vsb_rss_parse_hash(s->rss_data, c->len, &s->rss);
	return ret ? VIRTIO_NET_ERR : VIRTIO_NET_OK;
}

static __always_inline u8 vsb_cvq_mq(const struct vsb_cvq_cmd *c,
				     struct vsb_net_ctrl *ctrl, bool apply,
				     u32 *changed)
{
	switch (c->cmd) {
	case VIRTIO_NET_CTRL_MQ_VQ_PAIRS_SET:
		return vsb_cvq_mq_pairs(c, ctrl, apply, changed);
	case VIRTIO_NET_CTRL_MQ_RSS_CONFIG:
	case VIRTIO_NET_CTRL_MQ_HASH_CONFIG:
		return vsb_cvq_mq_hash(c, ctrl, apply, changed);
	default:
		return VIRTIO_NET_ERR;
	}
}

static __always_inline u8 vsb_cvq_offloads(const struct vsb_cvq_cmd *c,
					   struct vsb_net_ctrl *ctrl,
					   bool apply, u32 *changed)
{
	u64 offloads;

	if (c->cmd != VIRTIO_NET_CTRL_GUEST_OFFLOADS_SET ||
	    !vsb_has(c->features, VIRTIO_NET_F_CTRL_GUEST_OFFLOADS) ||
	    c->len != 8)
		return VIRTIO_NET_ERR;
	offloads = get_unaligned_le64(c->data);
	/* Only offloads that were negotiated can be switched on. */
	if (offloads & ~(c->features & VSB_GUEST_OFFLOADS))
		return VIRTIO_NET_ERR;
	if (apply && offloads != ctrl->offloads) {
		ctrl->offloads = offloads;
		*changed |= VSB_CTRL_CHANGED_OFFLOADS;
	}
	return VIRTIO_NET_OK;
}

static void vsb_cvq_set_coal(struct vsb_net_ctrl *ctrl, u16 vq,
			     const struct vsb_coal *coal, u32 *changed)
{
	if (ctrl->coal[vq].max_packets == coal->max_packets &&
	    ctrl->coal[vq].max_usecs == coal->max_usecs)
		return;
	ctrl->coal[vq] = *coal;
	*changed |= VSB_CTRL_CHANGED_COAL;
}

/*
 * NOTF_COAL: TX_SET and RX_SET give every transmit or receive queue the
 * parameters (NOTF_COAL), VQ_SET one data queue (VQ_NOTF_COAL), VQ_GET
 * answers with one queue's after the ack. Every queue the device has
 * counts, not only the active pairs: a pair enabled later has what it
 * was given. The control queue is not a data queue.
 */
static noinline u8 vsb_cvq_coal(const struct vsb_cvq_cmd *c,
				struct vsb_net_ctrl *ctrl, bool apply,
				u32 *changed)
{
	struct vsb_cvq_scratch *s = c->scratch;
	const u8 *params = c->data;
	bool per_vq = c->cmd >= VSB_CTRL_NOTF_COAL_VQ_SET;
	struct vsb_coal coal;
	u16 vq = 0, i;

	if (c->cmd > VSB_CTRL_NOTF_COAL_VQ_GET ||
	    !vsb_has(c->features,
		     per_vq ? VSB_NET_F_VQ_NOTF_COAL : VIRTIO_NET_F_NOTF_COAL))
		return VIRTIO_NET_ERR;
	if (per_vq) {
		if (c->len !=
		    VSB_COAL_VQ_LEN + (c->cmd == VSB_CTRL_NOTF_COAL_VQ_SET ?
					       VSB_COAL_LEN :
					       0))
			return VIRTIO_NET_ERR;
		vq = get_unaligned_le16(c->data);
		if (vq >= 2 * vsb_cvq_pairs(c))
			return VIRTIO_NET_ERR;
		params += VSB_COAL_VQ_LEN;
	} else if (c->len != VSB_COAL_LEN) {
		return VIRTIO_NET_ERR;
	}
	if (c->cmd == VSB_CTRL_NOTF_COAL_VQ_GET) {
		if (apply) {
			s->coal = ctrl->coal[s->coal_vq];
			return VIRTIO_NET_OK;
		}
		/* The ack comes first in the writable buffers. */
		if (c->chain->in_len - 1 < VSB_COAL_LEN)
			return VIRTIO_NET_ERR;
		s->coal_vq = vq;
		s->reply_len = VSB_COAL_LEN;
		return VIRTIO_NET_OK;
	}
	if (!apply)
		return VIRTIO_NET_OK;
	coal.max_packets = get_unaligned_le32(params);
	coal.max_usecs = get_unaligned_le32(params + 4);
	if (per_vq) {
		vsb_cvq_set_coal(ctrl, vq, &coal, changed);
		return VIRTIO_NET_OK;
	}
	for (i = c->cmd == VSB_CTRL_NOTF_COAL_TX_SET; i < 2 * vsb_cvq_pairs(c);
	     i += 2)
		vsb_cvq_set_coal(ctrl, i, &coal, changed);
	return VIRTIO_NET_OK;
}

/* A query: checked now, answered by vsb_cvq_reply(); it sets no state. */
static u8 vsb_cvq_stats(const struct vsb_cvq_cmd *c)
{
	int ret;

	if (!vsb_has(c->features, VSB_NET_F_DEVICE_STATS))
		return VIRTIO_NET_ERR;
	ret = vsb_devstats_check(c, &c->scratch->stats_req,
				 &c->scratch->reply_len);
	if (ret == -EFAULT)
		return VSB_CVQ_FAULT;
	return ret ? VIRTIO_NET_ERR : VIRTIO_NET_OK;
}

/*
 * Inline into its two callers, with the handlers of the commands a load
 * is made of: each caller then has them for its own pass, checking or
 * applying, with no call per command. The rarer ones that read a table
 * stay out of line (noinline), and so out of the common commands' way.
 */
static __always_inline u8 vsb_cvq_dispatch(const struct vsb_cvq_cmd *c,
					   struct vsb_net_ctrl *ctrl,
					   bool apply, u32 *changed)
{
	switch (c->class) {
	case VIRTIO_NET_CTRL_RX:
		return vsb_cvq_rx(c, ctrl, apply, changed);
	case VIRTIO_NET_CTRL_MAC:
		return vsb_cvq_mac(c, ctrl, apply, changed);
	case VIRTIO_NET_CTRL_VLAN:
		return vsb_cvq_vlan(c, ctrl, apply, changed);
	case VIRTIO_NET_CTRL_ANNOUNCE:
		return vsb_cvq_announce(c, ctrl, apply, changed);
	case VIRTIO_NET_CTRL_MQ:
		return vsb_cvq_mq(c, ctrl, apply, changed);
	case VIRTIO_NET_CTRL_GUEST_OFFLOADS:
		return vsb_cvq_offloads(c, ctrl, apply, changed);
	case VSB_CTRL_NOTF_COAL:
		return vsb_cvq_coal(c, ctrl, apply, changed);
	case VSB_CTRL_STATS:
		return apply ? VIRTIO_NET_OK : vsb_cvq_stats(c);
	default:
		return VIRTIO_NET_ERR;
	}
}

/**
 * vsb_net_ctrl_reset - the state a device has after reset ("Device
 * Reset" and the CVQ sections): its MAC, empty MAC and VLAN tables,
 * promiscuous and no other receive mode, one queue pair, every negotiated
 * guest offload on, no hash type enabled and no RSS steering
 * @ctrl: the state
 * @mac: the device's provisioned MAC
 * @max_pairs: queue pairs the device has
 * @features: negotiated features (0 before negotiation)
 *
 * The spec leaves the receive modes' reset values open. Promiscuous is what
 * QEMU's virtio-net resets to (so that a driver sending no RX command gets
 * every frame, as without CTRL_RX), and what QEMU's vhost-vdpa load assumes:
 * it restores promiscuous mode by sending RX_PROMISC 0 when it is off,
 * and nothing when it is on.
 */
void vsb_net_ctrl_reset(struct vsb_net_ctrl *ctrl, const u8 *mac, u16 max_pairs,
			u64 features)
{
	memset(ctrl, 0, sizeof(*ctrl));
	memcpy(ctrl->mac, mac, ETH_ALEN);
	ctrl->rx.promisc = true;
	ctrl->pairs = 1;
	ctrl->max_pairs = max_pairs;
	ctrl->offloads = features & VSB_GUEST_OFFLOADS;
}

/**
 * vsb_cvq_check - read and check one control command
 * @ring: the control queue
 * @chain: the command's chain, as taken by vsb_ring_pop()
 * @features: the negotiated features
 * @max_pairs: queue pairs the device has
 * @scratch: room for command data, owned by the caller
 * @cmd: the command as read, for vsb_cvq_ack() and vsb_cvq_apply()
 * @res: what happened; res->ack is the answer vsb_cvq_ack() is to write,
 *	 and a set res->fault means the device needs a reset
 *
 * Reads guest memory, writes none and touches no control state.
 */
void vsb_cvq_check(const struct vsb_ring *ring, const struct vsb_chain *chain,
		   u64 features, u16 max_pairs, struct vsb_cvq_scratch *scratch,
		   struct vsb_cvq_cmd *cmd, struct vsb_cvq_result *res)
{
	u8 ack;

	memset(res, 0, sizeof(*res));
	scratch->reply_len = 0;
	res->class = VSB_CVQ_NO_CLASS;
	res->ack = VIRTIO_NET_ERR;
	if (chain->out_len < VSB_CVQ_HDR_LEN) {
		res->fault = VSB_FAULT_CVQ_HEADER;
		return;
	}
	if (chain->in_len < 1) {
		res->fault = VSB_FAULT_CVQ_NO_ACK;
		return;
	}
	if (vsb_chain_read(ring, chain, 0, cmd->head,
			   min_t(u32, chain->out_len, sizeof(cmd->head)))) {
		res->fault = VSB_FAULT_BUFFER_ACCESS;
		return;
	}
	cmd->ring = ring;
	cmd->chain = chain;
	cmd->features = features;
	cmd->max_pairs = max_pairs;
	cmd->scratch = scratch;
	cmd->len = chain->out_len - VSB_CVQ_HDR_LEN;
	res->class = cmd->class;
	res->cmd = cmd->cmd;

	ack = vsb_cvq_dispatch(cmd, NULL, false, NULL);
	if (ack == VSB_CVQ_FAULT) {
		res->fault = VSB_FAULT_BUFFER_ACCESS;
		return;
	}
	res->ack = ack;
	if (ack == VIRTIO_NET_OK)
		res->reply_len = scratch->reply_len;
}

/*
 * An answer that could not reach the driver: the command is a framing
 * error, answered nothing, and changes nothing.
 */
void vsb_cvq_unanswered(struct vsb_cvq_result *res)
{
	res->fault = VSB_FAULT_BUFFER_ACCESS;
	res->ack = VIRTIO_NET_ERR;
	res->reply_len = 0;
	res->used_len = 0;
}

/**
 * vsb_cvq_ack - write the answer vsb_cvq_check() decided on
 * @cmd: the command, as vsb_cvq_check() left it
 * @res: its result; used_len 1 once written
 *
 * The ack comes first in the writable buffers.
 */
void vsb_cvq_ack(const struct vsb_cvq_cmd *cmd, struct vsb_cvq_result *res)
{
	if (res->fault)
		return;
	if (vsb_chain_write(cmd->ring, cmd->chain, 0, &res->ack, 1)) {
		vsb_cvq_unanswered(res);
		return;
	}
	res->used_len = 1;
}

/**
 * vsb_cvq_fetch - read and check one control command, and answer it
 * @ring: the control queue
 * @chain: the command's chain, as taken by vsb_ring_pop()
 * @features: the negotiated features
 * @max_pairs: queue pairs the device has
 * @scratch: room for command data, owned by the caller
 * @cmd: the command as read, for vsb_cvq_apply()
 * @res: what happened; the caller completes the chain with res->used_len
 *	 and, if res->fault is set, puts the device in NEEDS_RESET
 *
 * This half touches guest memory and no control state; vsb_cvq_apply()
 * the other way round, so the caller can hold the lock that guards the
 * state only while it applies.
 */
void vsb_cvq_fetch(const struct vsb_ring *ring, const struct vsb_chain *chain,
		   u64 features, u16 max_pairs, struct vsb_cvq_scratch *scratch,
		   struct vsb_cvq_cmd *cmd, struct vsb_cvq_result *res)
{
	vsb_cvq_check(ring, chain, features, max_pairs, scratch, cmd, res);
	vsb_cvq_ack(cmd, res);
}

/**
 * vsb_cvq_peek - a command's header, before vsb_cvq_fetch() answers it
 * @ring: the control queue
 * @chain: the command's chain
 * @class: set to its class
 * @cmd: and command
 *
 * Return: 0, or -EINVAL for a chain vsb_cvq_fetch() fails as badly
 * framed or unreadable.
 */
int vsb_cvq_peek(const struct vsb_ring *ring, const struct vsb_chain *chain,
		 u8 *class, u8 *cmd)
{
	u8 hdr[VSB_CVQ_HDR_LEN];

	if (chain->out_len < VSB_CVQ_HDR_LEN || chain->in_len < 1 ||
	    vsb_chain_read(ring, chain, 0, hdr, sizeof(hdr)))
		return -EINVAL;
	*class = hdr[0];
	*cmd = hdr[1];
	return 0;
}

/**
 * vsb_cvq_refuse - a command given back unanswered, the device failed
 * @class: its class, as vsb_cvq_peek() read it
 * @cmd: its command
 * @fault: why; not NONE
 * @res: set as vsb_cvq_fetch() sets it for a fault: nothing written
 */
void vsb_cvq_refuse(u8 class, u8 cmd, enum vsb_fault fault,
		    struct vsb_cvq_result *res)
{
	memset(res, 0, sizeof(*res));
	res->class = class;
	res->cmd = cmd;
	res->ack = VIRTIO_NET_ERR;
	res->fault = fault;
}

/**
 * vsb_cvq_nack - answer a fetched command VIRTIO_NET_ERR after all
 * @cmd: the command, as vsb_cvq_fetch() left it
 * @res: its result: acked VIRTIO_NET_ERR with no answer, so that
 *	 vsb_cvq_apply() changes nothing
 *
 * A fault rule's NACK: the device refuses a command it could have done,
 * as a NIC's firmware may. Nothing to do for one refused already or
 * that faulted.
 */
void vsb_cvq_nack(const struct vsb_cvq_cmd *cmd, struct vsb_cvq_result *res)
{
	u8 ack = VIRTIO_NET_ERR;

	if (res->fault || res->ack != VIRTIO_NET_OK)
		return;
	if (vsb_chain_write(cmd->ring, cmd->chain, 0, &ack, 1)) {
		res->fault = VSB_FAULT_BUFFER_ACCESS;
		return;
	}
	res->ack = ack;
	res->reply_len = 0;
}

/**
 * vsb_cvq_apply - put a command acked OK in force
 * @cmd: the command, as vsb_cvq_fetch() left it
 * @ctrl: the device's control state
 * @res: vsb_cvq_fetch()'s result; gains what changed, and whether nothing
 *	 did
 *
 * A command that faulted or was answered VIRTIO_NET_ERR changes nothing.
 */
void vsb_cvq_apply(const struct vsb_cvq_cmd *cmd, struct vsb_net_ctrl *ctrl,
		   struct vsb_cvq_result *res)
{
	u32 changed = 0;

	if (res->fault || res->ack != VIRTIO_NET_OK)
		return;
	vsb_cvq_dispatch(cmd, ctrl, true, &changed);
	res->changed = changed;
	/*
	 * An announcement ack and the queries set no state: they cannot be
	 * redundant.
	 */
	res->redundant = !changed && cmd->class != VIRTIO_NET_CTRL_ANNOUNCE &&
			 cmd->class != VSB_CTRL_STATS &&
			 !(cmd->class == VSB_CTRL_NOTF_COAL &&
			   cmd->cmd == VSB_CTRL_NOTF_COAL_VQ_GET);
}

/**
 * vsb_cvq_reply - write the answer of a command that has one, after its ack
 * @cmd: the command, as vsb_cvq_fetch() left it
 * @res: its result; with res->reply_len set, the answer goes to the
 *	 driver's buffers (from @cmd's scratch area, which the caller filled
 *	 with what to report) and res->used_len grows by it
 *
 * A separate step so that the caller can take what the answer reports
 * under its lock and write it to guest memory without.
 */
void vsb_cvq_reply(const struct vsb_cvq_cmd *cmd, struct vsb_cvq_result *res)
{
	struct vsb_cvq_scratch *s = cmd->scratch;
	u8 coal[VSB_COAL_LEN];
	int ret;

	if (!res->reply_len || res->fault || res->ack != VIRTIO_NET_OK)
		return;
	if (cmd->class == VSB_CTRL_STATS) {
		ret = vsb_devstats_reply(cmd, &s->stats_req, &s->stats);
	} else {
		put_unaligned_le32(s->coal.max_packets, coal);
		put_unaligned_le32(s->coal.max_usecs, coal + 4);
		ret = vsb_chain_write(cmd->ring, cmd->chain, 1, coal,
				      sizeof(coal));
	}
	if (ret) {
		res->fault = VSB_FAULT_BUFFER_ACCESS;
		res->used_len = 0;
		return;
	}
	res->used_len += res->reply_len;
}
