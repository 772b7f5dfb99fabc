#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The device's instructions per command as the load grows, counted by the
# insn_count plugin (tools/insn-count) with the client pinned to vCPU 0
# and every device's worker to vCPU 1 (scripts/guest/bench-scale.sh):
#
#   - per load size: loads of 1, 10, 30, 256 and 4096 MAC_ADDR_SET
#     commands, each to another address, so that none repeats another
#     (stock vdpa_sim_net has no CTRL_VLAN for VLAN_ADD loads), one boot
#     each, stock0 against batch0 (the defaults) and batch2
#     (kick_poll_us=0), serial and parallel;
#   - per number of devices: 1, 2 and 8 devices loaded at once by as many
#     processes, 30-command parallel loads, stock and batch2-like devices.
#
# All of vCPU 1 counts as the device's: the workers, their wake-ups,
# timer ticks, idle entry. A polling device (batch0) spins on it while it
# waits for a kick, so its counts follow the clock; batch2's do not.
# Prints the tables and keeps them, with the samples bench-report reads,
# in build/bench/scale.txt; the raw windows stay in
# build/bench/scale-*.raw.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"

plugin=$VB_BUILD/plugin/insn_count.so
[ -s "$plugin" ] || die "no $plugin: run 'make insn-count'"
mkdir -p "$VB_BUILD/bench"
out=$VB_BUILD/bench/scale.txt
# Loads per size: about 2000 to 16000 commands a device and mode.
SIZES="1:2000 10:300 30:200 256:24 4096:4"
DEVICE_ROUNDS=100

# boot NAME GUEST_ARGS...: one boot under the plugin; its runs, as
# scripts/lib/insn-windows.awk gives them, in build/bench/NAME.runs.
boot() {
	local name=$1 raw=$VB_BUILD/bench/$1.raw guest=$VB_BUILD/bench/$1.guest
	shift
	: >"$raw"
	"$VB_ROOT/testbed/vm.sh" --plugin "$plugin,out=$raw" --name "$name" \
		-- scripts/guest/bench-scale.sh "$@" >"$guest"
	awk -f "$VB_ROOT/scripts/lib/insn-windows.awk" "$guest" "$raw" \
		>"$VB_BUILD/bench/$name.runs" ||
		die "$name: $(cat "$VB_BUILD/bench/$name.runs")"
}

for size in $SIZES; do
	say "load size ${size%:*}: ${size#*:} loads per device and mode"
	boot "scale-${size%:*}" count "${size%:*}" "${size#*:}"
done
say "1, 2 and 8 devices at once: $DEVICE_ROUNDS loads each"
boot scale-devices devices "$DEVICE_ROUNDS"

# One table per part; the counts as samples for bench-report: stage
# "scale", named DEVICE/MODE@COMMANDS and KIND/Nx.
for size in $SIZES; do
	sed "s/^/${size%:*} ${size#*:} /" "$VB_BUILD/bench/scale-${size%:*}.runs"
done | awk -v devrounds=$DEVICE_ROUNDS -v devfile="$VB_BUILD/bench/scale-devices.runs" '
# COMMANDS LOADS run SLOT DEVICE MODE WINDOWS USER KERNEL CUSER CKERNEL DEVICE EVEN ODD MED
function check(name, windows, want) {
	if (windows == want)
		return 1
	printf "bench-scale: %s: %d windows counted, %d loads run\n", name, windows, want
	bad = 1
	return 0
}
{
	key = $5 "/" $6
	if (!(key in seen)) { seen[key] = 1; keys[nk++] = key }
	if (!($1 in sizes)) { sizes[$1] = 1; order[ns++] = $1 }
	if (!check(key "@" $1, $7, $2))
		next
	cmds = $1 * $2
	dev[key, $1] = $12 / cmds
	# The even loads and the odd ones, as two runs (0 and 1).
	samples = samples sprintf("sample scale %s@%s 0 %.0f\n", key, $1, $13 / $1)
	if ($14 != "-")
		samples = samples sprintf("sample scale %s@%s 1 %.0f\n", key, $1, $14 / $1)
}
END {
	print "Device instructions per command by load size: MAC_ADDR_SET loads, kick once, wait call, 256-entry rings; all vCPU 1 ran (every device\047s worker)"
	printf "%-8s", "COMMANDS"
	for (k = 0; k < nk; k++)
		printf " %16s", keys[k]
	printf "\n"
	for (i = 0; i < ns; i++) {
		s = order[i]
		printf "%-8s", s
		for (k = 0; k < nk; k++)
			printf " %16.0f", dev[keys[k], s]
		printf "\n"
	}
	print ""
	print "Device instructions per command with devices loaded at once: 30-command parallel loads, one process per device"
	printf "%-8s %8s %10s\n", "KIND", "DEVICES", "DEVICE"
	while ((getline line < devfile) > 0) {
		split(line, f, " ")
		n = f[4] + 0
		if (!check(f[3] "/" f[4], f[5], 1))
			continue
		cmds = 30 * devrounds * n
		printf "%-8s %8d %10.0f\n", f[3], n, f[10] / cmds
		samples = samples sprintf("sample scale %s/%s 0 %.0f\n", f[3], f[4], f[10] / cmds)
	}
	print ""
	print "The samples give each size\047s even loads and odd ones as two runs (0 and 1): the verdict shows their range. With devices at once one window spans all loads: one run."
	print "sample scale @unit insns/cmd 1"
	print "sample scale @count"
	print "sample scale @cond MAC_ADDR_SET loads, kick once, wait call, 256-entry rings, the device\047s vCPU"
	printf "%s", samples
	exit bad
}' | tee "$out.tmp"
mv "$out.tmp" "$out"
