# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Shared helpers for the vdpa-batch scripts (bash only).
#
# Every script sources this first: it pins the repository root, the build
# directory, and the test-bed facts that scripts/setup.sh recorded, so that
# no two scripts can disagree about which kernel the test bed runs.

VB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VB_BUILD=${VB_BUILD:-$VB_ROOT/build}
# VB_KERNEL picks the kernel the VM boots and the scripts build for:
# "testbed" (build/testbed.env, written by setup.sh), "newest", the newest
# kernel in Debian's archive (build/newest.env, written by
# "compat.sh --testbed"), or "debug", the test bed's kernel version built
# with lockdep, KASAN and UBSAN (build/debug.env, written by
# debug-kernel.sh). Each has its own image and logs (VB_VM_DIR).
VB_KERNEL=${VB_KERNEL:-testbed}
# shellcheck disable=SC2034 # VB_VM_DIR is for the scripts that source this
case "$VB_KERNEL" in
testbed)
	VB_TESTBED_ENV=$VB_BUILD/testbed.env
	VB_VM_DIR=$VB_BUILD/vm
	;;
newest)
	VB_TESTBED_ENV=$VB_BUILD/newest.env
	VB_VM_DIR=$VB_BUILD/vm/newest
	;;
debug)
	VB_TESTBED_ENV=$VB_BUILD/debug.env
	VB_VM_DIR=$VB_BUILD/vm/debug
	;;
*)
	printf '%s: VB_KERNEL=%s: not "testbed", "newest" or "debug"\n' "$(basename "$0")" \
		"$VB_KERNEL" >&2
	exit 1
	;;
esac

# other_kernel_release: the release of the other kernel's test bed (the
# newest kernel's for the test bed's, the test bed's for the newest and the
# debug kernel), or nothing if it has none.
other_kernel_release() {
	local env=$VB_BUILD/newest.env
	[ "$VB_KERNEL" = testbed ] || env=$VB_BUILD/testbed.env
	# None yet (a new machine before "make newest-setup"): not an error.
	[ -e "$env" ] || return 0
	sed -n 's/^TESTBED_KVER=//p' "$env"
}
VB_PROG=$(basename "$0")
# The oldest Debian release the userspace code must build on; its UAPI
# headers (Linux 6.1) are what scripts/fetch-uapi.sh unpacks.
# shellcheck disable=SC2034
VB_OLDEST_SUITE=bookworm

# vb_commit: the commit of this tree: git's, or in a "git archive" of it
# (make fresh-check's root, a release tarball) the one git archive wrote
# into scripts/lib/archive-commit; "?" if neither.
vb_commit() {
	local c
	git -C "$VB_ROOT" describe --always --dirty 2>/dev/null && return
	c=$(cat "$VB_ROOT/scripts/lib/archive-commit" 2>/dev/null)
	case "$c" in
	'' | \$Format*) echo '?' ;;
	*) echo "$c" ;;
	esac
}

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
	if [ ! -r "$VB_TESTBED_ENV" ]; then
		case "$VB_KERNEL" in
		newest) die "no test bed for the newest kernel yet: run scripts/compat.sh --testbed (or make newest-setup) first" ;;
		debug) die "no debug kernel yet: run scripts/debug-kernel.sh (or make debug-setup) first" ;;
		esac
		die "no test bed yet: run scripts/setup.sh (or make setup) first"
	fi
	# shellcheck source=/dev/null
	. "$VB_TESTBED_ENV"
	if [ -n "${KVER:-}" ] && [ "$KVER" != "$TESTBED_KVER" ]; then
		die "test bed is set up for $TESTBED_KVER, not KVER=$KVER: run 'make setup KVER=$KVER'"
	fi
	# Used by the scripts that source this file.
	# shellcheck disable=SC2034
	VB_CACHE=$VB_BUILD/cache/$TESTBED_KVER
	# The debug kernel's whole source tree is at hand (TESTBED_KSRC).
	# shellcheck disable=SC2034
	VB_KSRC=${TESTBED_KSRC:-$VB_CACHE/src}
}

# install_missing PACKAGE...: apt-get install those of the packages that
# dpkg does not report as installed; without root, name them and fail.
install_missing() {
	local missing
	missing=$(printf '%s\n' "$@" |
		grep -vxF -f <(dpkg-query -W -f='${db:Status-Status} ${Package}\n' \
			"$@" 2>/dev/null | awk '$1 == "installed" { print $2 }') ||
		true)
	[ -z "$missing" ] && return
	[ "$(id -u)" = 0 ] || die "missing packages: $missing (run as root to install them)"
	say "installing $(echo "$missing" | tr '\n' ' ')"
	export DEBIAN_FRONTEND=noninteractive
	run apt-get update -qq >/dev/null
	# shellcheck disable=SC2086 # one package name per word
	run apt-get install -y -qq --no-install-recommends $missing >/dev/null
}
