#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Lifecycle stress from outside the driver: loads on several devices at
# once, a driver killed mid-load, "vdpa dev del" and rmmod while a load
# holds the device open (both must wait for the fd to close, never crash),
# then 1000 create/open/close/delete cycles. Memory must come back: the
# unreclaimable slab after all of it is within a small margin of before
# (the reclaimable part is sysfs dentries and inodes the kernel frees
# lazily), no vmalloc area of the module is left, and a load pins no
# memory to begin with. The harness fails
# the test on any kernel warning and bounds every step.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

CYCLES=1000
# A leaked device is ~100 kB with its rings' chain arrays: 1000 cycles
# leaking anything per cycle would be far beyond this.
SLACK_KB=2048
# SLUB debugging (vm.sh --slub-debug) gives every object red zones and
# allocation and free tracks, about doubling the slab any noise occupies;
# a leak per cycle would still be tens of megabytes past it.
case " $(cat /proc/cmdline) " in
*" slub_debug="*) SLACK_KB=$((2 * SLACK_KB)) ;;
esac
LONG=1000000

# long_load DEV: a load that runs until killed; its pid in $!.
long_load() {
	vdpactl-batch load --dev "$1" --count 30 --rounds $LONG \
		>"/tmp/long-$1.out" 2>&1 &
}

# running PID: the process has not exited.
running() {
	kill -0 "$1" 2>/dev/null
}

# gone DEV: the vdpa device no longer exists.
gone() {
	[ ! -e "/sys/bus/vdpa/devices/$1" ]
}

tap_plan 18
tb_load_stock
tb_load_batch
tb_cycles 1
before=$(tb_meminfo_kb SUnreclaim)

for d in b0 b1 b2; do
	tb_dev_add "$d" vdpasim_batch vhost_vdpa
done
tb_dev_add s0 vdpasim_net vhost_vdpa

# Four loads at once, in both modes, on our devices and stock's.
for d in b0 b1 b2 s0; do
	mode=parallel
	[ "$d" = b1 ] && mode=serial
	vdpactl-batch load --dev "$d" --count 30 --rounds 300 --mode $mode \
		--timeout 10000 >"/tmp/par-$d.out" 2>&1 &
	echo $! >"/tmp/par-$d.pid"
done
for d in b0 b1 b2 s0; do
	wait "$(cat "/tmp/par-$d.pid")"
	tap_is "$?" 0 "concurrent load on $d: every ack OK" ||
		tap_diag "$(cat "/tmp/par-$d.out")"
done

# A driver killed mid-load: the close resets the device, which then
# serves a new driver.
long_load b0
pid=$!
sleep 1
tap_ok "load on b0 still running after 1 s" running $pid
# The device reaches the driver's buffers through its mm (vhost-vdpa's VA
# mode): a load pins no page, so nothing pinned can be left behind.
tap_is "$(awk '/^VmPin:/ { print $2 }' "/proc/$pid/status")" 0 \
	"a running load pins no memory"
kill -9 $pid
wait $pid 2>/dev/null
tap_ok "b0 completes a load after its driver was killed mid-load" \
	vdpactl-batch load --dev b0 --count 30 --rounds 10

# vdpa dev del while a load holds the device open: vhost_vdpa waits for
# the fd to close; then the device goes.
long_load b1
pid=$!
sleep 1
vdpa dev del b1 &
del=$!
sleep 1
tap_ok "dev del of b1 waits while the load holds it open" running $del
kill -9 $pid
wait $pid 2>/dev/null
tap_ok "b1 is gone once the load's fd is closed" tb_wait 10 gone b1
wait $del
tap_is "$?" 0 "dev del of b1 succeeded"

# rmmod while a load holds a device open: it waits too, then unloads.
long_load b2
pid=$!
sleep 1
rmmod vdpa_sim_batch &
rm=$!
sleep 1
tap_ok "rmmod waits while a load holds b2 open" running $rm
kill -9 $pid
wait $pid 2>/dev/null
wait $rm
tap_is "$?" 0 "rmmod succeeded once the fd was closed"
tap_ok "module gone" tb_wait 10 test ! -d /sys/module/vdpa_sim_batch

tb_load_batch
tap_ok "$CYCLES create/open/close/delete cycles" tb_cycles $CYCLES
tap_is "$(vdpa -j dev show | jq -r '.dev | keys | join(",")')" s0 \
	"only the stock device is left"
tb_dev_del s0
tap_is "$(grep -c '\[vdpa_sim_batch\]' /proc/vmallocinfo)" 0 \
	"no vmalloc area allocated by the module is left"
tap_ok "rmmod vdpa_sim_batch" rmmod vdpa_sim_batch
tb_load_batch
after=$(tb_meminfo_kb SUnreclaim)
tap_diag "SUnreclaim before ${before} kB, after ${after} kB"
tap_ok "unreclaimable slab did not grow by more than ${SLACK_KB} kB" \
	test "$after" -le "$((before + SLACK_KB))"
tap_done
