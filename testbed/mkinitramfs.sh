#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# mkinitramfs.sh OUTPUT
#
# Build the test-bed initramfs (an uncompressed newc cpio: the kernel
# unpacks it fastest, and vm.sh appends a per-run cpio to it):
#   /init                          testbed/guest-init.sh
#   /bin/busybox                   busybox-static
#   /lib/modules/KVER/kernel/      in-tree modules (loaded at boot)
#   /lib/modules/KVER/stock/       stock vringh, vdpa_sim, vdpa_sim_net
#   /lib/modules/KVER/vdpa-batch/  our vdpa_sim_batch.ko
#   /lib/modules/KVER/test/        test-bed self-test modules
#   /lib/modules/KVER/other/OTHER/ vdpa_sim_batch.ko built for the other
#                                  kernel (VB_KERNEL), which KVER must refuse
#   /usr/bin, /usr/sbin            vdpa, ip, ethtool, jq, vdpactl-batch,
#                                  with the shared libraries ldd resolves
#   /usr/local/bin                 test programs from testbed/programs
#   /vdpa-batch/{tests,testbed,scripts} the test suite and its helpers
#
# mkinitramfs.sh --qemu OUTPUT
#
# Build the QEMU layer instead: the QEMU that fetch-qemu.sh unpacked, as
#   /usr/bin/qemu-system-x86_64    with the shared libraries ldd resolves
#   /usr/share/qemu/               the firmware files it loads
# vm.sh appends it to the image for the tests that run QEMU in the guest
# (about 60 MB unpacked, which the other tests do not pay for).
set -euo pipefail
# shellcheck source=../scripts/lib/common.sh
. "$(dirname "$0")/../scripts/lib/common.sh"
load_testbed_env

qemu_layer=0
if [ "${1:-}" = --qemu ]; then
	qemu_layer=1
	shift
fi
[ $# -eq 1 ] || die "usage: $VB_PROG [--qemu] OUTPUT"
output=$1
kver=$TESTBED_KVER
# Host programs the guest runs; the tool joins when it has been built.
HOST_BINS=(vdpa ip ethtool jq)
TOOL=$VB_BUILD/tool/vdpactl-batch

root=$(mktemp -d "$VB_BUILD/initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT

# copy_binary PATH: PATH and every library ldd says it needs, plus the
# program interpreter, at the same paths inside the guest.
copy_binary() {
	local bin=$1 dest=$2 lib
	install -D -m 0755 "$bin" "$root$dest"
	for lib in $(ldd "$bin" | grep -oE '/[^ ]+'); do
		[ -e "$root$lib" ] || install -D -m 0755 "$lib" "$root$lib"
	done
}

copy_modules() {
	local dest=$root/lib/modules/$kver/$1
	shift
	mkdir -p "$dest"
	cp "$@" "$dest/"
}

# pack: the tree at $root, as OUTPUT.
pack() {
	mkdir -p "$(dirname "$output")"
	(cd "$root" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --owner=0:0 --quiet) >"$output.tmp"
	mv "$output.tmp" "$output"
}

# With -bios of its own and no -kernel, the pc machine loads only
# kvmvapic.bin; trace-events-all lists the trace events for -trace help.
QEMU_DATA=(kvmvapic.bin trace-events-all)
if [ "$qemu_layer" = 1 ]; then
	qemu=$VB_BUILD/qemu/root
	[ -x "$qemu/usr/bin/qemu-system-x86_64" ] ||
		die "no QEMU in $VB_BUILD/qemu: run scripts/setup.sh"
	copy_binary "$qemu/usr/bin/qemu-system-x86_64" /usr/bin/qemu-system-x86_64
	for f in "${QEMU_DATA[@]}"; do
		install -D -m 0644 "$qemu/usr/share/qemu/$f" "$root/usr/share/qemu/$f"
	done
	pack
	exit 0
fi

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,etc/vdpa-batch,vdpa-batch}
install -m 0755 "$VB_ROOT/testbed/guest-init.sh" "$root/init"
install -m 0755 /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\n' >"$root/etc/group"

copy_modules kernel "$VB_CACHE"/modules/*.ko "$VB_CACHE/modules/load-order"
copy_modules stock "$VB_BUILD/stock/$kver"/{vringh,vdpa_sim,vdpa_sim_net}.ko
copy_modules vdpa-batch "$VB_BUILD/kmod/$kver/kmod/vdpa_sim_batch.ko"
copy_modules test "$VB_BUILD/testmod/$kver"/*.ko
other=$(other_kernel_release)
if [ -n "$other" ]; then
	copy_modules "other/$other" "$VB_BUILD/kmod/$other/kmod/vdpa_sim_batch.ko"
fi

for b in "${HOST_BINS[@]}"; do
	path=$(command -v "$b") || die "$b not found: run scripts/setup.sh"
	copy_binary "$path" "/usr/bin/$b"
done
[ -x "$TOOL" ] && copy_binary "$TOOL" /usr/bin/vdpactl-batch
# The scripts' statistics (testbed/lib/*-probes.sh, the benchmarks).
copy_binary "$VB_BUILD/bench-report/bench-report" /usr/bin/bench-report
for t in "$VB_BUILD"/testtools/*; do
	[ -x "$t" ] && copy_binary "$t" "/usr/local/bin/$(basename "$t")"
done

cp -r "$VB_ROOT/tests" "$VB_ROOT/testbed" "$VB_ROOT/scripts" "$root/vdpa-batch/"
pack
