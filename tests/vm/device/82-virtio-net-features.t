#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The kernel's virtio_net, through virtio_vdpa, on devices offering chosen
# features: every pair of values of MQ, RSS, HASH_REPORT, RING_PACKED,
# RING_EVENT_IDX and CTRL_VLAN comes in at least one device (ten devices,
# seven of them enough for the pairs). Each one, on one TAP line naming
# its features:
#   - probes within 10 s: from "vdpa dev add" to an interface that
#     "ip link set up" brings up (a CVQ command the device never answers
#     makes virtio_net spin for ever, here or at "up");
#   - negotiates each of the six features exactly when offered
#     (virtio_net takes them all) and has 2 queue pairs with MQ, 1 without;
#   - loops a frame to its own MAC back into the stack;
#   - goes away ("vdpa dev del") leaving no interface, and no "needs
#     reset", warning or ring error in the kernel log.
# Every device offers CTRL_VQ, which all six but RING_PACKED and
# RING_EVENT_IDX need (kmod/engine/vsb_features.c). With MQ the device has
# max_vqp 2. Without MQ it cannot: the vdpa core refuses max_vqp without
# MQ in device_features, so a device that offers RSS without MQ has one
# pair and its CVQ at 2 in both the spec's reading (2 * max_virtqueue_pairs)
# and the device's.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

MAC=02:42:00:00:00:82
WORK=/tmp/82
# The device's defaults (tests/vm/control/29-batch-rss.t) without the six.
BASE=$((0x328df002e & ~((1 << 22) | (1 << 29) | (1 << 19))))
# name:bit, as "vdpa dev config show" names them.
FEATURES="MQ:22 RSS:60 HASH_REPORT:57 RING_PACKED:34 RING_EVENT_IDX:29 CTRL_VLAN:19"
# What the kernel log must not say while a device lives and goes away.
BAD_LOG='needs reset|WARNING|BUG|Call Trace|not a head|out of range|[Ff]ail|error'

# bits NAMES: the feature bits of NAMES (names of $FEATURES, comma-separated).
bits() {
	_b=0
	for _f in $FEATURES; do
		case ",$1," in
		*",${_f%:*},"*) _b=$((_b | (1 << ${_f#*:}))) ;;
		esac
	done
	echo "$_b"
}

# negotiated DEV: which of $FEATURES the driver took, comma-separated.
negotiated() {
	_n=$(vdpa -j dev config show "$1" |
		jq -r ".config.$1.negotiated_features | join(\" \")")
	_out=
	for _f in $FEATURES; do
		case " $_n " in
		*" ${_f%:*} "*) _out="$_out${_out:+,}${_f%:*}" ;;
		esac
	done
	echo "$_out"
}

# offered NAMES: NAMES in the order of $FEATURES.
offered() {
	_out=
	for _f in $FEATURES; do
		case ",$1," in
		*",${_f%:*},"*) _out="$_out${_out:+,}${_f%:*}" ;;
		esac
	done
	echo "$_out"
}

# probe DEV FEATURES [ARGS...]: add, bind to virtio_vdpa, bring the
# interface up.
probe() {
	_dev=$1
	_f=$2
	shift 2
	vdpa dev add name "$_dev" mgmtdev vdpasim_batch mac $MAC \
		device_features "$_f" "$@" || return 1
	tb_bind "$_dev" virtio_vdpa || return 1
	tb_wait 10 tb_netdev "$_dev" || return 1
	ip link set "$(tb_netdev "$_dev")" up
}

rx_reached() {
	[ "$(cat "/sys/class/net/$1/statistics/rx_packets")" -ge "$2" ]
}

# combined IF: the maximum of combined channels ethtool reports.
combined() {
	ethtool -l "$1" | awk '/^Combined:/ { print $2; exit }'
}

gone() {
	! vdpa dev show "$1" >/dev/null 2>&1 && [ ! -e "/sys/class/net/$2" ]
}

# device DEV NAMES: the whole life of one device offering NAMES (with
# $BASE); prints what went wrong, if anything. Returns 2 if its probe is
# stuck: then nothing else can be done in this guest.
device() {
	_dev=$1
	_names=$(offered "$2")
	_features=$(printf '0x%x' $((BASE | $(bits "$2"))))
	_pairs=1
	_args=
	case ",$2," in
	*,MQ,*)
		_pairs=2
		_args="max_vqp 2"
		;;
	esac
	_log0=$(dmesg | wc -l)
	# shellcheck disable=SC2086 # _args: words
	tb_within 10 probe "$_dev" "$_features" $_args
	case $? in
	0) ;;
	124)
		echo "no interface up within 10 s (still stuck): $(cat $WORK/out)"
		return 2
		;;
	*)
		echo "probe failed: $(cat $WORK/out)"
		tb_dev_del "$_dev" 2>/dev/null
		return 1
		;;
	esac
	_x=$(tb_netdev "$_dev")
	_err=
	_got=$(negotiated "$_dev")
	[ "$_got" = "$_names" ] ||
		_err="$_err negotiated '$_got', offered '$_names';"
	_got=$(combined "$_x")
	[ "$_got" = $_pairs ] || _err="$_err $_got queue pairs, not $_pairs;"
	_rx=$(cat "/sys/class/net/$_x/statistics/rx_packets")
	_out=$(rawsend "$_x" $MAC 2>&1) || _err="$_err rawsend: $_out;"
	tb_wait 5 rx_reached "$_x" $((_rx + 1)) ||
		_err="$_err the frame did not come back;"
	tb_within 20 tb_dev_del "$_dev"
	case $? in
	0) gone "$_dev" "$_x" || _err="$_err still there after vdpa dev del;" ;;
	124)
		echo "$_err vdpa dev del stuck"
		return 2
		;;
	*) _err="$_err vdpa dev del: $(cat $WORK/out);" ;;
	esac
	_bad=$(dmesg | tail -n +$((_log0 + 1)) | grep -E "$BAD_LOG")
	[ -z "$_bad" ] || _err="$_err kernel log: $_bad"
	echo "$_err"
	[ -z "$_err" ]
}

