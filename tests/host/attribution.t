#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/guest/attribution.jq turns make run's compare into what each
# device-side choice is worth, and must never print a ratio it could not
# compute: a missing device or median is an error, and so is a command
# our devices found redundant (stock redoes every one).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

DEVICES="stock0 imm0 batch0 nopoll0 nosup0 nohint0 lead0"

# compare [SKIP [REDUNDANT]]: compare's JSON, the device SKIP left out,
# batch0 with REDUNDANT redundant commands. Medians: stock0 8, imm0 4,
# batch0 2, lead0 1, the others 3 (serial twice as much).
compare() {
	for d in $DEVICES; do
		[ "$d" = "${1:-}" ] && continue
		case $d in
		stock0) med=8 ;; imm0) med=4 ;; batch0) med=2 ;; lead0) med=1 ;;
		*) med=3 ;;
		esac
		red=0
		[ "$d" = batch0 ] && red=${2:-0}
		for mode in serial parallel; do
			m=$med
			[ "$mode" = serial ] && m=$((2 * med))
			jq -nc --arg d "$d" --arg mode "$mode" --argjson m "$m" \
				--argjson r "$red" '{device: $d, mode: $mode,
				median_us_per_command: $m, speedup: 1,
				kicks: 15, total_commands: 30,
				vstats: {delta: {"cvq redundant": $r}}}'
		done
	done | jq -s '{compare: {profile: "mac", count: 30, rounds: 1000,
		kick: "each", wait: "poll", ring_size: 256, results: .}}'
}

attribution() {
	jq -r -f scripts/guest/attribution.jq
}

# ratios OUTPUT LABEL: the serial and parallel ratios of the line LABEL
# starts.
ratios() {
	echo "$1" | grep "^$2" | awk '{ print $(NF - 1), $NF }'
}

tap_plan 10
out=$(compare | attribution)
tap_is "$?" 0 "a full compare is attributed"
tap_is "$(ratios "$out" 'batching alone')" "2 2" \
	"batching alone: imm0 over batch0, serial and parallel"
tap_is "$(ratios "$out" 'kick hint')" "1.5 1.5" \
	"the kick hint: nohint0 over batch0"
tap_is "$(ratios "$out" 'all of it')" "4 4" "all of it: stock0 over batch0"
tap_is "$(ratios "$out" 'lead notification')" "2 2" \
	"the lead notification, an option: batch0 over lead0"
tap_is "$(echo "$out" | awk '$1 == "batch0" && $2 == "parallel" { print $NF }')" \
	0.5 "the table gives kicks per command"

# attributed [SKIP [REDUNDANT]]: attribution.jq over that compare.
attributed() {
	compare "$@" | attribution
}
for d in imm0 nohint0 lead0; do
	tap_fails "without $d it fails" attributed "$d"
done
tap_fails "a redundant command fails the comparison" attributed "" 3
tap_done
