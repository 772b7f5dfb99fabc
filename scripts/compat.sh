#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# compat.sh: the kernel compatibility matrix (Documentation/compat.rst).
#
# Builds the module (the top Kbuild, as "make module" does) with W=1 and
# KCFLAGS=-Werror against
#   - the test bed's kernel headers (build/testbed.env), and
#   - the newest linux-source-X.Y in Debian's archive (COMPAT_SUITES),
#     configured with the .config of Debian's linux-headers-ABI-amd64 of
#     the same version, "make olddefconfig modules_prepare"d once and cached
#     in build/cache/compat/,
# prints one row per kernel and fails when any build fails. Module objects
# and logs go to build/compat/KERNELRELEASE/.
#
# The archive is read through a private apt configuration under
# build/cache/compat/apt: its URI is the one this machine's apt sources use
# for its own release, and nothing outside build/ changes except build
# dependencies installed with apt-get (needs root only then).
#
# compat.sh --testbed makes the same newest kernel a second test bed
# (Documentation/testbed.rst, "The newest kernel"): it prepares the tree as
# above, downloads that version's unsigned kernel image and modules, writes
# build/newest.env and runs fetch-testbed.sh and build-stock.sh for it
# (VB_KERNEL=newest). When the archive has no kernel newer than the test
# bed's, it says so, removes build/newest.env and succeeds.
#
# Environment:
#   COMPAT_SUITES   suites searched for the newest kernel source
#                   (default: "trixie-backports sid experimental")
#   COMPAT_REFRESH  1: re-read the archive's indexes even if they are
#                   younger than a day
#   V=1             show commands and build output
set -euo pipefail
# The first row is the test bed's kernel, and the second test bed is made
# beside it, whatever kernel the caller boots (make KERNEL=newest).
VB_KERNEL=testbed
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/apt-sources.sh
. "$VB_ROOT/scripts/lib/apt-sources.sh"
load_testbed_env

COMPAT_SUITES=${COMPAT_SUITES:-trixie-backports sid experimental}
CACHE=$VB_BUILD/cache/compat
DEBS=$VB_BUILD/cache/debs
APT_DIR=$CACHE/apt
OUT=$VB_BUILD/compat
ARCH=amd64
# What "make olddefconfig modules_prepare" needs beyond build-essential:
# kconfig's parsers, timeconst.h, objtool, sign-file.
BUILD_DEPS=(bc bison flex libelf-dev libssl-dev xz-utils debian-archive-keyring)
# Tree parts that neither Kconfig nor modules_prepare nor the module's
# headers need: driver and sound sources (their Kconfig files stay) and
# the documentation's text. Two thirds of the unpacked tree.
TREE_EXCLUDES=('drivers/*.[ch]' 'sound/*.[ch]' 'Documentation/*.rst'
	'Documentation/*.yaml')

APT_OPTS=(
	-o "Dir::Etc::SourceList=$APT_DIR/sources.list"
	-o Dir::Etc::SourceParts=-
	-o "Dir::State::Lists=$APT_DIR/lists"
	-o "Dir::Cache=$APT_DIR/cache"
	-o Dir::State::status=/dev/null
	-o Acquire::Languages=none
	-o APT::Sandbox::User=root
)

# quiet CMD...: run CMD with its output in the log file $LOG, or on the
# terminal too with V=1.
quiet() {
	if [ "${V:-0}" = 1 ]; then
		run "$@" 2>&1 | tee -a "$LOG"
		return "${PIPESTATUS[0]}"
	fi
	"$@" >>"$LOG" 2>&1
}

# Write the private sources list; read the indexes when it changed, when
# they are a day old, or when asked to.
refresh_archive() {
	local uri codename list suite
	# shellcheck source=/dev/null
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	uri=$(debian_archive_uri "$codename")
	[ -n "$uri" ] || die "no apt source for '$codename main' to derive the archive URI from"
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
	list=$(for suite in $COMPAT_SUITES; do
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main"
	done)
	if [ "$list" != "$(cat "$APT_DIR/sources.list" 2>/dev/null)" ]; then
		echo "$list" >"$APT_DIR/sources.list"
		rm -f "$APT_DIR/lists/updated"
	fi
	if [ "${COMPAT_REFRESH:-0}" != 1 ] &&
		[ -n "$(find "$APT_DIR/lists/updated" -mmin -1440 2>/dev/null)" ]; then
		return
	fi
	say "reading the indexes of $COMPAT_SUITES from $uri"
	if run apt-get "${APT_OPTS[@]}" -qq update; then
		touch "$APT_DIR/lists/updated"
	elif [ -e "$APT_DIR/lists/updated" ]; then
		say "apt-get update failed; using the indexes of $(date -r "$APT_DIR/lists/updated")"
	elif read=$(suites_read) && [ -n "$read" ]; then
		# A mirror may serve a suite whose Release has expired (sid on
		# a stale mirror): apt refuses that one and keeps the others.
		say "apt-get update failed for some suites; searching ${read% } only"
	else
		die "apt-get update of $COMPAT_SUITES failed"
	fi
}

