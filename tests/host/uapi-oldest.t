#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The userspace code builds against the oldest supported UAPI headers
# (bookworm's Linux 6.1, build/uapi/oldest), and that build cannot be
# fooled by newer headers on the machine:
#  - each define of tools/vdpactl-batch/compat.h is absent from those
#    headers (else it is dead weight) and used by the tool or by a
#    test-bed program built on its library;
#  - a vdpa enum constant VDPA_X, which #ifndef cannot test and compat.h
#    therefore defines as VDPACTL_X, is absent from them and has the value
#    that the test-bed kernel's own linux/vdpa.h (newer) gives VDPA_X;
#  - a copy of the tool without one of them fails "make oldest-uapi"'s
#    build even when a newer header that has it sits on the system include
#    path, where the same copy builds without the oldest headers.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

TOOL=tools/vdpactl-batch
# Wherever the tool keeps it.
COMPAT=$(find "$TOOL" -name compat.h -not -path '*/tests/*' | head -n 1)
UAPI=build/uapi/oldest
read -r -a defines <<<"$(sed -n 's/^#ifndef \([A-Z0-9_]*\)$/\1/p' "$COMPAT" |
	grep -v '_H$' | tr '\n' ' ')"
# VDPACTL_CMD_DEV_ATTR_SET stands for VDPA_CMD_DEV_ATTR_SET, and so on.
read -r -a enum_names <<<"$(sed -n 's/^#define VDPACTL_\([A-Z0-9_]*\) .*/VDPA_\1/p' "$COMPAT" |
	tr '\n' ' ')"
read -r -a uapi_cflags <<<"$(make -s --no-print-directory oldest-uapi-cflags)"
# The one the test removes: an ioctl the inject cases call.
victim=VHOST_VDPA_RESUME

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tap_plan $((3 + 2 * ${#defines[@]} + 2 * ${#enum_names[@]} + 3))

tap_ok "build/uapi/oldest holds bookworm's linux-libc-dev (make setup)" \
	grep -qx 'bookworm 6\.1\..*' "$UAPI/version"
version_h=$UAPI/usr/include/linux/version.h
tap_is "$(sed -n 's/^#define LINUX_VERSION_MAJOR \([0-9]*\)$/\1/p; s/^#define LINUX_VERSION_PATCHLEVEL \([0-9]*\)$/.\1/p' \
	"$version_h" | tr -d '\n')" 6.1 "its headers are Linux 6.1's"
tap_ok "compat.h names $victim" grep -qw "$victim" "$COMPAT"

# The system headers compat.h itself includes, without its definitions.
grep '^#include <' "$COMPAT" >"$tmp/includes.h"
for d in "${defines[@]}"; do
	printf '#include "%s/includes.h"\n#ifdef %s\n#error %s is in the oldest headers\n#endif\n' \
		"$tmp" "$d" "$d" >"$tmp/probe.c"
	tap_ok "$d is newer than the oldest headers" \
		cc -fsyntax-only "${uapi_cflags[@]}" "$tmp/probe.c"
	tap_ok "$d is used by the tool or a test-bed program" \
		grep -rqw --exclude=compat.h --exclude-dir=tests "$d" "$TOOL" \
		testbed/programs
done

# The test-bed kernel's linux/vdpa.h, from its headers package (a raw UAPI
# header, which needs nothing from the others).
. build/testbed.env
mkdir -p "$tmp/newer-vdpa/linux"
cp "$(dirname "$TESTBED_KDIR")/linux-headers-${TESTBED_KVER%-*}-common/include/uapi/linux/vdpa.h" \
	"$tmp/newer-vdpa/linux/"
for e in "${enum_names[@]}"; do
	printf '#include "%s/includes.h"\nint x = %s;\n' "$tmp" "$e" >"$tmp/probe.c"
	tap_fails "$e is newer than the oldest headers" \
		cc -fsyntax-only "${uapi_cflags[@]}" "$tmp/probe.c"
	printf '#include "%s"\n_Static_assert(VDPACTL_%s == %s, "value");\n' \
		"$PWD/$COMPAT" "${e#VDPA_}" "$e" >"$tmp/probe.c"
	tap_ok "VDPACTL_${e#VDPA_} has $e's value in $TESTBED_KVER's linux/vdpa.h" \
		cc -fsyntax-only -I"$tmp/newer-vdpa" "$tmp/probe.c"
done

# A copy of the tool without the victim's definition, and a "newer system
# header" that has it: -isystem is searched where the machine's own
# headers are, after every -I.
mkdir -p "$tmp/src/tools" "$tmp/newer/linux"
cp -r "$TOOL" "$tmp/src/tools/"
mkdir -p "$tmp/src/kmod"
cp -r kmod/uapi "$tmp/src/kmod/"
sed -i "/^#ifndef $victim\$/,/^#endif\$/d" "$tmp/src/$COMPAT"
tap_fails "the copy lacks $victim's definition" \
	grep -qw "define $victim" "$tmp/src/$COMPAT"
cat >"$tmp/newer/linux/vhost.h" <<EOF
#include_next <linux/vhost.h>
#ifndef $victim
#define $victim _IO(VHOST_VIRTIO, 0x7E)
#endif
EOF

build() {
	make -s -C "$tmp/src/$TOOL" O="$tmp/out-$1" CFLAGS="$2 -O0" 2>&1
}
out=$(build newer "-isystem $tmp/newer")
rc=$?
tap_result "$rc" "with newer system headers alone, the copy builds (they hide the gap)"
[ "$rc" != 0 ] && tap_diag "$out"
out=$(build oldest "${uapi_cflags[*]} -isystem $tmp/newer")
rc=$?
if [ "$rc" != 0 ] && grep -q "$victim" <<<"$out"; then
	tap_result 0 "with the oldest headers first, the copy fails to build on $victim"
else
	tap_result 1 "with the oldest headers first, the copy fails to build on $victim"
	tap_diag "exit status $rc" "$out"
fi
tap_done
