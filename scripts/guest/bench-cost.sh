#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-cost.sh [ROUNDS [TOOL_ROUNDS]]: the cost-model sweep
# (Documentation/cost-model.rst), inside the test-bed VM
# (scripts/bench-cost.sh boots it). vdpa_sim_batch devices in batch and in
# immediate completion, each priced the same, for op costs LEVELS (us;
# cmd 1 us, none at 0; 100p: 100 us, precise), in this one boot:
#
#   qemu     unmodified QEMU 10's vhost-vdpa state load at "cont", 4098
#            commands (MAC, MQ, 4096 VLANs), ROUNDS loads per device,
#            the two QEMUs alternating load by load (order rotating)
#   tool     "vdpactl-batch compare" of 30-command loads, TOOL_ROUNDS
#            each, kick once and kick each (serial and parallel), the
#            two devices alternating round by round
#
# and for every load the device's cost model as realized: each
# operation's requested and realized cost from the vsb_cvq_cost trace
# event. Prints one raw row per load or compare result, prefixed "raw ";
# the host script (scripts/bench-cost.sh) makes the table and the plot.
#
#   raw CLIENT LEVEL MODE MS OPS CMDS REQ_US REAL_MED_US REAL_P99_US BUSY_MS COST_MS
#
# CLIENT: qemu, or tool-KICK-SERIAL|PARALLEL; MODE: batch or immediate;
# MS: the load time (a compare result's median load); OPS, CMDS: cost
# operations and commands per load; REQ_US: mean requested cost of an
# operation; REAL_*: realized cost per operation, median and p99 ("-"
# without operations: level 0); BUSY_MS: the device's own time on the
# CVQ per load, without the cost (its cvq_busy_ns counter); COST_MS: the
# cost it realized per load.
. testbed/lib/testbed.sh
. testbed/lib/qemu.sh

ROUNDS=${1:-5}
TOOL_ROUNDS=${2:-60}
# 100p: op 100 us with precise on (the last 200 us spinning).
LEVELS="0 5 20 100 100p"
T=/sys/kernel/tracing
PARAMS=/sys/module/vdpa_sim_batch/parameters
WORK=/tmp/cost

# set_cost LEVEL: every device's model for LEVEL.
set_cost() {
	_cmd=1us
	_precise=off
	[ "$1" = 0 ] && _cmd=0ns
	[ "${1%p}" != "$1" ] && _precise=on
	for _d in qb qi tb ti; do
		vdpactl-batch dev cost $_d op "${1%p}us" cmd $_cmd \
			precise $_precise >/dev/null || return 1
	done
}

# busy_ns DEV: DEV's cvq_busy_ns counter.
busy_ns() {
	vdpactl-batch -j stats "$1" 2>/dev/null | jq ".module.$1.counters.cvq_busy_ns"
}

# paid DEV: "OPS CMDS REQ_US REAL_MED_US REAL_P99_US" of DEV's
# vsb_cvq_cost events in the trace (bench-report --summarize: OPS is the
# count, CMDS the commands' total, REQ_US the mean asked for).
paid() {
	grep " vsb_cvq_cost: dev=$1 " "$T/trace" |
		sed 's/.* cmds=\([0-9]*\) ns=\([0-9]*\) real_ns=\([0-9]*\).*/cmds \1\nreq \2\nreal \3/' |
		bench-report --summarize >"$WORK/paid"
	# KEY N MIN Q1 MEDIAN Q3 P99 MAX MEAN
	awk '
	$1 == "cmds" { cmds = $2 * $9 }
	$1 == "req" { req = $9 }
	$1 == "real" { n = $2; med = $5; p99 = $7 }
	END {
		if (!n) { print "0 0 - - -"; exit }
		printf "%d %d %.1f %.1f %.1f\n", n, cmds, req / 1e3, med / 1e3, p99 / 1e3
	}' "$WORK/paid"
}

# cost_ms DEV LOADS: the cost DEV's vsb_cvq_cost events in the trace
# realized, per load, in ms.
cost_ms() {
	grep " vsb_cvq_cost: dev=$1 " "$T/trace" |
		sed 's/.* real_ns=\([0-9]*\).*/\1/' |
		awk -v loads="$2" '{ ns += $1 } END { printf "%.3f\n", ns / loads / 1e6 }'
}

