#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot the test-bed kernel in QEMU and run one command in it, or the VM test
# suite. See "testbed/vm.sh --help".
set -euo pipefail
# shellcheck source=../scripts/lib/common.sh
. "$(dirname "$0")/../scripts/lib/common.sh"

usage() {
	cat >&2 <<EOT
Usage: $VB_PROG [OPTIONS] [-- COMMAND [ARG...]]

Boot Debian's test-bed kernel (see build/testbed.env) under QEMU with a busybox
initramfs holding the stock and vdpa-batch modules, iproute2's vdpa and ip,
ethtool, jq, vdpactl-batch and the tests. Run COMMAND in /vdpa-batch inside the
guest, stream its output here and exit with its status. Without COMMAND, run
every tests/vm/*/*.t under prove, one boot each.

The run fails (non-zero) when the guest kernel logs a BUG, WARNING, oops, call
trace, soft lockup, RCU stall or panic, or when the guest does not report an
exit status before the timeout (exit 124). A boot that dies before /init
starts is retried (up to $BOOT_TRIES boots): under multi-threaded TCG the
kernel's boot-time code patching rarely trips an emulation race, which
has nothing to do with what is tested.

Options:
  --kvm            use KVM instead of TCG (needs a working /dev/kvm)
  --smp N          vCPUs (default 2: a busy-polling client needs a vCPU beside
                   the device's worker)
  --mem MB         guest memory (default 1536)
  --timeout SEC    hard limit for the whole boot (default 600)
  --slub-debug     boot with slub_debug=FZPU init_on_free=1: freed objects
                   are poisoned and red zones checked, so a use after free
                   or an overrun crashes or is reported instead of passing
                   silently; the logs get "-slub" added to their name
  --qemu           add the QEMU layer (build/vm/qemu.cpio): QEMU 10 as
                   /usr/bin/qemu-system-x86_64 in the guest; a test file
                   with a "# vm.sh: --qemu" line gets it without asking
  --plugin SO[,ARG=VALUE...]
                   load a TCG plugin into QEMU (without --kvm), e.g.
                   build/plugin/insn_count.so,out=FILE (tools/insn-count)
  --devices        before COMMAND, load stock vdpa_sim_net and vdpa_sim_batch
                   and create stock0 (vdpasim_net) and batch0 (vdpasim_batch),
                   both bound to vhost_vdpa
  --name NAME      name of the logs (default: the test's name or "command";
                   a name in use by another run gets the process id added)
  --log-dir DIR    where NAME.log (console) and NAME.out (command output) go
                   (default build/vm, build/vm/newest with VB_KERNEL=newest,
                   build/vm/debug with VB_KERNEL=debug)
  -h, --help       this text

Environment: VB_KERNEL=newest (boot the newest Debian kernel instead of the
test bed's, see "make newest-setup"), VB_KERNEL=debug (the test bed's version
with lockdep, KASAN and UBSAN, see "make debug-setup"), VM_KVM=1, VM_SMP, VM_MEM, VM_TIMEOUT, VM_APPEND (extra kernel
arguments), VM_SLUB_DEBUG=1 (as --slub-debug), VM_NO_BUILD=1 (do not
rebuild the image first), V=1.
EOT
	exit "${1:-2}"
}

BOOT_TRIES=3
kvm=${VM_KVM:-0}
devices=0
slub_debug=${VM_SLUB_DEBUG:-0}
with_qemu=${VM_QEMU:-0}
plugin=()
smp=${VM_SMP:-2}
mem=${VM_MEM:-1536}
timeout=${VM_TIMEOUT:-600}
name=
logdir=$VB_VM_DIR
while [ $# -gt 0 ]; do
	case "$1" in
	--kvm) kvm=1 ;;
	--devices) devices=1 ;;
	--slub-debug) slub_debug=1 ;;
	--qemu) with_qemu=1 ;;
	--plugin) plugin=(-plugin "${2:?}"); shift ;;
	--smp) smp=${2:?}; shift ;;
	--mem) mem=${2:?}; shift ;;
	--timeout) timeout=${2:?}; shift ;;
	--name) name=${2:?}; shift ;;
	--log-dir) logdir=${2:?}; shift ;;
	-h | --help) usage 0 ;;
	--) shift; break ;;
	*) usage ;;
	esac
	shift
done

load_testbed_env
if [ "${VM_NO_BUILD:-0}" != 1 ]; then
	make -s -C "$VB_ROOT" KERNEL="$VB_KERNEL" testbed-image >&2 || die "building the VM image failed"
fi

if [ $# -eq 0 ]; then
	export VM_NO_BUILD=1
	cd "$VB_ROOT"
	exec prove --timer --exec "$0 --" tests/vm/*/*.t
fi

image=$VB_VM_DIR/initramfs.cpio
[ -s "$image" ] || die "no $image: run 'make testbed-image'"
if [ -f "$1" ] && grep -qx '# vm.sh: --qemu' "$1"; then
	with_qemu=1
fi
layers=()
if [ "$with_qemu" = 1 ]; then
	layers+=("$VB_BUILD/vm/qemu.cpio")
	[ -s "${layers[0]}" ] || die "no ${layers[0]}: run 'make setup testbed-image'"
fi
if [ -z "$name" ]; then
	case "$1" in
	tests/*.t) name=$(basename "$1" .t) ;;
	*) name="command" ;;
	esac
	[ "$slub_debug" = 1 ] && name+=-slub
fi
mkdir -p "$logdir"
# One run per log name at a time; a concurrent one gets its own logs.
exec 9>>"$logdir/$name.lock"
if ! flock -n 9; then
	name=$name-$$
	exec 9>>"$logdir/$name.lock"
fi
console=$logdir/$name.log
output=$logdir/$name.out

# The command travels in a small cpio appended to the image (after the
# QEMU layer, if any): the kernel unpacks concatenated archives in order,
# so /etc/vdpa-batch/cmd lands on top of the prepared initramfs without
# rebuilding it.
work=$(mktemp -d "$VB_VM_DIR/run.XXXXXX")
qemu_pid=
# shellcheck disable=SC2317 # called through the EXIT trap
cleanup() {
	[ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/root/etc/vdpa-batch"
{
	printf '# %s\n' "generated by testbed/vm.sh"
	if [ "$devices" = 1 ]; then
		printf '. testbed/lib/testbed.sh && tb_standard_devices || exit\n'
	fi
	printf 'exec'
	printf ' %q' "$@"
	printf '\n'
} >"$work/root/etc/vdpa-batch/cmd"
(cd "$work/root" && find . | cpio -o -H newc --owner=0:0 --quiet) >"$work/cmd.cpio"
cat "$image" "${layers[@]}" "$work/cmd.cpio" >"$work/initramfs.cpio"

if [ "$kvm" = 1 ]; then
	[ -w /dev/kvm ] || die "--kvm: /dev/kvm is not usable here"
	accel=(-accel kvm -cpu host)
else
	# Multi-threaded TCG: each vCPU gets a host thread, so a polling
	# client and the device worker really run side by side.
	accel=(-accel "tcg,thread=multi" -cpu max)
fi
append="console=ttyS0 panic=-1 oops=panic panic_on_warn=1 softlockup_panic=1"
# TCG under host load trips the clocksource watchdog, whose switch away
# from the TSC patches kernel text at run time, which multi-threaded TCG
# can race into an int3 oops. The TSC of a TCG guest follows the host
# clock: no watchdog for it. (tsc=reliable would do too, but it also
# skips the TSC checks the guest relies on for its scheduler clock.)
append+=" tsc=nowatchdog"
# For the same reason, no recording of command names by ftrace: with it on,
# the first trace event a test enables also hooks sched_switch and
# sched_wakeup, patching the scheduler's text while other vCPUs run it
# (seen: an int3 oops in ttwu_do_activate as 61 enabled its event). Trace
# lines then show "<...>" for the command; nothing here reads it.
append+=" trace_options=norecord-cmd"
# The debug kernel's KASAN checks an interrupt that lands while the boot CPU's
# feature bits are cleared for re-detection (identify_cpu) against the 4-level
# layout although -cpu max booted it with 5-level paging: "BUG: KASAN:
# wild-memory-access in rcu_is_watching" in one boot of two. 4-level paging
# only, then.
if [ "$VB_KERNEL" = debug ]; then
	append+=" no5lvl"
fi
if [ "$slub_debug" = 1 ]; then
	append+=" slub_debug=FZPU init_on_free=1"
fi
append+=" ${VM_APPEND:-}"

boot() {
	: >"$console"
	: >"$output"
	run timeout -k 5 "$timeout" qemu-system-x86_64 \
		-nodefaults -no-user-config -display none -no-reboot \
		-machine pc "${accel[@]}" -smp "$smp" -m "$mem" \
		-kernel "$VB_CACHE/vmlinuz" -initrd "$work/initramfs.cpio" \
		-append "$append" "${plugin[@]}" \
		-serial "file:$console" -serial "file:$output" &
	qemu_pid=$!
	# Stream the command's output while the guest runs.
	tail -n +1 -s 0.2 -f --pid="$qemu_pid" "$output" &
	tail_pid=$!
	qemu_status=0
	wait "$qemu_pid" || qemu_status=$?
	qemu_pid=
	wait "$tail_pid" || true
}

for try in $(seq "$BOOT_TRIES"); do
	boot
	# A guest that reported its exit status ran /init, even if the
	# console lost the start line (seen once in 2194 boots' worth).
	grep -qE 'vdpa-batch-guest-(start|exit)' "$console" && break
	[ "$qemu_status" = 124 ] && break
	say "boot $try of $BOOT_TRIES died before /init started; last lines:"
	tail -n 5 "$console" >&2
	cp "$console" "$console.boot$try"
done

status=$(sed -n 's/.*vdpa-batch-guest-exit: \([0-9]*\).*/\1/p' "$console" | tail -n 1)
log_ok=1
"$VB_ROOT/testbed/vm-log-check.sh" "$console" 2>"$work/log-problems" || log_ok=0

if [ "$log_ok" = 0 ]; then
	say "guest kernel reported a problem (full log: $console):"
	cat "$work/log-problems" >&2
fi
if [ -z "$status" ]; then
	if [ "$qemu_status" = 124 ]; then
		say "guest did not finish within ${timeout}s (log: $console)"
		exit 124
	fi
	say "guest stopped without reporting an exit status (log: $console); last lines:"
	tail -n 20 "$console" >&2
	exit 1
fi
if [ "$log_ok" = 0 ] && [ "$status" = 0 ]; then
	exit 1
fi
exit "$status"
