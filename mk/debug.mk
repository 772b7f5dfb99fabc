# SPDX-License-Identifier: GPL-2.0-only
#
# The debug test bed (Documentation/testbed.rst, "The debug kernel"): the
# test bed's kernel version built with lockdep, KASAN, UBSAN and friends
# (scripts/debug-kernel.sh, build/debug.env). Opt-in: neither "make check"
# nor CI builds it, it takes an hour on two cores. "make check
# KERNEL=debug" runs the tests below on it.

.PHONY: debug-setup check-debug

# The tests it runs: DEBUG_VM_TESTS, tests/vm/suites.mk.

debug-setup:
	$(Q)scripts/debug-kernel.sh

# KASAN and lockdep make every allocation and lock slower: twice the
# default time limit.
check-debug:
	$(Q)$(MAKE) KERNEL=debug testbed-image
	$(Q)VB_KERNEL=debug VM_NO_BUILD=1 VM_TIMEOUT=$${VM_TIMEOUT:-1200} \
		prove --timer --exec tests/run-test $(DEBUG_VM_TESTS)
