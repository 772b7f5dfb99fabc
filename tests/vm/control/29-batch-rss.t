#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# RSS and hash reports through the kernel's virtio_net (virtio_vdpa) on
# vdpasim_batch devices given VIRTIO_NET_F_RSS, then VIRTIO_NET_F_HASH_REPORT
# alone (neither is offered by default).
#
# RSS: virtio_net reads the device's limits (a 40-byte key, a 128-entry
# table) and sends RSS_CONFIG, which the device acks; "ethtool -X" sends
# new tables and a new key, one RSS_CONFIG each. Then UDP frames over IPv4
# and IPv6 (rawsend --udp) and one frame that is not IP leave on either
# transmit queue and must come back on exactly the receive queue the
# table names for the Toeplitz hash that testbed/programs/toeplitz computes
# apart from the device (unclassified_queue, 0, for the one that is not
# IP): counted by the device (vstats of receive queues 0 and 2) and by
# virtio_net (each frame's queue in the napi_gro_receive_entry event)
# alike.
#
# HASH_REPORT: virtio_net sends HASH_CONFIG; with receive hashing on, the
# hash and type the device writes into each frame's header become the
# skb's hash, which the napi_gro_receive_entry event shows: the Toeplitz
# hash of addresses and ports, l4_hash=1, and 0 for a frame that is not
# IP.
#
# The key as the device gets it: Debian's 6.12 virtio_net sends the key
# one byte late. Its key array follows struct virtio_net_rss_config_trailer
# instead of overlapping the struct's flexible array, and it sends
# sizeof() of the struct (padding included) and then the key, so the
# device reads the padding byte (0) and the first 39 key bytes (newer
# kernels overlap the two). The device takes the one byte over as QEMU's
# does. The flows' hashes are computed with the key the device reports
# holding (vdpactl-batch dev state), which must be the key set or that
# key one byte late.
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/rxfilter.sh

MAX_VQP=4
CVQ=$((2 * MAX_VQP))
F_HASH_REPORT=57
F_RSS=60
# Microsoft's RSS verification key.
KEY=6d:5a:56:da:25:5b:0e:c2:41:67:25:3d:43:a3:8f:b0:d0:ca:2b:cb:ae:7b:30:b4:77:cb:2d:a3:80:30:f2:0c:6a:42:b7:3b:be:ac:01:fa
DST4=10.99.0.1
DST6=fd00:99::1

# features BIT: the default offer and feature BIT.
features() {
	printf '0x%x' $((0x328df002e | (1 << $1)))
}

# device_key: the key the device hashes with, from its own state.
device_key() {
	vdpactl-batch -j dev state "$DEV" | jq -r ".state.$DEV.rss_key"
}

# holds_key KEY: the device holds KEY as virtio_net sent it, whole or one
# byte late; one TAP test.
holds_key() {
	_dk=$(device_key)
	case $_dk in
	"$1") _how="as set" ;;
	"00:${1%:*}") _how="one byte late (virtio_net's key after its padding)" ;;
	*) _how= ;;
	esac
	tap_ok "the device holds the key ${_how:-"set: got $_dk"}" test -n "$_how"
}

# flow_hash KEY SRC_IP,DST_IP,SPORT,DPORT: the flow's Toeplitz hash.
flow_hash() {
	_fk=$1
	_oifs=$IFS
	IFS=,
	# shellcheck disable=SC2086 # split at the commas
	set -- $2
	IFS=$_oifs
	toeplitz "$_fk" "$1" "$2" "$3" "$4"
}

# table: the 128 entries of the indirection table "ethtool -x" shows.
table() {
	ethtool -x "$X" | awk '/^ *[0-9]+:/ { for (i = 2; i <= NF; i++) printf "%s ", $i }'
}

# key_bytes: the length of the key "ethtool -x" shows.
key_bytes() {
	ethtool -x "$X" | awk 'k { print split($0, b, ":"); exit } /^RSS hash key:/ { k = 1 }'
}

T=/sys/kernel/tracing

# device_counts: "N0/N1", frames the device put on the receive queues of
# pairs 0 and 1.
device_counts() {
	echo "$(counter "$(vstats 0)" "rx packets")/$(counter "$(vstats 2)" "rx packets")"
}

