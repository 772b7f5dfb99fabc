#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Profiles on stock vdpa_sim_net, which negotiates only CTRL_MAC_ADDR: each
# degrades to MAC_ADDR_SET with a note naming what was left out, and no
# command is ever NACKed. Ring sizes shape the parallel batches.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

OUT=/tmp/load.json

field() {
	jq -r ".load.vdpa0$1" "$OUT"
}

tap_plan 14
tb_load_stock
tb_dev_add vdpa0 vdpasim_net vhost_vdpa

for profile in qemu vlan mixed; do
	tap_ok "profile $profile runs" sh -c "vdpactl-batch -j load --dev vdpa0 \
		--count 30 --rounds 100 --mode parallel --profile $profile >$OUT"
	tap_is "$(field '.commands | keys | join(",")')/$(field '.vstats.delta."cvq errors"')" \
		"MAC_ADDR_SET/0" "profile $profile: only MAC_ADDR_SET, no errors"
	tap_ok "profile $profile: the note names CTRL_VLAN" \
		sh -c "jq -r .load.vdpa0.note $OUT | grep -q CTRL_VLAN"
done

tap_ok "ring of 2: one command per batch" sh -c "vdpactl-batch -j load \
	--dev vdpa0 --count 30 --rounds 10 --mode parallel --ring-size 2 >$OUT"
tap_is "$(field .batch_max)/$(field .batches)" 1/300 "300 batches of 1"
tap_ok "ring of 256: 128 commands per batch" sh -c "vdpactl-batch -j load \
	--dev vdpa0 --count 300 --rounds 10 --mode parallel --ring-size 256 >$OUT"
tap_is "$(field .batch_max)/$(field .batches)" 128/30 "3 batches per load"
tap_is "$(field '.vstats.delta."cvq successes"')" 3000 "all acked"
tap_done
