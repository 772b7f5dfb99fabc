#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/vm.sh carries the guest command's exit status and output back.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

vm() {
	scripts/vm.sh --name harness -- "$@" 2>/dev/null
}

tap_plan 5
tap_ok "a guest command that succeeds exits 0" vm true
tap_fails "scripts/vm.sh -- false exits non-zero" vm false
vm sh -c 'exit 7' >/dev/null
tap_is "$?" 7 "the guest's exit status comes back unchanged"
# shellcheck disable=SC2016 # the $ must reach the guest unexpanded
tap_is "$(vm echo "two words" 'and $quotes')" 'two words and $quotes' \
	"arguments arrive intact and output streams back"
tap_is "$(vm sh -c 'echo to-stderr >&2')" to-stderr \
	"the guest command's stderr comes back too"
tap_done
