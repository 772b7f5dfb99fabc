#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/bench.sh --from: the statistics, tables and plots of a sweep log,
# on a small hand-made sweep whose figures are known (3 repetitions of two
# configurations on three devices; tests/fixtures/bench/sweep.log).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

F=tests/fixtures/bench/sweep.log
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

report() {
	scripts/bench.sh --from "$1" --out "$2" >/dev/null 2>&1
}

# row WORKLOAD MODE: the summary table's row of that configuration.
row() {
	grep "^| $1 | $2 |" "$out/a/summary.md"
}

csv_field() {
	awk -F , -v seq="$1" -v col="$2" '$1 == seq { print $col }' \
		"$out/a/measurements.csv"
}

is_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
}

tap_plan 18
tap_ok "a sweep log becomes a report" report "$F" "$out/a"
tap_is "$(wc -l <"$out/a/measurements.csv")" 19 \
	"one CSV row per device turn, after the header"
tap_is "$(csv_field 1 17),$(csv_field 1 18)" "4,10" \
	"a turn's us per command is its median load time over the commands"
tap_is "$(csv_field 5 21),$(csv_field 6 21),$(csv_field 4 21)" "30,1," \
	"device notifications per load come from the counter; stock has none"
tap_ok "a figure is the median over repetitions, with the quartiles" \
	grep -q '| 4.50 (4.25–4.75) | 2.10 (2.05–2.15) | 3.00 (3.00–3.15) |' \
	<(row "mac x10" serial)
tap_ok "speed-ups divide stock's median by the device's" \
	grep -q '| 2.14 | 1.50 |' <(row "mac x10" serial)
tap_ok "small figures keep three significant digits" \
	grep -q '| 1.00 (0.950–1.05) | 2.60 | 4.17 | 30.0 | 1.00 |' \
	<(row "mac x30" parallel)
tap_is "$(jq -c '.summary.configurations | map(.speedup.batch0)' \
	"$out/a/measurements.json")" "[1.5,4.167]" \
	"the JSON summary holds the same speed-ups"
tap_is "$(jq -c '.summary.configurations[1].devices.imm0 | [.min, .max]' \
	"$out/a/measurements.json")" "[1.5,2]" "the JSON keeps min and max"
tap_is "$(jq '.measurements | length' "$out/a/measurements.json")" 18 \
	"the JSON holds every measurement"
tap_ok "the plots are PNG" is_png "$out/a/us-per-command.png"
tap_ok "and SVG" grep -q '<svg' "$out/a/notifications.svg"

# An odd count of figures has a middle one; an even count averages two.
sed '/"rep":3,/d' "$F" >"$out/two-reps.log"
report "$out/two-reps.log" "$out/b"
tap_ok "the median of two repetitions is their mean" \
	grep -q '^| mac x10 | serial | each | poll | 4.50 (4.25–4.75) | 2.10' \
	"$out/b/summary.md"

sed 's/"reps_done":3/"reps_done":2/' "$F" >"$out/cut.log"
report "$out/cut.log" "$out/c"
tap_ok "a sweep cut short by its budget says so" \
	grep -q '^INCOMPLETE: .* after 2 of 3 repetitions' "$out/c/summary.md"

sed 's/"loadavg_before":"0.10/"loadavg_before":"3.50/' "$F" >"$out/busy.log"
report "$out/busy.log" "$out/d"
tap_ok "a busy host is called out" \
	grep -q "^WARNING: the host's load average was 3.5" "$out/d/summary.md"

sed 's/"loadavg_max":2.1/"loadavg_max":4.5/' "$F" >"$out/contended.log"
report "$out/contended.log" "$out/f"
tap_ok "other work during the sweep is called out" \
	grep -q "^WARNING: the host's load average reached 4.5 during" \
	"$out/f/summary.md"
tap_fails "a quiet host gets no warning" grep -q WARNING "$out/a/summary.md"

grep -v '^{"seq"' "$F" >"$out/empty.log"
tap_fails "a log without measurements is an error" report "$out/empty.log" "$out/e"
tap_done
