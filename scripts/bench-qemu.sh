#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The seed's experiment through unmodified QEMU 10: boot the test-bed VM
# with the QEMU layer and run scripts/guest/bench-qemu.sh, which measures
# QEMU's vhost-vdpa state load at "cont" (30, 1000 and 4098 commands) on
# vdpa_sim_batch in batch and immediate completion and on stock
# vdpa_sim_net, and prints the table. "make run" calls it. The output
# also goes to build/bench/qemu.txt. See Documentation/qemu.rst.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"

usage() {
	cat >&2 <<EOT
Usage: $VB_PROG [--rounds N]

Boot the VM once with QEMU 10 in it and time QEMU's CVQ state load at
stop/cont, N rounds per load size and device (default 7). Benchmarks must
run alone: anything else busy on the host shows in the numbers.
EOT
	exit "${1:-2}"
}

rounds=7
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=${2:?}; shift ;;
	-h | --help) usage 0 ;;
	*) usage ;;
	esac
	shift
done
case "$rounds" in
'' | *[!0-9]* | 0) die "--rounds: a positive number, not '$rounds'" ;;
esac

mkdir -p "$VB_BUILD/bench"
out=$VB_BUILD/bench/qemu.txt
# The guest deletes 4068 VLANs one control command at a time through
# QEMU, twice: generous time.
"$VB_ROOT/testbed/vm.sh" --qemu --timeout 3600 --name bench-qemu -- \
	scripts/guest/bench-qemu.sh "$rounds" | tee "$out.tmp"
mv "$out.tmp" "$out"
