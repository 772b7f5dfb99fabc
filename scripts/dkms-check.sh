#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# dkms-check.sh [-s SRCDIR] [KREL]
#
# Prove that dkms.conf builds vdpa_sim_batch: copy the source tree SRCDIR
# (default: this repository, without build/ and .git/) to a temporary dkms
# source tree as vdpa-batch-VERSION, then "dkms add", "dkms build -k KREL"
# (default: the test-bed kernel of build/testbed.env), check the module it
# built, and "dkms remove". Every dkms tree is a temporary one
# (--sourcetree, --dkmstree, --installtree), and so is the module signing
# key dkms makes when it finds none, so nothing outside is touched; all of
# it is removed on any exit. Needs dkms (Debian package dkms) and the
# kernel's headers (/lib/modules/KREL/build).
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"

MODULE=vdpa_sim_batch

usage() {
	die "usage: $VB_PROG [-s SRCDIR] [KREL]"
}

src_root=$VB_ROOT
while getopts s: opt; do
	case $opt in
	s) src_root=$(cd "$OPTARG" && pwd) ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
if [ $# = 1 ]; then
	krel=$1
else
	load_testbed_env
	krel=$TESTBED_KVER
fi

# dkms and modinfo live in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin
command -v dkms >/dev/null || die "dkms not found (Debian package dkms)"
[ -e "/lib/modules/$krel/build/Makefile" ] ||
	die "no headers for $krel at /lib/modules/$krel/build (linux-headers-$krel)"

conf=$src_root/dkms.conf
[ -r "$conf" ] || die "no $conf"
package=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' "$conf")
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$conf")
if [ -z "$package" ] || [ -z "$version" ]; then
	die "$conf: no PACKAGE_NAME=\"...\" or PACKAGE_VERSION=\"...\" line"
fi

# The module's own version, which "modinfo" and "dkms status" show, must be
# the package's.
drv_version=$(sed -n 's/^#define DRV_VERSION "\(.*\)"$/\1/p' "$src_root/kmod/vdpa/vsb_main.c")
[ "$drv_version" = "$version" ] ||
	die "$conf: PACKAGE_VERSION $version is not the module's DRV_VERSION '$drv_version'"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dkms-check.XXXXXX")
dkms_args=(--sourcetree "$tmp/src" --dkmstree "$tmp/dkms" --installtree "$tmp/lib-modules")
added=0
cleanup() {
	if [ "$added" = 1 ]; then
		dkms remove "${dkms_args[@]}" -m "$package" -v "$version" --all \
			>/dev/null 2>&1 || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/src/$package-$version" "$tmp/dkms" "$tmp/lib-modules"

# dkms signs what it builds, making a key and certificate where these say
# if there are none (its default is /var/lib/dkms); framework.conf wins.
export mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub

say "copying $src_root to $tmp/src/$package-$version"
tar -C "$src_root" --exclude=./build --exclude=./.git -cf - . |
	tar -C "$tmp/src/$package-$version" -xf -

# dkms_run ACTION ARGS...: dkms's output only when it fails.
dkms_run() {
	local log=$tmp/dkms-$1.log
	say "dkms $*"
	if ! dkms "$1" "${dkms_args[@]}" "${@:2}" >"$log" 2>&1; then
		cat "$log" >&2
		find "$tmp/dkms" -name make.log -exec cat {} + >&2 2>/dev/null || true
		die "dkms $1 failed"
	fi
}

dkms_run add -m "$package" -v "$version"
added=1
dkms_run build -m "$package" -v "$version" -k "$krel"

mapfile -t built < <(find "$tmp/dkms/$package/$version/$krel" -path '*/module/*' \
	-name "$MODULE.ko*")
[ ${#built[@]} = 1 ] ||
	die "dkms build left ${#built[@]} $MODULE.ko* files, not 1: ${built[*]}"
ko=${built[0]}
name=$(modinfo -F name "$ko")
vermagic=$(modinfo -F vermagic "$ko")
modversion=$(modinfo -F version "$ko")
[ "$name" = "$MODULE" ] || die "$ko: module name '$name', not $MODULE"
[ "${vermagic%% *}" = "$krel" ] || die "$ko: vermagic '$vermagic' is not for $krel"
[ "$modversion" = "$version" ] || die "$ko: version '$modversion', not $version"
status=$(dkms status "${dkms_args[@]}" -m "$package" -v "$version" -k "$krel" 2>/dev/null)
grep -q ": built$" <<<"$status" || die "dkms status says '$status', not built"
say "built $ko (version $modversion, signer: $(modinfo -F signer "$ko" || true))"

dkms_run remove -m "$package" -v "$version" --all
added=0
[ -z "$(dkms status "${dkms_args[@]}" -m "$package" 2>/dev/null)" ] ||
	die "dkms status still lists $package after dkms remove"
say "ok: dkms add, build for $krel and remove of $package/$version"
