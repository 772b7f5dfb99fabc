#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A driver without IOTLB_BATCH has vhost_vdpa call set_map under the
# owner's mmap_lock. If set_map waited for a run of the queues while that
# run faulted on guest memory, a third thread queued for the mmap_lock
# (mmap, munmap) would close a cycle: the run's fault waits behind the
# writer, the writer behind set_map's read lock, set_map behind the run.
# vsbdrv drives exactly that for RACE_S seconds: commands one by one from
# pages that MADV_DONTNEED keeps dropping, IOTLB updates and invalidations
# in a loop, and mmap/munmap in a third thread. The hung-task detector is
# armed to panic, so a deadlock fails the boot; vsbdrv itself gives up
# after 5 s without an answer.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

RACE_S=20

tap_plan 2
hung=/proc/sys/kernel/hung_task_timeout_secs
if [ ! -w "$hung" ]; then
	tap_skip 2 "the kernel has no hung-task detector"
	tap_done
	exit 0
fi
echo 10 >"$hung"
echo 1 >/proc/sys/kernel/hung_task_panic
tb_load_batch
tb_dev_add r0 vdpasim_batch vhost_vdpa
dev=$(tb_vhost_chardev r0)
out=$(vsbdrv --race-s "$RACE_S" "$dev")
rc=$?
tap_diag "$out"
tap_is "$rc" 0 "every command answered, for $RACE_S s of set_map against faults and mmap writers"
tap_ok "commands, IOTLB updates and mmap writers all made progress" \
	sh -c "echo '$out' | grep -Eq 'race cmds=[1-9][0-9]* updates=[1-9][0-9]* mm_ops=[1-9][0-9]*'"
tb_dev_del r0
tap_done
