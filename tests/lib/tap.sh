# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Minimal TAP producer for the shell tests, host (bash) and guest (busybox
# ash) alike: POSIX sh only. Source it, call tap_plan, then one assertion
# per test, then tap_done (its exit status is the verdict).

TAP_N=0
TAP_FAILED=0

tap_plan() {
	echo "1..$1"
}

tap_diag() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

tap_result() {
	TAP_N=$((TAP_N + 1))
	if [ "$1" = 0 ]; then
		echo "ok $TAP_N - $2"
	else
		echo "not ok $TAP_N - $2"
		TAP_FAILED=$((TAP_FAILED + 1))
	fi
}

# tap_ok DESC CMD [ARG...]: passes when CMD exits 0; its output becomes
# diagnostics when it does not.
tap_ok() {
	_tap_desc=$1
	shift
	_tap_out=$("$@" 2>&1)
	_tap_rc=$?
	tap_result "$_tap_rc" "$_tap_desc"
	if [ "$_tap_rc" != 0 ]; then
		tap_diag "command: $*" "exit status: $_tap_rc"
		[ -n "$_tap_out" ] && tap_diag "$_tap_out"
	fi
	return "$_tap_rc"
}

# tap_fails DESC CMD [ARG...]: passes when CMD exits non-zero.
tap_fails() {
	_tap_desc=$1
	shift
	_tap_out=$("$@" 2>&1)
	_tap_rc=$?
	if [ "$_tap_rc" != 0 ]; then
		tap_result 0 "$_tap_desc"
		return 0
	fi
	tap_result 1 "$_tap_desc"
	tap_diag "command: $*" "expected failure, got exit status 0"
	[ -n "$_tap_out" ] && tap_diag "$_tap_out"
	return 1
}

# tap_is GOT WANT DESC
tap_is() {
	if [ "$1" = "$2" ]; then
		tap_result 0 "$3"
		return 0
	fi
	tap_result 1 "$3"
	tap_diag "got:  '$1'" "want: '$2'"
	return 1
}

tap_skip() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1 # SKIP $2"
}

# tap_todo DESC REASON: a known deviation (of another device than ours),
# reported and not counted.
tap_todo() {
	TAP_N=$((TAP_N + 1))
	echo "not ok $TAP_N - $1 # TODO $2"
}

# tap_todo_ok DESC REASON CMD [ARG...]: a known deviation of another's
# code, shown by CMD failing: "not ok ... # TODO REASON" while it fails,
# "ok ... # TODO" (prove's "TODO passed") once it is fixed.
tap_todo_ok() {
	_tap_desc=$1
	_tap_why=$2
	shift 2
	TAP_N=$((TAP_N + 1))
	if "$@"; then
		echo "ok $TAP_N - $_tap_desc # TODO $_tap_why"
	else
		echo "not ok $TAP_N - $_tap_desc # TODO $_tap_why"
	fi
}

tap_done() {
	[ "$TAP_FAILED" = 0 ]
}
