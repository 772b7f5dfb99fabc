#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What the kernel's virtio_net (through virtio_vdpa) does when the device
# refuses or mishandles a control command (Documentation/fault-injection.rst
# has the table): a NACKed VLAN add, RX mode and queue-pair change -- the
# message it logs, what the command returns, what the device then holds,
# and whether the interface still passes frames; a silent completion; and
# last a stalled one, which virtio_net waits for without end, holding
# RTNL (so this test ends there, leaving the device to the VM's power-off).
. tests/lib/tap.sh
. testbed/lib/testbed.sh

MAC=02:42:00:00:00:90
WORK=/tmp/90
mkdir -p $WORK

# fault ARGS...: replace v0's rules with one.
fault() {
	vdpactl-batch dev fault v0 clear &&
		vdpactl-batch dev fault v0 add "$@" >/dev/null
}

hits() {
	vdpactl-batch -j dev fault v0 show | jq '[.dev.v0.rules[].hits] | add'
}

hit_once() {
	[ "$(hits)" = 1 ]
}

# logged_since LINE TEXT: the kernel log after line LINE has TEXT.
logged_since() {
	dmesg | tail -n +$(($1 + 1)) | grep -q -- "$2"
}

state() {
	vdpactl-batch -j dev state v0 | jq -c ".state.v0.$1"
}

rx_reached() {
	[ "$(cat "/sys/class/net/$1/statistics/rx_packets")" -ge "$2" ]
}

# loops: a frame to the interface's MAC comes back into the stack.
loops() {
	_rx=$(cat "/sys/class/net/$IF/statistics/rx_packets")
	rawsend "$IF" $MAC >/dev/null 2>&1 && tb_wait 5 rx_reached "$IF" $((_rx + 1))
}

tap_plan 22
# Loaded now, the VLAN module adds VLAN 0 to the interface at once, not
# in the middle of the VLAN case below.
modprobe 8021q 2>/dev/null
tb_load_batch
tb_dev_add v0 vdpasim_batch virtio_vdpa mac $MAC max_vqp 2
IF=$(tb_netdev v0)
ip link set "$IF" up
tap_ok "virtio_net's interface $IF is up and loops a frame back" loops

# A NACKed VLAN_ADD.
log0=$(dmesg | wc -l)
fault nack class vlan cmd add
tb_within 10 ip link add link "$IF" name "$IF.5" type vlan id 5
rc=$?
tap_is "$rc" 0 "nack VLAN_ADD: ip link add ... vlan id 5 still succeeds" ||
	tap_diag "$(cat $WORK/out)"
tap_ok "virtio_net logs the refusal" logged_since "$log0" "Failed to add VLAN ID 5" ||
	tap_diag "$(dmesg | tail -n +$((log0 + 1)))"
tap_is "$(hits)" 1 "the device refused one command"
tap_is "$(state 'vlans | index(5)')" null \
	"VLAN 5 is not in the device's filter ($(state vlans))"
tap_ok "the interface still loops a frame back" loops
ip link del "$IF.5" 2>/dev/null

# A NACKed RX mode (virtio_net sets it from a work item).
log0=$(dmesg | wc -l)
fault nack class rx cmd promisc
tb_within 10 ip link set "$IF" promisc on
tap_is "$?" 0 "nack RX_PROMISC: ip link set promisc on succeeds" ||
	tap_diag "$(cat $WORK/out)"
tap_ok "virtio_net logs the refusal" \
	tb_wait 5 logged_since "$log0" "Failed to enable promisc mode" ||
	tap_diag "$(dmesg | tail -n +$((log0 + 1)))"
tap_ok "the device's promisc mode stays off ($(state rx_modes))" \
	sh -c "! vdpactl-batch -j dev state v0 | jq -e '.state.v0.rx_modes | index(\"promisc\")' >/dev/null"
tap_ok "the interface still loops a frame back" loops
ip link set "$IF" promisc off 2>/dev/null

# A NACKed VQ_PAIRS_SET.
log0=$(dmesg | wc -l)
fault nack class mq cmd vq_pairs_set
tb_within 10 ethtool -L "$IF" combined 1
rc=$?
tap_ok "nack VQ_PAIRS_SET: ethtool -L combined 1 fails (exit $rc)" \
	test "$rc" != 0 -a "$rc" != 124
tap_ok "virtio_net logs the refusal" \
	logged_since "$log0" "Fail to set num of queue pairs to 1" ||
	tap_diag "$(dmesg | tail -n +$((log0 + 1)))"
tap_is "$(state pairs)" 2 "the device keeps 2 pairs"
tap_ok "the interface still loops a frame back" loops

# Silent: virtio_net polls its control queue, it needs no notification.
fault silent persist
tb_within 10 ip link set "$IF" allmulticast on
tap_is "$?" 0 "silent: ip link set allmulticast on completes" ||
	tap_diag "$(cat $WORK/out)"
tap_ok "the device holds allmulti" \
	tb_wait 5 sh -c "vdpactl-batch -j dev state v0 | jq -e '.state.v0.rx_modes | index(\"allmulti\")' >/dev/null"
tap_ok "the rule acted on it ($(hits) hits)" test "$(hits)" -ge 1

# Stall, last. virtio_net changes RX modes from a work item, which
# takes RTNL and waits for the answer without end: "ip link set"
# returns, and every later RTNL user hangs.
fault stall class rx
log0=$(dmesg | wc -l)
tb_within 10 ip link set "$IF" allmulticast off
tap_is "$?" 0 "stall: ip link set allmulticast off returns (the work item waits)"
tap_ok "the device took the command" tb_wait 5 hit_once
tb_within 5 ip link set "$IF" promisc on
tap_is "$?" 124 "RTNL stays held: the next ip link set has not returned in 5 s"
tb_within 3 ip link show "$IF"
tap_is "$?" 124 "nor has ip link show in 3 s"
tap_is "$(dmesg | tail -n +$((log0 + 1)) | grep -c -i -E "net $IF: |fail|timeout|error")" 0 \
	"and virtio_net logs nothing" ||
	tap_diag "$(dmesg | tail -n +$((log0 + 1)))"
tap_done
