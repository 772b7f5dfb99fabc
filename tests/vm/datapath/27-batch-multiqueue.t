#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Multiqueue through the kernel's virtio_net on vdpasim_batch (virtio_vdpa),
# a device with max_vqp 4 in a guest with 2 CPUs. "ethtool -L X combined N"
# sends exactly one VQ_PAIRS_SET, acked OK, and nothing else; an N beyond the
# maximum fails in ethtool's netlink core (ethnl_set_channels: "requested
# channel count exceeds maximum") and reaches neither the driver nor the
# device.
#
# Which pair a frame leaves on: virtio_net points XPS at the pairs
# (virtnet_set_affinity), and the tests read the map back from sysfs. With 1
# pair both CPUs send on pair 0; with 2, CPU 0 on pair 0 and CPU 1 on pair 1;
# with 4 on 2 CPUs, CPU 0 maps to pairs 0 and 2 and CPU 1 to 1 and 3, one of
# the two chosen by the frame's flow hash (random per boot, the same for all
# our frames, which differ in their MACs only). The device loops pair i's tx
# into pair i's rx through the one filter, so the frames sent with
# "taskset -c CPU rawsend" are counted -- tx, rx, refused -- on exactly that
# pair and nowhere else.
#
# At probe virtio_net asks for as many pairs as there are CPUs (2), not
# max_vqp: that is the first VQ_PAIRS_SET. The interface has no address and
# IPv6 off, so the stack sends nothing of its own.
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/rxfilter.sh

MAX_VQP=4
CVQ=$((2 * MAX_VQP)) # with MQ negotiated

# pairs: "tx rx drops lost" of each of the 4 pairs (lost: rx overruns and
# rx errors), 16 numbers.
pairs() {
	_q=0
	while [ "$_q" -lt $((2 * MAX_VQP)) ]; do
		echo "$_q $(vstats "$_q")"
		_q=$((_q + 1))
	done | awk -v n="$MAX_VQP" '{
		q = $1
		sub(/^[0-9]+ /, "")
		m = split($0, f, /[{},]/)
		for (i = 1; i <= m; i++)
			if (split(f[i], kv, ":") == 2) {
				gsub(/"/, "", kv[1])
				v[q, kv[1]] = kv[2]
			}
	}
	END {
		for (p = 0; p < n; p++)
			printf "%d %d %d %d ", v[2 * p + 1, "tx packets"],
				v[2 * p, "rx packets"], v[2 * p, "rx drops"],
				v[2 * p, "rx overruns"] + v[2 * p, "rx errors"]
		print ""
	}'
}

# pairs_delta BEFORE AFTER: "0:tx/rx/drops/lost 1:..." between two pairs.
pairs_delta() {
	awk -v a="$1" -v b="$2" -v n="$MAX_VQP" 'BEGIN {
		split(a, x, " ")
		split(b, y, " ")
		for (p = 0; p < n; p++) {
			printf "%s%d:", (p ? " " : ""), p
			for (i = 1; i <= 4; i++)
				printf "%s%d", (i > 1 ? "/" : ""),
					y[4 * p + i] - x[4 * p + i]
		}
		print ""
	}'
}

# pairs_want PAIR SENT PASS DROP: pairs_delta when all went through PAIR.
pairs_want() {
	_w=
	_p=0
	while [ "$_p" -lt "$MAX_VQP" ]; do
		if [ "$_p" = "$1" ]; then
			_w="$_w${_w:+ }$_p:$2/$3/$4/0"
		else
			_w="$_w${_w:+ }$_p:0/0/0/0"
		fi
		_p=$((_p + 1))
	done
	echo "$_w"
}

# tx_total PAIRS: frames sent on all pairs.
tx_total() {
	echo "$1" | awk '{ for (p = 0; p < NF / 4; p++) t += $(4 * p + 1)
		print t }'
}

# pairs_tx_reached N: N frames sent in all; the pairs read are left in $_plast.
pairs_tx_reached() {
	_plast=$(pairs)
	[ "$(tx_total "$_plast")" -ge "$1" ]
}

