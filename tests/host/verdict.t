#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/bench-report: the verdict "make run" ends with, from the fixture
# samples of tests/fixtures/bench-report (made-up numbers whose figures
# are worked out by hand below): paired ratios with their interquartile
# range, readings, a figure's own conditions, unstable values, missing
# stages, a busy host, bad input.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

F=tests/fixtures/bench-report
SPEC=scripts/lib/verdict.spec
BIN=build/bench-report/bench-report
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

tap_plan 22
if ! make -s bench-report >"$out/make.log" 2>&1; then
	tap_diag "$(cat "$out/make.log")"
	tap_ok "bench-report builds" false
	tap_done
	exit 0
fi

# report DATA_DIR: the verdict on stdout; status in $out/rc.
report() {
	local rc=0
	mkdir -p "$out/r"
	"$BIN" --data "$1" --spec "$SPEC" --out "$out/r" 2>"$out/err" || rc=$?
	echo "$rc" >"$out/rc"
}

# line LABEL: the verdict line of LABEL, its spaces squeezed.
line() {
	grep -F "  $1 " "$out/verdict" | tr -s ' ' | sed 's/^ //'
}

report "$F" >"$out/verdict"
tap_is "$(cat "$out/rc")" 0 "the fixture's verdict is made"
# About 40 lines: the spec's figures, and a line for each figure measured
# under other conditions than its section states (3 here, as in make run).
tap_ok "and fits one page (at most 44 lines)" \
	test "$(wc -l <"$out/verdict")" -le 44
# stock0 parallel (540 + 3j) us and batch0 (140 + 3j) us per load in
# round j = 0..8: ratios 3.86 down to 3.44, median j = 4: 552/152.
tap_is "$(line 'all of it, parallel (stock0/batch0)' | head -1)" \
	"all of it, parallel (stock0/batch0) 3.63x [3.53-3.74] faster" \
	"a ratio is the median of round-by-round ratios, with their quartiles"
tap_is "$(line 'stock vdpa_sim_net, serial, us/cmd')" \
	"stock vdpa_sim_net, serial, us/cmd 20.4 us/cmd [20.2-20.6]" \
	"a value is shown in the stage's unit: 612 us per 30 commands"
tap_is "$(line 'kick suppression, parallel (nosup0/batch0)')" \
	"kick suppression, parallel (nosup0/batch0) 1.00x [0.88-1.11] within noise" \
	"a ratio whose middle half straddles 1 is called noise"
tap_is "$(line 'batching alone, parallel (batch1/batch0)')" \
	"batching alone, parallel (batch1/batch0) 1.52x fewer instructions" \
	"deterministic counts have no spread"
# Counts of two runs (a boot's even and odd loads): 1500/1200 and
# 1520/1210, ratios 1.250 and 1.256, shown with their whole range.
tap_is "$(line '30 over 4096 commands (batch2, no poll)')" \
	"30 over 4096 commands (batch2, no poll) 1.25x [1.25-1.26] fewer instructions" \
	"counts of several runs show their range"
tap_ok "the verdict and the page are written beside it" \
	cmp -s "$out/verdict" "$out/r/verdict.txt"

# after LABEL: the line after LABEL's.
after() {
	grep -A 1 -F "  $1 " "$out/verdict" | sed -n 2p
}

# The QEMU section states qemu-4098's conditions; its 1000-command
# figure was measured under qemu-1000's, which differ in one field.
tap_is "$(after '1000 commands: batching alone')" \
	"    ^ this figure: 1000 commands per load at cont" \
	"a figure measured under other conditions than its section's names the difference"
tap_is "$(after 'op 20 us: batching alone' | cut -c 1-10)" "  op 100 u" \
	"a figure measured as its section states has no such line"

cp -r "$F" "$out/conds"
rm "$out/conds/qemu-4098.samples"
sed -i 's/^@cond .*/@cond 256 MAC_ADDR_SET per cold load, 256-entry rings/' \
	"$out/conds/cold-256-each.samples"
