#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# vdpactl-batch's loads on packed control virtqueues (--ring packed)
# through vhost_vdpa, on vdpasim_batch devices offering RING_PACKED: the
# driver-mode matrix of 30-batch-loads.t (serial/parallel, kick each/once,
# poll/call, with and without a separate CVQ address space) in both
# completion modes, each load going round its 64-entry ring many times;
# every ack OK, the device's counters exact, and the ring's base the
# device reports (get_vq_state, through VHOST_GET_VRING_BASE) where the
# driver is. Then cold loads (data rings packed too), the mixed profile,
# loads on three devices at once and a driver killed mid-load. The harness
# fails the test on any kernel warning.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

COUNT=30
ROUNDS=200
TOTAL=$((COUNT * ROUNDS))
RING=64
PARAMS=/sys/module/vdpa_sim_batch/parameters
# The device's defaults (tests/vm/control/29-batch-rss.t) and RING_PACKED, bit 34.
FEATURES=$(printf '0x%x' $((0x328df002e | (1 << 34))))

# field DEV JSON PATH: one value of the load's JSON report.
field() {
	printf '%s' "$2" | jq -r ".load.$1.$3"
}

# packed_base DESCS: VHOST_SET_VRING_BASE's encoding of a fresh packed
# ring after DESCS descriptors on each side: slot DESCS % RING, the wrap
# counter 1 flipped once a lap.
packed_base() {
	_half=$(($1 % RING | (1 - $1 / RING % 2) << 15))
	printf '%#x' $((_half | _half << 16))
}

# run DEV MODE KICK WAIT ASID: one load, then its checks.
run() {
	dev=$1 mode=$2 kick=$3 wait=$4 asid=$5
	what="$dev $mode kick $kick wait $wait${asid:+ asid}"
	out=$(vdpactl-batch -j load --dev "$dev" --ring packed --count $COUNT \
		--rounds $ROUNDS --mode "$mode" --kick "$kick" \
		--wait "$wait" ${asid:+--asid} 2>&1)
	if ! tap_is "$?" 0 "$what: $TOTAL commands acked OK"; then
		tap_diag "$out"
		tap_skip "$what: counters" "the load failed"
		tap_skip "$what: ring base" "the load failed"
		return
	fi
	req=$(field "$dev" "$out" 'vstats.delta."cvq requests"')
	ok=$(field "$dev" "$out" 'vstats.delta."cvq successes"')
	tap_is "$req/$ok" "$TOTAL/$TOTAL" "$what: cvq requests/successes +$TOTAL"
	# Each command is two descriptors: command and ack.
	tap_is "$(printf '%#x/%#x' "$(field "$dev" "$out" vring_base.device)" \
		"$(field "$dev" "$out" vring_base.driver)")" \
		"$(packed_base $((2 * TOTAL)))/$(packed_base $((2 * TOTAL)))" \
		"$what: the device's ring base is the driver's"
	case "$dev/$mode/$kick" in
	pb/parallel/once)
		tap_is "$(field "$dev" "$out" 'vstats.delta."cvq batches"')" \
			"$ROUNDS" "$what: one batch per load" ;;
	pi/*)
		tap_is "$(field "$dev" "$out" 'vstats.delta."cvq notifications"')" \
			"$TOTAL" "$what: one notification per command" ;;
	esac
}

# running PID: the process has not exited.
running() {
	kill -0 "$1" 2>/dev/null
}

tap_plan 124
tb_load_batch
tb_dev_add pb vdpasim_batch vhost_vdpa device_features "$FEATURES"
echo immediate >$PARAMS/completion
tb_dev_add pi vdpasim_batch vhost_vdpa device_features "$FEATURES"
echo batch >$PARAMS/completion
tb_dev_add p2 vdpasim_batch vhost_vdpa device_features "$FEATURES"

for dev in pb pi; do
	for mode in serial parallel; do
		for kick in each once; do
			for wait in poll call; do
				run "$dev" "$mode" "$kick" "$wait" ""
				run "$dev" "$mode" "$kick" "$wait" yes
			done
		done
	done
done

out=$(vdpactl-batch -j load --dev pb --ring packed --cold --count $COUNT \
	--rounds 20 --mode parallel 2>&1)
tap_is "$?" 0 "cold loads: reset, packed rings, DRIVER_OK, commands, data queues" ||
	tap_diag "$out"
out=$(vdpactl-batch -j load --dev pb --ring packed --profile mixed \
	--count 64 --rounds 50 --mode parallel 2>&1)
tap_is "$?" 0 "the mixed profile: every class on a packed ring" ||
	tap_diag "$out"

# Three devices at once, both modes; then one driver killed mid-load.
for d in pb pi p2; do
	mode=parallel
	[ "$d" = pi ] && mode=serial
	vdpactl-batch load --dev "$d" --ring packed --count 30 --rounds 300 \
		--mode $mode --timeout 10000 >"/tmp/par-$d.out" 2>&1 &
	echo $! >"/tmp/par-$d.pid"
done
for d in pb pi p2; do
	wait "$(cat "/tmp/par-$d.pid")"
	tap_is "$?" 0 "concurrent load on $d: every ack OK" ||
		tap_diag "$(cat "/tmp/par-$d.out")"
done
vdpactl-batch load --dev p2 --ring packed --count 30 --rounds 1000000 \
	>/tmp/long.out 2>&1 &
pid=$!
sleep 1
tap_ok "a load on p2 still running after 1 s" running $pid
kill -9 $pid
wait $pid 2>/dev/null
tap_ok "p2 completes a load after its driver was killed mid-load" \
	vdpactl-batch load --dev p2 --ring packed --count 30 --rounds 10
tap_is "$(dmesg | grep -c 'device needs reset')" 0 "no queue needed a reset"
for d in pb pi p2; do
	tb_dev_del $d
done
tap_done
