#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A queue caches its address space and recent IOTLB hits until the
# translations change. The change count must not wrap into making stale
# ones look current: the module's test hook map_gen_step=2^32 makes every
# change count as 2^32 changes. A driver moves the CVQ's group to address
# space 1, where the command's IOVA holds another command
# (vsbdrv --switch-asid): the device must run that one (MAC ...:aa), not
# the one still at that IOVA in address space 0 (MAC ...:01).
. tests/lib/tap.sh
. testbed/lib/testbed.sh

WRAP=4294967296

# switched STEP: the MAC the command in address space 1 set, on a module
# loaded with map_gen_step=STEP.
switched() {
	insmod "$TB_MODDIR/vdpa-batch/vdpa_sim_batch.ko" "map_gen_step=$1" &&
		tb_dev_add g0 vdpasim_batch vhost_vdpa || return 1
	_out=$(vsbdrv --switch-asid "$(tb_vhost_chardev g0)" 2>/tmp/vsbdrv.err)
	cat /tmp/vsbdrv.err >&2
	tap_diag "map_gen_step=$1: $_out" >&2
	echo "$_out" | grep -o 'switched_used=[0-9]* mac=[0-9a-f:]*'
	tb_dev_del g0 && rmmod vdpa_sim_batch
}

# check STEP DESC
check() {
	_got=$(switched "$1")
	if grep -q 'SET_GROUP_ASID on .*: Device or resource busy' /tmp/vsbdrv.err; then
		# Newer vhost_vdpa refuses to move a group to another address
		# space after DRIVER_OK: there is no switch to test.
		tap_skip "$2" "vhost_vdpa refuses SET_GROUP_ASID after DRIVER_OK"
	else
		tap_is "$_got" "switched_used=2 mac=02:00:00:00:00:aa" "$2"
	fi
}

tap_plan 2
check 1 "the group's new address space is used"
check $WRAP "... also after 2^32 changes of translations"
tap_done
