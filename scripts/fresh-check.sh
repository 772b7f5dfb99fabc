#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make fresh-check: prove that a machine with nothing but Debian can run the
# README's commands. Debootstrap Debian bookworm under build/fresh (the
# mirror taken from this machine's apt sources, as setup.sh does), unpack a
# "git archive" of HEAD into it, and run there, in a chroot with /proc,
# /sys and /dev bound: scripts/setup.sh (a bare Debian has no make; setup
# installs it with everything else), make (module and tool), make run and
# make check. Every package the project needs must come from its own setup;
# nothing installed on this machine can help. Prints how long each stage
# took and what the first run downloaded; exits non-zero when any stage
# fails.
#
# The debootstrapped base is kept as build/fresh/base.tar with a manifest
# (suite, mirror, architecture, debootstrap version, the tarball's sha256).
# A run reuses it only when the manifest matches and the tarball's checksum
# verifies, and it always unpacks a new root from it: nothing a run does to
# its root reaches the next run. The root stays for inspection until the
# next run; mounts are removed on every exit, interrupted or not.
#
# The run's verdict and report (build/bench/{verdict.txt,report.html,
# report.png} in the root) are copied to build/fresh/, so that the last
# verdict can be read, and kept, when the root is gone.
#
# Environment: FRESH_SUITE (default bookworm), FRESH_REBUILD=1 (debootstrap
# anew), FRESH_KEEP_ROOT=0 (remove the root afterwards), V=1.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
# shellcheck source=lib/apt-sources.sh
. "$VB_ROOT/scripts/lib/apt-sources.sh"

SUITE=${FRESH_SUITE:-$VB_OLDEST_SUITE}
FRESH=$VB_BUILD/fresh
BASE_TAR=$FRESH/base.tar
BASE_MANIFEST=$FRESH/base.manifest
ROOT=$FRESH/root
SRC=/src/vdpa-batch
LOGS=$FRESH/logs
TIMES=$FRESH/times.txt

[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot, mounts)"

