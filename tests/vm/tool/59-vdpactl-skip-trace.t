#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# load --skip-unchanged sends only commands that change the device's
# state, so the module's redundant counter stays put where plain loads
# raise it; load --trace counts the module's events of the run, one per
# command sent. On stock vdpa_sim_net both degrade to notes.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# QEMU's profile: 7 set-up commands (MQ is offered), then VLANs 1..100.
N=107
OUT=/tmp/load.json
ERR=/tmp/load.err

redundant() {
	vdpactl-batch -j stats b0 2>/dev/null |
		jq -r .module.b0.counters.redundant
}

# qemu_load DEV ROUNDS [OPTION...]: report in $OUT, stderr in $ERR.
qemu_load() {
	_dev=$1
	_rounds=$2
	shift 2
	vdpactl-batch -j load --dev "$_dev" --profile qemu --count "$N" \
		--rounds "$_rounds" --mode parallel "$@" >"$OUT" 2>"$ERR"
}

# report JQ: a jq filter over b0's load report.
report() {
	jq -c ".load.b0 | $1" "$OUT"
}

counters() {
	vdpactl-batch -j stats b0 2>/dev/null |
		jq -c '.module.b0.counters | [.commands, .batches, .kicks]'
}

tap_plan 18
tb_load_batch
tb_load_stock
tb_dev_add b0 vdpasim_batch vhost_vdpa
tb_dev_add stock0 vdpasim_net vhost_vdpa

tap_ok "stats --reset" vdpactl-batch stats b0 --reset
tap_ok "one plain load" qemu_load b0 1
first=$(redundant)
tap_is "$([ "$first" -gt 0 ] && echo yes)" yes \
	"defaults sent after the reset are redundant ($first)"
tap_ok "three plain loads" qemu_load b0 3
tap_is "$(($(redundant) - first))" "$((first + 2 * N))" \
	"loads 2 and 3 re-send the state: every command redundant"

before=$(redundant)
tap_ok "three loads with --skip-unchanged" qemu_load b0 3 --skip-unchanged
tap_is "$(redundant)" "$before" "the redundant counter did not rise"
tap_is "$(report '.skip_unchanged | .skipped > 0 and .source == "state"')" \
	true "the report counts skipped commands, from the module's state"
tap_is "$(report '.skip_unchanged | [.sent + .skipped, .empty_loads]')" \
	"[$((3 * N)),2]" \
	"loads 2 and 3 had nothing to send"
tap_is "$(report '[.total_commands, .skip_unchanged.sent] | .[0] == .[1]')" \
	true "only the commands sent are counted and timed"
tap_is "$(report '.state.vlans | length')" 100 \
	"the end state holds what was sent"

vdpactl-batch stats b0 --reset >/dev/null 2>&1
tap_ok "three loads with --trace" qemu_load b0 3 --trace --kick once
tap_is "$(report '[.trace.events.commands, .trace.lost]')" "[$((3 * N)),0]" \
	"trace: one command event per command sent, none lost"
tap_is "$(report '.trace.events | [.commands, .batches, .kicks]')" \
	"$(counters)" "trace: commands, batches and kicks as the module counted"
tap_is "$(report '.trace | .cmd_ns.n > 0 and .kick_to_completion_ns.p99 >= .kick_to_completion_ns.p50')" \
	true "trace: per-command and kick-to-completion times"
tap_is "$(ls /sys/kernel/tracing/instances)" "" \
	"the tool removed its trace instance"

tap_ok "stock: --skip-unchanged --trace still loads" \
	qemu_load stock0 2 --skip-unchanged --trace
tap_diag "$(cat "$ERR")"
tap_is "$(grep -c 'not offered by this device' "$ERR")" 2 \
	"stock: a one-line note for each"
tap_done
