#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A run whose guest kernel warns fails, whatever the command's own status.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

# Keep these deliberately broken logs away from build/vm/*.log, which
# hold the real runs.
LOGDIR=build/vm/selftest

tap_plan 4
# shellcheck disable=SC2016 # uname runs in the guest
err=$(testbed/vm.sh --log-dir "$LOGDIR" --name warn-module -- \
	sh -c 'insmod /lib/modules/$(uname -r)/test/vdpa_batch_warn_test.ko' 2>&1 >/dev/null)
tap_is "$?" 1 "a module that WARNs on load fails the run"
case "$err" in
*"WARNING:"*) tap_result 0 "the report quotes the WARNING line" ;;
*) tap_result 1 "the report quotes the WARNING line"; tap_diag "$err" ;;
esac
# The command succeeds; only the log tells.
err=$(testbed/vm.sh --log-dir "$LOGDIR" --name warn-line -- \
	sh -c 'echo "WARNING: CPU: 0 PID: 1 at selftest" >/dev/kmsg' 2>&1 >/dev/null)
tap_is "$?" 1 "a WARNING in the kernel log fails a command that exited 0"
case "$err" in
*"at selftest"*) tap_result 0 "the report names the offending line" ;;
*) tap_result 1 "the report names the offending line"; tap_diag "$err" ;;
esac
tap_done
