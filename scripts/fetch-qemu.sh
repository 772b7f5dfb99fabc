#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Download (never install) the QEMU that runs inside the test-bed VM as a
# vhost-vdpa client, and unpack it under build/qemu/:
#   build/qemu/root/usr/bin/qemu-system-x86_64
#   build/qemu/root/usr/share/qemu/            kvmvapic.bin, trace-events-all
#   build/qemu/version                         the Debian version unpacked
# The host's own QEMU (which boots the VM) is left alone. The packages come
# from the test-bed suite (bookworm-backports on bookworm, where QEMU 10
# lives), at whatever version it has now. Run by setup.sh.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/apt-sources.sh
. "$VB_ROOT/scripts/lib/apt-sources.sh"
load_testbed_env

# Only what qemu-system-x86_64 with a vhost-vdpa netdev needs; its shared
# libraries are all in bookworm, and mkinitramfs.sh copies the ones ldd
# lists from the host.
QEMU_PACKAGES=(qemu-system-x86 qemu-system-common qemu-system-data)

DEBS=$VB_BUILD/cache/debs
OUT=$VB_BUILD/qemu
suite=$TESTBED_SUITE

version=$(suite_version qemu-system-x86 "$suite")
[ -n "$version" ] || die "no qemu-system-x86 in $suite (is the suite enabled?)"
[ -x "$OUT/root/usr/bin/qemu-system-x86_64" ] &&
	[ "$(cat "$OUT/version" 2>/dev/null)" = "$version" ] && exit 0

mkdir -p "$DEBS"
debs=()
for pkg in "${QEMU_PACKAGES[@]}"; do
	# qemu-system-data is arch "all"; the file name tells.
	deb=$(find "$DEBS" -maxdepth 1 -name "${pkg}_${version//:/%3a}_*.deb" | head -n 1)
	if [ -z "$deb" ]; then
		say "downloading $pkg=$version"
		# Root downloads into a root-owned cache; tell apt not to try its
		# unprivileged sandbox user there.
		(cd "$DEBS" && run apt-get download -qq -o APT::Sandbox::User=root \
			"$pkg=$version") || die "cannot download $pkg=$version"
		deb=$(find "$DEBS" -maxdepth 1 -name "${pkg}_${version//:/%3a}_*.deb" | head -n 1)
		[ -n "$deb" ] || die "apt-get download did not produce $pkg's .deb"
	fi
	debs+=("$deb")
done

say "unpacking QEMU $version into $OUT"
rm -rf "$OUT.tmp"
mkdir -p "$OUT.tmp/root"
for deb in "${debs[@]}"; do
	run dpkg-deb -x "$deb" "$OUT.tmp/root"
done
"$OUT.tmp/root/usr/bin/qemu-system-x86_64" --version >/dev/null ||
	die "the unpacked qemu-system-x86_64 does not run here"
echo "$version" >"$OUT.tmp/version"
rm -rf "$OUT"
mv "$OUT.tmp" "$OUT"
