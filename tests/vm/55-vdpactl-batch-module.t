#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vdpactl-batch works unchanged on vdpasim_batch: loads in both modes are
# acked and counted, every vendor counter is reported, and compare puts it
# beside stock vdpa_sim_net.
. tests/lib/tap.sh
. tests/vm/lib/testbed.sh

OUT=/tmp/load.json

field() {
	jq -r ".load.b0$1" "$OUT"
}

tap_plan 8
tb_load_batch
tb_load_stock
tb_dev_add b0 vdpasim_batch vhost_vdpa
tb_dev_add vdpa0 vdpasim_net vhost_vdpa

for mode in serial parallel; do
	tap_ok "$mode: 30 commands x 1000 loads" sh -c "vdpactl-batch -j load \
		--dev b0 --count 30 --rounds 1000 --mode $mode >$OUT"
	tap_is "$(field '.vstats.delta."cvq requests"')/$(field '.vstats.delta."cvq successes"')" \
		30000/30000 "$mode: cvq requests and successes rose by 30000"
done
tap_is "$(field '.vstats.after | keys | length')" \
	"$(field '.vstats.delta | keys | length')" \
	"every vendor counter has a delta"
tap_diag "vendor counters: $(field '.vstats.after | keys | join(", ")')"

table=$(vdpactl-batch compare --count 30 --rounds 1000)
tap_is "$?" 0 "compare stock and batch devices"
tap_diag "$table"
tap_is "$(printf '%s\n' "$table" | grep -c 'vdpasim_batch')" 2 \
	"two rows for vdpasim_batch"
tap_is "$(printf '%s\n' "$table" | grep -c 'vdpasim_net')" 2 \
	"two rows for vdpasim_net"
tap_done
