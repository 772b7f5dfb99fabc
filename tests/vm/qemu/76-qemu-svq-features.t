#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Which of the features the device offers only on request QEMU 10's shadow
# virtqueue takes (x-svq=on): the defaults must stay accepted, and what
# Documentation/design.rst says of each opt-in feature is checked here.
# QEMU refuses a device offering a feature outside its lists at netdev
# init ("vdpa svq does not work with features ...") and exits.
# vm.sh: --qemu
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/qemu.sh

# svq_takes NAME [FEATURES]: QEMU with x-svq=on runs on a device offering
# FEATURES (its defaults without), and its guest driver gets the NIC going.
svq_takes() {
	_mac=02:00:00:00:76:$(printf '%02x' "$n")
	tb_dev_add "$1" vdpasim_batch vhost_vdpa mac "$_mac" \
		${2:+device_features "$2"} || return 1
	qm_start "q$1" "$1" x-svq=on
	sleep 3
	if kill -0 "$(cat "$QM_DIR/q$1.pid")" 2>/dev/null && qm "q$1" init; then
		qm_quit "q$1"
		return 0
	fi
	grep -o 'svq does not work with features.*' "$QM_DIR/q$1.err"
	return 1
}

# check VERDICT NAME BIT: the defaults plus BIT.
check() {
	n=$((n + 1))
	_f=$(printf '0x%x' $((DEFAULT | (1 << $3))))
	if [ "$1" = takes ]; then
		tap_ok "QEMU's shadow virtqueue takes $2" svq_takes "f$n" "$_f"
	else
		tap_fails "QEMU's shadow virtqueue refuses $2" svq_takes "f$n" "$_f"
	fi
}

# The features offered only on request, by bit.
OPT_IN="21 28 34 50 52 53 57 60"

n=0
tap_plan 9
tb_load_batch
DEFAULT=$(tb_features_hex vdpasim_batch)
for b in $OPT_IN; do
	DEFAULT=$((DEFAULT & ~(1 << b)))
done
n=1
tap_ok "QEMU's shadow virtqueue takes a device added without device_features" \
	svq_takes f1
check takes RSS 60
check takes HASH_REPORT 57
check refuses GUEST_ANNOUNCE 21
check refuses DEVICE_STATS 50
check refuses NOTF_COAL 53
check refuses VQ_NOTF_COAL 52
check refuses RING_INDIRECT_DESC 28
check refuses RING_PACKED 34
tap_done
