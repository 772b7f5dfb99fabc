#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The VLAN filter through the kernel's virtio_net on vdpasim_batch
# (virtio_vdpa): "ip link add link X name X.100 type vlan id 100" sends
# VLAN_ADD 100 and "ip link del X.100" VLAN_DEL 100 (virtio_net's
# ndo_vlan_rx_add_vid/kill_vid, exactly one command each, acked OK), and
# frames the guest sends through the loopback (pair 0) tagged with VLAN 100
# then pass, or are refused again; VLAN 200, never added, is always refused.
# Untagged frames never meet the VLAN filter.
#
# What else the kernel does, and the test expects: 8021q adds VID 0 when the
# interface comes up (so priority-tagged frames pass); the first VLAN device
# on an interface starts GVRP and MVRP, which join 01:80:c2:00:00:21 there
# (an rx-mode update: RX_PROMISC, RX_ALLMULTI, MAC_TABLE_SET) and leave it
# with the last. How many updates those make depends on how the driver's
# schedule_work() calls fall, so those counts are checked as whole updates.
#
# The interface has no address and IPv6 off: the stack sends nothing of its
# own, so every frame count below is exact (and "tx" checks that nothing
# else went out).
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/rxfilter.sh

GVRP=01:80:c2:00:00:21 # GVRP's and MVRP's group
CVQ=2
PAIR=0

tap_plan 17
add_interface mac "$MAC"
rx_mode "$X up, IPv6 off, no address" interface_up
cvq_updates "up: VLAN_ADD 0 (8021q) and rx-mode updates, acked OK" 1

frames_begin
send 1 "$MAC"
send 1 "$BCAST"
send 1 "$MAC" --vlan 0
send 2 "$MAC" --vlan 100
send 1 "$BCAST" --vlan 100
send 1 "$MAC" --vlan 200
frames_check "untagged, VID 0: pass; VLAN 100 (to us, broadcast) and 200 refused" 3 4

rx_mode "ip link add link $X name $X.100 type vlan id 100" \
	$IP link add link "$X" name "$X.100" type vlan id 100
cvq_updates "VLAN_ADD 100, and the rx-mode updates of GVRP/MVRP joining $GVRP, acked OK" 1
frames_begin
send 2 "$MAC" --vlan 100
send 1 "$BCAST" --vlan 100
send 1 "$OTHER" --vlan 100
send 2 "$MAC" --vlan 200
send 1 "$MAC"
send 1 "$BCAST"
send 1 "$GVRP"
frames_check "VLAN 100 to us and broadcast pass, to another refused; VLAN 200 refused; $GVRP passes" 6 3

before=$(vstats "$CVQ")
tap_ok "a second VLAN device: ip link add link $X name $X.300 type vlan id 300" \
	$IP link add link "$X" name "$X.300" type vlan id 300
settle
after=$(vstats "$CVQ")
tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 0 0 1 0 0)" \
	"VLAN_ADD 300 alone, acked OK"
frames_begin
send 1 "$MAC" --vlan 300
send 1 "$MAC" --vlan 100
send 1 "$MAC" --vlan 200
frames_check "VLAN 300 and 100 pass, 200 refused" 2 1

before=$(vstats "$CVQ")
tap_ok "ip link del $X.300" $IP link del "$X.300"
settle
after=$(vstats "$CVQ")
tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 0 0 1 0 0)" \
	"VLAN_DEL 300 alone, acked OK"
frames_begin
send 1 "$MAC" --vlan 300
send 1 "$MAC" --vlan 100
frames_check "VLAN 300 refused again, 100 still passes" 1 1

rx_mode "ip link del $X.100" $IP link del "$X.100"
cvq_updates "VLAN_DEL 100, and the rx-mode updates of GVRP/MVRP leaving $GVRP, acked OK" 1
frames_begin
send 2 "$MAC" --vlan 100
send 1 "$BCAST" --vlan 100
send 1 "$MAC" --vlan 200
send 1 "$MAC"
send 1 "$BCAST"
send 1 "$MAC" --vlan 0
send 1 "$GVRP"
frames_check "VLAN 100 refused again, 200 too, $GVRP too; untagged and VID 0 pass" 3 5
tap_done
