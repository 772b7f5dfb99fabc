#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Inside the test-bed VM: the measurement half of scripts/bench.sh. Sweeps
# CVQ loads over workloads (profile x commands per load) and client modes
# (kick each|once x wait poll|call) on three devices:
#
#   stock0  stock vdpa_sim_net
#   imm0    vdpa_sim_batch, immediate completion (one used-index update and
#           one notification per command)
#   batch0  vdpa_sim_batch, batch completion
#
# Each configuration is one "vdpactl-batch compare" per repetition whose
# one round gives each device and load mode a turn of ROUNDS loads back
# to back (--turn), as a single "load" run would, so that the device's
# worker stays awake between them and the figures are of the device's
# own work; every timed load is kept (--samples). Repetition REP runs
# round REP of the rotation (--first-round REP), so that the devices take
# turns going first and parallel goes before serial every other time.
# Stock vdpa_sim_net negotiates only
# CTRL_MAC_ADDR, so compare, which only sets like against like, measures
# the qemu and vlan profiles on imm0 and batch0 alone. Nothing else runs
# while a compare does: its report and samples land in files, and only
# when the sweep is over are they printed, as the lines scripts/bench.sh
# files for bench-report (tools/bench-report/samples.h):
#
#   sample sweep-P-N-K-W DEV/MODE LOAD NS COMMANDS
#       every load; LOAD counts on across repetitions (REP * ROUNDS +
#       the load's place in its turn), so a ratio pairs the k-th loads of
#       the devices' turns in one repetition
#   sample sweep-P-N-K-W-counts DEV/MODE/COUNTER REP TOTAL LOADS
#       the tool's kicks and wake-ups (sleeps) and the device's "cvq
#       notifications" (vdpa vstats; stock offers none) of a repetition
#   meta KEY VALUE   the sweep's facts
#   bench: ...       progress, the tool's notes, failures
#
# A failed compare is reported as "bench: FAILED: ..." and makes the exit
# status 1 once the sweep is over; the whole rounds it measured count.
# Where vdpa_sim_batch acked commands as redundant, without work (compare's
# redundant_commands), as it does where every load repeats the state it
# holds (mac x1, qemu, vlan), the configuration is kept, measuring the
# redundant path, and named in a "bench: redundant: ..." line.
#
# The sweep stops starting configurations once the guest has been up for
# BUDGET seconds (120 with --quick, else 780) and reports what it measured;
# "meta reps_done" says how many repetitions were complete.
#
# Usage: bench.sh [--quick] [--reps N] [--budget SECONDS]
set -e
. testbed/lib/testbed.sh

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

# WORKLOADS: PROFILE:COMMANDS_PER_LOAD. MODES: KICK:WAIT, each measured
# serial and parallel by compare. Each device and load mode gets about
# TURN_COMMANDS commands per repetition, in MIN_ROUNDS..MAX_ROUNDS loads:
# many small loads so that their median is stable, and still enough big
# ones.
WORKLOADS="mac:1 mac:10 mac:30 mac:100 mac:1000 qemu:30 vlan:4094"
if [ "$quick" = 1 ]; then
	MODES="each:poll once:poll once:call"
	reps=${reps:-3}
	budget=${budget:-120}
	TURN_COMMANDS=1000
	MIN_ROUNDS=5
	MAX_ROUNDS=200
else
	MODES="each:poll once:poll each:call once:call"
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

