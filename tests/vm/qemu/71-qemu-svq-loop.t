#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# QEMU 10 with x-svq=on (every queue shadowed) accepts a default
# vdpa_sim_batch device, and a frame the guest transmits comes back on its
# receive queue through QEMU's shadow virtqueues and the device's loopback.
# vm.sh: --qemu
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/qemu.sh

MAC=02:00:00:00:71:01

tap_plan 4
tb_load_batch
tb_dev_add b0 vdpasim_batch vhost_vdpa mac "$MAC"
tap_ok "QEMU starts with x-svq=on on the default device" \
	qm_start q0 b0 x-svq=on || tap_diag "$(cat "$QM_DIR/q0.err")"
tap_ok "the guest driver takes the NIC to DRIVER_OK" qm q0 init ||
	qm_diag q0
tap_ok "a frame to the device's MAC comes back" qm q0 loop || qm_diag q0
tap_ok "and one to another MAC, after the guest set promiscuous mode" \
	qm q0 rx promisc 1 loop 02:00:00:00:71:99 || qm_diag q0
qm_quit q0
tap_done
