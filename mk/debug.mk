# SPDX-License-Identifier: GPL-2.0-only
#
# The debug test bed (Documentation/testbed.rst, "The debug kernel"): the
# test bed's kernel version built with lockdep, KASAN, UBSAN and friends
# (scripts/debug-kernel.sh, build/debug.env). Opt-in: neither "make check"
# nor CI builds it, it takes an hour on two cores. "make check
# KERNEL=debug" runs the tests below on it.

.PHONY: debug-setup check-debug

# The module's load and lifecycle, the stress and bad-input tests, the
# stalled-fault and mmap-lock races, virtio_net and the loads: where a
# locking or memory error would show; and the locking tests from 78 on
# (84 needs its fault injection; 85 and 86 park the worker for the cost).
DEBUG_VM_TESTS = $(wildcard tests/vm/20-batch-module-load.t \
	tests/vm/22-batch-virtio-net.t tests/vm/23-batch-lifecycle.t \
	tests/vm/30-batch-loads.t tests/vm/60-stress-lifecycle.t \
	tests/vm/61-bad-input-matrix.t tests/vm/62-stress-driver-ops.t \
	tests/vm/63-config-cb-reset.t tests/vm/68-stalled-fault.t \
	tests/vm/69-mmap-lock-race.t tests/vm/7[89]-*.t tests/vm/8[0-6]-*.t)

debug-setup:
	$(Q)scripts/debug-kernel.sh

# KASAN and lockdep make every allocation and lock slower: twice the
# default time limit.
check-debug:
	$(Q)$(MAKE) KERNEL=debug testbed-image
	$(Q)VB_KERNEL=debug VM_NO_BUILD=1 VM_TIMEOUT=$${VM_TIMEOUT:-1200} \
		prove --timer --exec tests/run-test $(DEBUG_VM_TESTS)
