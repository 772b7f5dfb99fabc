#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The stock simulator built from Debian's source loads and registers its
# management device.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

tap_plan 3
tap_ok "stock vringh, vdpa_sim, vdpa_sim_net load" tb_load_stock
tap_ok "vdpa mgmtdev show lists vdpasim_net" \
	sh -c 'vdpa -j mgmtdev show | jq -e ".mgmtdev | has(\"vdpasim_net\")"'
tap_ok "vdpasim_net offers class net" \
	sh -c 'vdpa -j mgmtdev show vdpasim_net |
		jq -e ".mgmtdev.vdpasim_net.supported_classes | index(\"net\")"'
tap_done
