#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vdpactl-batch compare on two stock devices: serial and parallel rows for
# each, as a table, JSON and CSV.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

tap_plan 9
tb_load_stock
tb_dev_add vdpa0 vdpasim_net vhost_vdpa
tb_dev_add vdpa1 vdpasim_net vhost_vdpa

table=$(vdpactl-batch compare --count 30 --rounds 1000)
tap_is "$?" 0 "compare --count 30 --rounds 1000 on every vhost_vdpa device"
tap_diag "$table"
tap_is "$(printf '%s\n' "$table" | grep -c '^vdpa[01] .*vdpasim_net .*serial ')" \
	2 "a serial row per device"
tap_is "$(printf '%s\n' "$table" | grep -c '^vdpa[01] .*vdpasim_net .*parallel ')" \
	2 "a parallel row per device"

json=$(vdpactl-batch -j compare --count 30 --rounds 100 --dev vdpa1 \
	--dev vdpa0)
tap_is "$?" 0 "-j compare with devices named"
tap_is "$(printf '%s' "$json" | jq -r '.compare.results | length')" 4 \
	"four results"
tap_is "$(printf '%s' "$json" |
	jq -r '.compare.results[0] | "\(.device) \(.mode) \(.speedup)"')" \
	"vdpa1 serial 1" "the first device's serial run is the reference"
tap_is "$(printf '%s' "$json" | jq -r '[.compare.results[].device] | join(",")')" \
	"vdpa1,vdpa1,vdpa0,vdpa0" "in the order given"

csv=$(vdpactl-batch compare --count 30 --rounds 100 --csv)
tap_is "$(printf '%s\n' "$csv" | wc -l)" 5 "CSV: a header and four rows"
tap_is "$(printf '%s\n' "$csv" | head -n 1 | cut -d, -f1-3)" \
	"device,mgmtdev,mode" "CSV header"
tap_done
