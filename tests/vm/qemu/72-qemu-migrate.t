#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Live migration between two vdpa_sim_batch devices through QEMU 10: the
# guest sets its network state on the source's device, QEMU migrates
# ("-incoming", "migrate") to a QEMU on the second device, which loads the
# state through its shadowed CVQ; the destination's state dump then equals
# the source's, and a frame still loops back on the destination.
# vm.sh: --qemu
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/qemu.sh

MAC=02:00:00:00:72:01
MIG=unix:$QM_DIR/migration.sock

# QEMU listens for the migration only after its QMP and qtest sockets,
# which qm_start waits for, exist: on a loaded host "migrate" came first.
start_dst() {
	qm_start q1 dst "" -incoming "$MIG" &&
		tb_wait 60 test -S "$QM_DIR/migration.sock"
}

tap_plan 9
tb_load_batch
tb_dev_add src vdpasim_batch vhost_vdpa mac "$MAC" max_vqp 2
tb_dev_add dst vdpasim_batch vhost_vdpa mac "$MAC" max_vqp 2
tap_ok "source QEMU starts" qm_start q0 src || tap_diag "$(cat "$QM_DIR/q0.err")"
tap_ok "the guest sets its state through the CVQ" \
	qm q0 init rx allmulti 1 rx alluni 1 \
	mac-table 02:00:00:aa:00:01 01:00:5e:00:00:01,33:33:00:00:00:01 \
	vlan-del 1 9 mq 2 loop || qm_diag q0
SRC_STATE=$(qm_state src)
tap_ok "destination QEMU starts, waiting for the migration" start_dst ||
	tap_diag "$(cat "$QM_DIR/q1.err")"
tap_ok "the destination's device does not hold that state yet" \
	test "$(qm_state dst)" != "$SRC_STATE"
tap_ok "migrate completes" qm q0 migrate "$MIG" || qm_diag q0
# Without -S the destination starts by itself once the migration is in.
tap_ok "the destination runs" tb_wait 60 qm_running q1
tap_is "$(qm_vstat dst successes) $(qm_vstat dst errors)" \
	"$(qm_trace_count q1 vhost_vdpa_net_load_cmd) 0" \
	"the destination loaded QEMU's commands through its CVQ, all acked"
tap_is "$(qm_state dst)" "$SRC_STATE" \
	"the destination's state dump equals the source's"
tap_ok "a frame loops back on the destination" qm q1 loop || qm_diag q1
qm_quit q1
qm_quit q0
tap_done
