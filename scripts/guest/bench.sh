#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Inside the test-bed VM: the measurement half of scripts/bench.sh. Sweeps
# CVQ loads over workloads (profile x commands per load) and client modes
# (serial|parallel x kick each|once x wait poll|call) on three devices:
#
#   stock0  stock vdpa_sim_net
#   imm0    vdpa_sim_batch, immediate completion (one used-index update and
#           one notification per command)
#   batch0  vdpa_sim_batch, batch completion
#
# For each configuration the devices take turns, stock0 imm0 batch0, once
# per repetition, so drift in the machine hits all three alike. Each turn
# is one "vdpactl-batch load" of ROUNDS loads whose JSON report lands in a
# file: nothing else runs while a load does (even jq starting beside a
# load stalled it by milliseconds on this 2-vCPU guest).
# Only when every load is done does one jq pass reduce the reports to one
# JSON line per turn on stdout, after a {"run": ...} line describing the
# sweep. Progress lines start with "bench:". A failed load is recorded as
# {"error": ...} and makes the exit status 1 once the sweep is over.
#
# The sweep stops starting configurations once the guest has been up for
# BUDGET seconds (50 with --quick, else 780) and reports what it measured;
# the run record says how many repetitions were complete.
#
# Usage: bench.sh [--quick] [--reps N] [--budget SECONDS]
set -e
. tests/vm/lib/testbed.sh

quick=0
reps=
budget=
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--reps)
		reps=${2:?}
		shift
		;;
	--budget)
		budget=${2:?}
		shift
		;;
	*)
		echo "usage: bench.sh [--quick] [--reps N] [--budget SECONDS]" >&2
		exit 2
		;;
	esac
	shift
done

# WORKLOADS: PROFILE:COMMANDS_PER_LOAD. MODES: MODE:KICK:WAIT. Each turn
# sends about TURN_COMMANDS commands, in MIN_ROUNDS..MAX_ROUNDS loads: many
# small loads so that their median is stable, and still enough big ones.
WORKLOADS="mac:1 mac:10 mac:30 mac:100 mac:1000 qemu:30 vlan:4094"
if [ "$quick" = 1 ]; then
	MODES="serial:each:poll parallel:each:poll parallel:once:poll
		parallel:once:call"
	reps=${reps:-5}
	budget=${budget:-50}
	TURN_COMMANDS=1000
	MIN_ROUNDS=5
	MAX_ROUNDS=200
else
	MODES=
	for wait in poll call; do
		for kick in each once; do
			MODES="$MODES serial:$kick:$wait parallel:$kick:$wait"
		done
	done
	reps=${reps:-7}
	budget=${budget:-780}
	TURN_COMMANDS=3000
	MIN_ROUNDS=11
	MAX_ROUNDS=500
fi
DEVICES="stock0 imm0 batch0"
# A host too busy for its vCPUs can hold a completion back for a second
# (the guest kernel then reports a long clocksource readout); only a far
# longer silence is a device's fault.
COMPLETION_TIMEOUT_MS=10000
RAW=/tmp/bench
failed=0
seq=0
reps_done=0

# Whole seconds since boot.
uptime_s() {
	cut -d . -f 1 /proc/uptime
}

rounds_for() {
	_r=$((TURN_COMMANDS / $1))
	[ "$_r" -lt "$MIN_ROUNDS" ] && _r=$MIN_ROUNDS
	[ "$_r" -gt "$MAX_ROUNDS" ] && _r=$MAX_ROUNDS
	echo "$_r"
}

# Both module devices are set explicitly, whatever the module's default.
add_devices() {
	tb_load_stock
	tb_load_batch
	tb_dev_add stock0 vdpasim_net vhost_vdpa
	tb_dev_add imm0 vdpasim_batch vhost_vdpa
	tb_dev_add batch0 vdpasim_batch vhost_vdpa
	vdpactl-batch dev batching imm0 completion immediate
	vdpactl-batch dev batching batch0 completion batch
}

