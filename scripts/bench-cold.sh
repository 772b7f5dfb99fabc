#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-cold.sh [REPS]: boot the test-bed VM once and measure cold,
# migration-shaped CVQ loads on vdpasim_batch against stock vdpasim_net
# (scripts/guest/bench-cold.sh says what). The output is also kept in
# build/bench/cold.txt.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"

mkdir -p "$VB_BUILD/bench"
"$VB_ROOT/scripts/vm.sh" --name bench-cold -- scripts/guest/bench-cold.sh "$@" |
	tee "$VB_BUILD/bench/cold.txt"