report "$out/conds" >"$out/verdict"
tap_is "$(grep -A 1 '^QEMU 10 as the client' "$out/verdict" | sed -n 2p)" \
	"  (QEMU 10.0.2, 1000 commands per load at cont, 7 rounds, devices alternating)" \
	"a section whose own stage is missing states its first measured figure's conditions"
tap_is "$(after '256 commands, parallel (stock0/batch0)')" \
	"    ^ this figure: 256 MAC_ADDR_SET per cold load, 256-entry rings" \
	"conditions lacking the section's fields are given whole"

# Absolute figures: stock0 serial at 10, 10, 10, 10, 20, 30, 30, 30 and
# 30 us/cmd in rounds 0..8: median 20, quartiles 10 and 30, a middle half
# as wide as the median; then 15, ..., 20, 25, ...: half as wide.
# unstable VALUES...: the fixture with stock0/serial's rounds replaced.
unstable() {
	local j=0 v
	rm -rf "$out/wide"
	cp -r "$F" "$out/wide"
	sed -i '/^stock0\/serial /d' "$out/wide/cvq-each-poll.samples"
	for v in "$@"; do
		echo "stock0/serial $j $((v * 30000)) 30" >>"$out/wide/cvq-each-poll.samples"
		j=$((j + 1))
	done
	report "$out/wide" >"$out/verdict"
}
unstable 10 10 10 10 20 30 30 30 30
tap_is "$(line 'stock vdpa_sim_net, serial, us/cmd')" \
	"stock vdpa_sim_net, serial, us/cmd 20.0 us/cmd [10.0-30.0] unstable: IQR over 50% of the median" \
	"a value whose interquartile range is over half its median is unstable"
unstable 15 15 15 15 20 25 25 25 25
tap_is "$(line 'stock vdpa_sim_net, serial, us/cmd')" \
	"stock vdpa_sim_net, serial, us/cmd 20.0 us/cmd [15.0-25.0]" \
	"at half its median it is not"

cp -r "$F" "$out/partial"
rm "$out/partial"/qemu-*.samples
report "$out/partial" >"$out/verdict"
tap_is "$(cat "$out/rc"):$(line 'kick suppression (nosup/batch)')" \
	"0:kick suppression (nosup/batch) not measured" \
	"a stage without data is not measured, and the rest still reported"

sed -i 's/^own=.*/own=102000/' "$out/partial/run.meta"
report "$out/partial" >"$out/verdict"
tap_ok "a host busy with other work is a warning on top" \
	grep -q '^WARNING: the host was busy' "$out/verdict"
tap_ok "with the share it took" \
	grep -q 'other work took 50% of the CPUs' "$out/verdict"

echo "stock0/serial 3 not-a-number 30" >>"$out/partial/cvq-each-poll.samples"
report "$out/partial" >/dev/null
tap_is "$(cat "$out/rc")" 1 "a bad sample line fails the report"
tap_ok "naming the file and line" \
	grep -q 'cvq-each-poll.samples:[0-9]*: not a sample line' "$out/err"

# --summarize, the statistics filter the measurement scripts use.
tap_is "$(printf 'b 5\na 3\nb 1\na 1\na 2\n' | "$BIN" --summarize)" \
	"$(printf 'b 2 1 2 3 4 5 5 3\na 3 1 1.5 2 2.5 3 3 2')" \
	"--summarize: per key in order of appearance, N MIN Q1 MEDIAN Q3 P99 MAX MEAN"
printf 'a 1\na x\n' | "$BIN" --summarize >"$out/sum" 2>"$out/err"
tap_is "$?:$(cat "$out/sum")" "1:" "a line that is not KEY VALUE fails, with no partial output"
tap_ok "naming the line" grep -q 'line 2: not KEY VALUE' "$out/err"
tap_done