# devices_for PROFILE: the devices that can send PROFILE's commands alike.
devices_for() {
	if [ "$1" = mac ]; then
		echo "$DEVICES"
	else
		echo "imm0 batch0"
	fi
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

# measure FILE REP PROFILE COUNT ROUNDS KICK WAIT: one configuration's
# compare in repetition REP, its report into FILE.json, its samples into
# FILE.samples. Its one round is round REP of the rotation
# (--first-round), so that over the repetitions every device goes first
# in turn and parallel before serial every other time, as in one compare
# of many rounds.
measure() {
	_file=$1
	_first=$2
	shift 2
	_devs=
	for _dev in $(devices_for "$1"); do
		_devs="$_devs --dev $_dev"
	done
	# shellcheck disable=SC2086 # one word per --dev and name
	if ! vdpactl-batch -j compare $_devs --profile "$1" --count "$2" \
		--rounds 1 --first-round "$_first" --turn "$3" --kick "$4" --wait "$5" \
		--timeout "$COMPLETION_TIMEOUT_MS" --samples "$_file.samples" \
		>"$_file.json" 2>"$_file.err"; then
		echo "bench: FAILED: $* ($(tail -n 1 "$_file.err"))"
		failed=1
	elif ! jq -e '.compare.redundant_commands == 0' "$_file.json" >/dev/null; then
		echo "bench: redundant: $1 x$2, kick $4, wait $5"
	fi
}

# Page in the tool and the devices' paths before anything counts.
warm_up() {
	for _dev in $DEVICES; do
		vdpactl-batch load --dev "$_dev" --count 30 --rounds 50 \
			--mode parallel --timeout "$COMPLETION_TIMEOUT_MS" >/dev/null
	done
}

# One repetition: every configuration once. Repetitions run one after the
# other, so that whatever drifts over the sweep shows as spread between
# them, and a sweep cut short by its time budget still covers every
# configuration it reached. Files are named SEQ-REP-PROFILE-COUNT-KICK-WAIT-ROUNDS.
sweep_rep() {
	for _work in $WORKLOADS; do
		_profile=${_work%%:*}
		_count=${_work#*:}
		_rounds=$(rounds_for "$_count")
		for _mode in $MODES; do
			if [ "$(uptime_s)" -ge "$budget" ]; then
				echo "bench: $(uptime_s) s: time budget of $budget s" \
					"used up, stopping in repetition $(($1 + 1))"
				return 1
			fi
			_kick=${_mode%:*}
			_wait=${_mode#*:}
			seq=$((seq + 1))
			measure "$RAW/$(printf %05d "$seq")-$1-$_profile-$_count-$_kick-$_wait-$_rounds" \
				"$1" "$_profile" "$_count" "$_rounds" "$_kick" "$_wait"
		done
	done
}

# Progress: each repetition's start, and from the second on an estimate
# of what is left from the pace so far, within the time budget.
sweep() {
	_rep=0
	_start=$(uptime_s)
	while [ "$_rep" -lt "$reps" ]; do
		_now=$(uptime_s)
		_left=
		if [ "$_rep" -gt 0 ]; then
			_left=$(((_now - _start) * (reps - _rep) / _rep))
			[ $((_now + _left)) -gt "$budget" ] &&
				_left=$((budget - _now))
			_left=", about $_left s left"
		fi
		echo "bench: $_now s: repetition $((_rep + 1)) of $reps$_left"
		sweep_rep "$_rep" || return 0
		_rep=$((_rep + 1))
		reps_done=$_rep
	done
}

# report_config FILE: one compare's samples and counters as sample lines.
# Rounds are numbered on across repetitions: the statistics are
# bench-report's.
report_config() {
	# shellcheck disable=SC2046 # SEQ-REP-PROFILE-COUNT-KICK-WAIT-ROUNDS
	set -- $(basename "$1" .json | tr - ' ') "$1"
	_stage=sweep-$3-$4-$5-$6
	_base=${8%.json}
	[ -s "$_base.samples" ] || return 0
	_ring=$(jq '.compare.ring_size' "$8")
	echo "sample $_stage @unit us/cmd 0.001"
	echo "sample $_stage @cond $3 x$4, $7 loads a turn x $reps repetitions," \
		"$_ring-entry CVQ, kick $5, wait $6, devices and load modes taking turns"
	awk -v stage="$_stage" -v offset="$(($2 * $7))" \
		'!/^#/ { print "sample", stage, $1, $2 + offset, $3, $4 }' \
		"$_base.samples"
	echo "sample $_stage-counts @unit per-load 1"
	echo "sample $_stage-counts @cond $3 x$4, kick $5, wait $6:" \
		"per load, one value per repetition"
	jq -r --arg stage "$_stage-counts" --arg rep "$2" '
		.compare | ((.failed.after_rounds // .rounds) * (.turn // 1)) as $loads |
		.results[] | . as $r |
		"sample \($stage) \($r.device)/\($r.mode)/kicks \($rep) \($r.kicks) \($loads)",
		"sample \($stage) \($r.device)/\($r.mode)/wakeups \($rep) \($r.sleeps) \($loads)",
		($r.vstats.delta["cvq notifications"] // empty |
		 "sample \($stage) \($r.device)/\($r.mode)/notifications \($rep) \(.) \($loads)")' \
		"$8"
}

# The tool's notes, once per device and workload.
report_notes() {
	for _json in "$RAW"/*.json; do
		[ -s "$_json" ] || continue
		# shellcheck disable=SC2046 # SEQ-REP-PROFILE-COUNT-... into $1..
		set -- $(basename "$_json" .json | tr - ' ')
		jq -r --arg work "$3 x$4" '.compare.results[] | select(.note) |
			"bench: note \(.device): \($work): \(.note)"' "$_json"
	done | sort -u
}

# Only once every load is done: the facts, the samples, the notes.
report() {
	echo "meta kernel $(uname -r)"
	echo "meta guest_cpus $(nproc)"
	echo "meta quick $quick"
	echo "meta reps $reps"
	echo "meta reps_done $reps_done"
	echo "meta budget_s $budget"
	echo "meta turn_commands $TURN_COMMANDS"
	echo "meta completion imm0 $imm_completion, batch0 $batch_completion"
	for _json in "$RAW"/*.json; do
		[ -s "$_json" ] && report_config "$_json"
	done
	report_notes
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
