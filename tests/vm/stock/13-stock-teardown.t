#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Devices on both bus drivers are deleted and the stock modules unload.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

tap_plan 6
tb_load_stock
tb_dev_add vdpa0 vdpasim_net vhost_vdpa
tb_dev_add vdpa1 vdpasim_net virtio_vdpa
tb_wait 10 tb_netdev vdpa1 >/dev/null
tap_ok "vdpa dev del on the vhost_vdpa device" tb_dev_del vdpa0
tap_ok "vdpa dev del on the virtio_vdpa device" tb_dev_del vdpa1
tap_is "$(vdpa -j dev show | jq -c '.dev')" "{}" "no vDPA device remains"
tap_ok "rmmod vdpa_sim_net" rmmod vdpa_sim_net
tap_ok "rmmod vdpa_sim and vringh" sh -c 'rmmod vdpa_sim && rmmod vringh'
tap_fails "vdpasim_net is gone from vdpa mgmtdev show" \
	sh -c 'vdpa -j mgmtdev show | jq -e ".mgmtdev | has(\"vdpasim_net\")"'
tap_done
