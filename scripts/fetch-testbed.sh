#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Download (never install) the test-bed kernel image and the kernel source of
# the same Debian version, and extract from them only what the project uses:
#   build/cache/KVER/vmlinuz
#   build/cache/KVER/modules/*.ko     in-tree modules the VM needs, with their
#                                     dependencies, decompressed for busybox
#   build/cache/KVER/modules/load-order
#   build/cache/KVER/src/             drivers/vdpa/vdpa_sim, vringh.c and the
#                                     checkpatch/clang-format inputs
# Run by setup.sh after it recorded the kernel in build/testbed.env.
#
# The debug kernel (VB_KERNEL=debug) is built here, not downloaded:
# debug-kernel.sh records its image (TESTBED_IMAGE) and installed modules
# (TESTBED_MODROOT) in build/debug.env, and only vmlinuz and the guest
# modules are taken from there; its source is the whole unpacked tree.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
load_testbed_env

# Modules the guest loads at boot; their dependencies are added from
# modules.dep. 8021q is for VLAN tests through the kernel's virtio_net.
GUEST_MODULES=(vdpa vhost_iotlb vhost vhost_vdpa virtio_vdpa virtio_net irqbypass 8021q)

# Files taken from the kernel source tarball (paths below its top directory).
SOURCE_FILES=(
	drivers/vdpa/vdpa_sim
	drivers/vhost/vringh.c
	scripts/checkpatch.pl
	scripts/spelling.txt
	scripts/const_structs.checkpatch
	.clang-format
)

DEBS=$VB_BUILD/cache/debs
KVER=$TESTBED_KVER
MAJMIN=$(echo "$KVER" | cut -d. -f1-2)
# The packages holding vmlinuz and the modules: compat.sh records them for
# the newest kernel; setup.sh's test bed has the one-package layout.
# The debug kernel has none.
if [ -n "${TESTBED_MODROOT:-}" ]; then
	IMAGE_PKGS=()
else
	read -r -a IMAGE_PKGS <<<"${TESTBED_IMAGE_DEBS:-linux-image-$KVER-unsigned}"
fi
SOURCE_PKG=linux-source-$MAJMIN

# deb_path PACKAGE: the downloaded .deb of PACKAGE at TESTBED_DEBVER.
deb_path() {
	local ver=${TESTBED_DEBVER//:/%3a}
	echo "$DEBS/${1}_${ver}_$2.deb"
}

download() {
	local pkg=$1 arch=$2 deb
	deb=$(deb_path "$pkg" "$arch")
	[ -s "$deb" ] && return
	mkdir -p "$DEBS"
	say "downloading $pkg=$TESTBED_DEBVER"
	# Root downloads into a root-owned cache; tell apt not to try its
	# unprivileged sandbox user there.
	(cd "$DEBS" && run apt-get download -qq -o APT::Sandbox::User=root \
		"$pkg=$TESTBED_DEBVER") ||
		die "cannot download $pkg=$TESTBED_DEBVER (is its suite enabled?)"
	[ -s "$deb" ] || die "apt-get download did not produce $deb"
}

decompress_module() {
	local from=$1 to=$2
	case "$from" in
	*.ko.xz) xz -dc "$from" >"$to" ;;
	*.ko.zst) zstd -qdc "$from" >"$to" ;;
	*.ko.gz) gzip -dc "$from" >"$to" ;;
	*.ko) cp "$from" "$to" ;;
	*) die "unknown module format: $from" ;;
	esac
}

