#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# testbed/vm.sh carries the guest command's exit status and output back.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

vm() {
	testbed/vm.sh --name harness -- "$@" 2>/dev/null
}

tap_plan 8
tap_ok "a guest command that succeeds exits 0" vm true
tap_fails "testbed/vm.sh -- false exits non-zero" vm false
vm sh -c 'exit 7' >/dev/null
tap_is "$?" 7 "the guest's exit status comes back unchanged"
# shellcheck disable=SC2016 # the $ must reach the guest unexpanded
tap_is "$(vm echo "two words" 'and $quotes')" 'two words and $quotes' \
	"arguments arrive intact and output streams back"
tap_is "$(vm sh -c 'echo to-stderr >&2')" to-stderr \
	"the guest command's stderr comes back too"
# A kernel that cannot start /init is booted again, then reported.
err=$(VM_APPEND=rdinit=/no/such/init testbed/vm.sh --log-dir build/vm/selftest \
	--name no-init -- true 2>&1 >/dev/null)
tap_is "$?" 1 "a boot that never reaches /init fails the run"
case "$err" in
*"boot 3 of 3 died before /init"*) tap_result 0 "after three boots" ;;
*) tap_result 1 "after three boots"; tap_diag "$err" ;;
esac
tap_is "$(testbed/vm.sh --devices -- sh -c \
	'vdpa -j dev show | jq -r ".dev | keys | join(\",\")"' 2>/dev/null)" \
	batch0,stock0 "--devices provides stock0 and batch0"
tap_done
