#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The CVQ benchmark sweep: boot the test-bed VM once, measure stock
# vdpa_sim_net and vdpa_sim_batch (immediate and batch completion) side by
# side over load sizes, profiles and client modes (scripts/guest/bench.sh),
# then file the samples and let bench-report (C) compute every figure:
# CSV, a markdown summary and plots. See "--help" and
# Documentation/benchmark.rst.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/samples.sh
. "$VB_ROOT/scripts/lib/samples.sh"
# shellcheck source=lib/bench-plot.sh
. "$VB_ROOT/scripts/lib/bench-plot.sh"

usage() {
	cat >&2 <<EOT
Usage: $VB_PROG [--quick] [--reps N] [--budget SECONDS] [--out DIR]
       $VB_PROG --from LOG [--out DIR]

Boot the test-bed VM once and sweep CVQ loads over three devices -- stock
vdpa_sim_net, vdpa_sim_batch in immediate and in batch completion -- one
vdpactl-batch compare per configuration and repetition, each device and
load mode taking a turn of back-to-back loads. Writes into DIR (default
build/bench):

  sweep.log             the guest's output (every load's time as a sample
                        line, the counters, progress and notes) and the
                        host's facts: the raw data of everything
  sweep/*.samples       the samples, one file per configuration
                        (tools/bench-report/samples.h)
  sweep.csv             per configuration, device and load mode: loads,
                        median, quartiles and extremes of us per command,
                        the load-by-load ratio against stock, and the
                        kicks, wake-ups and notifications per load
  sweep.md              the table of summary.md
  summary.md            the run's facts and warnings, the table, the notes
  us-per-command.{png,svg}, notifications.{png,svg}   the plots

Options:
  --quick      a short sweep (under 3 min with the boot): 3 of the 4
               kick/wait modes, fewer repetitions and loads
  --reps N     repetitions per configuration (default 7; 3 with --quick)
  --budget S   stop starting configurations S seconds after the guest
               booted and report what was measured (default $FULL_BUDGET;
               $QUICK_BUDGET with --quick); the VM gets $REPORT_MARGIN s more to finish
  --out DIR    where the files go
  --from LOG   rebuild the reports from a saved sweep.log, without a VM

Time: a sweep takes at most its budget plus the boot and the report, so
at most 15 min (full) or 3 min (--quick). A sweep cut short by its budget
says so in summary.md (see Documentation/benchmark.rst).
EOT
	exit "${1:-2}"
}

FULL_BUDGET=780
QUICK_BUDGET=120
# Boot, and the output of the guest's samples.
REPORT_MARGIN=120
BASELINE=stock0
REPORT_BIN=$VB_BUILD/bench-report/bench-report
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

commit_name() {
	vb_commit
}

# sample_load FILE: the host's 1-minute load average every 10 s, until
# killed; the guest's two busy vCPUs alone make about 2.
sample_load() {
	while sleep 10; do
		cut -d ' ' -f 1 /proc/loadavg
	done >"$1"
}

# above A B: whether the number A is above B (load averages).
above() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'
}

# The host's facts, as "meta KEY VALUE" lines of the log.
host_facts() {
	echo "meta started $1"
	echo "meta wall_s $2"
	echo "meta loadavg_before $3"
	echo "meta loadavg_after $(cut -d ' ' -f 1-3 /proc/loadavg)"
	echo "meta loadavg_max $(sort -g "$5" | tail -n 1)"
	echo "meta commit $(commit_name)"
	echo "meta host_cpus $(nproc)"
	echo "meta guest_status $4"
}

# sweep LOG: run the guest half; its progress shows, everything goes to LOG.
sweep() {
	local log=$1 started before begin status sampler samples
	local args=(--budget "$budget")
	[ "$quick" = 1 ] && args+=(--quick)
	[ -n "$reps" ] && args+=(--reps "$reps")
	started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	before=$(cut -d ' ' -f 1-3 /proc/loadavg)
	begin=$(date +%s)
	above "${before%% *}" 2 &&
		say "warning: host load average $before: other work will" \
			"compete with the guest's vCPUs and inflate the figures"
	samples=$(mktemp)
	sample_load "$samples" &
	sampler=$!
	set +e
	"$VB_ROOT/testbed/vm.sh" --name bench \
		--timeout "$((budget + REPORT_MARGIN))" -- \
		scripts/guest/bench.sh "${args[@]}" | tee "$log" |
		grep --line-buffered -v '^sample \|^meta \|^bench: redundant: '
	status=${PIPESTATUS[0]}
	set -e
	kill "$sampler"
	wait "$sampler" 2>/dev/null || true
	host_facts "$started" "$(($(date +%s) - begin))" "$before" "$status" \
		"$samples" >>"$log"
	rm -f "$samples"
	return "$status"
}

# meta KEY: the log's fact KEY, empty if it has none.
meta() {
	tr -d '\r' <"$from" | sed -n "s/^meta $1 //p" | tail -n 1
}

# The run's facts and warnings above the table, the notes and failures
# below it.
summary() {
	local reps reps_done load_before load_max
	reps=$(meta reps)
	reps_done=$(meta reps_done)
	load_before=$(meta loadavg_before)
	load_max=$(meta loadavg_max)
	echo "# CVQ benchmark sweep"
	echo
	echo "Guest kernel $(meta kernel), $(meta guest_cpus) vCPUs (TCG);" \
		"$reps repetitions per configuration, each device and load mode" \
		"taking a turn of back-to-back loads; $(meta started), $(meta wall_s) s" \
		"wall time, host load average $load_before before," \
		"$(meta loadavg_after) after, at most $load_max during, commit" \
		"$(meta commit)$([ "$(meta quick)" = 1 ] && echo " (--quick)")."
	echo
	if above "${load_before%% *}" 2; then
		echo "WARNING: the host's load average was ${load_before%% *}" \
			"before the sweep: other work competed for the CPUs the" \
			"guest's vCPUs run on, which stalls loads for whole" \
			"scheduler ticks; these figures are not comparable with a" \
			"run on a quiet host."
		echo
	fi
	if above "${load_max:-0}" 3; then
		echo "WARNING: the host's load average reached $load_max during" \
			"the sweep (the guest alone makes about 2): other work" \
			"competed with the guest for a while, and the loads that" \
			"ran then are slow."
		echo
	fi
	if [ -n "$reps_done" ] && [ "$reps_done" != "$reps" ]; then
		echo "INCOMPLETE: the time budget of $(meta budget_s) s ran out" \
			"after $reps_done of $reps repetitions; the configurations" \
			"of the unfinished one have one repetition more than the rest."
		echo
	fi
	cat "$out/sweep.md"
	if grep -q '^bench: note ' "$from"; then
		echo
		echo "Notes from the tool:"
		echo
		tr -d '\r' <"$from" | sed -n 's/^bench: note /- /p'
	fi
	if grep -q '^bench: redundant: ' "$from"; then
		echo
		echo "Not like with like: in these configurations vdpa_sim_batch" \
			"acked commands that changed nothing as redundant, without" \
			"their work, where stock redoes every one; its figures there" \
			"are those of the redundant path:"
		echo
		tr -d '\r' <"$from" | sed -n 's/^bench: redundant: /- /p' | sort -u
	fi
	if grep -q '^bench: FAILED: ' "$from"; then
		echo
		echo "FAILED configurations:"
		echo
		tr -d '\r' <"$from" | sed -n 's/^bench: FAILED: /- /p'
	fi
}

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
	[ -r "$from" ] || die "cannot read $from"
	cp "$from" "$out/sweep.log"
fi
[ -r "$from" ] || die "cannot read $from"
grep -q '^sample sweep-' "$from" || die "no measurements in $from"

make -s -C "$VB_ROOT" bench-report >&2 || die "cannot build bench-report"
rm -rf "$out/sweep"
mkdir -p "$out/sweep"
extract_samples "$from" "$out/sweep"
"$REPORT_BIN" --data "$out/sweep" --table sweep --baseline "$BASELINE" \
	--out "$out" || die "bench-report could not make the tables of $from"
bench_plot "$out/sweep.csv" "$out"
summary >"$out/summary.md"
cat "$out/summary.md"
say "wrote $out/{sweep.csv,sweep.md,summary.md}" \
	"and $out/{us-per-command,notifications}.{png,svg}"
exit "$status"
