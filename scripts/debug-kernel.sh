#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# debug-kernel.sh: the debug test bed (Documentation/testbed.rst, "The
# debug kernel"): the test bed's kernel version, built from Debian's
# linux-source-X.Y with lockdep, KASAN, UBSAN, atomic-sleep, debug-objects
# and list checks, so that the module's VM tests also catch the locking
# and memory errors Debian's kernel lets pass.
#
#   build/cache/debug/linux-source-X.Y/   the unpacked source (TESTBED_KSRC)
#   build/cache/debug/obj/                the build (TESTBED_KDIR), whose
#                                         .config is x86_64_defconfig and
#                                         kvm_guest.config with
#                                         scripts/debug-kernel.config merged
#                                         over them, then olddefconfig
#   build/cache/debug/staging/            modules_install's tree
#   build/debug.env                       build/testbed.env's format, read
#                                         with VB_KERNEL=debug
#
# then fetch-testbed.sh and build-stock.sh take vmlinuz, the guest modules
# and the stock vdpa_sim, vdpa_sim_net and vringh from it. Each step is
# skipped when its inputs did not change: a second run does nothing.
# Build dependencies are installed with apt-get (needs root only then).
#
# Environment: DEBUG_JOBS (make -j, default 2), V=1.
set -euo pipefail
# The version is the test bed's; what is built is the debug kernel.
VB_KERNEL=testbed
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
load_testbed_env

# What building the kernel needs beyond build-essential: kconfig's parsers,
# timeconst.h, objtool, the certificate tools, the source's xz tarball.
BUILD_DEPS=(bc bison flex libelf-dev libssl-dev xz-utils cpio kmod)
JOBS=${DEBUG_JOBS:-2}
CACHE=$VB_BUILD/cache/debug
DEBS=$VB_BUILD/cache/debs
MAJMIN=$(echo "$TESTBED_KVER" | cut -d. -f1-2)
SOURCE_PKG=linux-source-$MAJMIN
SRC=$CACHE/$SOURCE_PKG
OBJ=$CACHE/obj
STAGING=$CACHE/staging
FRAGMENT=$VB_ROOT/scripts/debug-kernel.config
LOG=$CACHE/build.log

# quiet CMD...: CMD's output into $LOG, or on the terminal too with V=1.
quiet() {
	if [ "${V:-0}" = 1 ]; then
		run "$@" 2>&1 | tee -a "$LOG"
		return "${PIPESTATUS[0]}"
	fi
	"$@" >>"$LOG" 2>&1 || {
		tail -n 20 "$LOG" >&2
		die "failed: $* (log: $LOG)"
	}
}

