#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 100 create/open/close/delete cycles and an unload leave no memory behind
# and the kernel log clean (scripts/vm.sh checks the log).
. tests/lib/tap.sh
. tests/vm/lib/testbed.sh

CYCLES=100
# A leak of one device per cycle would be megabytes; allow slab noise.
SLACK_KB=2048

slab_kb() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	awk '/^Slab:/ { print $2 }' /proc/meminfo
}

cycle() {
	i=0
	while [ "$i" -lt "$CYCLES" ]; do
		tb_dev_add "c$i" vdpasim_batch vhost_vdpa || return 1
		dev=$(tb_vhost_chardev "c$i") || return 1
		# Opening resets the device, closing resets it again.
		exec 3<>"$dev" || return 1
		exec 3>&-
		tb_dev_del "c$i" || return 1
		i=$((i + 1))
	done
}

tap_plan 4
tb_load_batch
# One cycle first so that one-time allocations are not counted.
CYCLES=1 cycle
before=$(slab_kb)
tap_ok "$CYCLES create/open/close/delete cycles" cycle
tap_ok "rmmod vdpa_sim_batch" rmmod vdpa_sim_batch
tb_load_batch
after=$(slab_kb)
tap_diag "Slab before ${before} kB, after ${after} kB"
tap_ok "slab did not grow by more than ${SLACK_KB} kB" \
	test "$after" -le "$((before + SLACK_KB))"
tap_is "$(vdpa -j dev show | jq -c .dev)" "{}" "no device left"
tap_done
