#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Maps hold user addresses of the mm that made them. With IOTLB_PERSIST,
# vhost_vdpa keeps them across a reset of the device, but when its file
# closes it unbinds the mm and then gives each address space back with
# reset_map. virtio_vdpa, taking over, maps nothing and hands the device
# guest physical addresses: they must reach memory as they are, not through
# maps left behind. Here the maps send IOVA x to user address
# 0x10000000 + x, itself a valid guest physical address, so a device that
# kept them would move the frames through the wrong memory (and one that
# kept them while refusing maps without their mm, as this one does, would
# need a reset at the first ring access).
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# VERSION_1, ACCESS_PLATFORM, MAC: no control queue to wait for.
FEATURES=0x300000020

probe_on_virtio_vdpa() {
	tb_bind h0 virtio_vdpa && tb_wait 10 tb_netdev h0 >/dev/null
}

rx_packets() {
	vdpa -j dev vstats show h0 qidx 0 | jq -r '.vstats.h0."rx packets"'
}

looped_back() {
	[ "$(rx_packets)" -gt 0 ]
}

tap_plan 4
tb_load_batch
tb_dev_add h0 vdpasim_batch vhost_vdpa device_features "$FEATURES"
tap_is "$(vsbdrv --persist-maps 1024 "$(tb_vhost_chardev h0)")" "persisted" \
	"a vhost_vdpa user with IOTLB_PERSIST maps 1 GiB and closes"
dmesg -c >/dev/null
tap_ok "virtio_net probes h0 on virtio_vdpa" probe_on_virtio_vdpa
nd=$(tb_netdev h0)
ip link set "$nd" up
ip addr add 10.99.0.1/24 dev "$nd"
ping -c 1 -W 1 -I "$nd" 10.99.0.2 >/dev/null 2>&1
tap_ok "frames loop back through physical addresses, not the old maps" \
	tb_wait 10 looped_back
tap_is "$(dmesg | grep -c 'device needs reset')" 0 "and the device never needed a reset"
tb_dev_del h0
tap_done
