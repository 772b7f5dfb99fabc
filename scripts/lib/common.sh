# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Shared helpers for the vdpa-batch scripts (bash only).
#
# Every script sources this first: it pins the repository root, the build
# directory, and the test-bed facts that scripts/setup.sh recorded, so that
# no two scripts can disagree about which kernel the test bed runs.

VB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VB_BUILD=${VB_BUILD:-$VB_ROOT/build}
VB_TESTBED_ENV=$VB_BUILD/testbed.env
VB_PROG=$(basename "$0")
# The oldest Debian release the userspace code must build on; its UAPI
# headers (Linux 6.1) are what scripts/fetch-uapi.sh unpacks.
# shellcheck disable=SC2034
VB_OLDEST_SUITE=bookworm

die() {
	printf '%s: %s\n' "$VB_PROG" "$*" >&2
	exit 1
}

# Progress lines are for work actually done; a re-run with nothing to do
# stays silent (setup.sh promises to be quiet when all is present).
say() {
	printf '%s: %s\n' "$VB_PROG" "$*" >&2
}

# V=1 shows commands, as kbuild does.
run() {
	[ "${V:-0}" = 1 ] && printf '+ %s\n' "$*" >&2
	"$@"
}

# Load KVER, DEBVER, KDIR, ... as recorded by setup.sh. An explicit KVER in
# the environment wins only when setup was run for that kernel.
load_testbed_env() {
	[ -r "$VB_TESTBED_ENV" ] ||
		die "no test bed yet: run scripts/setup.sh (or make setup) first"
	# shellcheck source=/dev/null
	. "$VB_TESTBED_ENV"
	if [ -n "${KVER:-}" ] && [ "$KVER" != "$TESTBED_KVER" ]; then
		die "test bed is set up for $TESTBED_KVER, not KVER=$KVER: run 'make setup KVER=$KVER'"
	fi
	# Used by the scripts that source this file.
	# shellcheck disable=SC2034
	VB_CACHE=$VB_BUILD/cache/$TESTBED_KVER
	# shellcheck disable=SC2034
	VB_KSRC=$VB_CACHE/src
}
