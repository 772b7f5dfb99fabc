#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# testbed/vm-log-check.sh tells a clean guest console log from a broken one.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

F=tests/fixtures/console
check() {
	testbed/vm-log-check.sh "$F/$1" 2>/dev/null
}

tap_plan 8
tap_ok "a clean boot log passes" check clean.log
tap_fails "a WARN fails" check warn.log
tap_fails "a NULL dereference oops fails" check oops.log
tap_fails "a soft lockup fails" check softlockup.log
tap_fails "an RCU stall fails" check rcu.log
tap_fails "a general protection fault fails" check gpf.log
tap_fails "a hung task fails" check hung.log
testbed/vm-log-check.sh "$F/no-such.log" 2>/dev/null
tap_is "$?" 2 "an unreadable log is a usage error, not a pass"
tap_done
