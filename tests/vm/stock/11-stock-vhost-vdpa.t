#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A stock device bound to vhost_vdpa gets its /dev/vhost-vdpa-N.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

tap_plan 4
tb_load_stock
tap_ok "vdpa dev add on vdpasim_net, bound to vhost_vdpa" \
	tb_dev_add vdpa0 vdpasim_net vhost_vdpa
tap_is "$(tb_driver vdpa0)" vhost_vdpa "sysfs driver link names vhost_vdpa"
chardev=$(tb_vhost_chardev vdpa0)
tap_ok "$chardev is a character device" test -c "$chardev"
tap_ok "vdpa dev show lists vdpa0 on vdpasim_net" \
	sh -c 'vdpa -j dev show vdpa0 | jq -e ".dev.vdpa0.mgmtdev == \"vdpasim_net\""'
tap_done
