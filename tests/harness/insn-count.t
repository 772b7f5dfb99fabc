#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/insn-count: the TCG plugin counts one window per timed load, from
# vdpactl-batch's markers, in the marker's slot (compare's run index), with
# both user and kernel instructions in it, and nothing without markers.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

plugin=build/plugin/insn_count.so
raw=build/vm/selftest/insn-count.raw
mkdir -p build/vm/selftest
rm -f "$raw"

tap_plan 6
tap_ok "the plugin builds" make -s insn-count
tap_ok "a compare of 4 commands x 5 loads runs under it" \
	scripts/vm.sh --devices --plugin "$plugin,out=$raw" \
	--log-dir build/vm/selftest --name insn-count -- \
	vdpactl-batch compare --count 4 --rounds 5 --dev batch0
tap_is "$(cut -d' ' -f1 "$raw" | sort | uniq -c | awk '{ print $2 ":" $1 }' | paste -sd' ')" \
	"slot=0:5 slot=1:5" "one window per load, in the slot of its run (serial 0, parallel 1)"
tap_is "$(awk '{ split($2, u, "="); split($3, k, "=");
	if (u[2] > 0 && k[2] > 0) n++ } END { print n + 0 }' "$raw")" 10 \
	"every window counted user and kernel instructions"
rm -f "$raw"
tap_ok "a command without markers opens no window" \
	scripts/vm.sh --devices --plugin "$plugin,out=$raw" \
	--log-dir build/vm/selftest --name insn-count -- \
	vdpactl-batch load --dev batch0 --count 4 --rounds 2
tap_is "$(wc -l <"$raw")" 0 "and the plugin's file stays empty"
tap_done
