#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The main job ("make run"): build what is missing, run each benchmark
# stage in the test-bed VM, then print the one-page verdict. The terminal
# gets one line when a stage starts and one when it ends; everything a
# stage prints goes to build/bench/logs/STAGE.log, and the measurements
# its guest prints as "sample STAGE ..." lines to build/bench/STAGE.samples
# (tools/bench-report/samples.h), from which bench-report computes every
# figure, writes verdict.txt and report.html. See Documentation/benchmark.rst.
set -uo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/samples.sh
. "$VB_ROOT/scripts/lib/samples.sh"

usage() {
	cat >&2 <<EOT
Usage: $VB_PROG [--report-only]

Runs the main job's stages one after the other and prints the verdict.
Data, logs and the report go to $VB_BUILD/bench (BENCH_OUT overrides).
--report-only: only the verdict and report, from the samples already there.
EOT
	exit "${1:-2}"
}

report_only=0
case "${1:-}" in
'') ;;
--report-only) report_only=1 ;;
-h | --help) usage 0 ;;
*) usage ;;
esac

OUT=${BENCH_OUT:-$VB_BUILD/bench}
LOGS=$OUT/logs
REPORT_BIN=$VB_BUILD/bench-report/bench-report
SPEC=$VB_ROOT/scripts/lib/verdict.spec
# Each stage: NAME|what it measures|typical seconds on the 2-core host.
# A previous run's times (stages.tsv) replace the typical ones.
# (measured on the 2-core host: a first run's build includes setup's
# downloads).
STAGES_TESTBED=(
	"build|setup, the module, the tool and the VM image (apt and kbuild)|300"
	"cvq|vdpactl-batch CVQ loads: stock vs vdpa_sim_batch, 7 devices, 3 kick/wait patterns|80"
	"insns|guest instructions per command, counted by a TCG plugin|110"
	"scale|the device's instructions per command, 1 to 4096 commands, 1 to 8 devices|60"
	"qemu|QEMU 10's CVQ state load at cont, 4 devices|100"
	"cost|the CVQ cost model: QEMU and the tool at 5 cost levels|135"
	"cold|cold loads: reset to data queues up, stock vs vdpa_sim_batch|25"
)
STAGES_NEWEST=(
	"build|setup of the newest kernel's test bed and the VM image|300"
	"cvq|vdpactl-batch CVQ loads on the newest kernel|80"
)

# stage_cmd NAME: what the stage runs.
stage_cmd() {
	case "$1" in
	build)
		# Setup may pick a new kernel: what follows runs in a fresh make.
		if [ "$VB_KERNEL" = testbed ]; then
			make -C "$VB_ROOT" setup &&
				make -C "$VB_ROOT" testbed-image insn-count bench-report
		else
			make -C "$VB_ROOT" setup newest-setup &&
				{ [ -e "$VB_BUILD/newest.env" ] ||
					{ echo "no kernel newer than the test bed's in the archive"; false; }; } &&
				make -C "$VB_ROOT" KERNEL="$VB_KERNEL" testbed-image bench-report
		fi
		;;
	cvq) VM_NO_BUILD=1 "$VB_ROOT/testbed/vm.sh" --name run -- scripts/guest/main-job.sh ;;
	insns) VM_NO_BUILD=1 "$VB_ROOT/scripts/bench-insns.sh" ;;
	scale) VM_NO_BUILD=1 "$VB_ROOT/scripts/bench-scale.sh" ;;
	# 15 rounds: with 7, one slow boot's drift could flip a ratio.
	qemu) VM_NO_BUILD=1 "$VB_ROOT/scripts/bench-qemu.sh" --rounds 15 ;;
	cost) VM_NO_BUILD=1 "$VB_ROOT/scripts/bench-cost.sh" ;;
	cold) VM_NO_BUILD=1 "$VB_ROOT/scripts/bench-cold.sh" ;;
	esac
}

