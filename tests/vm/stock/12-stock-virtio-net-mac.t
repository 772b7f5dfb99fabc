#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The kernel's virtio_net on a stock device changes the MAC through the CVQ,
# and the device's config and CVQ counters show it.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

NEW_MAC=02:42:00:00:00:2a

# cvq_stat NAME: a counter from the control queue's vendor stats (qidx 2).
cvq_stat() {
	vdpa -j dev vstats show vdpa1 qidx 2 | jq -r ".vstats.vdpa1.\"$1\""
}

tap_plan 7
tb_load_stock
tap_ok "vdpa dev add on vdpasim_net, bound to virtio_vdpa" \
	tb_dev_add vdpa1 vdpasim_net virtio_vdpa mac 02:42:00:00:00:01
tap_ok "virtio_net creates a network interface" tb_wait 10 tb_netdev vdpa1
ifname=$(tb_netdev vdpa1)
requests=$(cvq_stat "cvq requests")
successes=$(cvq_stat "cvq successes")
tap_ok "ip link set dev $ifname address $NEW_MAC" \
	ip link set dev "$ifname" address "$NEW_MAC"
tap_is "$(cat "/sys/class/net/$ifname/address")" "$NEW_MAC" \
	"the interface has the new MAC"
tap_is "$(vdpa -j dev config show vdpa1 | jq -r .config.vdpa1.mac)" "$NEW_MAC" \
	"vdpa dev config show reports the new MAC"
tap_is "$(cvq_stat "cvq requests")" "$((requests + 1))" \
	"cvq requests rose by one"
tap_is "$(cvq_stat "cvq successes")" "$((successes + 1))" \
	"cvq successes rose by one"
tap_done
