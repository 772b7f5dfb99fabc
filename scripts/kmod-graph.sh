#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Do includes and calls in kmod/ go one way, as Documentation/design.rst
# says? Two graphs between kmod's files, each sorted with tsort, which
# names the files of any loop:
#   includes  a file -> each kmod header it includes (the sources);
#   calls     a file -> each file that defines a function it calls (the
#             built module's objects: global functions, nm). The engine's
#             calls of vsb_iotlb_read/write, which kmod/vdpa/vsb_mem.c
#             implements behind kmod/engine/vsb_seam.h, are the seam
#             itself, not an edge.
#
#   scripts/kmod-graph.sh [OBJDIR]
#
# OBJDIR: the module's build (default: the test bed kernel's, after "make
# module" or "make lint"). Exit 1 on a loop.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
load_testbed_env
cd "$VB_ROOT"

objdir=${1:-}
if [ -z "$objdir" ]; then
	for objdir in "$VB_BUILD/kmod/$TESTBED_KVER/kmod" "$VB_BUILD/lint/kmod/kmod"; do
		[ -e "$objdir/engine/vsb_ring.o" ] && break
	done
fi
[ -e "$objdir/engine/vsb_ring.o" ] ||
	die "no module objects in $objdir: run 'make module' first"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Includes: "kmod/DIR/FILE KMOD_HEADER" for each #include "..." that
# names a header of kmod/.
for f in kmod/*/*.[ch]; do
	sed -n 's/^#include "\(.*\)"/\1/p' "$f" | while read -r h; do
		for t in kmod/*/"$(basename "$h")"; do
			[ -e "$t" ] && [ "$t" != "$f" ] && echo "$f $t"
		done
	done
done | sort -u >"$tmp/includes"

# Calls: "SYMBOL FILE" for what each object defines and what it uses.
cd "$objdir"
for o in engine/vsb_*.o vdpa/vsb_*.o; do
	nm -g --defined-only "$o" | awk -v f="${o%.o}" '$2 == "T" { print $3, f }'
done | sort >"$tmp/defines"
for o in engine/vsb_*.o vdpa/vsb_*.o; do
	nm -u "$o" | awk -v f="${o%.o}" '{ print $2, f }'
done | sort >"$tmp/uses"
join "$tmp/uses" "$tmp/defines" |
	awk '$2 != $3 && $1 !~ /^vsb_iotlb_(read|write)$/ { print $2, $3 }' |
	sort -u >"$tmp/calls"

loops=0
for g in includes calls; do
	if tsort "$tmp/$g" >/dev/null 2>"$tmp/$g.err"; then
		printf '%-9s %3d edges between files, no loop\n' "$g" \
			"$(wc -l <"$tmp/$g")"
	else
		printf '%-9s a loop:\n' "$g"
		sed 's/^/  /' "$tmp/$g.err"
		loops=1
	fi
done
exit "$loops"
