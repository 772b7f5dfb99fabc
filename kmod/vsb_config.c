// SPDX-License-Identifier: GPL-2.0-only
/*
 * vdpa_sim_batch: the config space the driver reads, and the config
 * interrupt that tells it the space changed. Everything here runs under
 * vsb->lock and reaches no guest memory, so a run of the queues (in the
 * middle of a command) and management requests (vdpa dev set) alike can
 * call it; it calls nothing else of the module.
 */

#include <linux/etherdevice.h>

#include "vsb.h"

void vsb_config_changed(struct vsb_dev *vsb)
{
	lockdep_assert_held(&vsb->lock);
	if ((vsb->status & VIRTIO_CONFIG_S_DRIVER_OK) &&
	    vsb->config_cb.callback)
		vsb->config_cb.callback(vsb->config_cb.private);
}

/* Copy the control state into the config space the driver reads. */
void vsb_sync_config(struct vsb_dev *vsb)
{
	u16 status = VIRTIO_NET_S_LINK_UP;

	lockdep_assert_held(&vsb->lock);
	if (vsb->ctrl.announce_pending)
		status |= VIRTIO_NET_S_ANNOUNCE;
	spin_lock(&vsb->config_lock);
	ether_addr_copy(vsb->config.mac, vsb->ctrl.mac);
	vsb->config.status = __cpu_to_virtio16(true, status);
	vsb->generation++;
	spin_unlock(&vsb->config_lock);
}
