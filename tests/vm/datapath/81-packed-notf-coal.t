#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Transmit notification coalescing ("ethtool -C X tx-frames 40", through
# the kernel's virtio_net and the CVQ) counts every used buffer a publish
# shows the driver, on a split ring and on a packed one.
#
# vsb_coal_update() notifies once max_packets used buffers have been
# published since the last notification (and one was asked for), or
# max_usecs after it was first asked for; a notification covers every
# buffer published so far, so nothing is owed after it. tx-usecs is 3 s
# here, so a notification within half a second of a burst came by the
# count, and one that comes later came by the timer.
#
# To make the count exact, the device must find a whole burst at once:
# its worker is pinned to CPU 1 (the workqueue's cpumask) and rawsend
# sends from CPU 1 at SCHED_FIFO, so the worker runs only once the last
# frame is queued, and moves all of them (up to VSB_TX_BUDGET, 64) in one
# run: one publish of N used buffers on the transmit ring. Byte queue
# limits would stop the stack's queue after the first frame until its
# completion, which the coalescing holds back: the minimum limit is raised
# first, and takes effect at one completion. Then:
#   40 frames: one transmit interrupt at once (40 >= tx-frames);
#   39 frames: none at once, one by the timer, tx-usecs later;
#   64 frames: one at once, and no other after tx-usecs.
# A packed ring writes used buffers in stages of 32, a full stage at once:
# the count must take all of them, not the last stage only.
#
# When the count is wrong, a kprobe on vsb_coal_update() shows what the
# device counted (diagnostics only: the test does not need it).
. tests/lib/tap.sh
. testbed/lib/testbed.sh

MAC=02:42:00:00:00:81
TX_FRAMES=40
TX_USECS=3000000
TX_SECS=$((TX_USECS / 1000000))
# The device's defaults (tests/vm/control/29-batch-rss.t), VQ_NOTF_COAL (52) and
# NOTF_COAL (53); RING_PACKED (34) for the packed ring.
COAL=$((0x328df002e | (1 << 52) | (1 << 53)))
PACKED=$((1 << 34))
BQL_MIN=1000000
WQ_CPUMASK=/sys/devices/virtual/workqueue/vdpa_sim_batch/cpumask
T=/sys/kernel/tracing
# One pair: the transmit queue is 1, the CVQ 2.
TXQ=1
CVQ=2

vstat() {
	vdpa -j dev vstats show "$DEV" qidx "$1" | jq -r ".vstats.$DEV.\"$2\""
}

stack_rx() {
	cat "/sys/class/net/$X/statistics/rx_packets"
}

stack_rx_reached() {
	[ "$(stack_rx)" -ge "$1" ]
}

tx_irqs() {
	vstat $TXQ "tx interrupts"
}

tx_irqs_reached() {
	[ "$(tx_irqs)" -ge "$1" ]
}

uptime_s() {
	cut -d. -f1 /proc/uptime
}

# counted: what the device's coalescing was told was published, since
# the last call (empty without the kprobe).
counted() {
	[ -e $T/events/n81/coal ] || return 0
	grep -o 'published=[1-9][0-9]*' $T/trace | tr '\n' ' '
	echo >$T/trace
}

# burst N: N frames to ourselves, queued before the device looks; checks
# that they all came back in one receive interrupt (so in one run of the
# device). Leaves in $early the transmit interrupts half a second later,
# in $irq0 those before, in $t0 the time. 1 test.
burst() {
	# Let the device and the stack go idle first.
	sleep 0.5
	counted >/dev/null
	irq0=$(tx_irqs)
	_rx_irq=$(vstat 0 "rx interrupts")
	_want=$(($(stack_rx) + $1))
	t0=$(uptime_s)
	_out=$(taskset -c 1 rawsend "$X" $MAC --count "$1" --fifo 2>&1) ||
		tap_diag "rawsend: $_out"
	tb_wait 10 stack_rx_reached "$_want"
	sleep 0.5
	early=$(($(tx_irqs) - irq0))
	tap_is "$(stack_rx)/$(($(vstat 0 "rx interrupts") - _rx_irq))" \
		"$_want/1" "$RING: $1 frames back, in one receive interrupt (one device run)"
}

