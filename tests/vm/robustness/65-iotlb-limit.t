#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The device bounds the maps of an address space (VSB_IOTLB_LIMIT): a
# driver that adds 100000 4 KiB maps in one IOTLB batch gets a clear
# error in the kernel log, and a device that reaches nothing (it resets
# on the first access: NEEDS_RESET) rather than an unbounded copy under
# the device's lock. A few thousand maps fewer than the limit still work.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# served OUT: vsbdrv's answer fields for one command.
fields() {
	echo "$1" | grep -o 'used=[0-9]* needs_reset=.'
}

tap_plan 4
tb_load_batch
tb_dev_add m0 vdpasim_batch vhost_vdpa
dev=$(tb_vhost_chardev m0)
out=$(vsbdrv --extra-maps 1000 "$dev")
tap_diag "$out"
tap_is "$(fields "$out")" "used=1 needs_reset=0" \
	"1004 maps, 1000 of them in one batch: the command is served"
dmesg -c >/dev/null
# Newer vhost_vdpa bounds an address space itself (max_iotlb_entries):
# the update beyond it fails, and the device never sees the batch.
cap=$(cat /sys/module/vhost_vdpa/parameters/max_iotlb_entries 2>/dev/null)
start=$(date +%s)
out=$(vsbdrv --extra-maps 100000 --wait-ms 2000 "$dev" 2>&1)
rc=$?
tap_diag "$out" "set-up and wait took $(($(date +%s) - start)) s"
if [ -n "$cap" ] && [ "$cap" -lt 100004 ]; then
	[ "$rc" = 0 ] || rc=failed
	tap_is "$rc $(echo "$out" | grep -c '^vsbdrv: IOTLB update ')" "failed 1" \
		"100004 maps, 100000 in one batch: vhost_vdpa refuses the update beyond its $cap"
	tap_skip "the kernel log says why" "vhost_vdpa refused the batch first"
else
	tap_is "$(fields "$out")" "used=0 needs_reset=1" \
		"100004 maps, 100000 in one batch: nothing is mapped, NEEDS_RESET"
	tap_ok "the kernel log says why" sh -c \
		'dmesg | grep "m0: address space 0: 100004 maps, limit"'
fi
out=$(vsbdrv "$dev")
tap_is "$(fields "$out")" "used=1 needs_reset=0" \
	"then, on a fresh open, a normal driver is served"
tb_dev_del m0
tap_done
