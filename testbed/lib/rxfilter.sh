# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Helpers for the VM tests of the receive filter and the control classes
# through the kernel's virtio_net (tests/vm/24..28): device counters read
# fast, control-queue deltas per class, waiting for virtio_net's rx-mode
# updates, and frames sent out of the interface and counted where they
# came back. The test sets CVQ (the control queue index) and, for the
# frame helpers, PAIR; add_interface sets X (the interface).
#
# vdpa's JSON is read with sed and awk: jq takes a quarter of a second to
# start under TCG.

# The device, and addresses the tests send frames to (used by the tests
# that source this file).
DEV=b0
# shellcheck disable=SC2034
MAC=02:42:00:00:00:01
# shellcheck disable=SC2034
OTHER=02:42:00:00:00:99 # unicast, nobody's
# shellcheck disable=SC2034
BCAST=ff:ff:ff:ff:ff:ff
# busybox ash runs its own cut-down "ip" applet ahead of PATH.
IP=/usr/bin/ip

# vstats QIDX: the queue's vendor counters, vdpa's JSON on one line. Read
# with sed and awk: jq takes a quarter of a second to start under TCG.
vstats() {
	vdpa -j dev vstats show "$DEV" qidx "$1"
}

# counter JSON NAME: the value of counter NAME in a vstats line.
counter() {
	printf '%s\n' "$1" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"
}

# cvq_delta BEFORE AFTER: requests/errors of each control class between
# two vstats lines of the control queue.
cvq_delta() {
	awk -v a="$1" -v b="$2" '
	function parse(s, m, n, i, p, kv) {
		gsub(/[{}"]/, "", s)
		n = split(s, p, ",")
		for (i = 1; i <= n; i++)
			if (split(p[i], kv, ":") == 2)
				m[kv[1]] = kv[2]
	}
	BEGIN {
		parse(a, A)
		parse(b, B)
		n = split("rx mac vlan announce mq offloads other", c, " ")
		for (i = 1; i <= n; i++) {
			r = "cvq " c[i] " requests"
			e = "cvq " c[i] " errors"
			printf "%s%s %d/%d", (i > 1 ? ", " : ""), c[i],
				B[r] - A[r], B[e] - A[e]
		}
		print ""
	}'
}

# cvq_want RX MAC VLAN MQ OFFLOADS: cvq_delta of that many requests of
# each class and no error.
cvq_want() {
	echo "rx $1/0, mac $2/0, vlan $3/0, announce 0/0, mq $4/0, offloads $5/0, other 0/0"
}

mac_requests() {
	counter "$1" "cvq mac requests"
}

# The control queue idle for a moment: virtio_net sends rx-mode updates
# from a work item, after the command that caused them has returned.
cvq_idle() {
	sleep 0.15
	_now=$(vstats "$CVQ")
	[ "$_now" = "$_last" ] && return 0
	_last=$_now
	return 1
}

settle() {
	_last=$(vstats "$CVQ")
	tb_wait 10 cvq_idle
}

# mac_rose N: more than N MAC class requests (an rx-mode update ends with
# its MAC_TABLE_SET).
mac_rose() {
	[ "$(mac_requests "$(vstats "$CVQ")")" -gt "$1" ]
}

# rx_mode DESC CMD...: run CMD, which changes the receive mode, and wait
# until its rx-mode update has reached the device; $before and $after are
# the control queue's counters around it.
rx_mode() {
	_desc=$1
	shift
	before=$(vstats "$CVQ")
	tap_ok "$_desc" "$@"
	tb_wait 5 mac_rose "$(mac_requests "$before")"
	settle
	after=$(vstats "$CVQ")
}

# pair_counts P: "tx-packets rx-packets rx-drops rx-overruns rx-errors" of
# queue pair P.
pair_counts() {
	{
		vstats $((2 * $1 + 1))
		vstats $((2 * $1))
	} | awk -F '[{},]' '{
		for (i = 1; i <= NF; i++)
			if (split($i, kv, ":") == 2) {
				gsub(/"/, "", kv[1])
				v[kv[1]] = kv[2]
			}
	}
	END {
		print v["tx packets"], v["rx packets"], v["rx drops"],
			v["rx overruns"], v["rx errors"]
	}'
}

# frames_begin; send N DST [rawsend options]...; frames_check DESC PASS DROP:
# the frames sent out of the interface came back through pair $PAIR, PASS
# of them delivered and DROP refused by the filter, none lost otherwise.
frames_begin() {
	read -r _tx0 _rx0 _dr0 _ov0 _er0 <<EOT
$(pair_counts "$PAIR")
EOT
	SENT=0
	SEND_ERR=
}

send() {
	_n=$1
	shift
	_out=$(rawsend "$X" "$@" --count "$_n" 2>&1) ||
		SEND_ERR="$SEND_ERR rawsend $*: $_out;"
	SENT=$((SENT + _n))
}

tx_reached() {
	[ "$(counter "$(vstats $((2 * PAIR + 1)))" "tx packets")" -ge "$1" ]
}

frames_check() {
	tb_wait 5 tx_reached $((_tx0 + SENT))
	read -r _tx _rx _dr _ov _er <<EOT
$(pair_counts "$PAIR")
EOT
	tap_is "tx $((_tx - _tx0)), rx packets $((_rx - _rx0)), rx drops $((_dr - _dr0)), rx overruns $((_ov - _ov0)), rx errors $((_er - _er0))" \
		"tx $SENT, rx packets $2, rx drops $3, rx overruns 0, rx errors 0" "$1"
	[ -z "$SEND_ERR" ] || tap_diag "$SEND_ERR"
}

# cvq_updates DESC VLAN: between $before and $after the control queue saw
# one or more whole rx-mode updates (RX_PROMISC, RX_ALLMULTI, MAC_TABLE_SET)
# and VLAN VLAN-class commands, all acked OK, nothing else. How many updates
# depends on how the driver's schedule_work() calls fall: two that come
# before the work has run make one run.
cvq_updates() {
	_k=$(($(mac_requests "$after") - $(mac_requests "$before")))
	[ "$_k" -ge 1 ] || _k=1
	tap_is "$(cvq_delta "$before" "$after")" \
		"$(cvq_want $((2 * _k)) "$_k" "$2" 0 0)" "$1"
}

# add_interface [vdpa dev add arguments]: $DEV on virtio_vdpa, its
# interface as $X; two TAP tests. New interfaces (ours included) start
# with IPv6 off, so the stack sends nothing of its own.
add_interface() {
	echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6
	tb_load_batch
	tap_ok "add $DEV bound to virtio_vdpa" \
		tb_dev_add "$DEV" vdpasim_batch virtio_vdpa "$@"
	tap_ok "virtio_net creates a network interface" \
		tb_wait 10 tb_netdev "$DEV"
	X=$(tb_netdev "$DEV")
}

# interface_up: $X up, with IPv6 off and no address; one TAP test.
interface_up() {
	tap_ok "$X up, IPv6 off, no address" \
		sh -c "[ \$(cat /proc/sys/net/ipv6/conf/$X/disable_ipv6) = 1 ] &&
			$IP link set $X up"
}