# The suites of COMPAT_SUITES whose indexes apt holds.
suites_read() {
	local suite
	for suite in $COMPAT_SUITES; do
		compgen -G "$APT_DIR/lists/*_dists_${suite}_InRelease" >/dev/null &&
			printf '%s ' "$suite"
	done
	return 0
}

# Print "PACKAGE VERSION SUITE" of the newest linux-source-X.Y.
newest_source() {
	local pkg ver suite best_pkg='' best_ver='' best_suite=''
	while read -r pkg ver suite; do
		if [ -z "$best_ver" ] || dpkg --compare-versions "$ver" gt "$best_ver"; then
			best_pkg=$pkg best_ver=$ver best_suite=$suite
		fi
	done < <(apt-cache "${APT_OPTS[@]}" pkgnames linux-source- |
		grep -E '^linux-source-[0-9]+\.[0-9]+$' |
		xargs -r apt-cache "${APT_OPTS[@]}" madison |
		awk -F' *[|] *' '{ split($3, w, " "); sub(/\/.*/, "", w[2]);
			gsub(/ /, "", $1); print $1, $2, w[2] }')
	[ -n "$best_ver" ] || die "no linux-source-X.Y in $COMPAT_SUITES"
	echo "$best_pkg $best_ver $best_suite"
}

# The linux-headers-ABI-amd64 package of Debian version VERSION: what the
# linux-headers-amd64 metapackage of that version depends on.
headers_package() {
	apt-cache "${APT_OPTS[@]}" show "linux-headers-$ARCH=$1" 2>/dev/null |
		sed -n "s/^Depends:.*\(linux-headers-[^ ,]*-$ARCH\) .*/\1/p" | head -n 1
}

