#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Ctrl-C and SIGTERM in the middle of a long load leave nothing behind:
# the load under way completes, the tracefs instance of --trace is gone,
# --trace-marks has a stop for every start, and the report of the loads
# before the signal is printed with "interrupted": true; the exit status
# is 128 plus the signal. The device then serves the next load.
. tests/lib/tap.sh
. tests/vm/lib/testbed.sh

OUT=/tmp/interrupt.json
ERR=/tmp/interrupt.err
TRACING=/sys/kernel/tracing

# long_load SIGNAL OPTION...: a load of a million rounds, stopped by
# SIGNAL once it has run for a second; its status in $status.
long_load() {
	_sig=$1
	shift
	vdpactl-batch -j load --dev b0 --count 30 --rounds 1000000 "$@" \
		>"$OUT" 2>"$ERR" &
	_pid=$!
	sleep 1
	kill -"$_sig" $_pid
	wait $_pid
	status=$?
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

tap_plan 12
tb_load_batch
tb_dev_add b0 vdpasim_batch vhost_vdpa
echo 0 >"$TRACING/tracing_on"
echo >"$TRACING/trace"
echo 1 >"$TRACING/tracing_on"

long_load INT --trace --trace-marks
tap_is "$status" 130 "Ctrl-C: exit status 130"
loads=$(jq -r '.load.b0.failed.after_loads' "$OUT")
tap_is "$(jq -c '.load.b0 | [.interrupted, .failed.error]' "$OUT")" \
	'[true,"interrupted by SIGINT"]' \
	"the partial report says interrupted ($loads loads)" ||
	tap_diag "$(cat "$ERR")"
tap_is "$(jq -r '.load.b0.total_commands' "$OUT")" "$((30 * loads))" \
	"it covers every load that completed, the one under way included"
tap_is "$(instances)" 0 "no tracefs instance is left"
echo 0 >"$TRACING/tracing_on"
starts=$(marks start)
tap_is "$(marks stop)" "$starts" "a trace mark stop for every start ($starts)"
# The buffer keeps the newest lines: the last mark must close a load.
tap_is "$(grep -o "vdpactl-batch: load [a-z]* dev=b0" "$TRACING/trace" |
	tail -n 1)" "vdpactl-batch: load stop dev=b0" \
	"the last trace mark is a stop"
echo >"$TRACING/trace"
echo 1 >"$TRACING/tracing_on"

long_load TERM --trace
tap_is "$status" 143 "SIGTERM: exit status 143"
tap_is "$(jq -r '.load.b0.failed.error' "$OUT")" "interrupted by SIGTERM" \
	"the report names SIGTERM"
tap_is "$(instances)" 0 "no tracefs instance is left"

# Text output: the same report, as text.
vdpactl-batch load --dev b0 --count 30 --rounds 1000000 >"$OUT" 2>"$ERR" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
tap_is "$?" 130 "text output: exit status 130"
tap_ok "the text report says why it stopped" \
	grep -q "failed after [0-9]* loads of 1000000: interrupted by SIGINT" "$OUT"

tap_ok "the device serves the next load" \
	vdpactl-batch load --dev b0 --count 30 --rounds 10
tb_dev_del b0
tap_done
