#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A used ring the device cannot write (mapped read-only) is a driver error
# the device reports at once: the commands have taken effect, so the driver
# must not be left waiting for used entries that never come. The kick
# finds the device idle (its worker asleep), so no later run of the queue
# can make up for a missed report: NEEDS_RESET and a config interrupt must
# come within a second of the one kick. A normal load after a reset on the
# same device then works.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

tap_plan 4
tb_load_batch
tb_dev_add p0 vdpasim_batch vhost_vdpa
dev=$(tb_vhost_chardev p0)
for cmds in 2 1; do
	out=$(vsbdrv --used-ro --config-call --cmds "$cmds" --idle-ms 300 \
		--wait-ms 1000 "$dev")
	tap_diag "$out"
	tap_is "$(echo "$out" | grep -o 'used=[0-9]* needs_reset=. config_irq=.')" \
		"used=0 needs_reset=1 config_irq=1" \
		"$cmds command(s), used ring read-only: NEEDS_RESET and a config interrupt"
done
out=$(vsbdrv --config-call --cmds 2 "$dev")
tap_is "$(echo "$out" | grep -o 'used=[0-9]* needs_reset=. config_irq=. acks=[0-9,]*')" \
	"used=2 needs_reset=0 config_irq=0 acks=0,0" \
	"then, on a fresh open, two commands are served"
tap_ok "vdpactl-batch load still works" \
	vdpactl-batch load --dev p0 --count 8
tb_dev_del p0
tap_done
