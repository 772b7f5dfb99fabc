#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# vdpa_sim_batch loads next to the stock simulator, registers its parent
# device and unloads cleanly.
. tests/lib/tap.sh
. tests/vm/lib/testbed.sh

tap_plan 5
tb_load_stock
tap_ok "insmod vdpa_sim_batch" tb_load_batch
tap_ok "lsmod lists vdpa_sim_batch" sh -c 'lsmod | grep -q "^vdpa_sim_batch "'
tap_ok "parent device /sys/devices/vdpasim_batch exists" \
	test -d /sys/devices/vdpasim_batch
tap_ok "rmmod vdpa_sim_batch" rmmod vdpa_sim_batch
tap_fails "parent device is gone" test -e /sys/devices/vdpasim_batch
tap_done
