#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The device asks for no CVQ kicks while it serves the queue and while its
# worker watches the ring before sleeping (VRING_USED_F_NO_NOTIFY; the
# module parameter suppress_kicks, on by default). vdpactl-batch honours
# the flag, as QEMU's shadow virtqueue does, so a stream of kick-each
# loads needs only a few kicks; with suppress_kicks=0 it kicks for every
# command. Either way the device and the driver count the same kicks, and
# every command is acked.
#
# A load that finds the worker asleep (kick_poll_us=0: it sleeps after
# every load) is QEMU's case when a VM starts or arrives. Its first kick
# must already ask for no more (kick_hint, on by default): the worker is
# still waking up while the driver adds the rest. With kick_hint=N, in
# the same boot, the driver kicks for several commands of each load.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

COUNT=64
ROUNDS=100
TOTAL=$((COUNT * ROUNDS))
PARAMS=/sys/module/vdpa_sim_batch/parameters

# load DEV MODE WAIT: a kick-each load's JSON report.
load() {
	vdpactl-batch -j load --dev "$1" --count $COUNT --rounds $ROUNDS \
		--mode "$2" --kick each --wait "$3" --ring-size 256 2>&1
}

field() {
	printf '%s' "$2" | jq -r "$1"
}

# kicks_ok SENT SEEN MOST: the driver and the device agree, at most MOST.
kicks_ok() {
	[ "$1" = "$2" ] && [ "$1" -le "$3" ]
}

tap_plan 19
tb_load_batch
tap_is "$(cat $PARAMS/suppress_kicks)" Y "suppress_kicks is on by default"
poll=$(cat $PARAMS/kick_poll_us)
# TCG's guest clock is the host's: on a busy host a vCPU can stall longer
# than the default window between two commands of a serial load, and the
# worker sleeps. A window far longer than such stalls makes the counts
# show the suppression, not the host's load.
echo 10000 >$PARAMS/kick_poll_us
tb_dev_add on vdpasim_batch vhost_vdpa
echo 0 >$PARAMS/suppress_kicks
tb_dev_add off vdpasim_batch vhost_vdpa
echo 1 >$PARAMS/suppress_kicks
echo 0 >$PARAMS/kick_poll_us
tb_dev_add cold vdpasim_batch vhost_vdpa
echo N >$PARAMS/kick_hint
tb_dev_add nohint vdpasim_batch vhost_vdpa
echo Y >$PARAMS/kick_hint
echo "$poll" >$PARAMS/kick_poll_us

for mode in serial parallel; do
	for wait in poll call; do
		what="$mode kick each wait $wait"
		dev=on
		out=$(load $dev "$mode" "$wait")
		tap_is "$?" 0 "suppressed, $what: $TOTAL commands acked OK" ||
			tap_diag "$out"
		sent=$(field ".load.$dev.kicks" "$out")
		seen=$(field ".load.$dev.vstats.delta.\"cvq kicks\"" "$out")
		# Polling, the worker watches the ring through the gaps
		# between commands. A client sleeping on the call eventfd may
		# wake after the worker stopped watching and kick then: only
		# the count is checked there.
		case "$wait" in
		poll) most=$((TOTAL / 8)) ;;
		call) most=$TOTAL ;;
		esac
		tap_ok "suppressed, $what: $sent kicks sent, $seen seen, at most $most" \
			kicks_ok "$sent" "$seen" "$most"
	done
done
for mode in serial parallel; do
	dev=off
	out=$(load $dev "$mode" poll)
	tap_is "$?" 0 "not suppressed, $mode: $TOTAL commands acked OK" ||
		tap_diag "$out"
	tap_is "$(field ".load.$dev.kicks" "$out")/$(field ".load.$dev.vstats.delta.\"cvq kicks\"" "$out")" \
		"$TOTAL/$TOTAL" "not suppressed, $mode: a kick per command, sent and seen"
done
# runs DEV: the runs of DEV's work item so far.
runs() {
	vdpactl-batch -j stats "$1" | jq -r ".module.$1.counters.work_runs"
}

# cold_load DEV: a parallel load on a device whose worker sleeps between
# loads; sets sent to its kicks and runs to the worker's runs.
cold_load() {
	runs=$(runs "$1")
	out=$(load "$1" parallel poll)
	tap_is "$?" 0 "$1, worker asleep at every load: $TOTAL commands acked OK" ||
		tap_diag "$out"
	sent=$(field ".load.$1.kicks" "$out")
	seen=$(field ".load.$1.vstats.delta.\"cvq kicks\"" "$out")
	runs=$(($(runs "$1") - runs))
	tap_is "$sent" "$seen" "$1: the driver sent the kicks the device saw ($sent)"
}

cold_load cold
kicks_cold=$sent
# A driver slower than the worker (a busy host) lets it finish and sleep
# within a load, and rightly kicks again; so does one that adds a command
# just as the worker re-arms kicks (the worker may serve it, and the
# kick's run find nothing). With the hint, each such kick wakes the
# worker, and none is spent on a worker already woken: no more kicks
# than runs. (Not "than batches": on a busy host the crossings that end
# in an empty run were 63 in 100 loads.)
tap_ok "with the hint, every kick woke the worker ($kicks_cold kicks, $runs runs)" \
	test "$kicks_cold" -le "$runs"
cold_load nohint
kicks_nohint=$sent
tap_ok "without it, more than twice as many ($kicks_nohint)" \
	test "$kicks_nohint" -gt $((2 * kicks_cold))
tap_done
