#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vdpactl-batch --trace-marks brackets every load with a start and a stop
# line in the kernel's trace, naming the device and the mode, and writes
# nothing without it; between those lines, kprobes on both parents show
# the phases of a warm load (testbed/lib/warm-probes.sh): the driver's
# first kick, the worker's run, the used notifications.
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/warm-probes.sh

R=20
# Per device and mode: R timed loads and compare's untimed warm-up load.
LOADS=$((R + 1))

marks() {
	grep -c "vdpactl-batch: load $1 dev=$2 mode=$3\$" $WP_T/trace
}

tap_plan 25
tb_standard_devices
warm_probes_add
tap_is "$?" 0 "kprobes on both parents' kick_vq and worker, and vhost_vdpa's used notification"

warm_trace_clear
vdpactl-batch compare --trace-marks --count 30 --rounds $R --ring-size 256 \
	--kick each --wait poll --dev stock0 --dev batch0 >/tmp/warm.txt
tap_is "$?" 0 "compare --trace-marks, kick each, wait poll"
for dev in stock0 batch0; do
	for mode in serial parallel; do
		tap_is "$(marks start $dev $mode),$(marks stop $dev $mode)" \
			"$LOADS,$LOADS" "$dev $mode: a start and a stop line per load"
	done
done
tap_is "$(grep -c 'vdpactl-batch: load ' $WP_T/trace)" $((8 * LOADS)) \
	"no other marker lines"

warm_phases >/tmp/phases.txt
tap_is "$(wc -l </tmp/phases.txt)" 4 "phases for each device and mode"
for dev in stock0 batch0; do
	for mode in serial parallel; do
		grep "^$dev $mode " /tmp/phases.txt >/tmp/phase.line
		read -r _ _ loads woken submit wake serve notice total \
			</tmp/phase.line
		tap_is "$loads" $LOADS "$dev $mode: every load found between its marks"
		# Stock's worker never waits for work: every load wakes it.
		# Ours polls briefly, and compare's gaps are longer than that.
		tap_ok "$dev $mode: most loads found the worker asleep ($woken of $loads)" \
			[ "$woken" -ge $((LOADS / 2)) ]
		tap_ok "$dev $mode: submit, wake, serve and total take time ($submit $wake $serve $notice $total us)" \
			awk -v s="$submit" -v w="$wake" -v v="$serve" -v n="$notice" \
			-v t="$total" \
			'BEGIN { exit !(s > 0 && w > 0 && v > 0 && n >= 0 && t > 0) }'
	done
done

warm_trace_clear
vdpactl-batch load --count 30 --rounds 3 --dev batch0 --mode parallel >/dev/null
tap_is "$?" 0 "load without --trace-marks"
tap_is "$(grep -c 'vdpactl-batch: load ' $WP_T/trace)" 0 \
	"without --trace-marks: no marker lines"
vdpactl-batch load --trace-marks --count 30 --rounds 3 --dev batch0 \
	--mode parallel >/dev/null
tap_is "$?" 0 "load --trace-marks"
tap_is "$(marks start batch0 parallel),$(marks stop batch0 parallel)" "3,3" \
	"load --trace-marks: a start and a stop line per load, no warm-up"
warm_probes_remove
tap_is "$(cat $WP_T/kprobe_events)" "" "probes removed"