# Print the modules.dep paths of NAME and its dependencies, dependencies
# first, each once. modules.dep lists a module's dependencies so that the
# last one must be loaded first.
declare -A SEEN
load_order() {
	local dep=$1 name=$2 line path deps i
	line=$(grep -E "/$name\.ko(\.[a-z]+)?:" "$dep") ||
		die "module $name is not in $KVER's modules.dep"
	path=${line%%:*}
	[ -n "${SEEN[$path]:-}" ] && return
	SEEN[$path]=1
	read -r -a deps <<<"${line#*:}"
	for ((i = ${#deps[@]} - 1; i >= 0; i--)); do
		load_order "$dep" "$(basename "${deps[$i]%%.ko*}")"
	done
	echo "$path"
}

extract_image() {
	local out=$VB_CACHE tmp deb path name pkg base moddir vmlinuz
	if [ -s "$out/modules/load-order" ] && [ -s "$out/vmlinuz" ]; then
		# A rebuilt debug kernel replaces what was taken from the last
		# (modules_install rewrites modules.dep after every build).
		[ -z "${TESTBED_MODROOT:-}" ] && return
		[ "$out/vmlinuz" -nt "$TESTBED_IMAGE" ] &&
			[ "$out/vmlinuz" -nt "$TESTBED_MODROOT/lib/modules/$KVER/modules.dep" ] &&
			return
	fi
	tmp=$(mktemp -d "$VB_BUILD/cache/image.XXXXXX")
	trap 'rm -rf "$tmp"' RETURN
	if [ -n "${TESTBED_MODROOT:-}" ]; then
		say "taking vmlinuz and guest modules from the debug kernel build"
		mkdir -p "$tmp/boot"
		cp "$TESTBED_IMAGE" "$tmp/boot/vmlinuz-$KVER"
		cp -a "$TESTBED_MODROOT/lib" "$tmp/"
	fi
	for pkg in "${IMAGE_PKGS[@]}"; do
		deb=$(deb_path "$pkg" amd64)
		say "extracting vmlinuz and guest modules from $(basename "$deb")"
		run dpkg-deb -x "$deb" "$tmp"
	done
	# Modules under /lib/modules or, merged-/usr, /usr/lib/modules; the
	# image in /boot or beside them.
	base=$tmp
	[ -d "$base/lib/modules/$KVER" ] || base=$tmp/usr
	moddir=$base/lib/modules/$KVER
	[ -d "$moddir" ] || die "no lib/modules/$KVER in ${IMAGE_PKGS[*]}"
	for vmlinuz in "$tmp/boot/vmlinuz-$KVER" "$moddir/vmlinuz" "$moddir/vmlinuz.unsigned" ""; do
		[ -e "$vmlinuz" ] && break
	done
	[ -n "$vmlinuz" ] || die "no vmlinuz of $KVER in ${IMAGE_PKGS[*]}"
	run depmod -b "$base" "$KVER"
	rm -rf "$out/modules"
	mkdir -p "$out/modules"
	cp "$vmlinuz" "$out/vmlinuz.tmp"
	for name in "${GUEST_MODULES[@]}"; do
		load_order "$moddir/modules.dep" "$name"
	done >"$tmp/order"
	while read -r path; do
		name=$(basename "${path%%.ko*}")
		decompress_module "$moddir/$path" "$out/modules/$name.ko"
		echo "$name"
	done <"$tmp/order" >"$out/modules/load-order.tmp"
	mv "$out/modules/load-order.tmp" "$out/modules/load-order"
	mv "$out/vmlinuz.tmp" "$out/vmlinuz"
}

extract_source() {
	local deb top members=() f
	[ -e "$VB_KSRC/.complete" ] && return
	deb=$(deb_path "$SOURCE_PKG" all)
	top=linux-source-$MAJMIN
	say "extracting vdpa_sim, vringh and lint inputs from $(basename "$deb")"
	for f in "${SOURCE_FILES[@]}"; do
		members+=("$top/$f")
	done
	rm -rf "$VB_KSRC"
	mkdir -p "$VB_KSRC"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/$top.tar.xz" |
		xz -dc -T0 |
		tar -x -C "$VB_KSRC" --strip-components=1 "${members[@]}"
	for f in "${SOURCE_FILES[@]}"; do
		[ -e "$VB_KSRC/$f" ] || die "$f missing from $top"
	done
	touch "$VB_KSRC/.complete"
}

for pkg in "${IMAGE_PKGS[@]}"; do
	download "$pkg" amd64
done
extract_image
if [ -z "${TESTBED_KSRC:-}" ]; then
	download "$SOURCE_PKG" all
	extract_source
fi
