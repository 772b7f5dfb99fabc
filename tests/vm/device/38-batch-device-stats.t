#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Device statistics through the CVQ (VIRTIO_NET_F_DEVICE_STATS, offered on
# request): the kernel's virtio_net asks for the supported types at probe
# and for the counters at every "ethtool -S", and shows them as *_hw_*.
# They must be exactly the module's own counters ("vdpa dev vstats show",
# read without the CVQ) and the stack's: every frame of a loopback ping
# counted once on each side, and a query counted among the commands of
# the next one.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

DEV=s0
PAIRS=2

# hw NAME: a counter "ethtool -S" shows.
hw() {
	printf '%s\n' "$stats" | awk -v k="$1:" '$1 == k { print $2; f = 1 }
		END { exit !f }'
}

vstat() {
	vdpa -j dev vstats show $DEV qidx "$1" | jq -r ".vstats.$DEV.\"$2\""
}

# same_as_vstats Q KIND: queue Q's *_hw_* counters are the module's.
same_as_vstats() {
	_q=$1
	_kind=$2
	_pair=$((_q / 2))
	for _c in packets bytes kicks interrupts; do
		_hwname=$_c
		[ $_c = kicks ] && _hwname=notifications
		_a=$(hw "$_kind${_pair}_hw_$_hwname") || return 1
		_b=$(vstat "$_q" "$_kind $_c")
		[ "$_a" = "$_b" ] || {
			tap_diag "queue $_q $_c: ethtool $_a, vstats $_b"
			return 1
		}
	done
}

# sum KIND FIELD: the *_hw_* counter over the pairs.
sum() {
	_s=0
	for _p in $(seq 0 $((PAIRS - 1))); do
		_s=$((_s + $(hw "$1${_p}_hw_$2")))
	done
	echo $_s
}

tap_plan 14
tb_load_batch
tap_ok "add with every feature, DEVICE_STATS among them" \
	tb_dev_add $DEV vdpasim_batch virtio_vdpa \
	device_features "$(tb_features_hex vdpasim_batch)" \
	mac 02:42:00:00:00:38 max_vqp $PAIRS
tap_ok "virtio_net creates a network interface" tb_wait 10 tb_netdev $DEV ||
	exit 1
X=$(tb_netdev $DEV)
echo 1 >"/proc/sys/net/ipv6/conf/$X/disable_ipv6"
ip link set "$X" up
ip addr add 192.0.2.1/24 dev "$X"
# Linux's virtio_net builds its STATS_GET request by indexing
# struct virtio_net_ctrl_queue_stats's stats[], declared with one element,
# past that element (virtnet_make_stat_req(), in 6.12 and 7.3). The
# memory is allocated, but a kernel that checks array bounds at run time
# (UBSAN; Debian's 7.3) warns at every "ethtool -S" of a device with more
# than one queue, and the test bed panics on warnings: the queries are not
# sent there.
if grep -q ' __ubsan_handle_out_of_bounds$' /proc/kallsyms; then
	for n in $(seq 11); do
		tap_skip "device statistics check $n" \
			"this kernel's UBSAN flags virtio_net's own STATS_GET request"
	done
else
	# A neighbour that does not exist: its ARP requests come back.
	ping -c 3 -W 1 192.0.2.2 >/dev/null 2>&1
	ip link set "$X" down
	stats=$(ethtool -S "$X")
	tap_ok "ethtool -S shows the device's counters" hw cq_hw_command_num
	tap_diag "$(printf '%s\n' "$stats" | grep _hw_)"
	for q in $(seq 0 $((2 * PAIRS - 1))); do
		kind=rx
		[ $((q % 2)) = 1 ] && kind=tx
		tap_ok "queue $q ($kind): packets, bytes, kicks and interrupts are the module's" \
			same_as_vstats "$q" "$kind"
	done
	S=/sys/class/net/$X/statistics
	tap_ok "the frames went out and came back" test "$(sum tx packets)" -ge 3
	tap_is "$(sum tx packets)" "$(cat "$S/tx_packets")" \
		"transmitted frames: the device's count is the stack's"
	tap_is "$(sum tx bytes)" "$(cat "$S/tx_bytes")" \
		"transmitted bytes: the device's count is the stack's"
	tap_is "$(sum rx packets)" "$(cat "$S/rx_packets")" \
		"received frames: the device's count is the stack's"
	first=$(hw cq_hw_command_num)
	first_ok=$(hw cq_hw_ok_num)
	stats=$(ethtool -S "$X")
	tap_is "$(hw cq_hw_command_num)/$(hw cq_hw_ok_num)" \
		"$((first + 1))/$((first_ok + 1))" \
		"the next query counts the one before, and only it"
	tap_is "$(vstat $((2 * PAIRS)) "cvq requests")" "$(($(hw cq_hw_command_num) + 1))" \
		"and the module counts the last query too"
fi
tb_dev_del $DEV
tb_dev_add n0 vdpasim_batch virtio_vdpa mac 02:42:00:00:00:39
tb_wait 10 tb_netdev n0 >/dev/null
stats=$(ethtool -S "$(tb_netdev n0)")
no_hw_counters() {
	! printf '%s\n' "$stats" | grep -q _hw_
}
tap_ok "not offered by default: no device counters" no_hw_counters
tap_done
