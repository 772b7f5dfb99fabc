#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 100 create/open/close/delete cycles and an unload leave no memory behind
# and the kernel log clean (testbed/vm.sh checks the log).
. tests/lib/tap.sh
. testbed/lib/testbed.sh

CYCLES=100
# A leak of one device per cycle would be megabytes; allow slab noise.
SLACK_KB=2048

tap_plan 4
tb_load_batch
# One cycle first so that one-time allocations are not counted.
tb_cycles 1
before=$(tb_meminfo_kb Slab)
tap_ok "$CYCLES create/open/close/delete cycles" tb_cycles $CYCLES
tap_ok "rmmod vdpa_sim_batch" rmmod vdpa_sim_batch
tb_load_batch
after=$(tb_meminfo_kb Slab)
tap_diag "Slab before ${before} kB, after ${after} kB"
tap_ok "slab did not grow by more than ${SLACK_KB} kB" \
	test "$after" -le "$((before + SLACK_KB))"
tap_is "$(vdpa -j dev show | jq -c .dev)" "{}" "no device left"
tap_done
