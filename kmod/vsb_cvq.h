/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Control virtqueue commands (virtio-net "Control Virtqueue"): parsing,
 * validation against the negotiated features, and their effect on the
 * device's control state. Kernel-free; the module applies the result to
 * its config space under its own locks.
 */
#ifndef VSB_CVQ_H
#define VSB_CVQ_H

#include "vsb_port.h"
#include "vsb_ring.h"

#define VSB_ETH_ALEN 6

/* Everything the control queue can change, as the device holds it. */
struct vsb_net_ctrl {
	u8 mac[VSB_ETH_ALEN];
	bool announce_pending;
};

/* Which parts of struct vsb_net_ctrl a command changed. */
#define VSB_CTRL_CHANGED_MAC BIT(0)
#define VSB_CTRL_CHANGED_STATUS BIT(1)

/* The outcome of one control command. */
struct vsb_cvq_result {
	u8 class;
	u8 cmd;
	u8 ack; /* VIRTIO_NET_OK or VIRTIO_NET_ERR */
	u32 used_len; /* bytes written to the driver's buffers */
	u32 changed; /* VSB_CTRL_CHANGED_* */
	enum vsb_fault fault; /* not NONE: the device needs a reset */
};

void vsb_cvq_handle(const struct vsb_ring *ring, const struct vsb_chain *chain,
		    u64 features, struct vsb_net_ctrl *ctrl,
		    struct vsb_cvq_result *res);

#endif /* VSB_CVQ_H */
