#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Prepare this machine for building and testing vdpa-batch: Debian packages,
# the test-bed kernel (headers installed, image and source downloaded into
# build/cache), the in-tree modules the VM needs, the stock vdpa_sim_net
# baseline, and the oldest supported UAPI headers (build/uapi/oldest). Idempotent and quiet when everything is already in place.
#
# Environment:
#   KVER=<release>   use this Debian kernel (e.g. 6.12.95+deb12-amd64) instead
#                    of the newest linux-headers-amd64 of the test-bed suite
#   TESTBED_SUITE=   apt suite for the test-bed kernel (default: the
#                    backports suite on bookworm, the release itself elsewhere)
#   V=1              show commands
set -euo pipefail
# Setup makes the test bed (build/testbed.env), also when called while
# the newest kernel's is selected (make KERNEL=newest check).
export VB_KERNEL=testbed
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/apt-sources.sh
. "$VB_ROOT/scripts/lib/apt-sources.sh"

# Build, unit-test, lint and VM tools, and headless chromium for checking that
# the benchmark report renders (scripts/render-check.sh). linux-headers come
# separately because their version is the test-bed kernel's, chosen below.
PACKAGES=(
	build-essential make pkg-config libmnl-dev libcmocka-dev
	qemu-system-x86 busybox-static cpio xz-utils zstd kmod
	iproute2 ethtool jq sparse perl shellcheck clang-format
	gnuplot-nox fonts-dejavu-core chromium
	clang libclang-rt-dev dkms python3-docutils bash-completion
	groff-base man-db
)

[ "$(id -u)" = 0 ] || die "must run as root (it installs Debian packages)"
export DEBIAN_FRONTEND=noninteractive
APT_UPDATED=0

apt_update() {
	[ "$APT_UPDATED" = 1 ] && return
	say "apt-get update"
	run apt-get update -qq >/dev/null
	APT_UPDATED=1
}

apt_install() {
	say "installing $*"
	run apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

is_installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

install_packages() {
	local missing=() p
	for p in "${PACKAGES[@]}"; do
		is_installed "$p" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return
	apt_update
	apt_install "${missing[@]}"
}

os_codename() {
	# shellcheck source=/dev/null
	(. /etc/os-release && echo "${VERSION_CODENAME:-}")
}

# Debian's 6.12 kernel reaches bookworm only through backports; later
# releases carry it (or newer) in the release itself.
default_suite() {
	local codename=$1
	case "$codename" in
	bookworm) echo "$codename-backports" ;;
	*) echo "$codename" ;;
	esac
}

# Point apt at SUITE on the mirror this machine already uses for CODENAME.
enable_suite() {
	local codename=$1 suite=$2 uri list
	[ "$suite" = "$codename" ] && return
	if grep -rqsw -- "$suite" /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources; then
		return
	fi
	uri=$(debian_archive_uri "$codename")
	[ -n "$uri" ] ||
		die "no apt source for '$codename main' found to derive the $suite URI from"
	list=/etc/apt/sources.list.d/vdpa-batch-$suite.sources
	say "enabling $suite from $uri ($list)"
	cat >"$list" <<EOT
# Written by vdpa-batch scripts/setup.sh: the test-bed kernel lives here.
Types: deb
URIs: $uri
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
	APT_UPDATED=0
	apt_update
}

# Install PACKAGE at the version SUITE has, unless it is there already.
install_from_suite() {
	local pkg=$1 suite=$2 want have
	want=$(suite_version "$pkg" "$suite")
	if [ -z "$want" ]; then
		apt_update
		want=$(suite_version "$pkg" "$suite")
	fi
	[ -n "$want" ] || die "no $pkg in $suite"
	have=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || true)
	# pkg/suite, not -t: -t would also drag unrelated packages (systemd,
	# ...) to the suite's versions.
	[ "$have" = "$want" ] || apt_install "$pkg/$suite"
}

# Make sure the headers of the test-bed kernel are installed and set KVER
# and DEBVER. Without KVER that is the suite's linux-headers-amd64.
install_headers() {
	local suite=$1 dep
	if [ -z "${KVER:-}" ]; then
		install_from_suite linux-headers-amd64 "$suite"
		dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64)
		KVER=$(sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p' <<<"$dep")
	elif ! is_installed "linux-headers-$KVER"; then
		apt_update
		apt_install "linux-headers-$KVER"
	fi
	[ -n "$KVER" ] || die "cannot tell the kernel release of linux-headers-amd64"
	DEBVER=$(dpkg-query -W -f='${Version}' "linux-headers-$KVER")
}

write_env() {
	local kver=$1 debver=$2 suite=$3 tmp
	tmp=$(mktemp "$VB_TESTBED_ENV.XXXXXX")
	cat >"$tmp" <<EOT
# Written by scripts/setup.sh; read by the Makefile and scripts/*.sh.
TESTBED_KVER=$kver
TESTBED_DEBVER=$debver
TESTBED_SUITE=$suite
TESTBED_KDIR=/usr/src/linux-headers-$kver
EOT
	if cmp -s "$tmp" "$VB_TESTBED_ENV"; then
		rm -f "$tmp"
	else
		mv "$tmp" "$VB_TESTBED_ENV"
	fi
}

main() {
	local codename suite
	install_packages
	codename=$(os_codename)
	[ -n "$codename" ] || die "cannot tell the Debian release from /etc/os-release"
	suite=${TESTBED_SUITE:-$(default_suite "$codename")}
	enable_suite "$codename" "$suite"
	install_headers "$suite"
	# iproute2 as new as the kernel: "vdpa dev add ... device_features"
	# came after bookworm's 6.1.
	install_from_suite iproute2 "$suite"
	mkdir -p "$VB_BUILD"
	write_env "$KVER" "$DEBVER" "$suite"
	export KVER
	# The oldest UAPI headers the tool must build against.
	enable_suite "$codename" "$VB_OLDEST_SUITE"
	[ -n "$(suite_version linux-libc-dev "$VB_OLDEST_SUITE")" ] || apt_update
	run "$VB_ROOT/scripts/fetch-uapi.sh"
	run "$VB_ROOT/scripts/fetch-testbed.sh"
	run "$VB_ROOT/scripts/build-stock.sh"
	run "$VB_ROOT/scripts/fetch-qemu.sh"
}

main "$@"
