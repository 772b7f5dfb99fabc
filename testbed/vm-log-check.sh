#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# vm-log-check.sh CONSOLE_LOG
#
# Exit 1 and print the offending lines when the guest's console log shows a
# kernel problem: a BUG, a WARN, an oops, a call trace, a general protection
# fault, a soft lockup, an RCU stall, a hung task, a sanitizer report or a
# panic. Exit 0 when the log is clean.
set -euo pipefail

[ $# -eq 1 ] || {
	echo "usage: $(basename "$0") CONSOLE_LOG" >&2
	exit 2
}
[ -r "$1" ] || {
	echo "$(basename "$0"): cannot read $1" >&2
	exit 2
}

PATTERN='BUG:|WARNING:|Oops|Call Trace|general protection|soft lockup'
PATTERN+='|detected stalls|self-detected stall|blocked for more than'
PATTERN+='|KASAN:|UBSAN:|Kernel panic'
# SLUB debugging (vm.sh --slub-debug): "BUG kmalloc-64 (Tainted: ...): ..."
PATTERN+='|BUG [^ :]+ \('

if grep -a -n -E "$PATTERN" "$1" >&2; then
	exit 1
fi
exit 0
