#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Queue life cycle as the spec and upstream vdpa_sim have it:
#   - VHOST_VDPA_GET_VRING_SIZE (get_vq_size) answers the largest size the
#     device supports until DRIVER_OK, and the size the queue runs with
#     after it;
#   - a queue enabled while the device is suspended is served on resume,
#     with no kick after it: resume looks at every queue, not only at the
#     ones kicked while suspended.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

tap_plan 3
tb_load_batch
tb_dev_add q0 vdpasim_batch vhost_vdpa
dev=$(tb_vhost_chardev q0)
tap_is "$(vsbdrv --sizes "$dev")" "vring_size before=4096 after=64" \
	"get_vq_size: the maximum before DRIVER_OK, the set size after"
out=$(vsbdrv --late-enable --wait-ms 1000 "$dev")
tap_diag "$out"
tap_is "$(echo "$out" | grep -o 'used=[0-9]* needs_reset=. config_irq=. acks=[0-9,]*')" \
	"used=1 needs_reset=0 config_irq=0 acks=0" \
	"a CVQ enabled while suspended: its command is served at resume"
tap_ok "a normal load works after it" vdpactl-batch load --dev q0 --count 8
tb_dev_del q0
tap_done
