#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The CVQ cost model (Documentation/cost-model.rst): an operation -- one
# publish of the CVQ -- pays op once and cmd (plus its class's extra) per
# command it completes, asleep, before the commands are published. Shown
# with the module parameter "cost" (new devices' model; its grammar, bad
# values refused) and the vsb_cvq_cost trace event, whose requested costs
# are exact: batch completion with one kick per load pays op once per
# load, immediate completion once per command, a device without a model
# never; no operation realizes less than it asked for.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

N=30
ROUNDS=5
OP=100000
CMD=1000
VLAN=3000
P=/sys/module/vdpa_sim_batch/parameters
T=/sys/kernel/tracing

# paid: "operations commands requested_ns short" of the vsb_cvq_cost
# events since the trace was cleared; short: operations that realized
# less than they asked for.
paid() {
	awk '/ vsb_cvq_cost: / {
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			v[kv[1]] = kv[2]
		}
		ops++
		cmds += v["cmds"]
		ns += v["ns"]
		short += v["real_ns"] < v["ns"]
	}
	END { printf "%d %d %d %d\n", ops, cmds, ns, short }' "$T/trace"
}

# realized: the median realized ns of the events, for the record.
realized() {
	grep -o ' real_ns=[0-9]*' "$T/trace" | sed 's/ real_ns=/real /' |
		bench-report --summarize | cut -d ' ' -f 5
}

# load DEV MODE KICK PROFILE: ROUNDS loads of N commands, all acked OK.
load() {
	echo >"$T/trace"
	vdpactl-batch load --dev "$1" --count $N --rounds $ROUNDS \
		--mode "$2" --kick "$3" --profile "$4" >/dev/null
}

tap_plan 15
tb_load_batch
for bad in op=abc bogus=1 op=1000000001 op precise=maybe; do
	tap_fails "cost=$bad is refused" sh -c "echo $bad >$P/cost"
done
tap_ok "cost=op=$OP,cmd=$CMD,vlan=$VLAN is taken" \
	sh -c "echo op=$OP,cmd=$CMD,vlan=$VLAN >$P/cost"
tap_is "$(cat $P/cost)" "op=$OP,cmd=$CMD,vlan=$VLAN" "and read back"
tb_dev_add c0 vdpasim_batch vhost_vdpa
echo >$P/cost
tb_dev_add z0 vdpasim_batch vhost_vdpa
echo 1 >$T/events/vdpa_sim_batch/vsb_cvq_cost/enable

vdpactl-batch dev batching c0 completion batch
tap_ok "batch: $ROUNDS parallel loads of $N MACs, kick once" \
	load c0 parallel once mac
tap_is "$(paid)" "$ROUNDS $((N * ROUNDS)) $((ROUNDS * (OP + N * CMD))) 0" \
	"batch: op once per load, cmd per command, none cut short"
tap_diag "batch: median realized $(realized) ns per operation of $((OP + N * CMD))"
tap_ok "batch: $ROUNDS parallel loads of $N VLANs" load c0 parallel once vlan
tap_is "$(paid)" \
	"$ROUNDS $((N * ROUNDS)) $((ROUNDS * (OP + N * (CMD + VLAN)))) 0" \
	"batch: a VLAN command pays cmd and vlan"

vdpactl-batch dev batching c0 completion immediate
tap_ok "immediate: $ROUNDS serial loads of $N MACs" load c0 serial each mac
tap_is "$(paid)" "$((N * ROUNDS)) $((N * ROUNDS)) $((N * ROUNDS * (OP + CMD))) 0" \
	"immediate: op for every command"
tap_diag "immediate: median realized $(realized) ns per operation of $((OP + CMD))"

tap_ok "a device added without a model: a load" load z0 parallel once mac
tap_is "$(paid)" "0 0 0 0" "it pays nothing"
tb_dev_del c0
tb_dev_del z0
tap_done
