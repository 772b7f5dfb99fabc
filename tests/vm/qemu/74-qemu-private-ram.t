#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# QEMU 10 with its default, private guest RAM on vdpa_sim_batch:
# vhost_vdpa (VA mode) maps none of it, and the device's first look at a
# data queue puts it in NEEDS_RESET with a reason that names the likely
# cause, in the kernel log and in the vsb_needs_reset trace event.
# vm.sh: --qemu
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/qemu.sh

T=/sys/kernel/tracing
EV=$T/events/vdpa_sim_batch/vsb_needs_reset
WHY="no memory mapped (RAM not shared?)"

needs_reset() {
	grep -q "vsb_needs_reset: dev=b0 queue=[0-9]* reason=.*$WHY" "$T/trace"
}

tap_plan 4
tb_load_batch
tb_dev_add b0 vdpasim_batch vhost_vdpa mac 02:00:00:00:74:01
echo 1 >"$EV/enable"
QM_PRIVATE=1
tap_ok "QEMU starts with private guest RAM" qm_start q0 b0 ||
	tap_diag "$(cat "$QM_DIR/q0.err")"
# The control queue lives in QEMU's own shared buffers: the load works.
tap_ok "the guest driver takes the NIC to DRIVER_OK" qm q0 init ||
	qm_diag q0
tap_ok "a data queue access puts the device in NEEDS_RESET, reason: nothing mapped" \
	tb_wait 60 needs_reset || tap_diag "$(cat "$T/trace")"
tap_ok "the kernel log says so too" sh -c "dmesg | grep -q 'b0: queue [0-9]*: .*$WHY'"
echo 0 >"$EV/enable"
qm_quit q0
tap_done
