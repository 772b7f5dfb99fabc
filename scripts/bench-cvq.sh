#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-cvq.sh [REPS]: boot the test-bed VM once and measure vdpasim_batch
# against stock vdpasim_net side by side (scripts/guest/bench-cvq.sh says
# what and which goals). The output is also kept in build/bench/.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"

mkdir -p "$VB_BUILD/bench"
"$VB_ROOT/scripts/vm.sh" --name bench-cvq -- scripts/guest/bench-cvq.sh "$@" |
	tee "$VB_BUILD/bench/cvq.txt"