# mmss SECONDS
mmss() {
	printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

# cpu_jiffies: "BUSY TOTAL" of all CPUs, from /proc/stat.
cpu_jiffies() {
	read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
	echo "$((user + nice + system + irq + softirq + steal))" \
		"$((user + nice + system + idle + iowait + irq + softirq + steal))"
}

# typical NAME DEFAULT: the stage's time in the last run, or DEFAULT.
typical() {
	local t
	t=$(sed -n "s/^$1\t//p" "$OUT/stages.tsv" 2>/dev/null | tail -1)
	echo "${t:-$2}"
}

run_stages() {
	local -a stages
	local i n name what log start took left failed=0
	if [ "$VB_KERNEL" = testbed ]; then
		stages=("${STAGES_TESTBED[@]}")
	else
		stages=("${STAGES_NEWEST[@]}")
	fi
	n=${#stages[@]}
	: >"$OUT/stages.tsv.new"
	for ((i = 0; i < n; i++)); do
		IFS='|' read -r name what _ <<<"${stages[i]}"
		left=0
		for s in "${stages[@]:i}"; do
			left=$((left + $(typical "${s%%|*}" "${s##*|}")))
		done
		log=$LOGS/$name.log
		printf '[%d/%d] %-5s %s (%s in, about %s to go)\n' $((i + 1)) "$n" \
			"$name" "$what" "$(mmss $SECONDS)" "$(mmss "$left")"
		start=$SECONDS
		if stage_cmd "$name" >"$log" 2>&1; then
			took=$((SECONDS - start))
			printf '[%d/%d] %-5s done in %s\n' $((i + 1)) "$n" "$name" "$(mmss $took)"
			printf '%s\t%s\n' "$name" "$took" >>"$OUT/stages.tsv.new"
		else
			printf '[%d/%d] %-5s FAILED after %s; the end of %s:\n' $((i + 1)) \
				"$n" "$name" "$(mmss $((SECONDS - start)))" "$log"
			tail -n 5 "$log" | sed 's/^/    /'
			failed=1
			[ "$name" = build ] && return 1
		fi
		extract_samples "$log" "$OUT"
	done
	mv "$OUT/stages.tsv.new" "$OUT/stages.tsv"
	return "$failed"
}

mkdir -p "$LOGS"
status=0
if [ "$report_only" = 0 ]; then
	rm -f "$OUT"/*.samples
	read -r busy_before total_before < <(cpu_jiffies)
	load_before=$(cut -d' ' -f1 /proc/loadavg)
	echo "make run: $(vb_commit), kernel $VB_KERNEL; logs, data and the report go to $OUT"
	run_stages || status=1
	read -r busy_after total_after < <(cpu_jiffies)
	# The run's own CPU time: its children's, reaped (fields 16-17).
	own=$(awk '{ print $16 + $17 }' /proc/$$/stat)
	load_after=$(cut -d' ' -f1 /proc/loadavg)
	load_testbed_env
	cat >"$OUT/run.meta" <<EOT
commit=$(vb_commit)
kernel=$TESTBED_KVER
date=$(date -u '+%Y-%m-%d %H:%M UTC')
elapsed=$(mmss $SECONDS)
cpus=$(nproc)
load_before=$load_before
load_after=$load_after
busy_before=$busy_before
busy_after=$busy_after
total_before=$total_before
total_after=$total_after
own=$own
EOT
fi
make -s -C "$VB_ROOT" bench-report >"$LOGS/report.log" 2>&1 ||
	{ cat "$LOGS/report.log" >&2; exit 1; }
"$REPORT_BIN" --data "$OUT" --spec "$SPEC" >/dev/null || status=1
# The page as a browser shows it, kept beside it; a plot that does not
# render fails the run. An earlier run's picture is never passed off as
# this one's.
rm -f "$OUT/report.png"
rendered="not rendered: no chromium, which scripts/setup.sh installs"
if command -v chromium >/dev/null; then
	if "$VB_ROOT/scripts/render-check.sh" "$OUT/report.html" "$OUT/report.png" \
		>"$LOGS/render-check.log" 2>&1; then
		rendered="as rendered: report.png"
	else
		rendered="does not render: $LOGS/render-check.log"
		echo "report.html $rendered"
		status=1
	fi
fi
echo "report: $OUT/report.html ($rendered); samples: $OUT/*.samples;"
echo "logs: $LOGS/; the verdict, also in $OUT/verdict.txt:"
echo
cat "$OUT/verdict.txt" 2>/dev/null || status=1
exit "$status"
