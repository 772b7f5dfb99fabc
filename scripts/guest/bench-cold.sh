#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Inside the test-bed VM: cold, migration-shaped CVQ loads (--cold: every
# load starts the device from reset, as QEMU when a VM starts or arrives)
# of 30 and 256 MAC_ADDR_SET on stock vdpasim_net and on vdpasim_batch, in
# this one boot, 256-entry CVQs, the same negotiated features, serial and
# parallel, kicking after each command (as QEMU's shadow CVQ) and once
# per batch. Two measurements per configuration and run:
#
#   compare --cold   the devices alternate round by round (order rotating)
#                    after a warm-up load each: the load time, from the
#                    reset to the data queues' enable;
#   load --cold      one device at a time, the first one alternating from
#                    run to run: the load time and, inside it, the time
#                    of the commands alone (per_load_cmds_us), which
#                    compare does not report.
#
# Each figure is the median over REPS runs of a run's median load. The
# table gives stock's over ours (RATIO > 1: ours is faster) and the
# start-up, load less commands, of each device. A last pass, untimed by
# the table, splits the start into its phases with kprobes on the
# devices' ops (tests/vm/lib/cold-probes.sh; the probes' cost included).
#
# Usage: bench-cold.sh [REPS]   (default 3)
set -e
. tests/vm/lib/testbed.sh
. tests/vm/lib/cold-probes.sh

REPS=${1:-3}
RING=256
SMALL=30
SMALL_ROUNDS=100
BIG=256
BIG_ROUNDS=30

tb_standard_devices

# As in bench-cvq.sh: nothing else may run during a measurement, so raw
# output goes to a file and jq reads it afterwards.
raw=/tmp/bench-cold.raw
results=/tmp/bench-cold.json
: >"$results"

# record SOURCE KICK COUNT [DEV]: one result line per row of $raw.
record() {
	jq -c --arg source "$1" --arg kick "$2" --argjson count "$3" \
		--arg dev "${4:-}" -f scripts/guest/bench-cold-record.jq \
		"$raw" >>"$results"
}

i=0
while [ "$i" -lt "$REPS" ]; do
	if [ $((i % 2)) = 0 ]; then
		devs="stock0 batch0"
	else
		devs="batch0 stock0"
	fi
	for n in $SMALL $BIG; do
		rounds=$SMALL_ROUNDS
		[ "$n" = $BIG ] && rounds=$BIG_ROUNDS
		for kick in each once; do
			vdpactl-batch -j compare --cold --count "$n" \
				--rounds "$rounds" --kick $kick \
				--ring-size $RING --dev stock0 --dev batch0 >"$raw"
			record compare $kick "$n"
			for dev in $devs; do
				for mode in serial parallel; do
					vdpactl-batch -j load --cold --dev "$dev" \
						--count "$n" --rounds "$rounds" \
						--mode $mode --kick $kick \
						--ring-size $RING >"$raw"
					record load $kick "$n" "$dev"
				done
			done
		done
	done
	i=$((i + 1))
done

jq -s -r --argjson reps "$REPS" -f scripts/guest/bench-cold.jq "$results"

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
echo
echo "records (load_ms, cmds_ms: one run's medians):"
cat "$results"
