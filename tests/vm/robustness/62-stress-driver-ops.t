#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Lifecycle stress from the driver's side, during running loads: with a
# batch of commands in flight the driver resets the device and sets it
# up again on the same fd, suspends and resumes it, takes its IOTLB maps
# away and back, or closes its fd ("vdpactl-batch inject stress-*").
# Every round must end with a full batch acked OK (after remapping, a
# NEEDS_RESET is also a clean outcome) and, after all rounds, the device
# must serve a normal load. Meanwhile an ordinary load runs on a second
# device of the module, so its worker is busy too. The same stress runs
# again on packed rings (--ring packed, devices offering RING_PACKED, in
# batch and in immediate completion), which stock has none of. Stock vdpa_sim_net
# is run for the record: its deviations are TAP TODO items. The harness
# fails the test on any kernel warning, oops or hang.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

ROUNDS=300
STRESS="stress-reset stress-suspend stress-remap stress-close"

# The device's defaults (tests/vm/control/29-batch-rss.t) and RING_PACKED, bit 34.
PACKED=$(printf '0x%x' $((0x328df002e | (1 << 34))))

# stress DEV CASE [OPTIONS]: the case's line in /tmp/stress.out.
stress() {
	_dev=$1
	_case=$2
	shift 2
	timeout 150 vdpactl-batch inject "$_case" --dev "$_dev" \
		--rounds $ROUNDS "$@" >/tmp/stress.out 2>&1
}

verdict() {
	sed -n 's/.* verdict \([^;]*\);.*/\1/p' /tmp/stress.out
}

tap_plan 22
tb_load_stock
tb_load_batch
tb_dev_add sd0 vdpasim_batch vhost_vdpa
tb_dev_add sd1 vdpasim_batch vhost_vdpa
tb_dev_add ss0 vdpasim_net vhost_vdpa
tb_dev_add sp0 vdpasim_batch vhost_vdpa device_features "$PACKED"
tb_dev_add spi0 vdpasim_batch vhost_vdpa device_features "$PACKED"
vdpactl-batch dev batching spi0 completion immediate

# A load on sd1 for the whole run; killed at the end.
vdpactl-batch load --dev sd1 --count 30 --rounds 1000000 --mode parallel \
	>/tmp/bg.out 2>&1 &
bg=$!

for c in $STRESS; do
	stress sd0 "$c"
	tap_is "$? $(verdict)" "0 ok" "vdpa_sim_batch: $c, $ROUNDS rounds"
	tap_diag "$(cat /tmp/stress.out)"
done
for d in sp0 spi0; do
	for c in $STRESS; do
		stress "$d" "$c" --ring packed
		tap_is "$? $(verdict)" "0 ok" \
			"vdpa_sim_batch $d, packed ring: $c, $ROUNDS rounds"
		tap_diag "$(cat /tmp/stress.out)"
	done
done
tap_ok "the background load on sd1 is still running" kill -0 $bg ||
	tap_diag "$(tail -n 5 /tmp/bg.out)"
kill $bg
wait $bg 2>/dev/null

for c in $STRESS; do
	stress ss0 "$c"
	rc=$?
	case $rc in
	0) tap_result 0 "stock vdpa_sim_net: $c" ;;
	3) tap_skip "stock vdpa_sim_net: $c" "$(verdict)" ;;
	# A deviation of the device; anything else is the tool failing.
	4) tap_todo "stock vdpa_sim_net: $c" "$(verdict)" ;;
	*)
		tap_result 1 "stock vdpa_sim_net: $c (exit $rc)"
		tap_diag "$(cat /tmp/stress.out)"
		;;
	esac
done

for d in sd0 sd1 ss0; do
	tap_ok "$d serves a load afterwards" \
		vdpactl-batch load --dev "$d" --count 30 --rounds 20 --mode parallel
done
for d in sp0 spi0; do
	tap_ok "$d serves a packed-ring load afterwards" \
		vdpactl-batch load --dev "$d" --ring packed --count 30 \
		--rounds 20 --mode parallel
done
tap_done
