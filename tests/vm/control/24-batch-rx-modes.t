#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Receive modes through the kernel's virtio_net on vdpasim_batch (virtio_vdpa):
# "ip link set X promisc on|off" and "allmulticast on|off" each reach the
# device as exactly one rx-mode update -- RX_PROMISC, RX_ALLMULTI and
# MAC_TABLE_SET, all acked OK, nothing else -- and the device's filter then
# passes and refuses the frames the guest sends through the loopback (all on
# pair 0: one queue pair) exactly as the new mode says.
#
# Why exactly one update: __dev_change_flags() calls ndo_set_rx_mode twice,
# and virtio_net's only schedules its rx-mode work (system_wq, on the
# caller's CPU); with voluntary preemption (or none; Debian's 6.12) nothing
# between the two calls lets that work run, so the second finds it still
# pending and the two make one run. Each run sends the three commands,
# whatever changed. A kernel that preempts (Debian's 7.3: lazy) may run the
# work in between: one update or two, each whole.
#
# The interface has no address and IPv6 off: the stack sends nothing of its
# own, so every count below is exact (and "tx" checks that nothing else went
# out).
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/rxfilter.sh

MCAST=01:00:5e:7f:00:01 # a group nobody joined
MCAST6=33:33:00:00:00:99 # another
CVQ=2
PAIR=0

# The same frames in every state: to us (2), broadcast (1), to someone
# else (2), to two groups nobody joined (2 + 1), tagged with VLAN 200,
# which is not in the VLAN table, to us (1).
probe() {
	frames_begin
	send 2 "$MAC"
	send 1 "$BCAST"
	send 2 "$OTHER"
	send 2 "$MCAST"
	send 1 "$MCAST6"
	send 1 "$MAC" --vlan 200
}

# WANT: what a flag change sends, by the preemption model in force.
mount -t debugfs none /sys/kernel/debug 2>/dev/null
case $(cat /sys/kernel/debug/sched/preempt 2>/dev/null) in
*"(none)"* | *"(voluntary)"*) WANT="$(cvq_want 2 1 0 0 0)" ;;
*) WANT="$(cvq_want 2 1 0 0 0)|$(cvq_want 4 2 0 0 0)" ;;
esac

# rx_update DESC: the rx_mode just run sent one update (or, see WANT, two).
rx_update() {
	_got=$(cvq_delta "$before" "$after")
	case "|$WANT|" in
	*"|$_got|"*) tap_result 0 "$1" ;;
	*)
		tap_result 1 "$1"
		tap_diag "got:  '$_got'" "want: '$WANT'"
		;;
	esac
}

tap_plan 17
add_interface mac "$MAC"
interface_up
settle

probe
frames_check "no mode set: to us 2 + broadcast 1 pass; to another 2, unjoined groups 3, VLAN 200 1 refused" 3 6

rx_mode "ip link set $X promisc on" $IP link set "$X" promisc on
rx_update "promisc on: one rx-mode update (PROMISC, ALLMULTI, MAC_TABLE_SET), acked OK"
probe
frames_check "promisc: all 9 pass, VLAN 200 too (promisc comes before the VLAN filter)" 9 0

rx_mode "ip link set $X promisc off" $IP link set "$X" promisc off
rx_update "promisc off: one rx-mode update, acked OK"
probe
frames_check "promisc off: to another, unjoined groups and VLAN 200 refused again" 3 6

rx_mode "ip link set $X allmulticast on" $IP link set "$X" allmulticast on
rx_update "allmulticast on: one rx-mode update, acked OK"
probe
frames_check "allmulticast: the 3 to unjoined groups pass; to another 2 and VLAN 200 refused" 6 3
frames_begin
send 1 "$MCAST" --vlan 200
frames_check "allmulticast: a multicast frame tagged with VLAN 200 is still refused" 0 1

rx_mode "ip link set $X allmulticast off" $IP link set "$X" allmulticast off
rx_update "allmulticast off: one rx-mode update, acked OK"
probe
frames_check "allmulticast off: unjoined groups refused again" 3 6
tap_done
