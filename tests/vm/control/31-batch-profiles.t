#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What QEMU sends at device load (--profile qemu) and 4094 VLAN_ADDs
# (--profile vlan) run fully on vdpasim_batch, every ack OK, each class
# counted; a second device given the same loads counts the same. Counters
# come from vdpactl-batch's report (read while the device is open: closing
# it resets the device, and vstats need negotiated features).
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# load DEV PROFILE COUNT: one load into /tmp/DEV-PROFILE.json.
load() {
	vdpactl-batch -j load --dev "$1" --profile "$2" --count "$3" \
		--rounds 1 --mode parallel >"/tmp/$1-$2.json"
}

# delta DEV PROFILE NAME: how much a CVQ counter rose during that load.
delta() {
	jq -r ".load.$1.vstats.delta.\"$3\"" "/tmp/$1-$2.json"
}

# classes DEV PROFILE: the per-class deltas, one line.
classes() {
	jq -c ".load.$1.vstats.delta | with_entries(
		select(.key | test(\"^cvq [a-z]+ (requests|errors)$\")))" \
		"/tmp/$1-$2.json"
}

tap_plan 12
tb_load_batch
# max_vqp 4: MQ has pairs to set.
tb_dev_add b0 vdpasim_batch vhost_vdpa max_vqp 4
tb_dev_add b1 vdpasim_batch vhost_vdpa max_vqp 4

for dev in b0 b1; do
	tap_ok "$dev: --profile qemu, every ack OK" load "$dev" qemu 30
	tap_ok "$dev: --profile vlan, every ack OK" load "$dev" vlan 4094
	tap_is "$(delta "$dev" vlan "cvq vlan requests")/$(delta "$dev" vlan \
		"cvq errors")" 4094/0 "$dev: 4094 VLAN commands, none failed"
	tap_is "$(delta "$dev" qemu "cvq errors")" 0 \
		"$dev: no command of the qemu profile failed"
done
tap_ok "the qemu profile used the rx, mac, vlan, mq and offloads classes" \
	jq -e '.load.b0.vstats.delta | [."cvq rx requests",
		."cvq mac requests", ."cvq vlan requests", ."cvq mq requests",
		."cvq offloads requests"] | all(. > 0)' /tmp/b0-qemu.json
tap_is "$(classes b1 qemu)" "$(classes b0 qemu)" \
	"the second device counts the qemu profile the same per class"
tap_is "$(classes b1 vlan)" "$(classes b0 vlan)" \
	"and the vlan profile"
tap_is "$(jq -r .load.b1.last_mac /tmp/b1-qemu.json)" \
	"$(jq -r .load.b0.last_mac /tmp/b0-qemu.json)" \
	"the qemu profile sent both devices the same last MAC"
tap_done
