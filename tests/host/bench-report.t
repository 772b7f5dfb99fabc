#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/bench.sh --from and bench-report --table: the figures, tables
# and plots of a sweep log, on a small hand-made sweep whose figures are
# worked out by hand below (tests/fixtures/bench/sweep.log: the guest's
# "sample" lines of three configurations). And bench-report --order, the
# turns the guest scripts take where the tool's engine cannot.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

F=tests/fixtures/bench/sweep.log
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# report LOG DIR: scripts/bench.sh --from LOG --out DIR; its stderr in
# DIR.err.
report() {
	scripts/bench.sh --from "$1" --out "$2" >/dev/null 2>"$2.err"
}

# csv_row STAGE DEVICE MODE: that row of the CSV, without the stage's
# name and parts (columns 6 on).
csv_row() {
	grep "^$1,[^,]*,[^,]*,[^,]*,[^,]*,$2,$3," "$out/a/sweep.csv" |
		cut -d , -f 6-
}

# row WORKLOAD MODE: the summary table's row of that configuration.
row() {
	grep "^| $1 | $2 |" "$out/a/summary.md"
}

is_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
}

tap_plan 22
tap_ok "a sweep log becomes a report" report "$F" "$out/a"
tap_is "$(head -n 1 "$out/a/sweep.csv")" \
	"stage,profile,count,kick,wait,device,mode,unit,n,median,q1,q3,min,max,baseline,ratio_n,ratio_median,ratio_q1,ratio_q3,reading,kicks_per_load,wakeups_per_load,notifications_per_load" \
	"the CSV names its columns"
# 2 mac configurations x 3 devices x 2 modes, and qemu on 2 devices.
tap_is "$(wc -l <"$out/a/sweep.csv")" 17 \
	"one CSV row per configuration, device and mode, after the header"
tap_is "$(grep -c '^sweep-mac-10-each-poll,mac,10,each,poll,' "$out/a/sweep.csv")" 6 \
	"the stage's name is split into profile, count, kick and wait"
# stock0 serial: 40000 + 2000 r ns per 10 commands in rounds r = 0..8
# (3 rounds x 3 repetitions): 4.0 to 5.6 us/cmd, the median the 5th
# (4.8), the quartiles the 3rd and 7th (4.4, 5.2).
tap_is "$(csv_row sweep-mac-10-each-poll stock0 serial)" \
	"stock0,serial,us/cmd,9,4.8,4.4,5.2,4,5.6,,,,,,,10,0," \
	"a value: every load of every repetition, median with quartiles and extremes"
# imm0 serial takes 4.6 us/cmd in every round: the ratios run from
# 4.0/4.6 to 5.6/4.6, median 4.8/4.6, quartiles 4.4/4.6 and 5.2/4.6.
tap_is "$(csv_row sweep-mac-10-each-poll imm0 serial)" \
	"imm0,serial,us/cmd,9,4.6,4.6,4.6,4.6,4.6,stock0,9,1.04348,0.956522,1.13043,within noise,10,0,10" \
	"a paired ratio round by round against the baseline, noise when its quartiles hold 1"
tap_is "$(csv_row sweep-mac-10-each-poll batch0 serial | cut -d , -f 10-15)" \
	"stock0,9,2,2,2,faster" \
	"batch0 taking half of stock's time in every round is 2x faster, no spread"
# batch0 parallel notifies 6, 3 and 9 times in the repetitions' 3 loads.
tap_is "$(csv_row sweep-mac-10-each-poll batch0 parallel | cut -d , -f 16-)" \
	"10,0,2" "counters per load are the median over repetitions"
tap_is "$(csv_row sweep-qemu-30-once-call batch0 serial | cut -d , -f 4-)" \
	"2,4,4,4,4,4,,,,,,,,," \
	"a configuration without the baseline has no ratio, nor counters it lacks"
tap_is "$(row "mac x10" serial)" \
	"| mac x10 | serial | each | poll | 4.80 [4.40-5.20] | 4.60 [4.60-4.60] | 2.40 [2.20-2.60] | 1.04x [0.96-1.13], within noise | 2.00x [2.00-2.00] | 10.0 | 10.0 |" \
	"the markdown row: values, ratios with readings, notifications per load"
tap_is "$(grep -c '^| ' "$out/a/sweep.md")" 8 \
	"sweep.md: one row per configuration and mode, after the header"
tap_ok "the summary has the run's facts" \
	grep -q '^Guest kernel 6.12.95+deb12-amd64, 2 vCPUs .* commit abc1234 (--quick)' \
	"$out/a/summary.md"
tap_ok "and the tool's notes" grep -q '^- stock0: mac x1: example note' \
	"$out/a/summary.md"
tap_is "$(grep -c '^- qemu x30, kick once, wait call$' "$out/a/summary.md")" 1 \
	"configurations where the module skipped redundant work are named, once"
tap_ok "the plots are PNG" is_png "$out/a/us-per-command.png"
tap_ok "and SVG" grep -q '<svg' "$out/a/notifications.svg"

sed 's/^\(sample sweep-mac-30-each-poll imm0\/serial\) 4 /\1 four /' \
	"$F" >"$out/bad.log"
report "$out/bad.log" "$out/b"
tap_ok "a bad sample line fails, naming the file and the line" \
	grep -q 'sweep-mac-30-each-poll.samples:[0-9]*: not a sample line: "imm0/serial four 60000 30"' \
	"$out/b.err"

grep -v '^sample ' "$F" >"$out/empty.log"
tap_fails "a log without measurements is an error" report "$out/empty.log" "$out/e"

# --order ROUND NAME...: the engine's rotation (load/turns.h): in round r
# the i-th turn is name (r + i) mod n, so each goes first every n rounds.
BIN=build/bench-report/bench-report
orders() {
	local r
	for r in 0 1 2 3 4 5; do
		"$BIN" --order "$r" batch immediate nosup stock
	done | paste -sd '|'
}
tap_is "$(orders)" \
	"batch immediate nosup stock|immediate nosup stock batch|nosup stock batch immediate|stock batch immediate nosup|batch immediate nosup stock|immediate nosup stock batch" \
	"--order: round r starts at name r mod n and wraps around"
tap_is "$("$BIN" --order 7 q0:qb:batch q1:qi:immediate)" \
	"q1:qi:immediate q0:qb:batch" "two names alternate, round by round"
tap_fails "a round that is not a number is a usage error" \
	"$BIN" --order 1x a b
tap_fails "as is a round without names" "$BIN" --order 1
tap_done
