#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The kernel's virtio_net on packed virtqueues (VIRTIO_F_RING_PACKED asked
# for at "vdpa dev add"), through virtio_vdpa: a MAC change goes through
# the packed CVQ, frames sent on either of 2 queue pairs come back on the
# same pair over the loopback, more of them than a ring holds so both
# rings wrap, and the device never needs a reset. Twice: with EVENT_IDX
# (the driver area names a descriptor) and without (ENABLE and DISABLE).
#
# Which pair a frame leaves on: as in 27-batch-multiqueue.t, virtio_net
# points XPS at the pairs, CPU 0 on pair 0 and CPU 1 on pair 1, with 2
# pairs on the guest's 2 CPUs.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

MAC=02:42:00:00:00:01
NEW_MAC=02:42:00:00:00:2a
# The device's defaults (tests/vm/control/29-batch-rss.t) and RING_PACKED, bit 34.
PACKED=$((0x328df002e | (1 << 34)))
EVENT_IDX=29
CVQ=4

stat() {
	vdpa -j dev vstats show "$DEV" qidx "$1" | jq -r ".vstats.$DEV.\"$2\""
}

# sent_on CPU PAIR N: N frames to us sent on CPU all came back on PAIR.
sent_on() {
	_tx=$(stat $((2 * $2 + 1)) "tx packets")
	_rx=$(stat $((2 * $2)) "rx packets")
	_rx_stack=$(cat "/sys/class/net/$X/statistics/rx_packets")
	_out=$(taskset -c "$1" rawsend "$X" "$NEW_MAC" --count "$3" 2>&1) ||
		tap_diag "rawsend: $_out"
	tb_wait 20 rx_reached $((2 * $2)) $((_rx + $3))
	tap_is "$(($(stat $((2 * $2 + 1)) "tx packets") - _tx))/$(($(stat $((2 * $2)) "rx packets") - _rx))" \
		"$3/$3" "$3 frames from CPU $1: sent and received on pair $2"
	tap_ok "the stack counted them" test \
		"$(cat "/sys/class/net/$X/statistics/rx_packets")" -ge \
		$((_rx_stack + $3))
}

rx_reached() {
	[ "$(stat "$1" "rx packets")" -ge "$2" ]
}

# on_packed DEV FEATURES: the whole scenario on a new device; 17 tests.
on_packed() {
	DEV=$1
	FEATURES=$(printf '0x%x' "$2")
	tap_ok "$DEV: add with features $FEATURES, bound to virtio_vdpa" \
		tb_dev_add "$DEV" vdpasim_batch virtio_vdpa mac "$MAC" max_vqp 2 \
		device_features "$FEATURES"
	tap_ok "virtio_net creates a network interface" tb_wait 10 tb_netdev "$DEV"
	X=$(tb_netdev "$DEV")
	tap_is "$(vdpa -j dev config show "$DEV" |
		jq -r ".config.$DEV.negotiated_features | index(\"RING_PACKED\") != null")" \
		true "virtio_net negotiates RING_PACKED"

	requests=$(stat $CVQ "cvq requests")
	successes=$(stat $CVQ "cvq successes")
	tap_ok "ip link set dev $X address $NEW_MAC" \
		ip link set dev "$X" address "$NEW_MAC"
	tap_is "$(vdpa -j dev config show "$DEV" | jq -r ".config.$DEV.mac")" \
		"$NEW_MAC" "the MAC reached the config space over the packed CVQ"
	tap_is "$(($(stat $CVQ "cvq requests") - requests))/$(($(stat $CVQ "cvq successes") - successes))" \
		1/1 "one command, acked OK"

	ip link set "$X" up
	# More frames than the 4096-entry rings hold: each ring goes round.
	sent_on 0 0 5000
	sent_on 1 1 5000
	requests=$(stat $CVQ "cvq requests")
	tap_ok "ethtool -L $X combined 1" ethtool -L "$X" combined 1
	tap_is "$(($(stat $CVQ "cvq requests") - requests))" 1 "one MQ command"
	sent_on 1 0 300

	ip addr add 192.0.2.1/24 dev "$X"
	tx=$(stat 1 "tx packets")
	ping -c 2 -W 1 192.0.2.2 >/dev/null 2>&1
	tap_ok "ARP broadcasts went out on pair 0" test "$(stat 1 "tx packets")" -gt "$tx"
	tap_is "$(dmesg | grep -c 'device needs reset')" 0 "no queue needed a reset"
	tap_ok "$DEV: the device goes away cleanly" tb_dev_del "$DEV"
}

tap_plan 34
# Nothing of the stack's own on the queues: no IPv6 (router and neighbour
# solicitations) on the interface.
echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6
tb_load_batch
on_packed b0 "$PACKED"
on_packed b1 $((PACKED & ~(1 << EVENT_IDX)))
tap_done
