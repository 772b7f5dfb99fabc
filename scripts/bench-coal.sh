#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-coal.sh [REPS [FRAMES]]: boot the test-bed VM once and measure what
# notification coalescing buys on the loopback path through the kernel's
# virtio_net (scripts/guest/bench-coal.sh says what). The output, with the
# host's load average before and after, is also kept in
# build/bench/coal.txt.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"

mkdir -p "$VB_BUILD/bench"
{
	echo "commit $(vb_commit)," \
		"host load average before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
	"$VB_ROOT/testbed/vm.sh" --name bench-coal -- \
		scripts/guest/bench-coal.sh "$@"
	echo "host load average after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
} | tee "$VB_BUILD/bench/coal.txt"
