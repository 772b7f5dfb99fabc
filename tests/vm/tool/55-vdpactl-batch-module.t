#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vdpactl-batch works unchanged on vdpasim_batch: loads in both modes are
# acked and counted, every vendor counter is reported, and compare puts it
# beside stock vdpa_sim_net, against the baseline asked for and with each
# device's CPU cost (the tool's and the kernel threads').
. tests/lib/tap.sh
. testbed/lib/testbed.sh

OUT=/tmp/load.json

field() {
	jq -r ".load.b0$1" "$OUT"
}

tap_plan 16
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

# b0 comes first, so a baseline of vdpa0 is not the default.
json=$(vdpactl-batch -j compare --count 30 --rounds 20 --cpu --baseline vdpa0)
tap_is "$?" 0 "compare --cpu --baseline vdpa0 -j"
results() {
	printf '%s' "$json" | jq -r ".compare | $1"
}
tap_is "$(results '.baseline')" vdpa0 "the baseline is named"
tap_is "$(results '[.results[] | select(.device == "vdpa0" and .mode == "serial") | .speedup] | join(",")')" \
	1 "the baseline's serial row has speedup 1"
# speedup = baseline serial median / the row's, to the 3 decimals JSON has
# shellcheck disable=SC2016 # $ref and $want are jq's
tap_is "$(results '(.results[] | select(.device == "vdpa0" and .mode == "serial") | .median_us_per_command) as $ref |
	[.results[] | ($ref / .median_us_per_command) as $want |
		select(($want - .speedup) | fabs > 0.001 * $want + 0.001)] | length')" \
	0 "every speedup divides the baseline's serial median"
tap_is "$(results '[.results[] | select(.client_cpu_us_per_command > 0 and .kthread_cpu_us_per_command > 0)] | length')" \
	4 "client and kernel-thread CPU per command above 0 on every row"
tap_is "$(results '[.results[] | select(has("p99_load_us_per_command") and (has("p99_us_per_command") | not))] | length')" \
	4 "the load p99 over N is called so, the old key is gone"
tap_diag "$(results '.results[] | "\(.device) \(.mode): median \(.median_us_per_command) us/cmd, client CPU \(.client_cpu_us_per_command) us/cmd, kthread CPU \(.kthread_cpu_us_per_command) us/cmd, speedup \(.speedup)"')"

table=$(vdpactl-batch compare --count 30 --rounds 20 --cpu --baseline vdpa0)
tap_diag "$table"
tap_is "$(printf '%s\n' "$table" | grep -c '^baseline vdpa0 serial$')" 1 \
	"the text header names the baseline"
tap_fails "an unknown --baseline is refused" \
	vdpactl-batch compare --count 30 --rounds 20 --baseline nosuch0
tap_done
