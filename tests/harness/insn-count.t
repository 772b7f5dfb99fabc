#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/insn-count: the TCG plugin counts one window per timed load, from
# vdpactl-batch's markers, in the marker's slot (compare's run index), with
# both user and kernel instructions in it, and nothing without markers.
# With profile=, the same instructions are given per translation block,
# by slot, when QEMU exits.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

plugin=build/plugin/insn_count.so
raw=build/vm/selftest/insn-count.raw
profile=build/vm/selftest/insn-count.profile
mkdir -p build/vm/selftest
rm -f "$raw" "$profile"

# sums FILE: "slot:instructions" per slot, the windows' or the profile's.
sums() {
	awk '{ split($1, s, "=")
		for (i = 2; i <= NF; i++) {
			split($i, f, "=")
			if (f[1] == "user" || f[1] == "kernel" || f[1] == "insns")
				n[s[2]] += f[2]
		}
	} END { for (k in n) print k ":" n[k] }' "$1" | sort
}

tap_plan 14
tap_ok "the plugin builds" make -s insn-count
tap_ok "a compare of 4 commands x 5 loads runs under it" \
	testbed/vm.sh --devices --plugin "$plugin,out=$raw,profile=$profile" \
	--log-dir build/vm/selftest --name insn-count -- \
	vdpactl-batch compare --count 4 --rounds 5 --dev batch0
tap_is "$(cut -d' ' -f1 "$raw" | sort | uniq -c | awk '{ print $2 ":" $1 }' | paste -sd' ')" \
	"slot=0:5 slot=1:5" "one window per load, in the slot of its run (serial 0, parallel 1)"
tap_is "$(awk '{ split($2, u, "="); split($3, k, "=");
	if (u[2] > 0 && k[2] > 0) n++ } END { print n + 0 }' "$raw")" 10 \
	"every window counted user and kernel instructions"
# The guest has 2 vCPUs: each window gives both parts, which add up.
tap_is "$(awk '{ delete f
	for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (f["vcpu0.user"] + f["vcpu1.user"] == f["user"] &&
	    f["vcpu0.kernel"] + f["vcpu1.kernel"] == f["kernel"] &&
	    !("vcpu2.user" in f))
		n++ } END { print n + 0 }' "$raw")" 10 \
	"every window gives each vCPU's part, and the parts add up to its sums"
tap_is "$(awk '{ print $4 }' "$profile" | sort -u | paste -sd' ')" \
	"vcpu=0 vcpu=1" "the profile tells the vCPUs apart"
tap_ok "the profile has blocks of both runs, user and kernel" \
	test "$(awk '{ split($1, s, "="); split($2, p, "=")
		k = s[2] (p[2] ~ /^0xffff/ ? "k" : "u"); if (!(k in seen)) n++
		seen[k] = 1 } END { print n + 0 }' "$profile")" = 4
# Only where a block straddles a marker do the two counts differ: by at
# most one block per marker, two markers per load, 5 loads per slot. The
# tool's blocks around its markers are short (6 runs: at most 153
# instructions over a slot's 10 markers, 0.11 % of its count); 32 per
# marker, or 0.1 %, whichever is more.
tap_is "$(join -t: <(sums "$raw") <(sums "$profile") |
	awk -F: '{ d = $2 - $3; if (d < 0) d = -d
		bound = $2 / 1000; if (bound < 2 * 5 * 32) bound = 2 * 5 * 32
		if (d > bound) bad++ } END { print NR ":" bad + 0 }')" \
	"2:0" "per slot, the profile sums to the windows' count, but for the blocks straddling a marker"
rm -f "$raw" "$profile"
tap_ok "a command without markers opens no window" \
	testbed/vm.sh --devices --plugin "$plugin,out=$raw,profile=$profile" \
	--log-dir build/vm/selftest --name insn-count -- \
	vdpactl-batch load --dev batch0 --count 4 --rounds 2
tap_is "$(wc -l <"$raw")" 0 "and the plugin's file stays empty"
tap_is "$(wc -l <"$profile")" 0 "and so does its profile"
# testbed/programs/simmark: a window around what several commands do.
rm -f "$raw" "$profile"
tap_ok "simmark opens and closes a window around a load" \
	testbed/vm.sh --devices --plugin "$plugin,out=$raw" \
	--log-dir build/vm/selftest --name insn-count -- \
	sh -c 'simmark start 3 && vdpactl-batch load --dev batch0 --count 4 --rounds 2 && simmark stop 3'
tap_is "$(awk '{ split($2, u, "="); split($3, k, "=")
	print $1, (u[2] > 0 && k[2] > 0) }' "$raw")" "slot=3 1" \
	"one window, in its slot, with user and kernel instructions"
tap_ok "simmark refuses a slot past 15" sh -c '! build/testtools/simmark start 16 2>/dev/null'
tap_done