# late N: the transmit interrupts since the burst, once N have come or
# twice tx-usecs after it.
late() {
	_end=$((t0 + 2 * TX_SECS + 1))
	while ! tx_irqs_reached $((irq0 + $1)) && [ "$(uptime_s)" -lt $_end ]; do
		sleep 0.2
	done
	echo $(($(tx_irqs) - irq0))
}

# on_ring NAME DEV FEATURES: the scenario on a new device; 14 tests.
on_ring() {
	RING=$1
	DEV=$2
	_features=$(printf '0x%x' "$3")
	tap_ok "$1: add $DEV with features $_features, bound to virtio_vdpa" \
		tb_dev_add "$DEV" vdpasim_batch virtio_vdpa mac $MAC \
		device_features "$_features"
	tap_ok "$1: virtio_net creates a network interface" \
		tb_wait 10 tb_netdev "$DEV"
	X=$(tb_netdev "$DEV")
	_packed=false
	[ $(($3 & PACKED)) = 0 ] || _packed=true
	tap_is "$(vdpa -j dev config show "$DEV" |
		jq -r ".config.$DEV.negotiated_features | index(\"RING_PACKED\") != null")" \
		"$_packed" "$1: RING_PACKED negotiated: $_packed"
	ip link set "$X" up
	_bql=/sys/class/net/$X/queues/tx-0/byte_queue_limits
	echo $BQL_MIN >"$_bql/limit_min"
	# The frame whose completion brings the limit up, not held back yet.
	_irq=$(tx_irqs)
	rawsend "$X" $MAC >/dev/null
	tb_wait 10 tx_irqs_reached $((_irq + 1))
	tap_ok "$1: byte queue limit $BQL_MIN, for whole bursts" \
		tb_wait 10 sh -c "[ \$(cat $_bql/limit) -ge $BQL_MIN ]"
	_coal=$(vstat $CVQ "cvq coal requests")
	tap_ok "$1: ethtool -C $X tx-frames $TX_FRAMES tx-usecs $TX_USECS" \
		ethtool -C "$X" tx-frames $TX_FRAMES tx-usecs $TX_USECS
	tap_is "$(($(vstat $CVQ "cvq coal requests") - _coal))/$(vstat $CVQ "cvq coal errors")" \
		2/0 "$1: TX_SET and RX_SET, accepted"

	burst $TX_FRAMES
	if ! tap_is "$early" 1 \
		"$1: $TX_FRAMES frames: one transmit interrupt at once, by the count"; then
		_n=$(late 1)
		tap_diag "$_n by $(($(uptime_s) - t0)) s after; the device counted: $(counted)"
	fi

	burst $((TX_FRAMES - 1))
	tap_is "$early/$(late 1)" 0/1 \
		"$1: $((TX_FRAMES - 1)) frames: no transmit interrupt at once, one by the timer"

	burst 64
	_counted=$(counted)
	tap_is "$early/$(late 2)" 1/1 \
		"$1: 64 frames: one transmit interrupt at once, by the count, none after" ||
		tap_diag "the device counted: $_counted"
	tap_is "$(dmesg | grep -c 'needs reset')" 0 "$1: no queue needed a reset"
	tap_ok "$1: $DEV goes away" tb_dev_del "$DEV"
}

tap_plan 29
# Nothing of the stack's own on the queues: no IPv6 (router and neighbour
# solicitations) on the interface, and no address.
echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6
tb_load_batch
tap_ok "pin the device's worker to CPU 1" sh -c "echo 2 >$WQ_CPUMASK"
echo "p:n81/coal vsb_coal_update published=%dx:u32" >>$T/kprobe_events &&
	echo 1 >$T/events/n81/enable
on_ring split c0 $COAL
on_ring packed c1 $((COAL | PACKED))
[ -e $T/events/n81/coal ] && echo 0 >$T/events/n81/enable &&
	echo "-:n81/coal" >>$T/kprobe_events
tap_done
