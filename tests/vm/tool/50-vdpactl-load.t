#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vdpactl-batch load on stock vdpa_sim_net: 30 MAC_ADDR_SET x 1000 loads,
# serially and in parallel, every ack OK, the device's own CVQ counters up
# by exactly 30000, and its config showing the last MAC sent.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

OUT=/tmp/load.json

# load_json ARGS...: one load run on vdpa0, its JSON report in $OUT.
load_json() {
	vdpactl-batch -j load --dev vdpa0 "$@" >"$OUT"
}

# field FILTER: a jq filter over the report's vdpa0 object.
field() {
	jq -r ".load.vdpa0$1" "$OUT"
}

timings() {
	tap_diag "$1: per command median $(field .per_command_us.median) us," \
		"p99 $(field .per_command_us.p99) us, mean" \
		"$(field .per_command_us.mean) us"
}

tap_plan 22
tb_load_stock
tb_dev_add vdpa0 vdpasim_net vhost_vdpa

for mode in serial parallel; do
	tap_ok "$mode: 30 commands x 1000 loads" \
		load_json --count 30 --rounds 1000 --mode "$mode"
	tap_is "$(field .total_commands)" 30000 "$mode: 30000 commands acked OK"
	tap_is "$(field '.vstats.delta."cvq requests"')" 30000 \
		"$mode: cvq requests rose by 30000"
	tap_is "$(field '.vstats.delta."cvq successes"')" 30000 \
		"$mode: cvq successes rose by 30000"
	tap_is "$(field '.vstats.delta."cvq errors"')" 0 "$mode: no cvq errors"
	timings "$mode"
done
tap_is "$(field .batches)" 1000 "parallel: one batch per load of 30"

last_mac=$(field .last_mac)
tap_is "$(vdpa -j dev config show vdpa0 | jq -r .config.vdpa0.mac)" \
	"$last_mac" "vdpa dev config show has the last MAC sent"

# The stock counters survive the reset between two sessions, so the next
# run's "before" must be this run's "after".
after=$(field '.vstats.after."cvq requests"')
tap_ok "parallel, one kick per batch" \
	load_json --count 30 --rounds 100 --mode parallel --kick once
tap_is "$(field '.vstats.before."cvq requests"')" "$after" \
	"counters carry over between sessions"
tap_is "$(field .kicks)" 100 "kick once: one kick per load"
timings "parallel, kick once"

tap_ok "serial, sleeping on the call eventfd" \
	load_json --count 30 --rounds 100 --wait call
tap_is "$(field '.vstats.delta."cvq successes"')" 3000 \
	"wait call: cvq successes rose by 3000"
tap_ok "wait call: it did sleep" test "$(field .sleeps)" -gt 0
timings "serial, wait call"

tap_ok "CVQ group in its own address space" \
	load_json --count 30 --rounds 100 --asid
tap_is "$(field .asid)/$(field '.vstats.delta."cvq successes"')" \
	true/3000 "--asid: all acked"

tap_ok "text report names the counters" sh -c \
	'vdpactl-batch load --count 30 --rounds 10 --dev vdpa0 |
	 grep -q "cvq requests .* (+300)"'
tap_ok "without --dev, the only vhost_vdpa device is used" \
	vdpactl-batch load --count 1 --rounds 1
tap_done