# Devices as "NAMES" (features offered beyond $BASE): the first seven
# cover every pair of values; then the module's defaults, RSS without MQ
# on a packed ring, and multiqueue RSS without hash reports.
set -- \
	"MQ,RSS,HASH_REPORT,RING_PACKED,RING_EVENT_IDX,CTRL_VLAN" \
	"" \
	"RING_PACKED,RING_EVENT_IDX,CTRL_VLAN" \
	"MQ,RSS,HASH_REPORT" \
	"HASH_REPORT,CTRL_VLAN" \
	"RSS,RING_EVENT_IDX" \
	"MQ,RING_PACKED" \
	"MQ,RING_EVENT_IDX,CTRL_VLAN" \
	"RSS,HASH_REPORT,RING_PACKED,CTRL_VLAN" \
	"MQ,RSS,RING_PACKED,RING_EVENT_IDX"

tap_plan $(($# + 1))
mkdir -p $WORK
# Nothing of the stack's own on the queues: no IPv6 on the interfaces.
echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6
tb_load_batch
out=$(vdpa dev add name m0 mgmtdev vdpasim_batch max_vqp 2 \
	device_features "$(printf '0x%x' $((BASE | (1 << 60))))" 2>&1)
rc=$?
[ $rc = 0 ] && tb_dev_del m0
tap_is "$rc $(echo "$out" | grep -o 'Missing features 0x400000')" \
	"1 Missing features 0x400000" \
	"the vdpa core refuses max_vqp 2 without MQ in device_features"
i=0
stuck=
for names in "$@"; do
	desc="virtio_net on ${names:-none of the six}"
	if [ -n "$stuck" ]; then
		tap_result 1 "$desc"
		tap_diag "not tried: $stuck"
		continue
	fi
	out=$(device "f$i" "$names")
	rc=$?
	tap_result $rc "$desc"
	[ -z "$out" ] || tap_diag "$out"
	[ $rc = 2 ] && stuck="f$i is stuck, and this guest with it"
	i=$((i + 1))
done
tap_done