# driver_counts: "N0/N1", frames virtio_net took from each receive queue
# since the trace was cleared (napi_gro_receive_entry's queue_mapping is
# the receive queue + 1). Its ethtool -S has no per-queue packet counts
# since 6.10: they went to the netdev family's qstats.
driver_counts() {
	awk '/napi_gro_receive_entry: dev='"$X"' / {
		sub(/.*queue_mapping=/, ""); n[$1 + 0]++ }
		END { printf "%d/%d\n", n[1], n[2] }' "$T/trace"
}

# counted N: N frames in all on the device's two receive queues; which
# queue the last one went to is left in $_last_q.
counted() {
	_now=$(device_counts)
	[ $((${_now%/*} + ${_now#*/})) -ge "$1" ] || return 1
	_last_q=1
	[ "${_now%/*}" = "${_prev%/*}" ] || _last_q=0
	_prev=$_now
}

# driver_counted N: N frames in the trace.
driver_counted() {
	_drv=$(driver_counts)
	[ $((${_drv%/*} + ${_drv#*/})) -ge "$1" ]
}

# steer DESC: send UDP flows over IPv4 and IPv6 from both CPUs (so both
# transmit queues), one at a time, each to the queue the table and the
# device's key name, and one frame that is not IP (to unclassified_queue
# 0). The device must put each on exactly that queue, and virtio_net find
# as many on each.
steer() {
	_tab=$(table)
	_dk=$(device_key)
	_want=
	_got=
	_err=
	_prev=$(device_counts)
	_total=$((${_prev%/*} + ${_prev#*/}))
	_n=0
	echo >"$T/trace"
	for _flow in 10.1.0.1,$DST4,1000,53 10.1.0.2,$DST4,1001,53 \
		10.1.0.3,$DST4,40000,4789 10.1.0.4,$DST4,12345,80 \
		10.1.0.5,$DST4,2794,1766 fd00:1::1,$DST6,1000,53 \
		fd00:1::2,$DST6,5555,443 fd00:1::3,$DST6,60000,22 none; do
		if [ "$_flow" = none ]; then
			_want="$_want 0"
			_out=$(rawsend "$X" "$MAC" 2>&1) || _err="$_err $_out"
		else
			_h=$(flow_hash "$_dk" "$_flow")
			# shellcheck disable=SC2086 # the table's entries
			_want="$_want $(set -- $_tab && shift $((_h & 127)) && echo "$1")"
			_out=$(taskset -c $((_n % 2)) rawsend "$X" "$MAC" \
				--udp "$_flow" 2>&1) || _err="$_err $_out"
		fi
		_n=$((_n + 1))
		_last_q=lost
		tb_wait 5 counted $((_total + _n))
		_got="$_got $_last_q"
	done
	tb_wait 5 driver_counted "$_n"
	tap_is "$_got" "$_want" "$1: each frame on the queue its hash names"
	tap_is "$_drv" "$(echo "$_want" | awk '{ for (i = 1; i <= NF; i++) n[$i]++
		printf "%d/%d\n", n[0], n[1] }')" "$1: virtio_net took them there"
	[ -z "$_err" ] || tap_diag "rawsend:$_err"
}

# mq_command DESC CMD...: CMD makes virtio_net send one MQ command, acked.
mq_command() {
	_desc=$1
	shift
	before=$(vstats "$CVQ")
	tap_ok "$_desc" "$@"
	settle
	after=$(vstats "$CVQ")
	tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 0 0 0 1 0)" \
		"$_desc: one MQ command, acked OK"
}

# probed FEATURE DESC: virtio_net negotiated FEATURE, and the two MQ
# commands it sent at probe were acked OK.
probed() {
	tap_is "$(vdpa -j dev config show "$DEV" |
		jq -r ".config.$DEV.negotiated_features | index(\"$1\") != null")" \
		true "virtio_net negotiates $1"
	c=$(vstats "$CVQ")
	tap_is "$(counter "$c" "cvq mq requests") $(counter "$c" "cvq mq errors")" \
		"2 0" "$2"
}

