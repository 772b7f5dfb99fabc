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
 *     negotiated, or data of the wrong size is answered VIRTIO_NET_ERR,
 *     with the state unchanged;
 *   - every other command is answered with used length 1.
 * Every answer is written fresh: an ERR can never be left over from an
 * earlier OK, nor the other way round. A command takes effect only if its
 * ack could be written.
 */

#include "vsb_cvq.h"

#define VSB_CVQ_HDR_LEN 2
/* Largest command data this device accepts (a MAC table comes later). */
#define VSB_CVQ_DATA_MAX 64

struct vsb_cvq_cmd {
	u8 class;
	u8 cmd;
	u32 len;
	u8 data[VSB_CVQ_DATA_MAX];
};

static bool vsb_has(u64 features, unsigned int bit)
{
	return features & (1ULL << bit);
}

static u8 vsb_cvq_mac(const struct vsb_cvq_cmd *c, u64 features,
		      struct vsb_net_ctrl *ctrl, u32 *changed)
{
	if (c->cmd != VIRTIO_NET_CTRL_MAC_ADDR_SET ||
	    !vsb_has(features, VIRTIO_NET_F_CTRL_MAC_ADDR) ||
	    c->len != VSB_ETH_ALEN)
		return VIRTIO_NET_ERR;
	memcpy(ctrl->mac, c->data, VSB_ETH_ALEN);
	*changed |= VSB_CTRL_CHANGED_MAC;
	return VIRTIO_NET_OK;
}

static u8 vsb_cvq_announce(const struct vsb_cvq_cmd *c, u64 features,
			   struct vsb_net_ctrl *ctrl, u32 *changed)
{
	if (c->cmd != VIRTIO_NET_CTRL_ANNOUNCE_ACK ||
	    !vsb_has(features, VIRTIO_NET_F_GUEST_ANNOUNCE) || c->len)
		return VIRTIO_NET_ERR;
	if (ctrl->announce_pending) {
		ctrl->announce_pending = false;
		*changed |= VSB_CTRL_CHANGED_STATUS;
	}
	return VIRTIO_NET_OK;
}

static u8 vsb_cvq_dispatch(const struct vsb_cvq_cmd *c, u64 features,
			   struct vsb_net_ctrl *ctrl, u32 *changed)
{
	switch (c->class) {
	case VIRTIO_NET_CTRL_MAC:
		return vsb_cvq_mac(c, features, ctrl, changed);
	case VIRTIO_NET_CTRL_ANNOUNCE:
		return vsb_cvq_announce(c, features, ctrl, changed);
	default:
		return VIRTIO_NET_ERR;
	}
}

/**
 * vsb_cvq_handle - execute one control command
 * @ring: the control queue
 * @chain: the command's chain, as taken by vsb_ring_pop()
 * @features: the negotiated features
 * @ctrl: the device's control state, changed only by a command acked OK
 * @res: what happened; the caller completes the chain with res->used_len
 *	 and, if res->fault is set, puts the device in NEEDS_RESET
 */
void vsb_cvq_handle(const struct vsb_ring *ring, const struct vsb_chain *chain,
		    u64 features, struct vsb_net_ctrl *ctrl,
		    struct vsb_cvq_result *res)
{
	struct vsb_net_ctrl next;
	struct vsb_cvq_cmd cmd;
	u8 buf[VSB_CVQ_HDR_LEN + VSB_CVQ_DATA_MAX];
	u32 changed = 0;
	u8 ack;

	memset(res, 0, sizeof(*res));
	res->ack = VIRTIO_NET_ERR;
	if (chain->out_len < VSB_CVQ_HDR_LEN) {
		res->fault = VSB_FAULT_CVQ_HEADER;
		return;
	}
	if (chain->in_len < 1) {
		res->fault = VSB_FAULT_CVQ_NO_ACK;
		return;
	}
	/* Header and data in one read; oversized data is not needed. */
	if (vsb_chain_read(ring, chain, 0, buf,
			   min_t(u32, chain->out_len, sizeof(buf)))) {
		res->fault = VSB_FAULT_BUFFER_ACCESS;
		return;
	}
	cmd.class = buf[0];
	cmd.cmd = buf[1];
	cmd.len = chain->out_len - VSB_CVQ_HDR_LEN;
	res->class = cmd.class;
	res->cmd = cmd.cmd;

	/*
	 * Work on a copy and keep it only once the ack has been written:
	 * a command whose ack cannot reach the driver changes nothing.
	 */
	next = *ctrl;
	ack = VIRTIO_NET_ERR;
	if (cmd.len <= sizeof(cmd.data)) {
		memcpy(cmd.data, buf + VSB_CVQ_HDR_LEN, cmd.len);
		ack = vsb_cvq_dispatch(&cmd, features, &next, &changed);
	}
	if (vsb_chain_write(ring, chain, 0, &ack, 1)) {
		res->fault = VSB_FAULT_BUFFER_ACCESS;
		return;
	}
	res->ack = ack;
	res->used_len = 1;
	if (ack == VIRTIO_NET_OK) {
		*ctrl = next;
		res->changed = changed;
	}
}
