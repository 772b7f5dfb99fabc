#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# kbuild.sh SRCDIR OUTDIR KDIR [make arguments...]
#
# Build the external module tree SRCDIR (a directory with a Kbuild file)
# against KDIR with all objects in OUTDIR, leaving SRCDIR clean. Kbuild in
# 6.12 has no separate output directory for external modules (MO= came in
# 6.13), so OUTDIR gets a tree of symlinks to the sources and kbuild runs
# there. One OUTDIR per kernel lets the host and test-bed builds coexist.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"

[ $# -ge 3 ] || die "usage: $VB_PROG SRCDIR OUTDIR KDIR [make args...]"
src=$(cd "$1" && pwd)
out=$2
kdir=$3
shift 3
[ -e "$kdir/Makefile" ] ||
	die "no kernel build tree at $kdir (install linux-headers or set KDIR=)"

mkdir -p "$out"
out=$(cd "$out" && pwd)
# Mirror the sources and Kbuild files of SRCDIR and of the subdirectories
# its Kbuild descends into (obj-m += dir/); drop links whose source is gone.
subdirs=$(sed -n 's|^obj-[my]\s*[+:]\?=\s*||p' "$src/Kbuild" | tr ' ' '\n' |
	sed -n 's|/$||p')
# shellcheck disable=SC2086 # subdirs is a word list by construction
(cd "$src" && find . -maxdepth 1 -type f \( -name '*.[ch]' -o -name Kbuild \) &&
	for d in $subdirs; do
		find "./$d" -type f \( -name '*.[ch]' -o -name Kbuild \)
	done) |
	while read -r f; do
		mkdir -p "$out/$(dirname "$f")"
		ln -sfn "$src/${f#./}" "$out/$f"
	done
find "$out" -xtype l -delete

run make -C "$kdir" M="$out" "$@"