tap_plan 35
add_interface mac "$MAC" max_vqp "$MAX_VQP" device_features "$(features $F_RSS)"
probed RSS "probe: two RSS_CONFIG (virtio_net sets its pairs with it), acked OK"
tap_is "$(ethtool -k "$X" | grep '^receive-hashing:')" "receive-hashing: off" \
	"receive hashing available (virtio_net drops it when RSS_CONFIG fails)"
tap_is "$(ethtool -x "$X" | head -1)" \
	"RX flow hash indirection table for $X with 2 RX ring(s):" \
	"ethtool -x: 2 receive rings (the CPUs)"
tap_is "$(table | wc -w)/$(key_bytes)" 128/40 \
	"ethtool -x: the device's 128-entry table and 40-byte key"
interface_up
settle
echo 1 >"$T/events/net/napi_gro_receive_entry/enable"

mq_command "ethtool -X $X hkey (Microsoft's key)" ethtool -X "$X" hkey "$KEY"
tap_is "$(ethtool -x "$X" | awk 'k { print; exit } /^RSS hash key:/ { k = 1 }')" \
	"$KEY" "ethtool -x shows the new key"
holds_key "$KEY"
steer "default table"

mq_command "ethtool -X $X weight 1 3" ethtool -X "$X" weight 1 3
tap_is "$(table | tr ' ' '\n' | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')" \
	"0:32 1:96 " "ethtool -x: a quarter of the table on ring 0"
steer "weight 1 3"

mq_command "ethtool -X $X equal 2" ethtool -X "$X" equal 2
steer "equal 2"

before=$(vstats "$CVQ")
tap_fails "ethtool -X $X equal 3 fails in ethtool (2 rings)" \
	ethtool -X "$X" equal 3
after=$(vstats "$CVQ")
tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 0 0 0 0 0)" \
	"equal 3: nothing reaches the device"
tb_dev_del "$DEV"

# HASH_REPORT alone: no table to steer with, a hash in every header.
DEV=b1
CVQ=4
tap_ok "add $DEV (HASH_REPORT) bound to virtio_vdpa" tb_dev_add "$DEV" \
	vdpasim_batch virtio_vdpa mac "$MAC" max_vqp 2 \
	device_features "$(features $F_HASH_REPORT)"
tap_ok "virtio_net creates a network interface" tb_wait 10 tb_netdev "$DEV"
X=$(tb_netdev "$DEV")
probed HASH_REPORT "probe: HASH_CONFIG and VQ_PAIRS_SET, acked OK"
interface_up
tap_ok "ethtool -K $X rxhash on" ethtool -K "$X" rxhash on
settle
mq_command "ethtool -X $X hkey (Microsoft's key): HASH_CONFIG" \
	ethtool -X "$X" hkey "$KEY"
holds_key "$KEY"

echo >"$T/trace"
want=
err=
DK=$(device_key)
for flow in 66.9.149.187,161.142.100.80,2794,1766 \
	199.92.111.2,65.69.140.83,14230,4739 \
	3ffe:2501:200:1fff::7,3ffe:2501:200:3::1,2794,1766; do
	want="$want$(printf '0x%08x' "$(flow_hash "$DK" "$flow")"):1 "
	out=$(rawsend "$X" "$MAC" --udp "$flow" 2>&1) || err="$err $out"
done
out=$(rawsend "$X" "$MAC" 2>&1) || err="$err $out"
want="${want}0x00000000:0 "
# trace_hashes: hash:l4_hash of each frame received, in order.
trace_hashes() {
	sed -n 's/.*napi_gro_receive_entry: dev='"$X"' .* hash=\(0x[0-9a-f]*\) l4_hash=\([01]\).*/\1:\2/p' \
		"$T/trace" | tr '\n' ' '
}
hashes_reached() {
	[ "$(trace_hashes | wc -w)" -ge 4 ]
}
tb_wait 5 hashes_reached
echo 0 >"$T/events/net/napi_gro_receive_entry/enable"
tap_is "$(trace_hashes)" "$want" \
	"the Toeplitz hash of each UDP flow reported as an L4 hash, none for a frame that is not IP"
[ -z "$err" ] || tap_diag "rawsend:$err"
tb_dev_del "$DEV"
tap_done
