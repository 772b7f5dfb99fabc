#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A load sets MACs through the CVQ, and vdpa_sim_net keeps the last one
# across its reset. The tool leaves it so (the device's counters then
# count exactly the loads' commands) and says what the device had; with
# --restore-mac it puts that MAC back. Both devices, and a compare.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

MAC=02:00:00:00:00:aa
LAST=02:00:00:00:00:1e # the mac profile's 30th

# config_mac DEV: the MAC in the device's config space, as vdpa shows it.
config_mac() {
	vdpa -j dev config show "$1" | jq -r ".config.$1.mac"
}

tap_plan 10
tb_load_stock
tb_load_batch
tb_dev_add s0 vdpasim_net vhost_vdpa mac $MAC
tb_dev_add b0 vdpasim_batch vhost_vdpa mac $MAC

for dev in s0 b0; do
	out=$(vdpactl-batch -j load --dev $dev --count 30 --rounds 3 \
		--restore-mac)
	tap_is "$(printf '%s' "$out" |
		jq -c ".load.$dev | [.start_mac, .last_mac, .mac_restored]")" \
		"[\"$MAC\",\"$LAST\",true]" \
		"$dev: --restore-mac: the report says the MAC was put back"
	tap_is "$(config_mac $dev)" $MAC "$dev: the config space has it again"
done

out=$(vdpactl-batch -j load --dev s0 --count 30 --rounds 3)
tap_is "$(printf '%s' "$out" | jq -c '.load.s0 | [.start_mac, .mac_restored]')" \
	"[\"$MAC\",false]" "without it: the report says what the device had"
tap_is "$(config_mac s0)" $LAST \
	"and vdpa_sim_net keeps the last MAC across its reset"
out=$(vdpactl-batch -j load --dev s0 --count 30 --rounds 1)
tap_is "$(printf '%s' "$out" | jq -r .load.s0.start_mac)" $LAST \
	"the next load starts from it"
vdpa dev set name s0 mac $MAC

tap_ok "compare --restore-mac" vdpactl-batch compare --dev s0 --dev b0 \
	--count 30 --rounds 2 --ring-size 64 --restore-mac
tap_is "$(config_mac s0)" $MAC "compare puts s0's MAC back"
tap_is "$(config_mac b0)" $MAC "compare puts b0's MAC back"
tb_dev_del s0
tb_dev_del b0
tap_done