# completion_of DEV: the completion mode the module reports for DEV.
completion_of() {
	vdpactl-batch dev state "$1" |
		sed -n '1s/.* completion \([a-z]*\) .*/\1/p'
}

# turn FILE DEV PROFILE COUNT ROUNDS MODE KICK WAIT: one device's loads.
turn() {
	_file=$1
	shift
	if ! vdpactl-batch -j load --dev "$1" --profile "$2" --count "$3" \
		--rounds "$4" --mode "$5" --kick "$6" --wait "$7" \
		--timeout "$COMPLETION_TIMEOUT_MS" >"$_file.json" 2>"$_file.err"; then
		echo "bench: FAILED: $* ($(cat "$_file.err"))"
		failed=1
	fi
}

# Page in the tool and the devices' paths before anything counts.
warm_up() {
	for _dev in $DEVICES; do
		vdpactl-batch load --dev "$_dev" --count 30 --rounds 50 \
			--mode parallel --timeout "$COMPLETION_TIMEOUT_MS" >/dev/null
	done
}

# One repetition: every configuration once, the devices taking turns.
# Repetitions run one after the other, so that whatever drifts over the
# sweep shows as spread between them, and a sweep cut short by its time
# budget still covers every configuration it reached.
sweep_rep() {
	for _work in $WORKLOADS; do
		_profile=${_work%%:*}
		_count=${_work#*:}
		_rounds=$(rounds_for "$_count")
		for _mode in $MODES; do
			if [ "$(uptime_s)" -ge "$budget" ]; then
				echo "bench: $(uptime_s) s: time budget of $budget s" \
					"used up, stopping in repetition $1"
				return 1
			fi
			# shellcheck disable=SC2046 # MODE:KICK:WAIT into $1 $2 $3
			set -- "$1" $(echo "$_mode" | tr : ' ')
			for _dev in $DEVICES; do
				seq=$((seq + 1))
				turn "$RAW/$(printf %05d "$seq")-$1" "$_dev" \
					"$_profile" "$_count" "$_rounds" "$2" "$3" "$4"
			done
		done
	done
}

sweep() {
	_rep=1
	while [ "$_rep" -le "$reps" ]; do
		echo "bench: $(uptime_s) s: repetition $_rep of $reps"
		sweep_rep "$_rep" || return 0
		reps_done=$_rep
		_rep=$((_rep + 1))
	done
}

# One line per turn; the host does the statistics.
report() {
	jq -n -c -M --arg kernel "$(uname -r)" --argjson cpus "$(nproc)" \
		--argjson quick "$quick" --argjson reps "$reps" \
		--argjson reps_done "$reps_done" --argjson budget "$budget" \
		--argjson turn_commands "$TURN_COMMANDS" \
		--arg devices "$DEVICES" --arg imm "$imm_completion" \
		--arg batch "$batch_completion" '
		{run: {kernel: $kernel, guest_cpus: $cpus, quick: ($quick == 1),
		       reps: $reps, reps_done: $reps_done, budget_s: $budget,
		       turn_commands: $turn_commands,
		       devices: ($devices | split(" ")),
		       completion: {imm0: $imm, batch0: $batch}}}'
	for _err in "$RAW"/*.err; do
		[ -s "$_err" ] || continue
		jq -n -c -M --arg file "${_err##*/}" --rawfile msg "$_err" \
			'{error: {turn: $file, message: $msg}}'
	done
	# A failed turn leaves an empty report: jq skips it.
	jq -c -M -f scripts/guest/bench-record.jq "$RAW"/*.json
}

mkdir -p "$RAW"
add_devices
imm_completion=$(completion_of imm0)
batch_completion=$(completion_of batch0)
echo "bench: devices $DEVICES; completion: imm0 $imm_completion," \
	"batch0 $batch_completion"
if [ "$imm_completion" != immediate ] || [ "$batch_completion" != batch ]; then
	echo "bench: the module did not take the completion modes" >&2
	exit 1
fi
warm_up
sweep
echo "bench: $(uptime_s) s: measured"
report
exit "$failed"
