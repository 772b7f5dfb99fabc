#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# "vdpa dev add" on vdpasim_batch: attributes are applied, invalid ones are
# refused without leaving a half-created device, devices coexist, and
# unloading the module removes the ones left.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# refused DESC ARGS...: the add fails and no device "bad" appears.
refused() {
	_desc=$1
	shift
	if vdpa dev add name bad mgmtdev vdpasim_batch "$@" 2>/dev/null; then
		tap_result 1 "$_desc is refused"
		vdpa dev del bad
		return
	fi
	tap_is "$(vdpa -j dev show | jq -r '.dev | has("bad")')" false \
		"$_desc is refused, no device left"
}

tap_plan 19
tb_load_batch
tap_ok "add with mac and mtu" \
	vdpa dev add name b0 mgmtdev vdpasim_batch mac 02:11:22:33:44:55 mtu 9000
tap_is "$(vdpa -j dev config show b0 | jq -r .config.b0.mac)" \
	02:11:22:33:44:55 "config shows the provisioned MAC"
tap_is "$(vdpa -j dev config show b0 | jq -r .config.b0.mtu)" 9000 \
	"config shows the provisioned MTU"
tap_is "$(vdpa -j dev show b0 | jq -r .dev.b0.max_vq_size)" 4096 \
	"queues go up to 4096 entries"
refused "an all-zero MAC" mac 00:00:00:00:00:00
refused "a multicast MAC" mac 03:00:00:00:00:01
refused "MTU 67" mtu 67
refused "MTU 9001" mtu 9001
refused "max_vqp 0" max_vqp 0
refused "max_vqp above the maximum (8)" max_vqp 9
refused "a feature not offered (CSUM)" device_features 0x300000001
refused "features without VERSION_1" device_features 0x100000000
tap_ok "a second device, and a third with fewer features, coexist" sh -c \
	'vdpa dev add name b1 mgmtdev vdpasim_batch &&
	 vdpa dev add name b2 mgmtdev vdpasim_batch device_features 0x300020000'
# negotiated DEV: what virtio_net, which takes both INDIRECT_DESC and
# GUEST_ANNOUNCE when offered, negotiated on DEV, one name a line.
negotiated() {
	tb_bind "$1" virtio_vdpa && tb_wait 10 tb_netdev "$1" >/dev/null &&
		vdpa -j dev config show "$1" |
		jq -r ".config.$1.negotiated_features[]"
}
tap_ok "a device given every feature the module has" vdpa dev add name b3 \
	mgmtdev vdpasim_batch device_features "$(tb_features_hex vdpasim_batch)"
tap_is "$(negotiated b3 | grep -cxE 'RING_INDIRECT_DESC|GUEST_ANNOUNCE')" 2 \
	"offers INDIRECT_DESC and GUEST_ANNOUNCE (virtio_net takes both)"
tap_is "$(negotiated b1 | grep -cxE 'RING_INDIRECT_DESC|GUEST_ANNOUNCE|VERSION_1')" 1 \
	"the default offers neither (QEMU's shadow virtqueue lacks them)"
tb_bind b2 virtio_vdpa
tb_wait 10 tb_netdev b2 >/dev/null
tap_is "$(vdpa -j dev config show b2 |
	jq -r '.config.b2.negotiated_features | sort | join(",")')" \
	"ACCESS_PLATFORM,CTRL_VQ,VERSION_1" \
	"virtio_net on the third negotiates only the features it was given"
tap_ok "rmmod with devices present" rmmod vdpa_sim_batch
tap_is "$(vdpa -j dev show | jq -c .dev)" "{}" "removes them"
tap_done
