// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdpa_sim_batch: the config space the driver reads, and the config
 * interrupt that tells it the space changed. Everything here runs under
 * vsb->lock and reaches no guest memory, so a run of the queues (in the
 * middle of a command) and management requests (vdpa dev set) alike can
 * call it; it calls nothing else of the module.
 */

#include <linux/etherdevice.h>
#include <linux/netlink.h>

#include "vsb.h"

/*
 * Tell a running driver its config space changed. A suspended device
 * sends no interrupt (the driver may be saving its state for a migration,
 * and expects none until it resumes the device): it owes it until then.
 */
void vsb_config_changed(struct vsb_dev *vsb)
{
	lockdep_assert_held(&vsb->lock);
	if (!(vsb->status & VIRTIO_CONFIG_S_DRIVER_OK))
		return;
	if (vsb->suspended) {
		vsb->config_owed = true;
		return;
	}
	vsb->config_owed = false;
	if (vsb->config_cb.callback)
		vsb->config_cb.callback(vsb->config_cb.private);
}

/* Copy the control state into the config space the driver reads. */
void vsb_sync_config(struct vsb_dev *vsb)
{
	u16 status = vsb->link_down ? 0 : VIRTIO_NET_S_LINK_UP;

	lockdep_assert_held(&vsb->lock);
	if (vsb->ctrl.announce_pending)
		status |= VIRTIO_NET_S_ANNOUNCE;
	spin_lock(&vsb->config_lock);
	ether_addr_copy(vsb->config.mac, vsb->ctrl.mac);
	vsb->config.status = __cpu_to_virtio16(true, status);
	vsb->generation++;
	spin_unlock(&vsb->config_lock);
}

/*
 * The link, as a cable would have it: it stays as set across device
 * resets. Only a device that offers VIRTIO_NET_F_STATUS has a status
 * field to show it in; a driver that did not negotiate the feature takes
 * the link as up whatever the field says.
 */
int vsb_set_link(struct vsb_dev *vsb, bool up, struct netlink_ext_ack *extack)
{
	lockdep_assert_held(&vsb->lock);
	if (!(vsb->supported_features & BIT_ULL(VIRTIO_NET_F_STATUS))) {
		NL_SET_ERR_MSG(extack,
			       "the device does not offer VIRTIO_NET_F_STATUS");
		return -EOPNOTSUPP;
	}
	if (vsb->link_down == !up)
		return 0;
	/* The data path reads it without L (vsb_process_pair()). */
	WRITE_ONCE(vsb->link_down, !up);
	vsb_sync_config(vsb);
	vsb_config_changed(vsb);
	return 0;
}

/*
 * Ask the driver to announce itself (after a migration, say): the status
 * field's ANNOUNCE bit and a config interrupt; the driver sends its
 * gratuitous packets and acks with VIRTIO_NET_CTRL_ANNOUNCE_ACK, which
 * clears the bit. Only for a running driver that negotiated
 * GUEST_ANNOUNCE: no other would ever ack.
 */
int vsb_announce(struct vsb_dev *vsb, struct netlink_ext_ack *extack)
{
	lockdep_assert_held(&vsb->lock);
	if (!(vsb->features & BIT_ULL(VIRTIO_NET_F_GUEST_ANNOUNCE)) ||
	    !(vsb->status & VIRTIO_CONFIG_S_DRIVER_OK)) {
		NL_SET_ERR_MSG(extack, "no running driver has GUEST_ANNOUNCE");
		return -EOPNOTSUPP;
	}
	vsb->ctrl.announce_pending = true;
	vsb_sync_config(vsb);
	vsb_config_changed(vsb);
	return 0;
}
