#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# vdpa_sim_batch loads next to the stock simulator, offers its management
# device and unloads cleanly.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

tap_plan 7
tb_load_stock
tap_ok "insmod vdpa_sim_batch" tb_load_batch
tap_ok "vdpa mgmtdev show lists vdpasim_batch with class net" \
	sh -c 'vdpa -j mgmtdev show vdpasim_batch |
		jq -e ".mgmtdev.vdpasim_batch.supported_classes | index(\"net\")"'
tap_ok "stock vdpasim_net is still there" \
	sh -c 'vdpa -j mgmtdev show | jq -e ".mgmtdev | has(\"vdpasim_net\")"'
tap_is "$(cat /sys/module/vdpa_sim_batch/parameters/completion)" batch \
	"completion mode defaults to batch"
tap_fails "completion mode rejects an unknown value" \
	sh -c 'echo sometimes >/sys/module/vdpa_sim_batch/parameters/completion'
tap_ok "rmmod vdpa_sim_batch" rmmod vdpa_sim_batch
tap_fails "vdpasim_batch is gone" test -e /sys/devices/vdpasim_batch
tap_done
