#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the stock baseline -- vringh.ko, vdpa_sim.ko and vdpa_sim_net.ko --
# out of tree from the test-bed kernel's own source (Debian does not build
# them) against its headers, into build/stock/KVER/. Every comparison the
# project makes is against these modules, unmodified. The debug kernel
# (VB_KERNEL=debug) builds them itself: they are copied from its modules.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
load_testbed_env

out=$VB_BUILD/stock/$TESTBED_KVER
mods=(vringh vdpa_sim vdpa_sim_net)

mkdir -p "$out"
if [ -n "${TESTBED_MODROOT:-}" ]; then
	for m in "${mods[@]}"; do
		ko=$(find "$TESTBED_MODROOT/lib/modules/$TESTBED_KVER/kernel" -name "$m.ko")
		[ -n "$ko" ] || die "$m.ko is not among the debug kernel's modules"
		cmp -s "$ko" "$out/$m.ko" || cp "$ko" "$out/$m.ko"
	done
	exit 0
fi
for f in "$VB_KSRC"/drivers/vdpa/vdpa_sim/vdpa_sim.[ch] \
	"$VB_KSRC"/drivers/vdpa/vdpa_sim/vdpa_sim_net.c \
	"$VB_KSRC"/drivers/vhost/vringh.c; do
	cmp -s "$f" "$out/$(basename "$f")" || cp "$f" "$out/"
done
# One Kbuild for all three so modpost resolves vdpa_sim's vringh_* imports.
kbuild="obj-m := ${mods[*]/%/.o}"
[ "$(cat "$out/Kbuild" 2>/dev/null)" = "$kbuild" ] || echo "$kbuild" >"$out/Kbuild"

stale=0
for m in "${mods[@]}"; do
	for f in "$out"/Kbuild "$out"/*.[ch]; do
		[ "$out/$m.ko" -nt "$f" ] || stale=1
	done
done
[ "$stale" = 0 ] && exit 0
say "building stock ${mods[*]} for $TESTBED_KVER"
if [ "${V:-0}" = 1 ]; then
	make -C "$TESTBED_KDIR" M="$out" modules
else
	make -s -C "$TESTBED_KDIR" M="$out" modules >/dev/null
fi
