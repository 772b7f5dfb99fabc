#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Guest instructions per CVQ command, the benchmark's noise-free metric:
# boot the test-bed VM under QEMU's insn_count plugin (tools/insn-count)
# and run scripts/guest/bench-insns.sh, which compares stock vdpa_sim_net
# with vdpa_sim_batch in batch mode, in immediate mode and with kick
# polling off. Every vCPU's instructions count, user and kernel, from the
# start of each timed load to its end: the client, its system calls, the
# device's worker (polling included), interrupts, idle. Prints a table per
# kick pattern and wait mode and writes them to build/bench/insns.txt; the
# raw counts stay in build/bench/insns-KICK-WAIT.raw.
#
# The same boots say where the instructions went: the plugin's profile,
# named after the guest's kallsyms (scripts/lib/insn-profile.awk), gives
# instructions per command by module and the functions that ran most, per
# run, in build/bench/profile.txt (build/bench/profile-KICK-WAIT.raw and
# .kallsyms hold the inputs).
#
# The guest pins the client to vCPU 0 and every device's worker to vCPU 1,
# and the plugin counts each vCPU apart: the table gives the client's
# instructions (user, kernel) and the device's (all of vCPU 1) per
# command, and build/bench/profile-device.txt where the device's went.
#
# Spinning counts: a client that waits by polling the used ring ("wait
# poll", QEMU's pattern) executes user instructions for as long as the
# device takes, and a polling device kernel instructions for as long as it
# waits for a kick, so those rows follow the clock. With "wait call" the
# client sleeps until the device notifies it, and batch2 does not poll:
# that row is the deterministic one.
#
# Wall times printed beside the counts come from the same boot, slowed by
# the plugin: read them as ratios only.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"

usage() {
	cat >&2 <<EOT
Usage: $VB_PROG [--count N] [--rounds R]

Count guest instructions per command of COUNT-command MAC_ADDR_SET loads,
R loads per device and mode (defaults 30 and 200), kicking once per
command and once per load.
EOT
	exit "${1:-2}"
}

count=30
rounds=200
while [ $# -gt 0 ]; do
	case "$1" in
	--count) count=${2:?}; shift ;;
	--rounds) rounds=${2:?}; shift ;;
	-h | --help) usage 0 ;;
	*) usage ;;
	esac
	shift
done
for n in "$count" "$rounds"; do
	case "$n" in
	'' | *[!0-9]* | 0) die "--count and --rounds take positive numbers, not '$n'" ;;
	esac
done

# profile_report KICK WAIT GUEST_OUTPUT PROFILE [VCPU]: the profile of one
# boot by module and function, per command; of one vCPU's instructions if
# VCPU is given.
profile_report() {
	local ksyms=${4%.raw}.kallsyms title="kick $1, wait $2"
	local vcpu=${5:-}

	[ -z "$vcpu" ] || title="$title, vCPU $vcpu (the device's)"

	sed -n '/^kallsyms-begin/,/^kallsyms-end/{/^kallsyms-/d;p}' "$3" |
		tr -d '\r' | base64 -d | gunzip >"$ksyms" ||
		die "no kernel symbols in $3"
	[ -s "$ksyms" ] || die "no kernel symbols in $3"
	[ -s "$4" ] || die "no profile in $4"
	{
		awk '{ print $1, 0, $2, $3 }' "$ksyms"
		awk -v vcpu="$vcpu" '
			vcpu == "" || $4 == "vcpu=" vcpu {
			split($1, s, "="); split($2, p, "="); split($3, n, "=")
			print substr(p[2], 3), 1, s[2], n[2] }' "$4"
	} | LC_ALL=C sort -k1,1 -k2,2n |
		awk -v cmds=$((count * rounds)) -v top=15 -v title="$title" \
			-f "$VB_ROOT/scripts/lib/insn-profile.awk" "$3" -
}

