// SPDX-License-Identifier: GPL-2.0-only
/*
 * When a coalesced notification goes out ("Notifications Coalescing"):
 * after max_packets used buffers or max_usecs since the driver asked for
 * it, whichever comes first. A max_usecs of 0 delays nothing, so it
 * leaves max_packets no effect; a max_packets of 0 leaves only the time.
 *
 * The driver's own suppression still decides whether it wants one at
 * all. One it asked for is owed until sent: its used_event, once passed,
 * is not looked at again, so a notification put off must not be
 * forgotten when later buffers do not ask anew.
 */

#include "vsb_coal.h"

#ifdef __KERNEL__
/* The spec's numbers, as the kernel's UAPI has them. */
static_assert(VSB_NET_F_VQ_NOTF_COAL == VIRTIO_NET_F_VQ_NOTF_COAL);
static_assert(VSB_CTRL_NOTF_COAL == VIRTIO_NET_CTRL_NOTF_COAL);
static_assert(VSB_CTRL_NOTF_COAL_TX_SET == VIRTIO_NET_CTRL_NOTF_COAL_TX_SET);
static_assert(VSB_CTRL_NOTF_COAL_RX_SET == VIRTIO_NET_CTRL_NOTF_COAL_RX_SET);
static_assert(VSB_CTRL_NOTF_COAL_VQ_SET == VIRTIO_NET_CTRL_NOTF_COAL_VQ_SET);
static_assert(VSB_CTRL_NOTF_COAL_VQ_GET == VIRTIO_NET_CTRL_NOTF_COAL_VQ_GET);
static_assert(sizeof(struct virtio_net_ctrl_coal) == VSB_COAL_LEN);
static_assert(sizeof(struct virtio_net_ctrl_coal_vq) ==
	      VSB_COAL_VQ_LEN + VSB_COAL_LEN);
#endif

/**
 * vsb_coal_update - account for a publish of the used ring
 * @p: the queue's parameters
 * @s: its state since the last notification
 * @published: used buffers just published (0: a timer ran out)
 * @wanted: the driver's suppression asks for a notification
 * @now_ns: the time
 *
 * Return: whether to notify now (and @s starts over), to wait, or that
 * none is asked for.
 */
enum vsb_coal_verdict vsb_coal_update(const struct vsb_coal *p,
				      struct vsb_coal_state *s, u32 published,
				      bool wanted, u64 now_ns)
{
	s->pending += published;
	if (wanted && !s->owed) {
		s->owed = true;
		s->owed_ns = now_ns;
	}
	if (!s->owed)
		return VSB_COAL_QUIET;
	if ((p->max_packets && s->pending >= p->max_packets) ||
	    now_ns - s->owed_ns >= (u64)p->max_usecs * 1000) {
		s->owed = false;
		s->pending = 0;
		return VSB_COAL_NOTIFY;
	}
	return VSB_COAL_WAIT;
}

/* When an owed notification is due at the latest. */
u64 vsb_coal_deadline(const struct vsb_coal *p, const struct vsb_coal_state *s)
{
	return s->owed_ns + (u64)p->max_usecs * 1000;
}
