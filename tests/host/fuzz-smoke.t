#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The libFuzzer targets of tests/fuzz build, replay their seeds and fuzz
# for a few seconds each (FUZZ_SMOKE_TIME, 8) without a finding: a crash,
# a sanitizer report, a violated invariant or a hang fails. All of it,
# build included, takes well under a minute on 2 cores.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

read -r -a targets <<<"$(make -s -C tests/fuzz targets)"
seconds=${FUZZ_SMOKE_TIME:-8}

tap_plan $((1 + ${#targets[@]}))
tap_ok "fuzz targets build (clang, libFuzzer, ASan, UBSan)" \
	make --no-print-directory fuzz-build
for t in "${targets[@]}"; do
	out=$(FUZZ_OUT=build/fuzz tests/fuzz/run.sh --smoke "$t" "$seconds" 2>&1)
	tap_result $? "$t: ${seconds} s from the seeds without a finding"
	tap_diag "$out"
done
tap_done
