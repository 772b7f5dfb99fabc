#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vdpactl-batch reads a vdpa_sim_batch device's end state back before it
# lets go of the device: two devices loaded alike (QEMU's profile, then
# all 4094 VLANs) end in identical states, and those states are what the
# profiles sent.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

MAC=02:42:00:00:00:56
# QEMU's profile: 7 set-up commands (MQ is offered), then VLANs 1..4094.
QEMU_COUNT=4101
VLAN_COUNT=4094

# load DEV PROFILE COUNT: one parallel load, JSON report in /tmp/DEV.json.
load() {
	vdpactl-batch -j load --dev "$1" --profile "$2" --count "$3" \
		--rounds 1 --mode parallel --kick once >"/tmp/$1.json"
}

# state DEV JQ: a jq filter applied to DEV's end state.
state() {
	jq -c ".load.$1.state | $2" "/tmp/$1.json"
}

tap_plan 22
tb_load_batch
tb_dev_add b0 vdpasim_batch vhost_vdpa mac "$MAC"
tb_dev_add b1 vdpasim_batch vhost_vdpa mac "$MAC"

for profile in qemu vlan; do
	count=$QEMU_COUNT
	[ "$profile" = vlan ] && count=$VLAN_COUNT
	for dev in b0 b1; do
		tap_ok "$profile: $dev: $count commands, every ack OK" \
			load "$dev" "$profile" "$count"
		tap_is "$(jq -r ".load.$dev.vstats.delta | \
			\"\(.\"cvq successes\") \(.\"cvq errors\")\"" \
			"/tmp/$dev.json")" "$count 0" \
			"$profile: $dev: the device counted $count successes, no error"
	done
	tap_is "$(state b0 .)" "$(state b1 .)" \
		"$profile: both devices end in the same state"
	tap_is "$(state b0 '.vlans | length')" 4094 \
		"$profile: all 4094 VLANs are on"
	tap_is "$(state b0 '.vlans | [.[0], .[-1]]')" "[1,4094]" \
		"$profile: VLANs 1 to 4094"
	tap_is "$(state b0 '.status_bits | index("DRIVER_OK") != null')" true \
		"$profile: read while the tool still held the device"
	if [ "$profile" = qemu ]; then
		tap_is "$(state b0 .mac)" '"02:00:00:00:00:01"' \
			"qemu: the MAC MAC_ADDR_SET sent"
		tap_is "$(state b0 .rx_modes)" '["allmulti","alluni"]' \
			"qemu: promisc off, allmulti and alluni on"
		tap_is "$(state b0 '[.uni_macs, .multi_macs]')" \
			'[["02:00:00:aa:00:01","02:00:00:aa:00:02"],["01:00:5e:00:00:01","33:33:00:00:00:01"]]' \
			"qemu: the MAC table sent"
		tap_is "$(state b0 '[.pairs, .offloads]')" '[1,["GUEST_CSUM"]]' \
			"qemu: one pair, checksum offload only"
	else
		tap_is "$(state b0 .mac)" "\"$MAC\"" \
			"vlan: the MAC is the device's own"
		tap_is "$(state b0 '[.rx_modes, .uni_macs, .multi_macs]')" \
			'[["promisc"],[],[]]' \
			"vlan: the reset's RX mode (promisc only), empty MAC tables"
	fi
done
tap_done
