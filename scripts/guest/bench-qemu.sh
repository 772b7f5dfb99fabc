#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-qemu.sh [ROUNDS]: the seed's experiment through unmodified QEMU 10,
# inside the test-bed VM (scripts/bench-qemu.sh boots it). QEMU's
# vhost-vdpa netdev loads the guest's network state into the device at
# every start; here the guest (tests/tools/qvnet over qtest) sets its VLANs
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
# tracepoints. Each cell: median [min-max] over the rounds. Raw rows go to
# /tmp/qemu/bench.raw and are printed after the table.
. tests/vm/lib/testbed.sh
. tests/vm/lib/qemu.sh

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

# measure KIND CMDS: ROUNDS stop/cont loads of CMDS commands on q0.
measure() {
	echo "bench-qemu: $1, loads of $2 commands, $ROUNDS rounds" >&2
	_r=0
	while [ "$_r" -lt "$ROUNDS" ]; do
		_from=$(wc -l <"$QM_DIR/q0.trace")
		echo >"$T/trace"
		qm q0 hmp stop hmp cont || { cat "$QM_DIR/q0.out" >&2; return 1; }
		echo "$1 $2 $(qm_load_ms q0 "$_from") $(device_stats)" >>"$RAW"
		_r=$((_r + 1))
	done
}

# run KIND DEV: start QEMU on DEV and measure each load size it has.
run() {
	qm_start q0 "$2" || { cat "$QM_DIR/q0.err" >&2; return 1; }
	qm q0 init || { cat "$QM_DIR/q0.out" >&2; return 1; }
	if [ "$1" = stock ]; then
		measure "$1" 1
	else
		# QEMU's VLAN table starts with all 4096 VIDs: 2 + 4096 commands.
		measure "$1" 4098 &&
			qm q0 vlan-del 998 4095 && measure "$1" 1000 &&
			qm q0 vlan-del 28 997 && measure "$1" 30
	fi
	_rc=$?
	qm_quit q0
	return $_rc
}

mkdir -p "$QM_DIR"
: >"$RAW"
tb_load_batch || exit 1
tb_load_stock || exit 1
echo 8192 >"$T/buffer_size_kb"
echo 1 >"$T/events/vdpa_sim_batch/vsb_cvq_batch/enable"
echo 1 >"$T/events/vdpa_sim_batch/vsb_cvq_kick/enable"
# nosup: batch completion, suppress_kicks=N -- what kick suppression is
# worth to QEMU, which honours VRING_USED_F_NO_NOTIFY.
for kind in batch immediate nosup; do
	case "$kind" in
	nosup) completion=batch suppress=N ;;
	*) completion=$kind suppress=Y ;;
	esac
	echo "$completion" >$PARAMS/completion
	echo "$suppress" >$PARAMS/suppress_kicks
	tb_dev_add "$kind" vdpasim_batch vhost_vdpa mac 02:00:00:00:be:01 &&
		run "$kind" "$kind" || exit 1
	tb_dev_del "$kind"
done
echo batch >$PARAMS/completion
echo Y >$PARAMS/suppress_kicks
tb_dev_add stock vdpasim_net vhost_vdpa mac 02:00:00:00:be:02 &&
	run stock stock || exit 1

echo "QEMU $(qemu-system-x86_64 --version | sed -n '1s/.*version //p') vhost-vdpa load at cont," \
	"$ROUNDS rounds each: median [min-max]"
awk '
function cell(list,    n, v, i, j, t) {
	n = split(list, v, " ")
	if (v[1] == "-")
		return "-"
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
	return sprintf("%s [%s-%s]", n % 2 ? v[(n + 1) / 2] : \
		sprintf("%.3f", (v[n / 2] + v[n / 2 + 1]) / 2), v[1], v[n])
}
{
	k = $1 " " $2
	if (!(k in seen)) { seen[k] = 1; order[++rows] = k }
	for (c = 3; c <= 6; c++)
		val[k, c] = val[k, c] " " $c
}
END {
	printf "%-10s %5s  %-30s %-26s %-20s %s\n", "device", "cmds",
		"qemu_ms", "device_ms", "per_batch", "kicks"
	for (r = 1; r <= rows; r++) {
		split(order[r], kc, " ")
		printf "%-10s %5s  %-30s %-26s %-20s %s\n", kc[1], kc[2],
			cell(val[order[r], 3]), cell(val[order[r], 4]),
			cell(val[order[r], 5]), cell(val[order[r], 6])
	}
}' "$RAW"
echo
echo "raw: device cmds qemu_ms device_ms per_batch kicks"
cat "$RAW"
