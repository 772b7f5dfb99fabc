#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Ctrl-C and SIGTERM in the middle of a long load leave nothing behind:
# the load under way completes, the tracefs instance of --trace is gone,
# --trace-marks has a stop for every start, and the report of the loads
# before the signal is printed with "interrupted": true; the exit status
# is 128 plus the signal. The device then serves the next load.
#
# The loads run in the background, which ignores SIGINT: the tool takes
# SIGINT over anyway, so that a script's kill -INT stops it cleanly.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

OUT=/tmp/interrupt.json
ERR=/tmp/interrupt.err
TRACING=/sys/kernel/tracing

# fresh_trace: an empty top-level buffer, recording.
fresh_trace() {
	echo 0 >"$TRACING/tracing_on"
	echo >"$TRACING/trace"
	echo 1 >"$TRACING/tracing_on"
}

# a_load_done: the top-level buffer has a whole load's marks.
a_load_done() {
	grep -q "vdpactl-batch: load stop dev=b0 " "$TRACING/trace"
}

# long_load SIGNAL OPTION...: a load of a million rounds (text report
# with -t as the first option), stopped by SIGNAL once a whole load is
# done; its status in $status.
long_load() {
	_sig=$1
	shift
	_json=-j
	[ "$1" = -t ] && _json= && shift
	fresh_trace
	vdpactl-batch $_json load --dev b0 --count 30 --rounds 1000000 \
		--trace-marks "$@" >"$OUT" 2>"$ERR" &
	_pid=$!
	tb_wait 30 a_load_done || tap_diag "no load done in 30 s"
	kill -"$_sig" $_pid
	wait $_pid
	status=$?
	echo 0 >"$TRACING/tracing_on"
}

# instances: the tool's tracefs instances left.
instances() {
	_n=0
	for _i in "$TRACING"/instances/vdpactl-batch-*; do
		[ -e "$_i" ] && _n=$((_n + 1))
	done
	echo $_n
}

# marks WHAT: the --trace-marks lines of that kind in the main buffer.
marks() {
	grep -c "vdpactl-batch: load $1 dev=b0 " "$TRACING/trace"
}

# overrun: lines the top-level buffer dropped, over all CPUs.
overrun() {
	cat "$TRACING"/per_cpu/cpu*/stats |
		awk '$1 == "overrun:" { n += $2 } END { print n + 0 }'
}

tap_plan 12
tb_load_batch
tb_dev_add b0 vdpasim_batch vhost_vdpa

long_load INT --trace
tap_is "$status" 130 "Ctrl-C: exit status 130"
loads=$(jq -r '.load.b0.failed.after_loads' "$OUT")
tap_is "$(jq -c '.load.b0 | [.interrupted, .failed.error]' "$OUT")" \
	'[true,"interrupted by SIGINT"]' \
	"the partial report says interrupted ($loads loads)" ||
	tap_diag "$(cat "$ERR")"
tap_is "$(jq -r '.load.b0.total_commands' "$OUT")" "$((30 * loads))" \
	"it covers every load that completed, the one under way included"
tap_is "$(instances)" 0 "no tracefs instance is left"
starts=$(marks start)
if [ "$(overrun)" -eq 0 ]; then
	tap_is "$(marks stop)" "$starts" \
		"a trace mark stop for every start ($starts)"
else
	tap_skip "a trace mark stop for every start" \
		"the buffer dropped $(overrun) lines"
fi
tap_is "$(grep -o "vdpactl-batch: load [a-z]* dev=b0" "$TRACING/trace" |
	tail -n 1)" "vdpactl-batch: load stop dev=b0" \
	"the last trace mark is a stop"

long_load TERM --trace
tap_is "$status" 143 "SIGTERM: exit status 143"
tap_is "$(jq -r '.load.b0.failed.error' "$OUT")" "interrupted by SIGTERM" \
	"the report names SIGTERM"
tap_is "$(instances)" 0 "no tracefs instance is left"

long_load INT -t
tap_is "$status" 130 "text output: exit status 130"
tap_ok "the text report says why it stopped" \
	grep -q "failed after [0-9]* loads of 1000000: interrupted by SIGINT" "$OUT"

tap_ok "the device serves the next load" \
	vdpactl-batch load --dev b0 --count 30 --rounds 10
tb_dev_del b0
tap_done
