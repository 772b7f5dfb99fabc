#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The kernel's virtio_net on vdpasim_batch through virtio_vdpa: a MAC change
# goes through the CVQ into the config space, and frames the interface
# sends come back to it over the loopback data path.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

NEW_MAC=02:42:00:00:00:2a

stat() {
	vdpa -j dev vstats show b0 qidx "$1" | jq -r ".vstats.b0.\"$2\""
}

tap_plan 9
tb_load_batch
tap_ok "add bound to virtio_vdpa" \
	tb_dev_add b0 vdpasim_batch virtio_vdpa mac 02:42:00:00:00:01
tap_ok "virtio_net creates a network interface" tb_wait 10 tb_netdev b0
ifname=$(tb_netdev b0)
requests=$(stat 2 "cvq requests")
successes=$(stat 2 "cvq successes")
tap_ok "ip link set dev $ifname address $NEW_MAC" \
	ip link set dev "$ifname" address "$NEW_MAC"
tap_is "$(vdpa -j dev config show b0 | jq -r .config.b0.mac)" "$NEW_MAC" \
	"vdpa dev config show reports the new MAC"
tap_is "$(stat 2 "cvq requests")" "$((requests + 1))" "cvq requests +1"
tap_is "$(stat 2 "cvq successes")" "$((successes + 1))" "cvq successes +1"
ip link set "$ifname" up
ip addr add 192.0.2.1/24 dev "$ifname"
tx=$(stat 1 "tx packets")
rx=$(stat 0 "rx packets")
# A neighbour that does not exist: the ARP requests are broadcast out of
# the interface, and the loopback brings them back to it.
ping -c 3 -W 1 192.0.2.2 >/dev/null 2>&1
tap_ok "ARP broadcasts went out on the transmit queue" \
	test "$(stat 1 "tx packets")" -ge "$((tx + 3))"
tap_ok "and came back on the receive queue" \
	test "$(stat 0 "rx packets")" -ge "$((rx + 3))"
tap_ok "the stack saw them arrive" \
	test "$(cat /sys/class/net/"$ifname"/statistics/rx_packets)" -ge 3
tap_done