# from_cpu DESC CPU PAIRS...: 3 frames to us and 1 to another, sent on CPU,
# all go through one of PAIRS (the one to another refused there).
from_cpu() {
	_desc=$1
	_cpu=$2
	shift 2
	_p0=$(pairs)
	_t0=$(tx_total "$_p0")
	_err=
	_out=$(taskset -c "$_cpu" rawsend "$X" "$MAC" --count 3 2>&1) ||
		_err="$_err $_out"
	_out=$(taskset -c "$_cpu" rawsend "$X" "$OTHER" 2>&1) ||
		_err="$_err $_out"
	tb_wait 5 pairs_tx_reached $((_t0 + 4))
	_got=$(pairs_delta "$_p0" "$_plast")
	_want=$(pairs_want "$1" 4 3 1)
	for _p in "$@"; do
		_w=$(pairs_want "$_p" 4 3 1)
		[ "$_got" = "$_w" ] && _want=$_w
	done
	tap_is "$_got" "$_want" "$_desc"
	[ $# -eq 1 ] || tap_diag "pair:tx/rx/refused/lost $_got"
	[ -z "$_err" ] || tap_diag "rawsend:$_err"
}

# channels: "current/maximum" combined channels as ethtool reports them.
channels() {
	ethtool -l "$X" | awk '/^Combined:/ { c[n++] = $2 }
		END { print c[1] "/" c[0] }'
}

# xps: the CPUs (hex mask) each transmit queue is set up for.
xps() {
	for _f in /sys/class/net/"$X"/queues/tx-*/xps_cpus; do
		_q=${_f%/xps_cpus}
		printf '%s:%s ' "${_q##*/}" "$(cat "$_f")"
	done
	echo
}

# set_pairs N: ethtool -L combined N, then its checks.
set_pairs() {
	before=$(vstats "$CVQ")
	tap_ok "ethtool -L $X combined $1" ethtool -L "$X" combined "$1"
	settle
	after=$(vstats "$CVQ")
	tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 0 0 0 1 0)" \
		"combined $1: one VQ_PAIRS_SET, acked OK, nothing else"
	tap_is "$(channels)" "$1/$MAX_VQP" "ethtool -l: $1 of $MAX_VQP"
}

tap_plan 34
add_interface mac "$MAC" max_vqp "$MAX_VQP"
tap_is "$(grep -c '^processor' /proc/cpuinfo)" 2 "the guest has 2 CPUs"
c=$(vstats "$CVQ")
tap_is "$(counter "$c" "cvq mq requests")/$(counter "$c" "cvq mq errors")" \
	1/0 "probe: one VQ_PAIRS_SET, acked OK"
tap_is "$(channels)" "2/$MAX_VQP" "ethtool -l: 2 (the CPUs) of $MAX_VQP"
interface_up
settle

tap_is "$(xps)" "tx-0:1 tx-1:2 " "2 pairs: XPS sends CPU 0 to pair 0, CPU 1 to pair 1"
from_cpu "2 pairs: from CPU 0 on pair 0" 0 0
from_cpu "2 pairs: from CPU 1 on pair 1" 1 1

set_pairs 1
tap_is "$(xps)" "tx-0:3 " "1 pair: XPS sends both CPUs to pair 0"
from_cpu "1 pair: from CPU 1 on pair 0" 1 0

set_pairs 2
tap_is "$(xps)" "tx-0:1 tx-1:2 " "2 pairs: CPU 0 to pair 0, CPU 1 to pair 1 again"
from_cpu "2 pairs: from CPU 1 on pair 1" 1 1
from_cpu "2 pairs: from CPU 0 on pair 0" 0 0

set_pairs 4
tap_is "$(xps)" "tx-0:1 tx-1:2 tx-2:1 tx-3:2 " \
	"4 pairs on 2 CPUs: CPU 0 to pairs 0 and 2, CPU 1 to 1 and 3"
from_cpu "4 pairs: from CPU 0 on pair 0 or 2 (flow hash)" 0 0 2
from_cpu "4 pairs: from CPU 1 on pair 1 or 3 (flow hash)" 1 1 3

before=$(vstats "$CVQ")
out=$(ethtool -L "$X" combined $((MAX_VQP + 1)) 2>&1)
rc=$?
tap_is "$rc: $(echo "$out" | grep -o 'requested channel count exceeds maximum')" \
	"1: requested channel count exceeds maximum" \
	"ethtool -L $X combined $((MAX_VQP + 1)) fails in ethtool's netlink core"
settle
after=$(vstats "$CVQ")
tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 0 0 0 0 0)" \
	"combined $((MAX_VQP + 1)): nothing reaches the device"
tap_is "$(channels)" "$MAX_VQP/$MAX_VQP" "ethtool -l: still $MAX_VQP"

set_pairs 1
from_cpu "1 pair: from CPU 0 on pair 0" 0 0
from_cpu "1 pair: from CPU 1 on pair 0" 1 0
tap_done
