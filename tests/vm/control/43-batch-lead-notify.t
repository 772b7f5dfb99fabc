#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# lead_notify=Y: in batch mode a run's first command is published and
# notified at once, the rest of the batch at its end. A parallel load
# that kicks once then takes two publishes, each notified to a driver
# waiting for the call, and every command is still acked OK; a serial
# load keeps one publish per command; the default (N) keeps one publish
# per batch. Each device's setting is taken when it is created.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

N=30
ROUNDS=20
PARAMS=/sys/module/vdpa_sim_batch/parameters

# counters DEV: commands, ok, batches and notifications of DEV.
counters() {
	vdpactl-batch -j stats "$1" >/tmp/stats.json 2>/dev/null &&
		jq -c ".module.$1.counters |
			[.commands, .ok, .batches, .notifications]" /tmp/stats.json
}

# load DEV MODE: ROUNDS loads of N commands, one kick, waiting for the call.
load() {
	vdpactl-batch -j load --dev "$1" --count $N --rounds $ROUNDS \
		--mode "$2" --kick once --wait call --ring-size 256 >/tmp/load.json
}

tap_plan 11
tb_load_batch
tap_is "$(cat $PARAMS/lead_notify)" N "lead_notify is off by default"
tb_dev_add nolead vdpasim_batch vhost_vdpa
echo Y >$PARAMS/lead_notify
tb_dev_add lead vdpasim_batch vhost_vdpa
echo N >$PARAMS/lead_notify

c=$((N * ROUNDS))
tap_ok "lead: $ROUNDS parallel loads, acked OK" load lead parallel
tap_is "$(counters lead)" "[$c,$c,$((2 * ROUNDS)),$((2 * ROUNDS))]" \
	"lead: two publishes per load, both notified"
tap_is "$(jq -c '.module.lead.histograms.cmds_per_batch.counts | add' \
	/tmp/stats.json)" $((2 * ROUNDS)) \
	"lead: the batch-size histogram counts both"
tap_ok "nolead: $ROUNDS parallel loads, acked OK" load nolead parallel
tap_is "$(counters nolead)" "[$c,$c,$ROUNDS,$ROUNDS]" \
	"nolead: one publish per load, notified"
tap_ok "lead: stats reset" vdpactl-batch stats lead reset
tap_ok "lead: $ROUNDS serial loads, acked OK" load lead serial
tap_is "$(counters lead)" "[$c,$c,$c,$c]" \
	"lead: a serial load still has one publish per command"

# The setting is the device's own: created while the parameter was Y,
# a device keeps it, and one created after keeps the default.
tb_dev_add after vdpasim_batch vhost_vdpa
tap_ok "after: $ROUNDS parallel loads, acked OK" load after parallel
tap_is "$(counters after)" "[$c,$c,$ROUNDS,$ROUNDS]" \
	"after: one publish per load, as the default"
