#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Batch mode writes the acks of commands whose ack bytes lie one after
# another in one access (Documentation/design.rst, "Control virtqueue").
# When that write fails part way -- here eight acks run past the end of
# the ack page into IOVA nothing maps -- the device must keep the rule it
# keeps one command at a time: the commands before the first unwritable
# ack are acked OK and in force, that one is a framing error (NEEDS_RESET,
# a config interrupt, "buffer not accessible") and nothing after it takes
# effect. In batch mode every chain taken comes back, the unanswered ones
# with length 0, so the driver waits for none; immediate mode takes the
# commands one at a time and stops at the failing one.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

T=/sys/kernel/tracing
EV=$T/events/vdpa_sim_batch/vsb_needs_reset

# fields OUTPUT: what the checks compare, without the time.
fields() {
	echo "$1" | grep -o 'used=[0-9]* needs_reset=. config_irq=. acks=[0-9,-]*'
}

tap_plan 5
tb_load_batch
echo 1 >"$EV/enable"
echo 1 >"$T/tracing_on"
tb_dev_add g0 vdpasim_batch vhost_vdpa
dev=$(tb_vhost_chardev g0)

out=$(vsbdrv --config-call --cmds 8 --acks-cross 3 --wait-ms 3000 "$dev")
tap_diag "$out"
tap_is "$(fields "$out")" \
	"used=8 needs_reset=1 config_irq=1 acks=0,0,0,-,-,-,-,-" \
	"batch: three acked, the fourth a fault, every chain given back"
tap_is "$(echo "$out" | grep -o 'mac=[0-9a-f:]*')" "mac=02:00:00:00:00:03" \
	"batch: the third command is the last in force"
tap_ok "the reset names the unwritable ack" \
	grep -q "buffer not accessible" "$T/trace"

vdpactl-batch dev batching g0 completion immediate
# The rest stays in the ring: the used index never reaches 8.
out=$(vsbdrv --config-call --cmds 8 --acks-cross 3 --wait-ms 1000 "$dev")
tap_diag "$out"
tap_is "$(fields "$out") $(echo "$out" | grep -o 'mac=[0-9a-f:]*')" \
	"used=4 needs_reset=1 config_irq=1 acks=0,0,0,-,-,-,-,- mac=02:00:00:00:00:03" \
	"immediate: the same three in force, the fourth given back, no more taken"

vdpactl-batch dev batching g0 completion batch
tap_ok "a normal load on a fresh open still works" \
	vdpactl-batch load --dev g0 --count 30
echo 0 >"$EV/enable"
tb_dev_del g0
tap_done
