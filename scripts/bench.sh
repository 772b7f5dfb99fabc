#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The CVQ benchmark sweep: boot the test-bed VM once, measure stock
# vdpa_sim_net and vdpa_sim_batch (immediate and batch completion) side by
# side over load sizes, profiles and client modes (scripts/guest/bench.sh),
# then write CSV, JSON, a markdown summary and plots. See "--help" and
# Documentation/benchmark.rst.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/bench-plot.sh
. "$VB_ROOT/scripts/lib/bench-plot.sh"

usage() {
	cat >&2 <<EOT
Usage: $VB_PROG [--quick] [--reps N] [--budget SECONDS] [--out DIR]
       $VB_PROG --from LOG [--out DIR]

Boot the test-bed VM once and sweep CVQ loads over three devices -- stock
vdpa_sim_net, vdpa_sim_batch in immediate and in batch completion -- taking
turns configuration by configuration. Writes into DIR (default build/bench):

  sweep.log             the guest's output (one JSON line per device turn)
                        and the host's facts: the raw data of everything
  measurements.csv      one row per turn: its median load time, us per
                        command, kicks, wake-ups and device notifications
                        per load
  measurements.json     the same, with the run's facts and the summary
  summary.md            median and interquartile range over repetitions per
                        configuration and device, speed-ups against stock
  us-per-command.{png,svg}, notifications.{png,svg}   the plots

Options:
  --quick      a short sweep (under a minute with the boot): 4 of the 8
               modes, fewer repetitions and loads per turn
  --reps N     repetitions per configuration (default 7; 5 with --quick)
  --budget S   stop starting configurations S seconds after the guest
               booted and report what was measured (default $FULL_BUDGET;
               $QUICK_BUDGET with --quick); the VM gets $REPORT_MARGIN s more to finish
  --out DIR    where the files go
  --from LOG   rebuild the reports from a saved sweep.log, without a VM

Time: a sweep takes at most its budget plus the boot and the report, so
at most 15 min (full) or 3 min (--quick); on a quiet 2-core host the full
sweep took 3.5 min and --quick 33 s. A sweep cut short by its budget says
so in summary.md (see Documentation/benchmark.rst).
EOT
	exit "${1:-2}"
}

FULL_BUDGET=780
QUICK_BUDGET=50
# Boot, the guest's final jq pass and the output of its records.
REPORT_MARGIN=120
quick=0
reps=
budget=
out=$VB_BUILD/bench
from=
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--reps) reps=${2:?}; shift ;;
	--budget) budget=${2:?}; shift ;;
	--out) out=${2:?}; shift ;;
	--from) from=${2:?}; shift ;;
	-h | --help) usage 0 ;;
	*) usage ;;
	esac
	shift
done
is_count() {
	[[ "$1" =~ ^[1-9][0-9]*$ ]]
}
[ -z "$reps" ] || is_count "$reps" || die "--reps: not a positive number: $reps"
[ -z "$budget" ] || is_count "$budget" || die "--budget: not a positive number: $budget"

REPORT_JQ=$VB_ROOT/scripts/lib/bench-report.jq

# report WHAT LOG: one of bench-report.jq's outputs over the log's records.
report() {
	grep '^{' "$2" | jq -r -s --arg what "$1" -f "$REPORT_JQ"
}

commit_name() {
	git -C "$VB_ROOT" describe --always --dirty 2>/dev/null || echo unknown
}

# sample_load FILE: the host's 1-minute load average every 10 s, until
# killed; the guest's two busy vCPUs alone make about 2.
sample_load() {
	while sleep 10; do
		cut -d ' ' -f 1 /proc/loadavg
	done >"$1"
}

# The host's facts, as one more JSON line of the log.
host_facts() {
	jq -n -c --arg started "$1" --argjson wall_s "$2" \
		--arg loadavg_before "$3" \
		--argjson loadavg_max "$(sort -g "$5" | tail -n 1 | grep . || echo null)" \
		--arg loadavg_after "$(cut -d ' ' -f 1-3 /proc/loadavg)" \
		--arg commit "$(commit_name)" \
		--argjson host_cpus "$(nproc)" --argjson status "$4" \
		'{host: {started: $started, wall_s: $wall_s,
			 loadavg_before: $loadavg_before,
			 loadavg_after: $loadavg_after,
			 loadavg_max: $loadavg_max, commit: $commit,
			 host_cpus: $host_cpus, guest_status: $status}}'
}

# sweep LOG: run the guest half; its progress shows, its records go to LOG.
sweep() {
	local log=$1 started before begin status sampler samples
	local args=(--budget "$budget")
	[ "$quick" = 1 ] && args+=(--quick)
	[ -n "$reps" ] && args+=(--reps "$reps")
	started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	before=$(cut -d ' ' -f 1-3 /proc/loadavg)
	begin=$(date +%s)
	awk -v load="${before%% *}" 'BEGIN { exit !(load > 2) }' &&
		say "warning: host load average $before: other work will" \
			"compete with the guest's vCPUs and inflate the figures"
	samples=$(mktemp)
	sample_load "$samples" &
	sampler=$!
	set +e
	"$VB_ROOT/scripts/vm.sh" --name bench \
		--timeout "$((budget + REPORT_MARGIN))" -- \
		scripts/guest/bench.sh "${args[@]}" | tee "$log" |
		grep --line-buffered -v '^{'
	status=${PIPESTATUS[0]}
	set -e
	kill "$sampler"
	wait "$sampler" 2>/dev/null || true
	host_facts "$started" "$(($(date +%s) - begin))" "$before" "$status" \
		"$samples" >>"$log"
	rm -f "$samples"
	return "$status"
}

command -v jq >/dev/null || die "jq not found: run scripts/setup.sh"
command -v gnuplot >/dev/null ||
	die "gnuplot not found: install gnuplot-nox (scripts/setup.sh)"
if [ -z "$budget" ]; then
	budget=$FULL_BUDGET
	[ "$quick" = 1 ] && budget=$QUICK_BUDGET
fi
mkdir -p "$out"
status=0
if [ -z "$from" ]; then
	from=$out/sweep.log
	sweep "$from" || status=$?
	[ "$status" = 0 ] ||
		say "the guest's sweep failed (status $status); reporting what it measured"
elif [ "$(realpath "$from")" != "$(realpath -m "$out/sweep.log")" ]; then
	cp "$from" "$out/sweep.log"
fi
[ -r "$from" ] || die "cannot read $from"
grep -q '^{"seq"' "$from" || die "no measurements in $from"

report csv "$from" >"$out/measurements.csv"
report json "$from" >"$out/measurements.json"
report markdown "$from" >"$out/summary.md"
report plot "$from" >"$out/plot.tsv"
bench_plot "$out/plot.tsv" "$out"
cat "$out/summary.md"
say "wrote $out/{measurements.csv,measurements.json,summary.md}" \
	"and $out/{us-per-command,notifications}.{png,svg}"
exit "$status"
