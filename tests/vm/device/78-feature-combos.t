#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What the device does depends on the features its driver accepts: which
# queue is the CVQ, the ring format, which control classes it answers.
# A device offering every feature the module has, with 3 queue pairs, is
# driven by vsbfeat over feature sets that cover every pair of values
# (on, off) of the features that change the device's behaviour, as far as
# the feature dependencies allow (vsbfeat --cover: a fixed-seed greedy
# covering array, the same sets every run), each with VERSION_1 and
# ACCESS_PLATFORM. For each set vsbfeat negotiates exactly it, sets up
# every queue (the CVQ at 2N, N pairs with MQ or RSS), checks the CVQ's
# group and sends one command of every control class the set allows: each
# must be answered OK, and the device must never need a reset. Then a
# driver that takes everything offered must still find a working device,
# and the kernel log must hold no warning. (MRG_RXBUF is not among the
# features: the module does not offer it.)
. tests/lib/tap.sh
. testbed/lib/testbed.sh

DEV=fc0
PAIRS=3
BASE=VERSION_1,ACCESS_PLATFORM
FACTORS=CTRL_VQ,MQ,RSS,HASH_REPORT,CTRL_VLAN,CTRL_RX,CTRL_RX_EXTRA
FACTORS=$FACTORS,CTRL_MAC_ADDR,GUEST_ANNOUNCE,CTRL_GUEST_OFFLOADS,NOTF_COAL
FACTORS=$FACTORS,VQ_NOTF_COAL,DEVICE_STATS,RING_PACKED,EVENT_IDX
FACTORS=$FACTORS,INDIRECT_DESC,MTU,GUEST_CSUM,MAC,STATUS,ANY_LAYOUT

vsbfeat --cover "$FACTORS" --base "$BASE" >/tmp/combos || exit 1
combos=$(wc -l </tmp/combos)
tap_plan $((combos + 4))
tb_load_batch
dmesg -c >/dev/null
tap_ok "a device offering every feature, $PAIRS queue pairs" \
	tb_dev_add $DEV vdpasim_batch vhost_vdpa \
	device_features "$(vsbfeat --hex "$BASE,$FACTORS")" max_vqp $PAIRS
chardev=$(tb_vhost_chardev $DEV)
tap_diag "$combos feature sets cover every pair of values of" \
	"$(echo "$FACTORS" | tr , ' ')"
while read -r hex names; do
	tap_ok "$hex: $names" vsbfeat --features "$hex" "$chardev"
done </tmp/combos
tap_ok "then a driver taking everything offered still works" \
	vsbfeat --features offered "$chardev"
# Levels 0 to 4 (emergency to warning) in the raw log.
warnings=$(dmesg -r | grep '^<[0-4]>')
tap_is "$warnings" "" "no warning in the kernel log"
tap_ok "the device goes away" tb_dev_del $DEV
tap_done
