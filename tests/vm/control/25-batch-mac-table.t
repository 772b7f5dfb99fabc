#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The MAC filter table through the kernel's virtio_net on vdpasim_batch
# (virtio_vdpa): "ip maddr add|del" (one rx-mode update each: RX_PROMISC,
# RX_ALLMULTI, MAC_TABLE_SET), the 64-entry multicast list and its overflow,
# a unicast entry (a VLAN device with an address of its own, up), and
# "ip link set X address" (MAC_ADDR_SET alone). After each, frames the
# guest sends through the loopback (pair 0) to joined and unjoined addresses
# pass or are refused exactly as the table says.
#
# The device keeps up to 64 entries in the multicast list; a longer list
# overflows and then matches every group. (QEMU's virtio-net shares its 64
# entries between the unicast and multicast lists; with no unicast entry, as
# here, the two agree.)
#
# The interface has no address and IPv6 off: the stack sends nothing of its
# own, so every count below is exact (and "tx" checks that nothing else went
# out). The stack does join groups on its own: IPv4's all-hosts
# (01:00:5e:00:00:01) as the interface comes up.
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/rxfilter.sh

MAC2=02:42:00:00:00:02
UNI=02:42:00:00:00:77 # the VLAN device's own address
ALLHOSTS=01:00:5e:00:00:01
G1=01:00:5e:01:02:03
G2=01:00:5e:01:02:04 # never joined
G3=33:33:00:00:12:34
CVQ=2
PAIR=0
TABLE=64 # multicast entries the device holds; more overflow

# mc_count: entries in the interface's multicast list.
mc_count() {
	awk -v d="$X" '$2 == d' /proc/net/dev_mcast | wc -l
}

# fill_groups OP FIRST LAST: ip maddr OP of the filler groups FIRST..LAST,
# in two processes at a time. One process per group: "ip -batch" stops
# after the first maddr command (it exits from within).
fill_one() {
	$IP maddr "$1" "$(printf '01:00:5e:10:%02x:%02x' \
		$(($2 / 256)) $(($2 % 256)))" dev "$X"
}

fill_groups() {
	_i=$2
	_failed=0
	while [ "$_i" -le "$3" ]; do
		fill_one "$1" "$_i" &
		_p=$!
		if [ "$_i" -lt "$3" ]; then
			fill_one "$1" $((_i + 1)) || _failed=1
		fi
		wait "$_p" || _failed=1
		_i=$((_i + 2))
	done
	return "$_failed"
}

tap_plan 33
# New interfaces (ours and the VLAN device) start with IPv6 off.
add_interface mac "$MAC"
interface_up
settle

frames_begin
send 1 "$ALLHOSTS"
send 1 "$MAC"
send 1 "$BCAST"
send 2 "$G1"
send 1 "$G2"
send 1 "$OTHER"
frames_check "initial table: all-hosts (joined by IPv4), us, broadcast pass; $G1, $G2, another refused" 3 4

rx_mode "ip maddr add $G1" $IP maddr add "$G1" dev "$X"
tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 2 1 0 0 0)" \
	"ip maddr add: one rx-mode update (PROMISC, ALLMULTI, MAC_TABLE_SET), acked OK"
frames_begin
send 2 "$G1"
send 1 "$G2"
send 1 "$ALLHOSTS"
send 1 "$BCAST"
frames_check "$G1 passes; $G2 still refused" 4 1

rx_mode "ip maddr add $G3" $IP maddr add "$G3" dev "$X"
tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 2 1 0 0 0)" \
	"ip maddr add: one rx-mode update, acked OK"
frames_begin
send 1 "$G1"
send 2 "$G3"
send 1 "$G2"
frames_check "$G1 and $G3 pass; $G2 refused" 3 1

rx_mode "ip maddr del $G1" $IP maddr del "$G1" dev "$X"
tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 2 1 0 0 0)" \
	"ip maddr del: one rx-mode update, acked OK"
frames_begin
send 2 "$G1"
send 1 "$G3"
send 1 "$G2"
frames_check "$G1 refused again; $G3 still passes" 1 3

# Fill the multicast list up to the table's size: still no overflow.
fill=$((TABLE - $(mc_count)))
rx_mode "join $fill more groups: $TABLE in the multicast list" \
	fill_groups add 1 "$fill"
cvq_updates "rx-mode updates, acked OK" 0
tap_is "$(mc_count)" "$TABLE" "the multicast list holds $TABLE entries"
last=$(printf '01:00:5e:10:%02x:%02x' $((fill / 256)) $((fill % 256)))
frames_begin
send 1 "$last"
send 2 "$G2"
frames_check "$TABLE entries fit: the last joined ($last) passes, $G2 refused" 1 2

rx_mode "ip maddr add: a 65th group" fill_groups add $((fill + 1)) $((fill + 1))
tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 2 1 0 0 0)" \
	"one rx-mode update, acked OK"
tap_is "$(mc_count)" $((TABLE + 1)) "the multicast list holds $((TABLE + 1)) entries"
frames_begin
send 2 "$G2"
send 1 "$OTHER"
send 1 "$BCAST"
frames_check "overflow: every group passes ($G2 too); unicast to another still refused" 3 1

rx_mode "leave 2 of them: $((TABLE - 1)) in the list" fill_groups del "$fill" $((fill + 1))
cvq_updates "rx-mode updates, acked OK" 0
frames_begin
send 2 "$G2"
send 1 "$last"
send 1 "$G3"
send 1 01:00:5e:10:00:01
frames_check "no overflow: $G2 and $last refused; $G3 and the first filler pass" 2 3

# A VLAN device with an address of its own puts that address in the real
# device's unicast list when it comes up (vlan_dev_open: dev_uc_add).
rx_mode "ip link add link $X name $X.300 address $UNI type vlan id 300; up" \
	sh -c "$IP link add link $X name $X.300 address $UNI type vlan id 300 &&
		$IP link set $X.300 up"
cvq_updates "VLAN_ADD 300 and rx-mode updates, acked OK" 1
frames_begin
send 2 "$UNI"
send 1 "$UNI" --vlan 300
send 1 "$OTHER"
send 1 "$OTHER" --vlan 300
frames_check "$UNI (unicast list) passes, untagged and on VLAN 300; another refused" 3 2

rx_mode "ip link del $X.300" $IP link del "$X.300"
cvq_updates "VLAN_DEL 300 and rx-mode updates, acked OK" 1
frames_begin
send 2 "$UNI"
send 1 "$MAC"
frames_check "$UNI refused again; us still pass" 1 2

before=$(vstats "$CVQ")
tap_ok "ip link set $X address $MAC2" $IP link set "$X" address "$MAC2"
settle
after=$(vstats "$CVQ")
tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 0 1 0 0 0)" \
	"MAC_ADDR_SET alone, acked OK"
frames_begin
send 2 "$MAC2"
send 2 "$MAC"
frames_check "the new address passes, the old one is refused" 2 2
tap_done
