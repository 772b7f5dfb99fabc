#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The same QEMU 10 start and stop/cont on stock vdpa_sim_net: QEMU shadows
# its control queue too, its load (MAC_ADDR_SET) is acked, the MAC
# survives stop/cont, and frames loop back before and after.
# vm.sh: --qemu
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/qemu.sh

MAC=02:00:00:00:73:01

# stock_vstat NAME: vdpa_sim_net's "cvq NAME" counter.
stock_vstat() {
	vdpa dev vstats show st0 qidx 2 | sed -n "s/.* cvq $1 \([0-9]*\).*/\1/p"
}

mac() {
	vdpa -j dev config show st0 | sed -n 's/.*"mac":"\([^"]*\)".*/\1/p'
}

tap_plan 8
tb_load_stock
tb_dev_add st0 vdpasim_net vhost_vdpa mac "$MAC"
tap_ok "QEMU starts on stock vdpa_sim_net" qm_start q0 st0 ||
	tap_diag "$(cat "$QM_DIR/q0.err")"
tap_ok "the guest driver takes the NIC to DRIVER_OK" qm q0 init ||
	qm_diag q0
tap_is "$(qm_trace_count q0 vhost_vdpa_set_address_space_id 'asid: 1')" 1 \
	"QEMU moved the control queue's group to ASID 1 (shadowed CVQ)"
tap_is "$(stock_vstat successes)" "$(qm_trace_count q0 vhost_vdpa_net_load_cmd)" \
	"stock acked each command QEMU loaded"
tap_ok "a frame to the device's MAC loops back" qm q0 loop || qm_diag q0
tap_ok "stop, cont" qm q0 hmp stop hmp cont || qm_diag q0
tap_is "$(mac)" "$MAC" "the MAC survives stop/cont"
tap_ok "a frame loops back after cont" qm q0 loop || qm_diag q0
qm_quit q0
tap_done
