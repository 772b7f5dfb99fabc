#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Notification coalescing (VIRTIO_NET_F_NOTF_COAL, VQ_NOTF_COAL, offered on
# request) through the kernel's virtio_net: "ethtool -C" sends the
# parameters through the CVQ, and the device holds back the receive
# queue's notifications until rx-frames used buffers or rx-usecs, whichever
# comes first -- the data-queue sibling of the batched CVQ. A burst of 64
# frames looped back to the interface must all reach the stack, with at
# most 64 / rx-frames + 1 receive interrupts; a short burst under a large
# rx-frames must still arrive, by the timer.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

DEV=c0
MAC=02:42:00:00:00:37

vstat() {
	vdpa -j dev vstats show $DEV qidx "$1" | jq -r ".vstats.$DEV.\"$2\""
}

stack_rx() {
	cat "/sys/class/net/$X/statistics/rx_packets"
}

# burst N: send N frames to the interface's own MAC, wait until the stack
# has them all; prints the receive interrupts they took.
burst() {
	_irq=$(vstat 0 "rx interrupts")
	_want=$(($(stack_rx) + $1))
	rawsend "$X" $MAC --count "$1" >/dev/null || return 1
	tb_wait 5 sh -c "[ \$(cat /sys/class/net/$X/statistics/rx_packets) -ge $_want ]" ||
		return 1
	echo $(($(vstat 0 "rx interrupts") - _irq))
}

tap_plan 9
tb_load_batch
tap_ok "add with NOTF_COAL and VQ_NOTF_COAL" \
	tb_dev_add $DEV vdpasim_batch virtio_vdpa \
	device_features "$(tb_features_hex vdpasim_batch)" mac $MAC
tb_wait 10 tb_netdev $DEV >/dev/null || exit 1
X=$(tb_netdev $DEV)
echo 1 >"/proc/sys/net/ipv6/conf/$X/disable_ipv6"
ip link set "$X" up

off=$(burst 64)
tap_ok "without coalescing, 64 frames arrive ($off receive interrupts)" \
	test -n "$off"
coal=$(vstat 2 "cvq coal requests")
tap_ok "ethtool -C $X rx-frames 16 rx-usecs 100000" \
	ethtool -C "$X" rx-frames 16 rx-usecs 100000
tap_ok "through the CVQ" test "$(vstat 2 "cvq coal requests")" -gt "$coal"
tap_is "$(vstat 2 "cvq coal errors")" 0 "and accepted"
on=$(burst 64)
tap_ok "with rx-frames 16, 64 frames arrive" test -n "$on"
tap_ok "in at most 5 receive interrupts ($on; $off without)" \
	test "${on:-99}" -le 5
tap_ok "ethtool -C $X rx-frames 1000 rx-usecs 20000" \
	ethtool -C "$X" rx-frames 1000 rx-usecs 20000
late=$(burst 3)
tap_ok "3 frames under rx-frames 1000 arrive by the timer, in one interrupt ($late)" \
	test "${late:-99}" -le 1
tap_done
