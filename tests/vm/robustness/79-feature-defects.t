#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What the device must do with feature sets a driver may accept but the
# usual drivers do not, each through vsbfeat (testbed/programs/vsbfeat.c):
#   - RSS without MQ: the spec counts max_virtqueue_pairs pairs with MQ
#     or RSS, so the CVQ is queue 2 * max_vqp, in its own group, and
#     answers there;
#   - without MQ on a device with 8 pairs, 17 queues exist: kicks of the
#     last one are its own, not another queue's counters;
#   - DRIVER_OK after FEATURES_OK did not stick (a feature without the one
#     it needs): the device must not run, it needs a reset, and no command
#     is answered;
#   - VHOST_SET_FEATURES with a bit the device did not offer fails with
#     EINVAL (after FEATURES_OK, vhost_vdpa refuses it with EBUSY).
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# VSB_FEATURES_DEFAULT in kmod/vdpa/vsb_main.c: what a device offers unless
# "vdpa dev add ... device_features" says otherwise.
DEFAULTS=VERSION_1,ACCESS_PLATFORM,ANY_LAYOUT,EVENT_IDX,MAC,MTU,STATUS
DEFAULTS=$DEFAULTS,CTRL_VQ,CTRL_MAC_ADDR,CTRL_RX,CTRL_RX_EXTRA,CTRL_VLAN,MQ
DEFAULTS=$DEFAULTS,CTRL_GUEST_OFFLOADS,GUEST_CSUM
REQUIRED=VERSION_1,ACCESS_PLATFORM

# feat ARGS...: vsbfeat's first line, its output's other lines in
# /tmp/feat.more, its diagnostics in /tmp/feat.err.
feat() {
	vsbfeat "$@" >/tmp/feat.out 2>/tmp/feat.err
	sed -n 1p /tmp/feat.out
	sed 1d /tmp/feat.out >/tmp/feat.more
}

# field NAME LINE: the value of NAME=VALUE in LINE.
field() {
	printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# show LINE: vsbfeat's line and diagnostics, for a failed assertion.
show() {
	tap_diag "$1"
	[ -s /tmp/feat.err ] && tap_diag "$(cat /tmp/feat.err)"
}

tap_plan 11
tb_load_batch

# RSS without MQ.
tap_ok "a device with 2 pairs offering the defaults and RSS" \
	tb_dev_add r0 vdpasim_batch vhost_vdpa max_vqp 2 \
	device_features "$(vsbfeat --hex "$DEFAULTS,RSS")"
line=$(feat --features "$REQUIRED,CTRL_VQ,CTRL_MAC_ADDR,RSS" \
	"$(tb_vhost_chardev r0)")
tap_is "cvq=$(field cvq "$line") group_ok=$(field group_ok "$line")" \
	"cvq=4 group_ok=1" \
	"RSS without MQ: the CVQ is queue 4 (2 * max_vqp), in its own group" ||
	show "$line"
tap_is "$(field acks_ok "$line")/$(field cmds "$line") needs_reset=$(field needs_reset "$line")" \
	"2/2 needs_reset=0" \
	"and answers MAC_ADDR_SET and RSS_CONFIG over 2 pairs, OK" ||
	show "$line"
tb_dev_del r0

# Queue 16 of 17, MQ not negotiated.
tb_dev_add k0 vdpasim_batch vhost_vdpa max_vqp 8
line=$(feat --features "$REQUIRED,CTRL_VQ" --kick 16:5 \
	--exec "vdpa -j dev vstats show k0 qidx 0" "$(tb_vhost_chardev k0)")
tap_is "$(field cvq "$line") $(jq -r '.vstats.k0."rx kicks"' /tmp/feat.more)" \
	"2 1" "8 pairs, no MQ: the CVQ is queue 2; queue 0 was kicked once" ||
	show "$line"
tap_is "$(jq -r '.vstats.k0."rx interrupts"' /tmp/feat.more)" 0 \
	"5 kicks of queue 16 leave queue 0's interrupt count at 0"
tb_dev_del k0

# DRIVER_OK without FEATURES_OK.
tb_dev_add c0 vdpasim_batch vhost_vdpa
dev=$(tb_vhost_chardev c0)
line=$(feat --force-driver-ok --wait-ms 1000 \
	--features "$REQUIRED,CTRL_VQ,CTRL_MAC_ADDR,CTRL_RX_EXTRA" "$dev")
tap_is "$(field set_features "$line") $(field features_ok "$line")" "0 0" \
	"CTRL_RX_EXTRA without CTRL_RX: FEATURES_OK does not stick" ||
	show "$line"
status=$(field status "$line")
tap_ok "DRIVER_OK anyway: the device needs a reset (status $status)" \
	test $((${status:-0} & 0x40)) = 64
tap_is "$(field used "$line")" 0 "and answers no command" ||
	show "$line"

# Features not offered.
line=$(feat --features "$REQUIRED,CTRL_VQ,GUEST_ANNOUNCE" "$dev")
tap_is "$(field set_features "$line")" -22 \
	"VHOST_SET_FEATURES with GUEST_ANNOUNCE, not offered here: EINVAL" ||
	show "$line"
line=$(feat --features "$REQUIRED,CSUM" "$dev")
tap_is "$(field set_features "$line")" -22 \
	"with CSUM, which the module never offers: EINVAL" || show "$line"
line=$(feat --renegotiate --features "$REQUIRED,CTRL_VQ" "$dev")
tap_is "$(field renegotiate "$line")" -16 \
	"after FEATURES_OK, VHOST_SET_FEATURES again: EBUSY" || show "$line"
tb_dev_del c0
tap_done