# image_packages RELEASE VERSION: the binary packages that hold Debian's
# kernel RELEASE and its modules, unsigned. Up to 6.x one package,
# linux-image-RELEASE-unsigned; since 7.x linux-image-RELEASE is a
# metapackage over linux-binary-RELEASE (the signed image),
# linux-modules-RELEASE and linux-base-RELEASE, and the unsigned image is
# linux-binary-unsigned-RELEASE.
image_packages() {
	local release=$1 ver=$2 dep
	if package_exists "linux-image-$release-unsigned" "$ver"; then
		echo "linux-image-$release-unsigned"
		return
	fi
	apt-cache "${APT_OPTS[@]}" show "linux-image-$release=$ver" 2>/dev/null |
		sed -n 's/^Depends: //p' | head -n 1 | tr ',' '\n' |
		sed -n "s/^ *\(linux-[a-z]*-$release\)\( .*\)\?$/\1/p" |
		while read -r dep; do
			if [ "${dep#linux-binary-}" != "$dep" ] &&
				package_exists "linux-binary-unsigned-${dep#linux-binary-}" "$ver"; then
				dep=linux-binary-unsigned-${dep#linux-binary-}
			fi
			echo "$dep"
		done
}

# package_exists PACKAGE VERSION
package_exists() {
	apt-cache "${APT_OPTS[@]}" show "$1=$2" >/dev/null 2>&1
}

# deb_file PACKAGE VERSION ARCH: where apt-get download puts it.
deb_file() {
	echo "$DEBS/${1}_${2//:/%3a}_$3.deb"
}

download() {
	local pkg=$1 ver=$2 arch=$3
	[ -s "$(deb_file "$pkg" "$ver" "$arch")" ] && return
	mkdir -p "$DEBS"
	say "downloading $pkg=$ver"
	(cd "$DEBS" && run apt-get "${APT_OPTS[@]}" -qq download "$pkg=$ver") ||
		die "cannot download $pkg=$ver"
}

# unpack PACKAGE VERSION TREE: the source with Debian's .config and
# Module.symvers (so that modpost checks the module's imports against what
# Debian's kernel exports) from linux-headers-ABI-amd64 of that version.
unpack() {
	local pkg=$1 ver=$2 tree=$3 headers tmp x excludes=()
	headers=$(headers_package "$ver")
	[ -n "$headers" ] || die "no linux-headers-*-$ARCH of version $ver"
	download "$pkg" "$ver" all
	download "$headers" "$ver" "$ARCH"
	say "unpacking $pkg=$ver with the .config of $headers"
	rm -rf "$tree"
	tmp=$(mktemp -d "$CACHE/unpack.XXXXXX")
	for x in "${TREE_EXCLUDES[@]}"; do
		excludes+=("--exclude=$pkg/$x")
	done
	dpkg-deb --fsys-tarfile "$(deb_file "$pkg" "$ver" all)" |
		tar -xO "./usr/src/$pkg.tar.xz" | xz -dc -T0 |
		tar -x -C "$tmp" "${excludes[@]}"
	dpkg-deb --fsys-tarfile "$(deb_file "$headers" "$ver" "$ARCH")" |
		tar -x -C "$tmp/$pkg" --strip-components=4 \
			"./usr/src/$headers/.config" "./usr/src/$headers/Module.symvers"
	echo "$headers" >"$tmp/$pkg/.vsb-config-from"
	mv "$tmp/$pkg" "$tree"
	rm -rf "$tmp"
}

# tree_stamp RELEASE: what a prepared tree depends on besides its source.
tree_stamp() {
	gcc --version | head -n 1
	printf '%s\n' "${TREE_EXCLUDES[@]}"
	echo "KERNELRELEASE=$1"
}

# remove_other_trees DIR: drop the prepared trees other than DIR, and
# their downloads unless the test bed uses them.
remove_other_trees() {
	local keep=$1 old name ver headers
	for old in "$CACHE"/linux-source-*; do
		if [ ! -d "$old" ] || [ "$old" = "$keep" ]; then
			continue
		fi
		say "removing $old, an older kernel's tree"
		name=$(basename "$old")
		ver=${name#*_}
		if [ "$ver" != "${TESTBED_DEBVER//:/%3a}" ]; then
			headers=$(cat "$old/linux/.vsb-config-from" 2>/dev/null || true)
			rm -f "$DEBS/${name}_all.deb"
			if [ -n "$headers" ]; then
				# Headers, image and modules of that release.
				rm -f "$DEBS"/linux-*"${headers#linux-headers-}"*"_${ver}_$ARCH.deb"
				rm -rf "$VB_BUILD/cache/${headers#linux-headers-}"
			fi
		fi
		rm -rf "$old"
	done
}

# source_tree PACKAGE VERSION: set TREE to the prepared tree, preparing it
# once ("make olddefconfig modules_prepare"), or to "" when that failed
# (LOG has why), and RELEASE to the release of Debian's kernel of that
# version. The tree is prepared with that KERNELRELEASE, so the module's
# vermagic is the one Debian's kernel accepts.
source_tree() {
	local pkg=$1 ver=$2 dir headers
	dir=$CACHE/${pkg}_${ver//:/%3a}
	TREE=$dir/linux
	LOG=$dir/prepare.log
	headers=$(headers_package "$ver")
	[ -n "$headers" ] || die "no linux-headers-*-$ARCH of version $ver"
	RELEASE=${headers#linux-headers-}
	remove_other_trees "$dir"
	[ "$(cat "$dir/prepared" 2>/dev/null)" = "$(tree_stamp "$RELEASE")" ] && return
	mkdir -p "$dir"
	rm -f "$dir/prepared"
	: >"$LOG"
	# A tree is moved into place whole, so one that is there is complete.
	[ -e "$TREE/.vsb-config-from" ] || unpack "$pkg" "$ver" "$TREE"
	say "preparing $pkg=$ver (olddefconfig modules_prepare, a few minutes)"
	if quiet nice -n 10 make -C "$TREE" -j2 olddefconfig &&
		quiet nice -n 10 make -C "$TREE" -j2 KERNELRELEASE="$RELEASE" \
			modules_prepare; then
		tree_stamp "$RELEASE" >"$dir/prepared"
	else
		TREE=
	fi
}

# first_error LOG [DIR]: the line to show for a failed step: the
# compiler's or modpost's first error, else the line before make's first
# "***" (kconfig and scripts say "can't open", "not found", ...), else the
# last line; paths relative to DIR (default: the repository).
first_error() {
	local line dir=${2:-$VB_ROOT}
	line=$(grep -m 1 -E '(error|ERROR)\b' "$1" ||
		grep -m 1 -B 1 -F '***' "$1" | head -n 1)
	[ -n "$line" ] || line=$(tail -n 1 "$1")
	echo "${line//"$dir/"/}"
}

ROWS=()
FAILED=0

# check KDIR SOURCE: build the module against KDIR and add a row.
check() {
	local kdir=$1 source=$2 krel out result
	krel=$(cat "$kdir/include/config/kernel.release")
	out=$OUT/$krel
	mkdir -p "$out"
	LOG=$out/build.log
	: >"$LOG"
	if quiet nice -n 10 "$VB_ROOT/scripts/kbuild.sh" "$VB_ROOT" "$out" "$kdir" \
		-j2 W=1 KCFLAGS=-Werror modules; then
		result=ok
	else
		result="FAIL: $(first_error "$LOG" "$out")"
		FAILED=1
	fi
	ROWS+=("$krel|$source|$result")
}

print_table() {
	local row k s r wk=6 ws=6
	for row in "${ROWS[@]}"; do
		IFS='|' read -r k s r <<<"$row"
		wk=$((${#k} > wk ? ${#k} : wk))
		ws=$((${#s} > ws ? ${#s} : ws))
	done
	printf '%-*s | %-*s | %s\n' "$wk" KERNEL "$ws" SOURCE RESULT
	for row in "${ROWS[@]}"; do
		IFS='|' read -r k s r <<<"$row"
		printf '%-*s | %-*s | %s\n' "$wk" "$k" "$ws" "$s" "$r"
	done
}

# prepare_newest: PKG, VER and SUITE of the newest kernel source, and its
# prepared TREE and RELEASE (source_tree).
prepare_newest() {
	local newest
	refresh_archive
	newest=$(newest_source)
	read -r PKG VER SUITE <<<"$newest"
	source_tree "$PKG" "$VER"
}

compat_table() {
	check "$TESTBED_KDIR" \
		"linux-headers-$TESTBED_KVER $TESTBED_DEBVER ($TESTBED_SUITE)"
	prepare_newest
	if [ -n "$TREE" ]; then
		check "$TREE" "$PKG $VER ($SUITE)"
	else
		ROWS+=("$RELEASE|$PKG $VER ($SUITE)|FAIL: prepare: $(first_error "$LOG")")
		FAILED=1
	fi
	print_table
	return "$FAILED"
}

# newest_testbed: the newest kernel as a second test bed, build/newest.env
# in the format of setup.sh's build/testbed.env, with the prepared tree as
# its KDIR.
newest_testbed() {
	local env=$VB_BUILD/newest.env tmp images pkg
	prepare_newest
	if ! dpkg --compare-versions "$VER" gt "$TESTBED_DEBVER"; then
		rm -f "$env"
		say "no kernel newer than the test bed's $TESTBED_KVER in $COMPAT_SUITES" \
			"(newest: $PKG $VER): no second test bed"
		return 0
	fi
	[ -n "$TREE" ] || die "preparing $PKG=$VER failed: $(first_error "$LOG") (log: $LOG)"
	images=$(image_packages "$RELEASE" "$VER" | tr '\n' ' ')
	[ -n "$images" ] || die "no linux-image-$RELEASE of version $VER"
	for pkg in $images; do
		download "$pkg" "$VER" "$ARCH"
	done
	tmp=$(mktemp "$env.XXXXXX")
	cat >"$tmp" <<EOT
# Written by scripts/compat.sh --testbed; read with VB_KERNEL=newest.
TESTBED_KVER=$RELEASE
TESTBED_DEBVER=$VER
TESTBED_SUITE=$SUITE
TESTBED_KDIR=$TREE
TESTBED_IMAGE_DEBS="${images% }"
EOT
	if cmp -s "$tmp" "$env"; then
		rm -f "$tmp"
	else
		mv "$tmp" "$env"
	fi
	# Both find their .debs downloaded already.
	VB_KERNEL=newest run "$VB_ROOT/scripts/fetch-testbed.sh"
	VB_KERNEL=newest run "$VB_ROOT/scripts/build-stock.sh"
}

main() {
	install_missing "${BUILD_DEPS[@]}"
	mkdir -p "$CACHE"
	exec 9>"$CACHE/lock"
	flock 9
	case "${1:-}" in
	'') compat_table ;;
	--testbed) newest_testbed ;;
	*) die "usage: $VB_PROG [--testbed]" ;;
	esac
}

main "$@"
