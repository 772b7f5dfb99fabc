/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Notification coalescing (VIRTIO_NET_F_NOTF_COAL, VIRTIO_NET_F_VQ_NOTF_COAL):
 * the parameters a data queue has, and when the used buffer notification
 * its driver asked for goes out. Kernel-free.
 *
 * The numbers the 6.1 UAPI headers (the host tests' oldest) lack are
 * declared from the spec; the module build checks them.
 */
#ifndef VSB_COAL_H
#define VSB_COAL_H

#include "vsb_seam.h"

#define VSB_NET_F_VQ_NOTF_COAL 52
#define VSB_CTRL_NOTF_COAL 6
#define VSB_CTRL_NOTF_COAL_TX_SET 0
#define VSB_CTRL_NOTF_COAL_RX_SET 1
#define VSB_CTRL_NOTF_COAL_VQ_SET 2
#define VSB_CTRL_NOTF_COAL_VQ_GET 3
/* struct virtio_net_ctrl_coal, and the vq_index and reserved before it */
#define VSB_COAL_LEN 8
#define VSB_COAL_VQ_LEN 4

/* max_packets, max_usecs: both 0 (after reset) is no coalescing. */
struct vsb_coal {
	u32 max_packets;
	u32 max_usecs;
};

/* Where a queue stands since its last notification. */
struct vsb_coal_state {
	bool owed; /* the driver asked for one, and has not had it */
	u32 pending; /* used buffers published since the last one */
	u64 owed_ns; /* when the first unsent one was asked for */
};

enum vsb_coal_verdict {
	VSB_COAL_QUIET, /* none asked for */
	VSB_COAL_NOTIFY, /* send it now */
	VSB_COAL_WAIT, /* owed: at vsb_coal_deadline() or more buffers */
};

static inline bool vsb_coal_on(const struct vsb_coal *p)
{
	return p->max_packets || p->max_usecs;
}

enum vsb_coal_verdict vsb_coal_update(const struct vsb_coal *p,
				      struct vsb_coal_state *s, u32 published,
				      bool wanted, u64 now_ns);
u64 vsb_coal_deadline(const struct vsb_coal *p, const struct vsb_coal_state *s);

#endif /* VSB_COAL_H */
