#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# /init of the test-bed VM (busybox ash). Mounts the usual filesystems,
# loads the in-tree modules the tests need, runs /etc/vdpa-batch/cmd (put
# there by testbed/vm.sh in a per-run cpio appended to the initramfs) with
# its output on the second serial port, reports the exit status on the
# console and powers off. It never returns: init exiting would panic.

# Applets go to /bin only: the real iproute2 and ethtool in /usr/bin,
# earlier in PATH, must win over busybox's cut-down ones.
/bin/busybox --install -s /bin
export PATH=/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin
export HOME=/root TMPDIR=/tmp
# The serial ports are recorded, not watched (the kernel says TERM=linux):
# no program may redraw lines in what the tests' TAP shares.
export TERM=dumb

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm /tmp /run /root
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
ip link set lo up

# testbed/vm.sh tells a boot that never reached us from a failed run.
echo "vdpa-batch-guest-start" >/dev/console
kver=$(uname -r)
while read -r mod; do
	insmod "/lib/modules/$kver/kernel/$mod.ko" ||
		echo "vdpa-batch-init: insmod $mod failed" >/dev/console
done <"/lib/modules/$kver/kernel/load-order"

out=/dev/ttyS1
stty -F "$out" raw -echo 2>/dev/null
cd /vdpa-batch || echo "vdpa-batch-init: no /vdpa-batch" >/dev/console
sh /etc/vdpa-batch/cmd </dev/null >"$out" 2>&1
status=$?
sync
# testbed/vm.sh looks for this exact line: no line, no success.
echo "vdpa-batch-guest-exit: $status" >/dev/console
poweroff -f
