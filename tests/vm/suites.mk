# SPDX-License-Identifier: GPL-2.0-only
#
# Which VM tests each pass of "make check" runs: the one place that says.
# The tests live in tests/vm/SUBJECT/ (stock, device, control, datapath,
# tool, robustness, qemu, bench); a suite names them by file name alone,
# so a test can change subject without leaving its suites.

# vm_tests NAME...: the VM tests of those file names (globs allowed).
vm_tests = $(sort $(wildcard $(addprefix tests/vm/*/,$(1))))

# make check: every VM test on the test bed's kernel.
VM_TESTS = $(call vm_tests,*.t)

# Once more under SLUB poisoning and red zones (vm.sh --slub-debug), where
# a stale pointer crashes instead of passing: the reliability tests.
# Debugging slows every allocation: 60-stress-lifecycle took 5.5 of the
# default 10 minutes on a loaded 2-core host, so these get 20.
SLUB_VM_TESTS = $(call vm_tests,60-stress-lifecycle.t 61-bad-input-matrix.t \
	62-stress-driver-ops.t 63-config-cb-reset.t 68-stalled-fault.t \
	69-mmap-lock-race.t)

# The newest kernel's part of "make check": its vermagic refusal, the
# module and virtio_net (MAC, loopback ping, multiqueue), 30 x 1000 loads
# on both devices in every driver mode, the bad-input matrix and
# lifecycle stress, and the ring pages pinned through its gup.
# "make check KERNEL=newest" runs every VM test there.
NEWEST_VM_TESTS = $(call vm_tests,19-vermagic.t 20-batch-module-load.t \
	22-batch-virtio-net.t 27-batch-multiqueue.t 30-batch-loads.t \
	50-vdpactl-load.t 60-stress-lifecycle.t 61-bad-input-matrix.t \
	93-ring-pins.t)

# "make check KERNEL=debug" (mk/debug.mk): the module's load and
# lifecycle, the stress and bad-input tests, the stalled-fault and
# mmap-lock races, virtio_net and the loads: where a locking or memory
# error would show; and the locking tests from 78 on (84 needs its fault
# injection; 85 and 86 park the worker for the cost; 93 parks it to pin).
DEBUG_VM_TESTS = $(call vm_tests,20-batch-module-load.t \
	22-batch-virtio-net.t 23-batch-lifecycle.t 30-batch-loads.t \
	60-stress-lifecycle.t 61-bad-input-matrix.t 62-stress-driver-ops.t \
	63-config-cb-reset.t 68-stalled-fault.t 69-mmap-lock-race.t \
	7[89]-*.t 8[0-6]-*.t 93-ring-pins.t)