# unpack_source: the test bed's version of linux-source, whole.
unpack_source() {
	local deb=$DEBS/${SOURCE_PKG}_${TESTBED_DEBVER//:/%3a}_all.deb
	[ "$(cat "$SRC/.vsb-debver" 2>/dev/null)" = "$TESTBED_DEBVER" ] && return
	if [ ! -s "$deb" ]; then
		say "downloading $SOURCE_PKG=$TESTBED_DEBVER"
		mkdir -p "$DEBS"
		(cd "$DEBS" && run apt-get download -qq -o APT::Sandbox::User=root \
			"$SOURCE_PKG=$TESTBED_DEBVER") ||
			die "cannot download $SOURCE_PKG=$TESTBED_DEBVER (is $TESTBED_SUITE enabled?)"
	fi
	say "unpacking $(basename "$deb")"
	rm -rf "$SRC" "$OBJ" "$STAGING"
	mkdir -p "$CACHE"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/$SOURCE_PKG.tar.xz" |
		xz -dc -T0 |
		tar -x -C "$CACHE"
	[ -e "$SRC/Makefile" ] || die "no $SOURCE_PKG/Makefile in $(basename "$deb")"
	echo "$TESTBED_DEBVER" >"$SRC/.vsb-debver"
}

# configure: the .config, remade only when the fragment or the source
# changed (the stamp holds both).
configure() {
	local stamp
	stamp="$TESTBED_DEBVER $(sha256sum <"$FRAGMENT")"
	[ -e "$OBJ/.config" ] && [ "$(cat "$OBJ/.vsb-config" 2>/dev/null)" = "$stamp" ] &&
		return
	say "configuring (x86_64_defconfig, kvm_guest.config, $(basename "$FRAGMENT"))"
	mkdir -p "$OBJ"
	rm -f "$OBJ/.vsb-config"
	quiet make -C "$SRC" O="$OBJ" x86_64_defconfig
	quiet "$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" \
		"$SRC/kernel/configs/kvm_guest.config" "$FRAGMENT"
	quiet make -C "$SRC" O="$OBJ" olddefconfig
	check_config
	echo "$stamp" >"$OBJ/.vsb-config"
}

# check_config: every option the fragment sets survived olddefconfig (a
# missing dependency silently drops one).
check_config() {
	local line name lost=()
	while read -r line; do
		name=${line#\# }
		name=${name%%[= ]*}
		grep -qxF "$line" "$OBJ/.config" || lost+=("$name")
	done < <(grep -E '^(# )?CONFIG_[A-Z0-9_]+[= ]' "$FRAGMENT")
	# An option that is off may be absent because what it hangs under is.
	for name in "${lost[@]}"; do
		grep -qE "^# ${name}[= ]" "$FRAGMENT" &&
			! grep -qE "^${name}=" "$OBJ/.config" && continue
		die "$name of $(basename "$FRAGMENT") is not in the final .config" \
			"(now: $(grep -E "^(# )?${name}[= ]" "$OBJ/.config" || echo absent))"
	done
}

# build: bzImage and modules, installed into $STAGING. .vsb-built is the
# .config they were built with: a fragment edit that changes nothing in
# the .config (a comment) rebuilds nothing.
build() {
	local start
	cmp -s "$OBJ/.config" "$OBJ/.vsb-built" && return
	say "building $SOURCE_PKG $TESTBED_DEBVER with lockdep, KASAN and UBSAN" \
		"(make -j$JOBS, some 45 minutes on two cores; log: $LOG)"
	start=$(date +%s)
	quiet nice -n 10 make -C "$SRC" O="$OBJ" -j"$JOBS" bzImage modules
	rm -rf "$STAGING"
	quiet make -C "$SRC" O="$OBJ" INSTALL_MOD_PATH="$STAGING" modules_install
	cp "$OBJ/.config" "$OBJ/.vsb-built"
	say "built in $((($(date +%s) - start) / 60)) min"
}

write_env() {
	local env=$VB_BUILD/debug.env tmp kver
	kver=$(cat "$OBJ/include/config/kernel.release")
	tmp=$(mktemp "$env.XXXXXX")
	cat >"$tmp" <<EOT
# Written by scripts/debug-kernel.sh; read with VB_KERNEL=debug.
TESTBED_KVER=$kver
TESTBED_DEBVER=$TESTBED_DEBVER
TESTBED_SUITE=$TESTBED_SUITE
TESTBED_KDIR=$OBJ
TESTBED_KSRC=$SRC
TESTBED_IMAGE=$OBJ/arch/x86/boot/bzImage
TESTBED_MODROOT=$STAGING
EOT
	if cmp -s "$tmp" "$env"; then
		rm -f "$tmp"
	else
		mv "$tmp" "$env"
	fi
}

install_missing "${BUILD_DEPS[@]}"
mkdir -p "$CACHE"
exec 9>"$CACHE/lock"
flock 9
: >"$LOG"
unpack_source
configure
build
write_env
VB_KERNEL=debug run "$VB_ROOT/scripts/fetch-testbed.sh"
VB_KERNEL=debug run "$VB_ROOT/scripts/build-stock.sh"