MOUNTS=()
cleanup() {
	local i
	kill_root_processes
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		umount -R "${MOUNTS[$i]}" 2>/dev/null ||
			umount -R -l "${MOUNTS[$i]}" 2>/dev/null || true
	done
	MOUNTS=()
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Processes whose root is the chroot (a VM the tests left, say) would keep
# its mounts busy.
kill_root_processes() {
	local p root real
	[ -d "$ROOT" ] || return 0
	real=$(readlink -f "$ROOT")
	for p in /proc/[0-9]*; do
		root=$(readlink "$p/root" 2>/dev/null) || continue
		[ "$root" = "$real" ] && { kill -KILL "${p#/proc/}" 2>/dev/null || true; }
	done
	return 0
}

# remove_root: unmount whatever an earlier run that was killed outright left
# mounted in the root, then delete it; never through a mount point.
remove_root() {
	local real m
	[ -e "$ROOT" ] || return 0
	real=$(readlink -f "$ROOT")
	kill_root_processes
	while read -r m; do
		umount -R "$m" 2>/dev/null || umount -R -l "$m" 2>/dev/null || true
	done < <(awk -v r="$real/" 'index($2 "/", r) == 1 { print $2 }' /proc/self/mounts |
		LC_ALL=C sort -r)
	if awk -v r="$real/" 'index($2 "/", r) == 1 { found = 1 } END { exit !found }' \
		/proc/self/mounts; then
		die "$ROOT still has mounts; not removing it"
	fi
	rm -rf --one-file-system "$ROOT"
}

declare -a STAGE_NAMES STAGE_SECS STAGE_RESULTS
# stage NAME CMD...: run and time one stage; its output goes to the console
# and to build/fresh/logs/NAME.log.
stage() {
	local name=$1 start rc
	shift
	say "stage $name"
	start=$(date +%s)
	set +e
	"$@" 2>&1 | tee "$LOGS/$name.log"
	rc=${PIPESTATUS[0]}
	set -e
	STAGE_NAMES+=("$name")
	STAGE_SECS+=($(($(date +%s) - start)))
	STAGE_RESULTS+=("$([ "$rc" = 0 ] && echo ok || echo "FAILED ($rc)")")
	return "$rc"
}

# keep_report: the run's verdict and report out of the root, into
# build/fresh/; what the run did not write is not there.
keep_report() {
	local f
	for f in verdict.txt report.html report.png; do
		[ -f "$ROOT$SRC/build/bench/$f" ] || continue
		cp "$ROOT$SRC/build/bench/$f" "$FRESH/$f" ||
			say "could not keep the run's $f"
	done
	return 0
}

ensure_debootstrap() {
	command -v debootstrap >/dev/null && return
	say "installing debootstrap"
	run apt-get update -qq >/dev/null
	run apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
}

# What the base depends on, one "key value" a line.
base_inputs() {
	echo "suite $SUITE"
	echo "mirror $MIRROR"
	echo "arch $(dpkg --print-architecture)"
	echo "debootstrap $(dpkg-query -W -f='${Version}' debootstrap)"
}

base_is_valid() {
	[ -s "$BASE_TAR" ] && [ -s "$BASE_MANIFEST" ] || return 1
	[ "$(grep -v '^sha256 ' "$BASE_MANIFEST")" = "$(base_inputs)" ] || {
		say "base was made from other inputs; rebuilding"
		return 1
	}
	[ "$(sed -n 's/^sha256 //p' "$BASE_MANIFEST")" = \
		"$(sha256sum "$BASE_TAR" | cut -d' ' -f1)" ] || {
		say "base.tar does not match its checksum; rebuilding"
		return 1
	}
}

# The stage functions run where "set -e" does not apply (their status is
# tested), so each step checks its own.
make_base() {
	local tmp=$FRESH/base-root sum
	rm -rf "$tmp" "$BASE_TAR" "$BASE_MANIFEST"
	run debootstrap --arch="$(dpkg --print-architecture)" "$SUITE" "$tmp" \
		"$MIRROR" || return
	tar --numeric-owner -C "$tmp" -cf "$BASE_TAR.new" . || return
	rm -rf "$tmp"
	sum=$(sha256sum "$BASE_TAR.new" | cut -d' ' -f1) || return
	mv "$BASE_TAR.new" "$BASE_TAR"
	{
		base_inputs
		echo "sha256 $sum"
	} >"$BASE_MANIFEST"
}

prepare_base() {
	if [ "${FRESH_REBUILD:-0}" != 1 ] && base_is_valid; then
		echo "reusing $BASE_TAR (manifest and checksum verified)"
		return
	fi
	make_base
}

unpack_root() {
	local proxy
	remove_root && mkdir -p "$ROOT$SRC" || return
	tar --numeric-owner -C "$ROOT" -xf "$BASE_TAR" || return
	cp -L /etc/resolv.conf /etc/hosts "$ROOT/etc/" || return
	# The machine's own way to the mirror (a proxy), if it has one.
	proxy=$(apt-config dump | grep -i '^Acquire::[a-z]*::Proxy ' || true)
	[ -z "$proxy" ] || echo "$proxy" >"$ROOT/etc/apt/apt.conf.d/90fresh-check-proxy"
	git -C "$VB_ROOT" archive --format=tar "$HEAD" | tar -C "$ROOT$SRC" -xf - ||
		return
	echo "HEAD $HEAD unpacked into $ROOT$SRC"
}

mount_root() {
	local what
	mount -t proc proc "$ROOT/proc" || return
	MOUNTS+=("$ROOT/proc")
	for what in sys dev; do
		mount --rbind "/$what" "$ROOT/$what" || return
		MOUNTS+=("$ROOT/$what")
		mount --make-rslave "$ROOT/$what" || return
	done
}

# in_root CMD...: run CMD in the project's copy inside the root, with a
# clean environment (CI's marker passes through).
in_root() {
	chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 TERM=dumb ${CI:+CI=$CI} ${V:+V=$V} \
		/bin/bash -c "cd $SRC && $*"
}

# What the first run downloaded: Debian packages installed by setup (apt's
# cache in the root) and the test-bed packages setup fetched itself.
report_downloads() {
	local apt_kb apt_n cache_kb
	apt_n=$(find "$ROOT/var/cache/apt/archives" -name '*.deb' | wc -l)
	apt_kb=$(du -sk "$ROOT/var/cache/apt/archives" | cut -f1)
	cache_kb=$(du -sk "$ROOT$SRC/build/cache/debs" 2>/dev/null | cut -f1)
	printf 'downloads: %d Debian packages installed by setup, %d MB; test-bed packages fetched into build/cache/debs, %d MB:\n' \
		"$apt_n" $((apt_kb / 1024)) $((${cache_kb:-0} / 1024))
	find "$ROOT$SRC/build/cache/debs" -name '*.deb' -printf '  %f (%k kB)\n' 2>/dev/null |
		LC_ALL=C sort
}

report() {
	local i total=0
	{
		printf '\nmake fresh-check (%s, %s, HEAD %s)\n' "$SUITE" "$MIRROR" "$HEAD"
		printf '%-12s %8s  %s\n' STAGE SECONDS RESULT
		for i in "${!STAGE_NAMES[@]}"; do
			printf '%-12s %8d  %s\n' "${STAGE_NAMES[$i]}" \
				"${STAGE_SECS[$i]}" "${STAGE_RESULTS[$i]}"
			total=$((total + STAGE_SECS[i]))
		done
		printf '%-12s %8d\n' total "$total"
		[ -d "$ROOT/var/cache/apt/archives" ] && report_downloads
	} | tee "$TIMES"
}

main() {
	local rc=0
	# The commit under test, fixed before anything runs.
	HEAD=$(git -C "$VB_ROOT" rev-parse --short HEAD) ||
		die "$VB_ROOT is not a git checkout"
	MIRROR=$(debian_archive_uri "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")")
	[ -n "$MIRROR" ] || MIRROR=$(debian_archive_uri "$SUITE")
	[ -n "$MIRROR" ] || die "no Debian mirror in this machine's apt sources"
	mkdir -p "$FRESH"
	rm -rf "$LOGS"
	rm -f "$FRESH/verdict.txt" "$FRESH/report.html" "$FRESH/report.png"
	mkdir -p "$LOGS"
	ensure_debootstrap

	stage base prepare_base &&
		stage unpack unpack_root &&
		mount_root &&
		stage setup in_root scripts/setup.sh &&
		stage build in_root make &&
		stage run in_root make run &&
		stage check in_root make check || rc=$?
	keep_report
	cleanup
	report
	[ "${FRESH_KEEP_ROOT:-1}" = 1 ] || remove_root
	return "$rc"
}

main "$@"
