#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-qemu.sh [ROUNDS]: the seed's experiment through unmodified QEMU 10,
# inside the test-bed VM (scripts/bench-qemu.sh boots it). QEMU's
# vhost-vdpa netdev loads the guest's network state into the device at
# every start; here the guest (testbed/programs/qvnet over qtest) sets its VLANs
# so that the load is 4098, 1000 and 30 commands (MAC_ADDR_SET,
# VQ_PAIRS_SET and the VLAN_ADDs of QEMU's table, which starts full), then
# "stop"/"cont" ROUNDS times (default 7) for each size. Per load:
#   qemu_ms    QEMU's load, from its trace timestamps: the first
#              vhost_vdpa_net_load_cmd to the last vring enable after it
#              (the data queues are enabled once the load is acked)
#   device_ms  the device's busy time over that load: the sum of the
#              vsb_cvq_batch events' ns (vdpa_sim_batch only)
#   per_batch  commands per batch the device completed (vsb_cvq_batch)
#   kicks      kicks the device saw during the load (vsb_cvq_kick)
# for vdpa_sim_batch in batch and in immediate completion and in batch
# completion without kick suppression (nosup), and for stock
# vdpa_sim_net, which has no CTRL_VLAN (its load is the MAC alone) and no
# tracepoints. All four devices, each with its own QEMU, are up at once
# and take turns load by load (the order rotating each round), after two
# untimed loads each: a host or scheduler hiccup of a few seconds, which
# under TCG can double a load, then hits every device, not one device's
# whole sample. The raw rows go to /tmp/qemu/bench.raw and are printed at
# the end, then QEMU's load times as "sample qemu-CMDS DEVICE ROUND MS"
# lines for bench-report (scripts/run.sh), which does the statistics.
. testbed/lib/testbed.sh
. testbed/lib/qemu.sh

ROUNDS=${1:-7}
PARAMS=/sys/module/vdpa_sim_batch/parameters
T=/sys/kernel/tracing
RAW=$QM_DIR/bench.raw

# device_stats: "device_ms per_batch kicks" from the kernel trace buffer.
device_stats() {
	awk '
	/ vsb_cvq_batch: / {
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^cmds=/) { sub(/cmds=/, "", $i); cmds += $i }
			if ($i ~ /^ns=/) { sub(/ns=/, "", $i); ns += $i }
		}
		batches++
	}
	/ vsb_cvq_kick: / { kicks++ }
	END {
		if (batches)
			printf "%.3f %.2f %d\n", ns / 1e6, cmds / batches, kicks
		else
			print "- - -"
	}' "$T/trace"
}

# load KIND CMDS ROUND: one stop/cont load of CMDS commands by KIND's QEMU.
load() {
	_from=$(wc -l <"$QM_DIR/$1.trace")
	echo >"$T/trace"
	qm "$1" hmp stop hmp cont || { cat "$QM_DIR/$1.out" >&2; return 1; }
	echo "$1 $2 $3 $(qm_load_ms "$1" "$_from") $(device_stats)" >>"$RAW"
}

# measure CMDS: ROUNDS rounds of one load per device, the order rotating
# as the tool's engine rotates its devices (bench-report --order); stock's
# load, always its MAC alone, in the first pass only.
measure() {
	echo "bench-qemu: loads of $1 commands, $ROUNDS rounds, devices alternating" >&2
	_r=0
	while [ "$_r" -lt "$ROUNDS" ]; do
		# shellcheck disable=SC2086 # the words
		_order=$(bench-report --order "$_r" $KINDS) || return 1
		for _kind in $_order; do
			if [ "$_kind" != stock ]; then
				load "$_kind" "$1" "$_r" || return 1
			elif [ "$1" = 4098 ]; then
				load stock 1 "$_r" || return 1
			fi
		done
		_r=$((_r + 1))
	done
}

# vlan_del FIRST LAST: every vdpa_sim_batch QEMU's guest deletes VLANs.
vlan_del() {
	for _kind in batch immediate nosup; do
		qm "$_kind" vlan-del "$1" "$2" ||
			{ cat "$QM_DIR/$_kind.out" >&2; return 1; }
	done
}

mkdir -p "$QM_DIR"
: >"$RAW"
KINDS="batch immediate nosup stock"
tb_load_batch || exit 1
tb_load_stock || exit 1
echo 8192 >"$T/buffer_size_kb"
echo 1 >"$T/events/vdpa_sim_batch/vsb_cvq_batch/enable"
echo 1 >"$T/events/vdpa_sim_batch/vsb_cvq_kick/enable"
# nosup: batch completion, suppress_kicks=N -- what kick suppression is
# worth to QEMU, which honours VRING_USED_F_NO_NOTIFY. The parameters
# apply to the devices added after them.
mac=1
for kind in batch immediate nosup; do
	case "$kind" in
	nosup) completion=batch suppress=N ;;
	*) completion=$kind suppress=Y ;;
	esac
	echo "$completion" >$PARAMS/completion
	echo "$suppress" >$PARAMS/suppress_kicks
	tb_dev_add "$kind" vdpasim_batch vhost_vdpa mac 02:00:00:00:be:0$mac ||
		exit 1
	mac=$((mac + 1))
done
echo batch >$PARAMS/completion
echo Y >$PARAMS/suppress_kicks
tb_dev_add stock vdpasim_net vhost_vdpa mac 02:00:00:00:be:0$mac || exit 1
for kind in $KINDS; do
	qm_start "$kind" "$kind" || { cat "$QM_DIR/$kind.err" >&2; exit 1; }
	qm "$kind" init hmp stop hmp cont hmp stop hmp cont ||
		{ cat "$QM_DIR/$kind.out" >&2; exit 1; }
done
# QEMU's VLAN table starts with all 4096 VIDs: 2 + 4096 commands.
measure 4098 && vlan_del 998 4095 && measure 1000 && vlan_del 28 997 &&
	measure 30 || exit 1
for kind in $KINDS; do
	qm_quit "$kind"
done

version=$(qemu-system-x86_64 --version | sed -n '1s/.*version \([^ ]*\).*/\1/p')
echo "raw: device cmds round qemu_ms device_ms per_batch kicks"
cat "$RAW"
for cmds in 4098 1000 30 1; do
	echo "sample qemu-$cmds @unit ms 1"
	echo "sample qemu-$cmds @cond QEMU $version, vhost-vdpa netdev, $cmds commands per load at cont, $ROUNDS rounds, devices alternating"
done
while read -r kind cmds round ms _; do
	echo "sample qemu-$cmds $kind $round $ms"
done <"$RAW"
