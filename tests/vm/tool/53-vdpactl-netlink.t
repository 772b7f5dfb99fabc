#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vdpactl-batch dev/mgmtdev/stats print what iproute2's vdpa prints for the
# same devices, in text and JSON, and dev add/del/set work.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# same DESC "OURS" "IPROUTE2": both command lines print the same bytes.
same() {
	_ours=$(eval "$2" 2>&1)
	_theirs=$(eval "$3" 2>&1)
	tap_is "$_ours" "$_theirs" "$1"
}

# iproute2 6.1 names two config keys with a trailing space ("link ").
trim_keys='walk(if type == "object" then with_entries(.key |= rtrimstr(" ")) else . end)'

tap_plan 18
tb_load_stock
tb_dev_add vdpa0 vdpasim_net vhost_vdpa mac 02:42:00:00:00:10
tb_dev_add vdpa1 vdpasim_net virtio_vdpa mac 02:42:00:00:00:11 mtu 9000
tb_wait 10 tb_netdev vdpa1 >/dev/null

same "dev show" "vdpactl-batch dev show" "vdpa dev show"
same "dev show vdpa1" "vdpactl-batch dev show vdpa1" "vdpa dev show vdpa1"
same "-j dev show" "vdpactl-batch -j dev show" "vdpa -j dev show"
same "-p dev show" "vdpactl-batch -p dev show" "vdpa -jp dev show"
same "mgmtdev show" "vdpactl-batch mgmtdev show" "vdpa mgmtdev show"
same "-j mgmtdev show" "vdpactl-batch -j mgmtdev show" "vdpa -j mgmtdev show"
same "dev config show (negotiated features included)" \
	"vdpactl-batch dev config show" "vdpa dev config show"
same "-j dev config show" "vdpactl-batch -j dev config show | jq -S -c ." \
	"vdpa -j dev config show | jq -S -c '$trim_keys'"
same "stats of the virtio_net device's CVQ (counters)" \
	"vdpactl-batch -j stats vdpa1 2>/dev/null | jq -c 'del(.vstats.vdpa1.queue_type)'" \
	"vdpa -j dev vstats show vdpa1 qidx 2 | jq -c 'del(.vstats.vdpa1.queue_type)'"
same "stats of another queue" "vdpactl-batch stats vdpa1 qidx 1 2>/dev/null" \
	"vdpa dev vstats show vdpa1 qidx 1"
tap_is "$(vdpactl-batch -j stats vdpa1 2>/dev/null | jq -r .vstats.vdpa1.queue_type)" \
	control_vq "queue 2 is named the control queue"

tap_ok "dev add with mac and mtu" vdpactl-batch dev add name vdpa2 \
	mgmtdev vdpasim_net mac 02:42:00:00:00:12 mtu 4000
tap_is "$(vdpa -j dev config show vdpa2 | jq -r '.config.vdpa2 | "\(.mac) \(.mtu)"')" \
	"02:42:00:00:00:12 4000" "vdpa sees the new device's config"
tap_ok "dev del" vdpactl-batch dev del vdpa2
tap_is "$(vdpa -j dev show | jq -r '.dev | has("vdpa2")')" false \
	"the device is gone"
# iproute2's "vdpa dev set name DEV mac M" (Linux 6.12; bookworm's vdpa
# 6.1 lacks it, so the result is read back with "vdpa dev config show").
tap_ok "dev set name vdpa0 mac" vdpactl-batch dev set name vdpa0 \
	mac 02:42:00:00:00:20
tap_is "$(vdpa -j dev config show vdpa0 | jq -r .config.vdpa0.mac)" \
	02:42:00:00:00:20 "vdpa sees the new MAC"
tap_ok "help goes to stderr, JSON stays clean" sh -c \
	'vdpactl-batch dev help 2>&1 >/dev/null | grep -q "^Usage:"'
tap_done
