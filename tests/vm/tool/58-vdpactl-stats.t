#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# "dev batching" (once "dev set") switches a vdpa_sim_batch device's
# completion mode between loads, and the module's counters and histograms
# (read with "stats -j") show it: immediate mode notifies once per command, batch mode with one
# kick per load publishes one batch and notifies at most once. Histogram
# totals match the counters (the cost model's two stay empty: no model);
# "stats --reset" zeroes them.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

N=30
ROUNDS=5
STATS=/tmp/stats.json

# stat JQ: a jq filter over b0's module section of "stats -j".
stat() {
	vdpactl-batch -j stats b0 >"$STATS" 2>/dev/null &&
		jq -c ".module.b0 | $1" "$STATS"
}

# load MODE KICK: ROUNDS loads of N commands.
load() {
	vdpactl-batch -j load --dev b0 --count "$N" --rounds "$ROUNDS" \
		--mode "$1" --kick "$2" --wait poll >/tmp/load.json
}

totals='[.histograms[] | .counts | add]'
counters='.counters | [.commands, .batches, .notifications]'

tap_plan 20
tb_load_batch
tb_dev_add b0 vdpasim_batch vhost_vdpa

tap_ok "dev set immediate" vdpactl-batch dev set b0 completion immediate
tap_is "$(vdpactl-batch -j dev state b0 | jq -r .state.b0.completion)" \
	immediate "dev state shows it"
tap_ok "stats --reset" vdpactl-batch stats b0 --reset
tap_ok "immediate: $ROUNDS serial loads, kick each" load serial each
c=$((N * ROUNDS))
tap_is "$(stat "$counters")" "[$c,$c,$c]" \
	"immediate: one batch and one notification per command"
tap_ok "immediate: $ROUNDS parallel loads, kick each" load parallel each
c=$((2 * N * ROUNDS))
tap_is "$(stat "$counters")" "[$c,$c,$c]" \
	"immediate: parallel too notifies every command"
tap_is "$(stat "$totals")" "[$c,$c,$c,0,0]" \
	"immediate: histogram totals are batches, commands, commands, no cost"

tap_ok "dev set batch" vdpactl-batch dev set b0 completion batch \
	batch-limit 0
tap_ok "stats --reset" vdpactl-batch stats b0 --reset
tap_is "$(stat "$counters")" "[0,0,0]" "the counters are zero"
tap_is "$(stat "$totals")" "[0,0,0,0,0]" "the histograms are empty"
tap_ok "batch: $ROUNDS parallel loads, kick once" load parallel once
tap_is "$(stat '.counters | [.commands, .batches, .ok]')" \
	"[$((N * ROUNDS)),$ROUNDS,$((N * ROUNDS))]" \
	"batch: one batch per load"
tap_is "$(stat ".counters.notifications <= $ROUNDS")" true \
	"batch: at most one notification per load"
tap_is "$(stat "$totals")" "[$ROUNDS,$((N * ROUNDS)),$((N * ROUNDS)),0,0]" \
	"batch: histogram totals are batches, commands, commands, no cost"
tap_diag "$(jq -c '.module.b0.counters' "$STATS")"

# The spellings of today: "dev batching", keyword "reset" (the old ones
# above stay accepted).
tap_ok "dev batching immediate" vdpactl-batch dev batching b0 \
	completion immediate batch_limit 4
tap_is "$(vdpactl-batch -j dev state b0 |
	jq -c '.state.b0 | [.completion, .batch_limit]')" '["immediate",4]' \
	"dev state shows it"
tap_ok "stats reset" vdpactl-batch stats b0 reset
tap_is "$(stat "$counters")" "[0,0,0]" "reset zeroes the counters"
tap_done
