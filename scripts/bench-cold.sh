#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-cold.sh [REPS]: boot the test-bed VM once and measure cold,
# migration-shaped CVQ loads on vdpasim_batch against stock vdpasim_net
# (scripts/guest/bench-cold.sh says what). The output, with the host's
# load average before and after (the guest's two busy vCPUs alone make
# about 2; more inflates the figures), is also kept in
# build/bench/cold.txt.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"

mkdir -p "$VB_BUILD/bench"
{
	echo "commit $(vb_commit)," \
		"host load average before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
	"$VB_ROOT/testbed/vm.sh" --name bench-cold -- \
		scripts/guest/bench-cold.sh "$@"
	echo "host load average after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
} | tee "$VB_BUILD/bench/cold.txt"
