# SPDX-License-Identifier: GPL-2.0-only
#
# make fresh-check: setup, build, make run and make check of a clean
# "git archive" of HEAD in a debootstrapped Debian bookworm root under
# build/fresh, so that nothing installed on this machine can make them pass
# (scripts/fresh-check.sh; .ci/run runs it). Needs root.

.PHONY: fresh-check fresh-clean

fresh-check:
	$(Q)scripts/fresh-check.sh

fresh-clean:
	$(Q)rm -rf $(BUILD)/fresh
