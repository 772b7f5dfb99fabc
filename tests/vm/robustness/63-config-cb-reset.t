#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The config callback a driver gave the device does not outlive the driver.
# virtio_vdpa sets one and never clears it; after it lets go of the device
# (unbound, and then unloaded or not), vhost_vdpa drives the device with a
# driver that sets no config call and faults the ring: the device's
# NEEDS_RESET must reach nobody's callback. With make check this also runs
# under slub_debug=FZPU init_on_free=1 (testbed/vm.sh --slub-debug), where
# a stale pointer crashes instead of passing silently; the harness fails the
# test on any oops, warning or RCU stall.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# fault_ring NAME [vsbdrv options]: a driver that faults the ring; prints
# its needs_reset=... and config_irq=... fields (config_irq is 0 without
# --config-call: the driver has no fd to see a call on).
fault_ring() {
	_dev=$(tb_vhost_chardev "$1") || return 1
	shift
	vsbdrv --bad-head "$@" "$_dev" | grep -o 'needs_reset=. config_irq=.'
}

# from_virtio_net NAME: let virtio_net (through virtio_vdpa) drive NAME,
# then give NAME to vhost_vdpa.
from_virtio_net() {
	tb_bind "$1" virtio_vdpa && tb_wait 10 tb_netdev "$1" &&
		tb_bind "$1" vhost_vdpa
}

tap_plan 7
tb_load_batch
tap_ok "u0 created on virtio_vdpa, virtio_net probes it" \
	tb_dev_add u0 vdpasim_batch virtio_vdpa
tap_ok "virtio_net has a netdev for u0" tb_wait 10 tb_netdev u0
tap_ok "u0 to vhost_vdpa, virtio_net and virtio_vdpa unloaded" \
	sh -c 'echo u0 >/sys/bus/vdpa/drivers/virtio_vdpa/unbind &&
		rmmod virtio_net && rmmod virtio_vdpa &&
		echo u0 >/sys/bus/vdpa/drivers/vhost_vdpa/bind'
tap_is "$(fault_ring u0)" "needs_reset=1 config_irq=0" \
	"ring fault after virtio_vdpa was unloaded: NEEDS_RESET, no crash"

tb_insmod kernel/virtio_vdpa && tb_insmod kernel/virtio_net
tap_ok "u0 from virtio_net to vhost_vdpa, modules loaded" from_virtio_net u0
tap_is "$(fault_ring u0)" "needs_reset=1 config_irq=0" \
	"ring fault after virtio_vdpa let go: NEEDS_RESET, no crash"
# An opener that sets a config call gets it; the next one, without, does
# not inherit the first one's.
tap_is "$(fault_ring u0 --config-call) $(fault_ring u0)" \
	"needs_reset=1 config_irq=1 needs_reset=1 config_irq=0" \
	"a config call reaches its own opener only"
tb_dev_del u0
tap_done
