#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A run of the queues that waits in a guest page fault must not hold up
# anything but the driver's own queue ops. vsbdrv puts a command's ack in a
# userfaultfd page nobody serves, so the device's write of the ack waits
# (as on a FUSE file whose daemon does not answer) until vsbdrv closes the
# userfaultfd STALL_MS after its kick. Meanwhile, each of these must finish
# within a second:
#   - set_map (vsbdrv's own IOTLB update: vhost_vdpa calls it under the
#     mmap_lock the fault may wait for, so waiting here can deadlock) and a
#     status read;
#   - the module's netlink (dev state, stats) and vdpa's (config, vstats,
#     "dev set mac", which vdpa calls holding its device list lock);
#   - "vdpa dev add" of a second device while a state request is pending.
# Then the fault completes and the command is answered.
. tests/lib/tap.sh
. tests/vm/lib/testbed.sh

STALL_MS=8000

# Milliseconds since boot (/proc/uptime: 10 ms resolution).
uptime_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# start NAME CMD...: run CMD in the background; /tmp/NAME.res gets its
# exit status and how long it took, in ms.
start() {
	_name=$1
	shift
	(
		_t0=$(uptime_ms)
		"$@" >"/tmp/$_name.out" 2>&1
		echo "$? $(($(uptime_ms) - _t0))" >"/tmp/$_name.res"
	) &
}

# quick NAME DESC: NAME's command succeeded within a second.
quick() {
	read -r _rc _ms <"/tmp/$1.res"
	[ "$_rc" = 0 ] || tap_diag "$(cat "/tmp/$1.out")"
	tap_ok "$2 (rc=$_rc, $_ms ms)" test "$_rc" = 0 -a "$_ms" -lt 1000
}

tap_plan 10
tb_load_batch
tb_dev_add s0 vdpasim_batch vhost_vdpa
dev=$(tb_vhost_chardev s0)

vsbdrv --stall-ms "$STALL_MS" --wait-ms 5000 "$dev" >/tmp/stall.out 2>&1 &
drv=$!
i=0
while ! grep -q '^stalled$' /tmp/stall.out && [ "$i" -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
tap_ok "the device's write of the ack waits in the fault" \
	grep -q '^stalled$' /tmp/stall.out

# All at once, while the run waits: one that waited would finish only
# when the stall ends. The state request goes first: in the module's
# netlink it holds the device list lock that dev add needs.
start state vdpactl-batch dev state s0
sleep 0.3
start stats vdpactl-batch stats s0
start config vdpa dev config show s0
start vstats vdpa dev vstats show s0 qidx 2
start setmac vdpa dev set name s0 mac 02:00:00:00:00:5e
start add vdpa dev add mgmtdev vdpasim_batch name s1
wait_bg=0
while [ "$(find /tmp -maxdepth 1 -name "*.res" | wc -l)" -lt 6 ] &&
	[ "$wait_bg" -lt $((STALL_MS / 100 + 50)) ]; do
	sleep 0.1
	wait_bg=$((wait_bg + 1))
done
quick state "vdpactl-batch dev state"
quick stats "vdpactl-batch stats"
quick config "vdpa dev config show"
quick vstats "vdpa dev vstats show (the CVQ)"
quick setmac "vdpa dev set mac"
quick add "vdpa dev add of a second device, a state request pending"

wait "$drv"
out=$(tail -n 1 /tmp/stall.out)
tap_diag "$out"
set_map_ms=$(echo "$out" | sed -n 's/.*set_map_ms=\([0-9]*\).*/\1/p')
status_ms=$(echo "$out" | sed -n 's/.*get_status_ms=\([0-9]*\).*/\1/p')
tap_ok "set_map did not wait for the stalled run (${set_map_ms:-?} ms)" \
	test -n "$set_map_ms" -a "${set_map_ms:-9999}" -lt 1000
tap_ok "nor did the status read (${status_ms:-?} ms)" \
	test -n "$status_ms" -a "${status_ms:-9999}" -lt 1000
tap_is "$(echo "$out" | grep -o 'used=[0-9]* needs_reset=. config_irq=. acks=[0-9,]*')" \
	"used=1 needs_reset=0 config_irq=0 acks=0" \
	"once the fault completes, the command is answered"
tb_dev_del s1
tb_dev_del s0
tap_done
