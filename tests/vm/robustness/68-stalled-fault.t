#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A run of the queues that waits in a guest page fault must not hold up
# anything but the driver's own queue ops. vsbdrv puts a command's ack in a
# userfaultfd page nobody serves, so the device's write of the ack waits
# (as on a FUSE file whose daemon does not answer) until vsbdrv closes the
# userfaultfd STALL_MS after its kick. Meanwhile, each of these must finish
# within two seconds (QUICK_MS):
#   - set_map (vsbdrv's own IOTLB update: vhost_vdpa calls it under the
#     mmap_lock the fault may wait for, so waiting here can deadlock) and a
#     status read;
#   - the module's netlink (dev state, stats) and vdpa's (config, vstats,
#     "dev set mac", which vdpa calls holding its device list lock);
#   - "vdpa dev add" of a second device while a state request is pending.
# Then the fault completes and the command is answered.
#
# Then a second stall, during which the owner resets the device (vsbdrv
# --stall-reset), as QEMU does when the guest resets it or the VM stops.
# vdpa core holds the device's cf_lock for writing around the reset, and
# any user's "vdpa dev config show" reads the config under it, holding
# vdpa's device list lock and, vdpa's netlink family not being parallel,
# the generic netlink mutex: every other vdpa request on the host queues
# behind it. So, each within two seconds:
#   - the reset itself;
#   - an unprivileged "vdpa dev config show" of the device, once the reset
#     is under way;
#   - then "vdpa dev add" of another device, and "vdpa dev show".
# The reset comes first, so the stalled command may go unanswered; but the
# device must not write the ring once the reset returned, and once the
# stall ends a fresh driver gets its command answered, with nothing in the
# kernel log at warning level or worse.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# What counts as quick, and the stalls, which are longer than that by far.
# A request that waits for nothing takes 40 to 180 ms on a quiet host, but
# took 750 to 1060 ms with the host's two cores busy beside the VM
# (make fresh-check at 090a99a): quick leaves room for that.
QUICK_MS=2000
STALL_MS=8000
# Long enough that what waits for it cannot pass for quick.
RESET_STALL_MS=5000
# The debug kernel (make check KERNEL=debug: lockdep, KASAN) starts every
# command two to three times as slowly: up to 2.7 s for one that waits for
# nothing. Quick is 4 s there, and the stalls grow to stay far beyond it.
case "$(uname -r)" in
*-vsbdebug) QUICK_MS=4000 STALL_MS=20000 RESET_STALL_MS=12000 ;;
esac

# Milliseconds since boot (/proc/uptime: 10 ms resolution).
uptime_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# start NAME CMD...: run CMD in the background; /tmp/NAME.pid gets its
# process id, /tmp/NAME.res its exit status and how long it took, in ms.
start() {
	_name=$1
	shift
	(
		_t0=$(uptime_ms)
		"$@" >"/tmp/$_name.out" 2>&1 &
		echo $! >"/tmp/$_name.pid"
		wait $!
		echo "$? $(($(uptime_ms) - _t0))" >"/tmp/$_name.res"
	) &
}