# qemu_load QEMU DEV MODE LEVEL ROUND: one load at cont; its raw row and
# its load time as a sample for bench-report (scripts/run.sh).
qemu_load() {
	_from=$(wc -l <"$QM_DIR/$1.trace")
	_busy=$(busy_ns "$2")
	echo >"$T/trace"
	qm "$1" hmp stop hmp cont || { cat "$QM_DIR/$1.out" >&2; return 1; }
	_ms=$(qm_load_ms "$1" "$_from")
	echo "raw qemu $4 $3 $_ms $(paid "$2")" \
		"$((($(busy_ns "$2") - _busy) / 1000))e-3 $(cost_ms "$2" 1)"
	echo "sample cost-op$4 $3 $5 $_ms"
}

# tool_compare KICK LEVEL: one compare of tb and ti; raw rows per result,
# each with its device's cost over the whole compare, per load.
tool_compare() {
	echo >"$T/trace"
	_busy_tb=$(busy_ns tb)
	_busy_ti=$(busy_ns ti)
	vdpactl-batch -j compare --count 30 --rounds "$TOOL_ROUNDS" \
		--kick "$1" --dev tb --dev ti >$WORK/compare.json || return 1
	for _d in tb ti; do
		_mode="batch"
		[ $_d = ti ] && _mode="immediate"
		_busy=$_busy_tb
		[ $_d = ti ] && _busy=$_busy_ti
		_busy=$(($(busy_ns $_d) - _busy))
		# Both load modes and the warm-ups: 2 * (rounds + 1) loads.
		_loads=$((2 * (TOOL_ROUNDS + 1)))
		_cost=$(cost_ms $_d $_loads)
		# shellcheck disable=SC2046 # five fields
		set -- "$1" "$2" $(paid $_d)
		jq -r --arg dev $_d --arg kick "$1" --arg level "$2" \
			--arg mode $_mode --argjson loads $_loads --arg cost "$_cost" \
			--arg ops "$3" --arg cmds "$4" --arg rest "$5 $6 $7" \
			--argjson busy "$_busy" '
			.compare.results[] | select(.device == $dev) |
			"raw tool-\($kick)-\(.mode) \($level) \($mode) " +
			"\(.median_us_per_command * 30 / 1000) " +
			"\(($ops | tonumber) / $loads) \(($cmds | tonumber) / $loads) \($rest) " +
			"\($busy / $loads / 1e6) \($cost)"' \
			$WORK/compare.json
	done
}

mkdir -p $WORK
tb_load_batch || exit 1
# QEMU's and the tool's device of each mode (QEMU holds its own open).
echo batch >$PARAMS/completion
tb_dev_add qb vdpasim_batch vhost_vdpa mac 02:00:00:00:c0:01 &&
	tb_dev_add tb vdpasim_batch vhost_vdpa || exit 1
echo immediate >$PARAMS/completion
tb_dev_add qi vdpasim_batch vhost_vdpa mac 02:00:00:00:c0:02 &&
	tb_dev_add ti vdpasim_batch vhost_vdpa || exit 1
echo batch >$PARAMS/completion
echo 16384 >"$T/buffer_size_kb"
echo 1 >"$T/events/vdpa_sim_batch/vsb_cvq_cost/enable"
# Each QEMU's first loads after its start are slower, whatever the
# device: two untimed ones each.
for q in q0:qb q1:qi; do
	qm_start "${q%:*}" "${q#*:}" || { cat "$QM_DIR/${q%:*}.err" >&2; exit 1; }
	qm "${q%:*}" init || { cat "$QM_DIR/${q%:*}.out" >&2; exit 1; }
	qm "${q%:*}" hmp stop hmp cont hmp stop hmp cont ||
		{ cat "$QM_DIR/${q%:*}.out" >&2; exit 1; }
done

for level in $LEVELS; do
	echo "bench-cost: op ${level}us: QEMU, $ROUNDS loads each" >&2
	set_cost "$level" || exit 1
	echo "sample cost-op$level @unit ms 1"
	echo "sample cost-op$level @cond QEMU 10, 4098 commands per load at cont, $ROUNDS rounds per cost level, devices alternating"
	r=0
	while [ $r -lt "$ROUNDS" ]; do
		# The engine's rotation (bench-report --order): they alternate.
		order=$(bench-report --order "$r" q0:qb:batch q1:qi:immediate) ||
			exit 1
		for q in $order; do
			# shellcheck disable=SC2046 # QEMU:DEV:MODE
			qemu_load $(echo "$q" | tr : ' ') "$level" "$r" || exit 1
		done
		r=$((r + 1))
	done
	echo "bench-cost: op ${level}us: the tool, $TOOL_ROUNDS rounds" >&2
	for kick in once each; do
		tool_compare $kick "$level" || exit 1
	done
done
qm_quit q0
qm_quit q1
