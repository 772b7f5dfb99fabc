#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The module's tracepoints, read straight from /sys/kernel/tracing: a
# load's commands, batches and kicks each show up as events of the right
# device, with the fields Documentation/tracing.rst describes. The devices
# ask for every kick (suppress_kicks=N), so that kicks are exact counts;
# tests/vm/control/36-batch-kick-suppress.t counts suppressed ones.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

T=/sys/kernel/tracing
EV=$T/events/vdpa_sim_batch
COUNT=30
ROUNDS=20
TOTAL=$((COUNT * ROUNDS))

# trace_count EVENT DEV: events EVENT of device DEV in the trace buffer.
trace_count() {
	grep -cE " $1: dev=$2( |\$)" "$T/trace"
}

# traced_load DEV ARGS...: run a load with every event on, fresh buffer.
traced_load() {
	dev=$1
	shift
	echo 0 >"$T/tracing_on"
	echo >"$T/trace"
	echo 1 >"$EV/enable"
	echo 1 >"$T/tracing_on"
	vdpactl-batch load --dev "$dev" "$@" >/tmp/load.out 2>&1
	status=$?
	echo 0 >"$T/tracing_on"
	echo 0 >"$EV/enable"
	return $status
}

tap_plan 11
tb_load_batch
echo N >/sys/module/vdpa_sim_batch/parameters/suppress_kicks
tb_dev_add tb0 vdpasim_batch vhost_vdpa
tb_dev_add tb1 vdpasim_batch vhost_vdpa
echo Y >/sys/module/vdpa_sim_batch/parameters/suppress_kicks
echo 8192 >"$T/buffer_size_kb"

for e in vsb_cvq_kick vsb_cvq_cmd vsb_cvq_batch vsb_needs_reset; do
	tap_ok "event vdpa_sim_batch/$e exists" test -d "$EV/$e"
done

tap_ok "parallel load with tracing on succeeds" \
	traced_load tb0 --count $COUNT --rounds $ROUNDS --mode parallel --kick once ||
	tap_diag "$(cat /tmp/load.out)"
tap_is "$(trace_count vsb_cvq_cmd tb0)" "$TOTAL" \
	"one vsb_cvq_cmd per command ($TOTAL)"
tap_is "$(grep " vsb_cvq_cmd: dev=tb0 " "$T/trace" | grep -vc ' class=1 cmd=1 ack=0 bytes=8 ')" 0 \
	"every command event: MAC class, ADDR_SET, ack OK, 8 bytes"
batches=$(grep " vsb_cvq_batch: dev=tb0 " "$T/trace" |
	sed -n 's/.* cmds=\([0-9]*\) .*/\1/p' | awk '{ n++; s += $1 } END { print n "/" s }')
tap_is "$batches" "$ROUNDS/$TOTAL" \
	"kick once, batch mode: one vsb_cvq_batch per load, commands add up"
tap_is "$(trace_count vsb_cvq_kick tb0)" "$ROUNDS" "one vsb_cvq_kick per load"
tap_is "$(trace_count vsb_cvq_cmd tb1)" 0 "no events for the idle device"

traced_load tb1 --count $COUNT --rounds $ROUNDS --mode serial --kick each
tap_is "$(trace_count vsb_cvq_cmd tb1)/$(trace_count vsb_cvq_kick tb1)" \
	"$TOTAL/$TOTAL" "serial load: one command and one kick event each"

tap_done