# settle PID CMD...: until CMD succeeds (what PID does is done) or a
# thread of PID sleeps uninterruptibly in the kernel, as on a lock it
# waits for; at most 5 s.
settle() {
	_pid=$1
	shift
	_i=0
	until "$@" || grep -qs '^State:.D' /proc/"$_pid"/task/*/status ||
		[ "$_i" -ge 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}

# settle_started NAME: settle what "start NAME" started.
settle_started() {
	tb_wait 5 test -s "/tmp/$1.pid"
	settle "$(cat "/tmp/$1.pid")" test -e "/tmp/$1.res"
}

# wait_res NAME...: until each NAME's command has finished, at most until
# a stall would have ended.
wait_res() {
	_waited=0
	for _name; do
		while [ ! -e "/tmp/$_name.res" ] &&
			[ "$_waited" -lt $((STALL_MS / 100 + 50)) ]; do
			sleep 0.1
			_waited=$((_waited + 1))
		done
	done
}

# quick NAME DESC: NAME's command succeeded within QUICK_MS.
quick() {
	read -r _rc _ms <"/tmp/$1.res"
	[ "$_rc" = 0 ] || tap_diag "$(cat "/tmp/$1.out")"
	tap_ok "$2 (rc=$_rc, $_ms ms)" test "$_rc" = 0 -a "$_ms" -lt "$QUICK_MS"
}

# wait_line FILE LINE: until FILE has LINE, for at most 10 s.
wait_line() {
	_i=0
	while ! grep -qx "$2" "$1" && [ "$_i" -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	grep -qx "$2" "$1"
}

# field NAME LINE: the number after " NAME=" in LINE.
field() {
	echo "$2" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"
}

tap_plan 18
tb_load_batch
tb_dev_add s0 vdpasim_batch vhost_vdpa
dev=$(tb_vhost_chardev s0)

vsbdrv --stall-ms "$STALL_MS" --wait-ms 5000 "$dev" >/tmp/stall.out 2>&1 &
drv=$!
tap_ok "the device's write of the ack waits in the fault" \
	wait_line /tmp/stall.out stalled

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
wait_res state stats config vstats setmac add
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
	test -n "$set_map_ms" -a "${set_map_ms:-9999}" -lt "$QUICK_MS"
tap_ok "nor did the status read (${status_ms:-?} ms)" \
	test -n "$status_ms" -a "${status_ms:-9999}" -lt "$QUICK_MS"
tap_is "$(echo "$out" | grep -o 'used=[0-9]* needs_reset=. config_irq=. acks=[0-9,]*')" \
	"used=1 needs_reset=0 config_irq=0 acks=0" \
	"once the fault completes, the command is answered"
tb_dev_del s1

# An unprivileged user of vdpa's netlink, as anyone may be.
grep -q '^nobody:' /etc/passwd ||
	echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
dmesg -c >/dev/null
vsbdrv --stall-ms "$RESET_STALL_MS" --stall-reset --wait-ms 1000 "$dev" \
	>/tmp/reset.out 2>&1 &
drv=$!
tap_ok "a second stall, and the owner resets the device meanwhile" \
	wait_line /tmp/reset.out resetting
# Each goes once the one before it is done or waits: a reset that waits
# for the run holds the device's cf_lock, and so on.
settle "$drv" grep -qx reset /tmp/reset.out
start userconfig su -s /bin/sh nobody -c \
	'id -u | grep -qvx 0 && exec vdpa dev config show s0'
settle_started userconfig
start add2 vdpa dev add mgmtdev vdpasim_batch name s2
settle_started add2
start show vdpa dev show
wait_res userconfig add2 show
quick userconfig "an unprivileged vdpa dev config show, the reset under way"
quick add2 "vdpa dev add of another device after it"
quick show "vdpa dev show after both"

wait "$drv"
out=$(tail -n 1 /tmp/reset.out)
tap_diag "$out"
reset_ms=$(field reset_ms "$out")
tap_ok "the reset did not wait for the stalled run (${reset_ms:-?} ms)" \
	test -n "$reset_ms" -a "${reset_ms:-9999}" -lt "$QUICK_MS"
used=$(field used "$out")
reset_used=$(field reset_used "$out")
tap_ok "no used entry written after the reset returned (${reset_used:-?} then ${used:-?})" \
	test -n "$used" -a "$used" = "$reset_used"
out=$(vsbdrv "$dev")
tap_is "$(echo "$out" | grep -o 'used=[0-9]* needs_reset=. config_irq=. acks=[0-9,]*')" \
	"used=1 needs_reset=0 config_irq=0 acks=0" \
	"once the stall ended, a fresh driver's command is answered"
warnings=$(dmesg -r | grep '^<[0-4]>')
tap_is "$warnings" "" "nothing logged at warning level or worse"
tb_dev_del s2
tb_dev_del s0
tap_done
