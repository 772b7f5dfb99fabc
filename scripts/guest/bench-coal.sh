#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Inside the test-bed VM: what notification coalescing (NOTF_COAL, set by
# the kernel's virtio_net through "ethtool -C") buys on the loopback path.
# One vdpa_sim_batch device offering NOTF_COAL and VQ_NOTF_COAL, bound to
# virtio_vdpa, one queue pair; a burst of FRAMES frames to the interface's
# own MAC, sent by rawsend pinned to CPU 0, looped back by the device into
# the receive queue. Per setting: the receive interrupts the burst took
# (the device's "rx interrupts") and the burst's time, from the first
# frame sent to the last one the stack counted (its rx_packets, read every
# 10 ms, on /proc/uptime's 10 ms clock). Settings take turns as the tool's
# engine rotates its devices (bench-report --order); each figure's
# statistics over REPS runs are bench-report --summarize's. rx-usecs is
# 100 with every rx-frames, so a burst's tail waits at most 0.1 ms for its
# notification.
#
# Usage: bench-coal.sh [REPS [FRAMES]]   (default 3 runs of 20000 frames)
set -e
. testbed/lib/testbed.sh

REPS=${1:-3}
FRAMES=${2:-20000}
DEV=coal0
MAC=02:42:00:00:00:c0
# The device's defaults (tests/vm/control/29-batch-rss.t), VQ_NOTF_COAL, NOTF_COAL.
FEATURES=$(printf '0x%x' $((0x328df002e | (1 << 52) | (1 << 53))))
SETTINGS="0 8 32 128"

vstat() {
	vdpa -j dev vstats show $DEV qidx "$1" | jq -r ".vstats.$DEV.\"$2\""
}

# now_us: /proc/uptime's clock (10 ms steps; busybox date has no %N).
now_us() {
	awk '{ printf "%d\n", $1 * 1000000 }' /proc/uptime
}

# burst FRAMES: "interrupts microseconds" of one burst.
burst() {
	_irq=$(vstat 0 "rx interrupts")
	_want=$(($(cat "$RX") + $1))
	_t0=$(now_us)
	taskset -c 0 rawsend "$X" $MAC --count "$1" >/dev/null
	while [ "$(cat "$RX")" -lt "$_want" ]; do
		sleep 0.01
	done
	_t1=$(now_us)
	echo "$(($(vstat 0 "rx interrupts") - _irq)) $((_t1 - _t0))"
}

# coalesce F: rx-frames F (0: off) through the CVQ.
coalesce() {
	if [ "$1" = 0 ]; then
		ethtool -C "$X" rx-frames 0 rx-usecs 0
	else
		ethtool -C "$X" rx-frames "$1" rx-usecs 100
	fi
}

echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6
tb_load_batch
tb_dev_add $DEV vdpasim_batch virtio_vdpa mac $MAC device_features "$FEATURES"
tb_wait 10 tb_netdev $DEV >/dev/null
X=$(tb_netdev $DEV)
RX=/sys/class/net/$X/statistics/rx_packets
ip link set "$X" up
# A warm-up burst: the first one also fills caches and pages in rawsend.
burst 1000 >/dev/null

raw=/tmp/bench-coal.raw
: >"$raw"
i=0
while [ "$i" -lt "$REPS" ]; do
	# shellcheck disable=SC2086 # the words
	order=$(bench-report --order "$i" $SETTINGS)
	for f in $order; do
		coalesce "$f"
		echo "$f $(burst "$FRAMES")" >>"$raw"
	done
	i=$((i + 1))
done
errors=$(vstat 2 "cvq coal errors")

echo "notification coalescing on the loopback path: $FRAMES frames per burst," \
	"$REPS runs; $(nproc) vCPUs, TCG"
# Per setting (rx-frames, 0: off) the burst's receive interrupts and its
# time in us, in the order of SETTINGS.
echo "SETTING/FIGURE N MIN Q1 MEDIAN Q3 P99 MAX MEAN"
awk '{ print $1 "/irqs", $2; print $1 "/us", $3 }' "$raw" | bench-report --summarize
echo "coalescing commands refused by the device: $errors"
tb_dev_del $DEV