plugin=$VB_BUILD/plugin/insn_count.so
[ -s "$plugin" ] || die "no $plugin: run 'make insn-count'"
mkdir -p "$VB_BUILD/bench"
out=$VB_BUILD/bench/insns.txt
profile_out=$VB_BUILD/bench/profile.txt
device_out=$VB_BUILD/bench/profile-device.txt
: >"$out.tmp"
: >"$profile_out.tmp"
: >"$device_out.tmp"
for run in each/poll once/poll each/call once/call; do
	kick=${run%/*}
	wait=${run#*/}
	raw=$VB_BUILD/bench/insns-$kick-$wait.raw
	guest=$VB_BUILD/bench/insns-$kick-$wait.guest
	profile=$VB_BUILD/bench/profile-$kick-$wait.raw
	runs=$VB_BUILD/bench/insns-$kick-$wait.runs
	: >"$raw"
	"$VB_ROOT/testbed/vm.sh" --plugin "$plugin,out=$raw,profile=$profile" \
		--name "bench-insns-$kick-$wait" -- \
		scripts/guest/bench-insns.sh "$count" "$rounds" "$kick" "$wait" \
		>"$guest"
	# A boot that died early and was retried left no windows: only the
	# run's own are in the file. Each run's windows must all be there.
	awk -f "$VB_ROOT/scripts/lib/insn-windows.awk" "$guest" "$raw" >"$runs" ||
		die "$(cat "$runs")"
	awk -v count="$count" -v rounds="$rounds" -v kick="$kick" -v wait="$wait" \
		-v stage="insns-$kick-$wait" -v dstage="device-$kick-$wait" '
	# run SLOT DEVICE MODE WINDOWS USER KERNEL CUSER CKERNEL DEVICE EVEN ODD MED
	{
		i = n++
		dev[i] = $3; mode[i] = $4; windows[i] = $5; user[i] = $6
		kernel[i] = $7; cuser[i] = $8; ckernel[i] = $9; device[i] = $10
		even[i] = $11; odd[i] = $12; med[i] = $13
	}
	END {
		cmds = count * rounds
		printf "kick %s, wait %s: %d MAC_ADDR_SET x %d loads, 256-entry rings; guest instructions per command\n", kick, wait, count, rounds
		printf "%-8s %-9s %11s %13s %8s %8s %13s\n", "DEVICE", "MODE", "CLIENT_USER", "CLIENT_KERNEL", "DEVICE", "TOTAL", "MEDIAN_US/CMD"
		for (i = 0; i < n; i++) {
			if (windows[i] != rounds) {
				printf "bench-insns: %s %s: %d windows counted, %d loads run\n", dev[i], mode[i], windows[i], rounds
				bad = 1
				continue
			}
			t = (user[i] + kernel[i]) / cmds
			samples = samples sprintf("sample %s %s/%s 0 %.0f\n", stage, dev[i], mode[i], t)
			# The even loads and the odd ones, as two runs: "rounds"
			# 0 and 1, whose spread bench-report gives.
			dsamples = dsamples sprintf("sample %s %s/%s 0 %.0f\n", dstage, dev[i], mode[i], even[i] / count)
			if (odd[i] != "-")
				dsamples = dsamples sprintf("sample %s %s/%s 1 %.0f\n", dstage, dev[i], mode[i], odd[i] / count)
			printf "%-8s %-9s %11.0f %13.0f %8.0f %8.0f %13s\n", dev[i], mode[i], cuser[i] / cmds, ckernel[i] / cmds, device[i] / cmds, t, med[i]
		}
		if (bad)
			exit bad
		# The counts, for bench-report (scripts/run.sh).
		printf "sample %s @unit insns/cmd 1\nsample %s @count\n", stage, stage
		printf "sample %s @cond %d MAC_ADDR_SET x %d loads, 256-entry rings, all vCPUs\n", stage, count, rounds
		printf "%s", samples
		printf "sample %s @unit insns/cmd 1\nsample %s @count\n", dstage, dstage
		printf "sample %s @cond %d MAC_ADDR_SET x %d loads, 256-entry rings, the device\047s vCPU\n", dstage, count, rounds
		printf "%s", dsamples
		print "CLIENT: vCPU 0, where vdpactl-batch runs (its system calls, the kick included). DEVICE: all vCPU 1 ran, where every device\047s worker runs: the worker, its wake-ups, timer ticks, idle entry. The device\047s samples give the even loads and the odd ones as two runs (0 and 1): the verdict shows their range."
		print "Ratios of these counts: make run\047s verdict (scripts/lib/verdict.spec), from the samples above. batch0: batch, polling; batch1: immediate, polling; batch2: batch, kick_poll_us=0; batch3: batch, polling, suppress_kicks=N; batch4: batch, polling, kick_hint=N; batch5: batch, polling, lead_notify=Y."
		print "Polling counts follow the clock: a polling client (wait poll) spins on vCPU 0, a polling device on vCPU 1, for as long as the other takes. Times are from the same boot, slowed by the plugin."
	}' "$runs" | tee -a "$out.tmp"
	echo | tee -a "$out.tmp"
	profile_report "$kick" "$wait" "$guest" "$profile" >>"$profile_out.tmp"
	profile_report "$kick" "$wait" "$guest" "$profile" 1 >>"$device_out.tmp"
done
mv "$out.tmp" "$out"
mv "$profile_out.tmp" "$profile_out"
mv "$device_out.tmp" "$device_out"
say "where the instructions went: $profile_out; the device's side: $device_out"
