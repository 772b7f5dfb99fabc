#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# dkms.conf builds the module with dkms for the test-bed kernel
# (scripts/dkms-check.sh), and the check fails, leaving nothing behind,
# when the package's version is not the module's or the build breaks.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
# modinfo, modprobe and dkms live in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin

tap_plan 7
if ! command -v dkms >/dev/null; then
	for i in 1 2 3 4 5 6 7; do
		tap_skip "dkms check $i" "dkms is not installed (Debian package dkms)"
	done
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The check's own temporary trees go here, to see that it removes them.
export TMPDIR=$tmp/scratch
mkdir -p "$TMPDIR"

# broken_tree NAME SED-SCRIPT FILE: a copy of the module's sources with
# one file edited.
broken_tree() {
	mkdir -p "$tmp/$1"
	cp -r Kbuild kmod dkms.conf "$tmp/$1/"
	sed -i "$2" "$tmp/$1/$3"
	echo "$tmp/$1"
}

scratch_is_empty() {
	[ -z "$(ls -A "$TMPDIR")" ]
}

tap_ok "scripts/dkms-check.sh: dkms add, build and remove" scripts/dkms-check.sh
tap_ok "it removed its temporary trees" scratch_is_empty

tree=$(broken_tree version 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION="9.9"/' dkms.conf)
out=$(scripts/dkms-check.sh -s "$tree" 2>&1)
rc=$?
tap_ok "a PACKAGE_VERSION that is not the module's fails the check" \
	test "$rc" != 0
tap_ok "... saying so" grep -q "PACKAGE_VERSION 9.9 is not the module's DRV_VERSION" \
	<<<"$out"

tree=$(broken_tree build '1i #error deliberately broken' kmod/vdpa/vsb_main.c)
out=$(scripts/dkms-check.sh -s "$tree" 2>&1)
rc=$?
tap_ok "a module that does not build fails the check" test "$rc" != 0
tap_ok "... in dkms build, with the compiler's error shown" \
	grep -q 'deliberately broken' <<<"$out"
tap_ok "and it removed its temporary trees after the failures" scratch_is_empty
tap_done
