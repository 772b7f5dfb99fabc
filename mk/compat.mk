# SPDX-License-Identifier: GPL-2.0-only
#
# make compat: build the module with W=1 -Werror against the test bed's
# kernel and the newest kernel source in Debian's archive, print the
# table, fail if any build fails (Documentation/compat.rst). The prepared
# kernel trees stay in build/cache/compat; "make clean" keeps them.

.PHONY: compat compat-clean

compat:
	$(Q)scripts/compat.sh

compat-clean:
	$(Q)rm -rf $(BUILD)/compat

clean: compat-clean
