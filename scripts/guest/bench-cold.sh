#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Inside the test-bed VM: cold, migration-shaped CVQ loads (--cold: every
# load starts the device from reset, as QEMU when a VM starts or arrives)
# of 30 and 256 MAC_ADDR_SET on stock vdpasim_net and on vdpasim_batch, in
# this one boot, 256-entry CVQs, the same negotiated features, serial and
# parallel, kicking after each command (as QEMU's shadow CVQ) and once
# per batch: "compare --cold", the devices alternating round by round
# (order rotating) after a warm-up load each, REPS times. Each load's
# time, from the reset to the data queues' enable, and its commands' part
# alone (series DEV/MODE/cmds) are printed as "sample cold-COUNT-KICK"
# lines for bench-report (scripts/run.sh), rounds numbered across the
# repetitions. A last pass splits the start into its phases with kprobes
# on the devices' ops (testbed/lib/cold-probes.sh; the probes' cost
# included), for the log.
#
# Usage: bench-cold.sh [REPS]   (default 3)
set -e
. testbed/lib/testbed.sh
. testbed/lib/cold-probes.sh

REPS=${1:-3}
RING=256
SMALL=30
SMALL_ROUNDS=100
BIG=256
BIG_ROUNDS=30

tb_standard_devices

for n in $SMALL $BIG; do
	rounds=$SMALL_ROUNDS
	[ "$n" = $BIG ] && rounds=$BIG_ROUNDS
	for kick in each once; do
		echo "sample cold-$n-$kick @unit ms 0.000001"
		echo "sample cold-$n-$kick @cond $n MAC_ADDR_SET per cold load, 256-entry rings, kick $kick, $REPS runs of $rounds rounds, devices alternating"
	done
done
i=0
while [ "$i" -lt "$REPS" ]; do
	for n in $SMALL $BIG; do
		rounds=$SMALL_ROUNDS
		[ "$n" = $BIG ] && rounds=$BIG_ROUNDS
		for kick in each once; do
			vdpactl-batch compare --cold --count "$n" \
				--rounds "$rounds" --kick $kick --ring-size $RING \
				--dev stock0 --dev batch0 --samples /tmp/cold.samples
			# Nothing runs beside a load: the samples are printed after.
			# Per load, not per command: no divisor.
			grep -v '^#' /tmp/cold.samples | while read -r series round ns _; do
				echo "sample cold-$n-$kick $series $((i * rounds + round)) $ns"
			done
		done
	done
	i=$((i + 1))
done

echo
echo "Phases of a cold load (kprobes; load --cold, parallel, kick each;" \
	"median ms over the loads; each phase from one op to the next:" \
	"reset to ACKNOWLEDGE, to FEATURES_OK, to DRIVER_OK (vrings, maps)," \
	"to the CVQ's enable, to the first data queue's (the commands)," \
	"to the last data queue's):"
printf '%-7s %5s %5s %6s %11s %9s %10s %8s %11s\n' DEVICE COUNT LOADS \
	RESET FEATURES_OK DRIVER_OK CVQ_ENABLE COMMANDS DATA_ENABLE
cold_probes_add
for dev in stock0 batch0; do
	prefix=vdpasim
	[ $dev = batch0 ] && prefix=vsb
	for n in $SMALL $BIG; do
		cold_trace_clear
		vdpactl-batch load --cold --dev $dev --count "$n" \
			--rounds $BIG_ROUNDS --mode parallel --ring-size $RING \
			>/dev/null
		cold_phases $prefix | awk -v dev=$dev -v n="$n" '{
			printf "%-7s %5d %5d %6.3f %11.3f %9.3f %10.3f %8.3f %11.3f\n",
				dev, n, $1, $2, $3, $4, $5, $6, $7 }'
	done
done
cold_probes_remove
