#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# 30 MAC_ADDR_SET commands x 1000 loads through vhost_vdpa on vdpasim_batch,
# in every driver mode (serial/parallel, kick each/once, poll/call, with
# and without a separate CVQ address space) and both completion modes:
# every ack OK (vdpactl-batch checks each one) and the device's counters
# agree exactly.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

COUNT=30
ROUNDS=1000
TOTAL=$((COUNT * ROUNDS))
PARAMS=/sys/module/vdpa_sim_batch/parameters

# delta DEV JSON NAME: how much vstats counter NAME rose during the load.
delta() {
	printf '%s' "$2" | jq -r ".load.$1.vstats.delta.\"$3\""
}

# counted GOT WANT: the device counted WANT, or WANT - 1. It counts a
# publish of the used index, and the notification, just after making
# them: the driver may see the last completion, and read the counters,
# first (make check met 29999 of 30000 notifications so, once).
counted() {
	[ "$1" = "$2" ] || [ "$1" = $(($2 - 1)) ]
}

# run DEV MODE KICK WAIT ASID: one load, then its checks.
run() {
	dev=$1 mode=$2 kick=$3 wait=$4 asid=$5
	what="$dev $mode kick $kick wait $wait${asid:+ asid}"
	out=$(vdpactl-batch -j load --dev "$dev" --count $COUNT \
		--rounds $ROUNDS --mode "$mode" --kick "$kick" \
		--wait "$wait" ${asid:+--asid} 2>&1)
	if ! tap_is "$?" 0 "$what: $TOTAL commands acked OK"; then
		tap_diag "$out"
		tap_skip "$what: counters" "the load failed"
		return
	fi
	req=$(delta "$dev" "$out" "cvq requests")
	ok=$(delta "$dev" "$out" "cvq successes")
	tap_is "$req/$ok" "$TOTAL/$TOTAL" "$what: cvq requests/successes +$TOTAL"
	case "$dev/$mode/$kick" in
	bb/parallel/once)
		got=$(delta "$dev" "$out" "cvq batches")
		tap_ok "$what: one batch per load ($got)" \
			counted "$got" "$ROUNDS" ;;
	bi/*)
		got=$(delta "$dev" "$out" "cvq notifications")
		tap_ok "$what: one notification per command ($got)" \
			counted "$got" "$TOTAL" ;;
	esac
}

tap_plan 85
tb_load_batch
echo batch >$PARAMS/completion
tb_dev_add bb vdpasim_batch vhost_vdpa mac 02:00:00:00:aa:01
echo immediate >$PARAMS/completion
tb_dev_add bi vdpasim_batch vhost_vdpa
echo batch >$PARAMS/completion

for dev in bb bi; do
	for mode in serial parallel; do
		for kick in each once; do
			for wait in poll call; do
				run "$dev" "$mode" "$kick" "$wait" ""
				run "$dev" "$mode" "$kick" "$wait" yes
			done
		done
	done
done
# Closing the device resets it, and a reset restores the provisioned MAC
# (as QEMU's virtio-net does; stock vdpa_sim_net keeps the last one).
tap_is "$(vdpa -j dev config show bb | jq -r .config.bb.mac)" \
	02:00:00:00:aa:01 "after the driver closes, the MAC is the provisioned one"
tap_done
