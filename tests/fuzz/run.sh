#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run one built fuzz target for SECONDS and report libFuzzer's final
# numbers: executions per second, coverage (cov: edges, ft: features) and
# corpus size, or the finding and where its input was saved.
#
#   tests/fuzz/run.sh [--smoke] TARGET SECONDS
#
# The fuzzer starts from the seeds in tests/fuzz/corpus/TARGET and keeps
# what it finds in FUZZ_OUT/corpus/TARGET (FUZZ_OUT: build/fuzz), so
# runs build on each other; --smoke starts from the seeds alone in a
# throwaway corpus, so a smoke run takes the same path every time.
# Findings go to FUZZ_OUT/artifacts/TARGET/; the log to FUZZ_OUT/TARGET.log.
# Exit status: 0 without a finding, 1 with one, 2 on a usage error.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2

smoke=0
if [ "${1:-}" = --smoke ]; then
	smoke=1
	shift
fi
if [ $# -ne 2 ]; then
	echo "usage: $0 [--smoke] TARGET SECONDS" >&2
	exit 2
fi
target=$1
seconds=$2
out=${FUZZ_OUT:-build/fuzz}
bin=$out/$target
seeds=tests/fuzz/corpus/$target
# Inputs of findings fixed since: they stay seeds, so a fix that comes
# undone is found at once.
crashes=tests/fuzz/crashes/$target
[ -d "$crashes" ] || crashes=
artifacts=$out/artifacts/$target/
log=$out/$target.log

if [ ! -x "$bin" ] || [ ! -d "$seeds" ]; then
	echo "$0: $bin or $seeds missing (make fuzz-build)" >&2
	exit 2
fi
if [ "$smoke" = 1 ]; then
	log=$out/$target-smoke.log
	corpus=$(mktemp -d "$out/smoke-$target.XXXXXX") || exit 2
	trap 'rm -rf "$corpus"' EXIT
else
	corpus=$out/corpus/$target
fi
mkdir -p "$corpus" "$artifacts" || exit 2

# -timeout: an input running 10 s is a hang, which is a finding too.
"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$artifacts" \
	"$corpus" "$seeds" ${crashes:+"$crashes"} >"$log" 2>&1
rc=$?

stat() {
	sed -n "s/^stat::$1:[[:space:]]*//p" "$log"
}
# The last status line: "#RUNS DONE cov: N ft: N corp: N/SIZE ...".
status=$(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -n 1)
field() {
	sed -n "s/.* $1: \([^ ]*\).*/\1/p" <<<"$status"
}

if [ "$rc" = 0 ]; then
	printf '%s: %s s, %s runs, %s execs/s, cov %s ft %s, corpus %s: no finding\n' \
		"$target" "$seconds" "$(stat number_of_executed_units)" \
		"$(stat average_exec_per_sec)" "$(field cov)" "$(field ft)" \
		"$(field corp)"
	exit 0
fi
printf '%s: FINDING (libFuzzer exit %s) after %s runs; log %s\n' \
	"$target" "$rc" "$(stat number_of_executed_units)" "$log"
grep -E 'invariant|ERROR|SUMMARY|runtime error|Test unit written' "$log" |
	head -n 12
exit 1
