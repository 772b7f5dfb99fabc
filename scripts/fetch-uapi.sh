#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Download (never install) the UAPI headers of the oldest Debian release the
# userspace code must build on, and unpack them under build/uapi/oldest:
#   build/uapi/oldest/usr/include     linux/, asm-generic/, MULTIARCH/asm/
#   build/uapi/oldest/version         "SUITE VERSION" of the unpacked package
# "make check" builds vdpactl-batch and testbed/programs against these, put first
# on the include path, so that newer headers on the build machine cannot
# hide a constant that the oldest release lacks (mk/uapi.mk).
#
# The suite's lists must be known to apt (setup.sh enables the suite and
# updates them first). Quiet when the unpacked version is current.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/apt-sources.sh
. "$VB_ROOT/scripts/lib/apt-sources.sh"

SUITE=$VB_OLDEST_SUITE
PKG=linux-libc-dev
ARCH=$(dpkg --print-architecture)
DEBS=$VB_BUILD/cache/debs
DEST=$VB_BUILD/uapi/oldest

version=$(suite_version "$PKG" "$SUITE")
[ -n "$version" ] ||
	die "apt knows no $PKG in $SUITE (enable the suite and run apt-get update)"
want="$SUITE $version"
[ "$(cat "$DEST/version" 2>/dev/null)" = "$want" ] && exit 0

deb=$DEBS/${PKG}_${version//:/%3a}_$ARCH.deb
if [ ! -s "$deb" ]; then
	mkdir -p "$DEBS"
	say "downloading $PKG=$version ($SUITE)"
	(cd "$DEBS" && run apt-get download -qq -o APT::Sandbox::User=root \
		"$PKG=$version") || die "cannot download $PKG=$version"
	[ -s "$deb" ] || die "apt-get download did not produce $deb"
fi

say "unpacking $PKG=$version into $DEST"
rm -rf "$DEST.new"
mkdir -p "$DEST.new"
run dpkg-deb -x "$deb" "$DEST.new"
[ -r "$DEST.new/usr/include/linux/vhost.h" ] ||
	die "$deb has no usr/include/linux/vhost.h"
echo "$want" >"$DEST.new/version"
rm -rf "$DEST"
mv "$DEST.new" "$DEST"
