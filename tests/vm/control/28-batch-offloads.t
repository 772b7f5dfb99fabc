#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Guest offloads through the kernel's virtio_net on vdpasim_batch
# (virtio_vdpa). The device offers GUEST_CSUM and CTRL_GUEST_OFFLOADS but no
# GUEST_TSO4/6, so virtio_net starts with rx-gro-hw off but switchable, and
# "ethtool -K X rx-gro-hw on|off" is the one ethtool feature that reaches the
# device: exactly one GUEST_OFFLOADS_SET each (virtnet_set_features), acked
# OK, nothing else. A request that changes nothing, a software-only feature
# (gro) and a fixed one (rx, which fails) send nothing. Newer virtio_net
# (7.x) makes rx-gro-hw switchable only when one of the offloads it covers
# is offered, so there it is fixed off too, and only the refusals count.
#
# No observable data-path effect: with GUEST_CSUM the only offload, both
# requests carry the same value (on: every offload the driver may switch,
# i.e. GUEST_CSUM; off: that without the GRO_HW ones, i.e. GUEST_CSUM
# again), and the loopback hands frames over with an all-zero header (no
# NEEDS_CSUM or DATA_VALID) whatever the offloads. What the test checks on
# the data path is that the frames the guest sends through the loopback
# (pair 0) still pass or are refused exactly as before.
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/rxfilter.sh

CVQ=2
PAIR=0

# gro_hw: ethtool's line for rx-gro-hw.
gro_hw() {
	ethtool -k "$X" | grep '^rx-gro-hw:'
}

# feature N NOTE FEATURE VALUE: "ethtool -K X FEATURE VALUE" succeeds and
# sends N (0 or 1) GUEST_OFFLOADS_SET, nothing else.
feature() {
	_n=$1
	_note=$2
	shift 2
	before=$(vstats "$CVQ")
	tap_ok "ethtool -K $X $*$_note" ethtool -K "$X" "$@"
	settle
	after=$(vstats "$CVQ")
	if [ "$_n" = 0 ]; then
		_what="nothing reaches the device"
	else
		_what="one GUEST_OFFLOADS_SET, acked OK, nothing else"
	fi
	tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 0 0 0 0 "$_n")" \
		"$*: $_what"
}

# The frames of every case: to us (2), broadcast (1) pass, to another (1)
# is refused.
probe() {
	frames_begin
	send 2 "$MAC"
	send 1 "$BCAST"
	send 1 "$OTHER"
	frames_check "$1" 3 1
}

# refused NOTE FEATURE VALUE: "ethtool -K X FEATURE VALUE" fails (the
# feature is fixed) and sends nothing.
refused() {
	_note=$1
	shift
	before=$(vstats "$CVQ")
	tap_fails "ethtool -K $X $* fails$_note" ethtool -K "$X" "$@"
	settle
	after=$(vstats "$CVQ")
	tap_is "$(cvq_delta "$before" "$after")" "$(cvq_want 0 0 0 0 0)" \
		"$*: nothing reaches the device"
}

tap_plan 21
# New interfaces start with IPv6 off.
add_interface mac "$MAC"
interface_up
settle
if [ "$(gro_hw)" = "rx-gro-hw: off [fixed]" ]; then
	# Newer virtio_net lets rx-gro-hw be switched only when the device
	# offers an offload it covers (GUEST_TSO4/6, ECN, UFO, USO); ours
	# offers none, so ethtool cannot reach GUEST_OFFLOADS_SET there.
	tap_skip "rx-gro-hw starts off, not fixed" "fixed off in this virtio_net"
	probe "before: to us and broadcast pass, to another refused"
	refused " (fixed off)" rx-gro-hw on
	# The other branch's checks that refused() does not stand in for.
	for t in "rx-gro-hw on: one GUEST_OFFLOADS_SET" "ethtool -k: rx-gro-hw on" \
		"rx-gro-hw on: frames" "ethtool -K $X rx-gro-hw on (again)" \
		"rx-gro-hw on (again): nothing reaches the device" \
		"ethtool -K $X rx-gro-hw off" "ethtool -k: rx-gro-hw off" \
		"rx-gro-hw off: frames"; do
		tap_skip "$t" "rx-gro-hw is fixed off in this virtio_net"
	done
else
	tap_is "$(gro_hw)" "rx-gro-hw: off" \
		"rx-gro-hw starts off, not fixed (no GUEST_TSO4/6; CTRL_GUEST_OFFLOADS)"
	probe "before: to us and broadcast pass, to another refused"

	feature 1 "" rx-gro-hw on
	tap_is "$(gro_hw)" "rx-gro-hw: on" "ethtool -k: rx-gro-hw on"
	probe "rx-gro-hw on: the same frames pass and are refused"

	feature 0 " (again: no change)" rx-gro-hw on

	feature 1 "" rx-gro-hw off
	tap_is "$(gro_hw)" "rx-gro-hw: off" "ethtool -k: rx-gro-hw off"
	probe "rx-gro-hw off: the same frames pass and are refused"
fi

feature 0 " (software GRO)" gro off
feature 0 "" gro on

refused " (rx-checksumming is fixed on)" rx off
tap_done
