#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The CVQ cost-model sweep (Documentation/cost-model.rst): boot the VM once
# with QEMU 10 in it, run scripts/guest/bench-cost.sh -- batch against
# immediate completion at op costs of 0, 5, 20 and 100 us (cmd 1 us),
# through QEMU's 4098-command load at "cont" and the tool's 30-command
# loads -- and turn its raw rows into a table of medians with the realized
# costs, and a plot. "make run" calls it. What batching buys at each cost
# (ratios paired load by load, with their spread) is in make run's verdict
# (scripts/lib/verdict.spec), from the samples this prints: not here.
#
#   build/bench/cost.txt       the table, as printed
#   build/bench/cost.raw       one row per load (see the guest script)
#   build/bench/cost.log       the VM's whole output
#   build/bench/cost.{png,svg} load time against op cost
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"

usage() {
	cat >&2 <<EOT
Usage: $VB_PROG [--rounds N] [--tool-rounds M] [--report-only]

Boot the VM once and sweep the CVQ cost model: N QEMU loads per device
and cost (default 5), M tool rounds per compare (default 60).
--report-only: no VM, the table and plot again from the last raw rows.
Benchmarks must run alone: anything else busy on the host shows.
EOT
	exit "${1:-2}"
}

rounds=5
tool_rounds=60
report_only=
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) rounds=${2:?}; shift ;;
	--tool-rounds) tool_rounds=${2:?}; shift ;;
	--report-only) report_only=1 ;;
	-h | --help) usage 0 ;;
	*) usage ;;
	esac
	shift
done
for n in "$rounds" "$tool_rounds"; do
	case "$n" in
	'' | *[!0-9]* | 0) die "--rounds, --tool-rounds: a positive number, not '$n'" ;;
	esac
done
command -v gnuplot >/dev/null ||
	die "gnuplot not found: install gnuplot-nox (scripts/setup.sh)"

dir=$VB_BUILD/bench
mkdir -p "$dir"
if [ -z "$report_only" ]; then
	say "cost-model sweep: one boot, QEMU $rounds loads and tool $tool_rounds rounds per cost (log: $dir/cost.log)"
	# Progress (the guest's stderr) on the terminal, rows into the log.
	"$VB_ROOT/testbed/vm.sh" --qemu --timeout 1800 --name bench-cost -- \
		scripts/guest/bench-cost.sh "$rounds" "$tool_rounds" |
		tee "$dir/cost.log" | grep --line-buffered '^bench-cost: ' ||
		{ tail -n 20 "$dir/cost.log" >&2; die "the sweep failed (log: $dir/cost.log)"; }
	sed -n 's/^raw //p' "$dir/cost.log" | tr -d '\r' >"$dir/cost.raw"
	# QEMU's load times, for bench-report (scripts/run.sh).
	tr -d '\r' <"$dir/cost.log" | grep '^sample ' || true
fi
[ -s "$dir/cost.raw" ] || die "no rows in $dir/cost.raw (log: $dir/cost.log)"
rm -f "$dir/cost.tsv"

# The statistics, by bench-report --summarize: per client, cost level and
# mode (KEY client|level|mode|what) the load time, the device's busy time,
# the cost it realized and the rest (idle) per load.
summary=$dir/cost.summary
make -s -C "$VB_ROOT" bench-report
awk '{
	k = $1 "|" $2 "|" $3
	print k "|ms", $4
	print k "|busy", $10
	print k "|cost", $11
	print k "|idle", $4 - $10 - $11
}' "$dir/cost.raw" | "$VB_BUILD/bench-report/bench-report" --summarize >"$summary"

# The table, from the summary: per client and cost, each mode's median
# [min-max] load time and realized operation cost. The realized cost per
# operation is the guest's (its last row).
awk -v rounds="$rounds" -v tool_rounds="$tool_rounds" -v tsv="$dir/cost.tsv" '
FNR == NR {
	# KEY N MIN Q1 MEDIAN Q3 P99 MAX MEAN
	split($1, f, "|")
	k = f[1] SUBSEP f[2] SUBSEP f[3]
	med[k, f[4]] = $5; lo[k, f[4]] = $3; hi[k, f[4]] = $8; n[k, f[4]] = $2
	next
}
function spread(k) {
	return n[k, "ms"] > 1 ? sprintf("[%.1f-%.1f]", lo[k, "ms"], hi[k, "ms"]) : ""
}
function realized(k,    cost, parts) {
	cost = real[k] == "-" ? "-" : sprintf("%s (p99 %s; asked %s) x%.1f/op",
		real[k], p99[k], req[k], per_op[k])
	parts = sprintf("busy %.2f", med[k, "busy"])
	# A QEMU load is one load: its time splits into the device\047s.
	if (k ~ /^qemu/)
		parts = sprintf("busy %.2f cost %.2f idle %.2f", med[k, "busy"],
			med[k, "cost"], med[k, "idle"])
	return cost ", " parts
}
{
	k = $1 SUBSEP $2 SUBSEP $3
	per_op[k] = $5 > 0 ? $6 / $5 : 0
	req[k] = $7; real[k] = $8; p99[k] = $9
	if (!($1 in seen_client)) { seen_client[$1] = 1; clients[++nc] = $1 }
	if (!($2 in seen_level)) { seen_level[$2] = 1; levels[++nl] = $2 }
}
END {
	print "CVQ cost model sweep, one boot; the cost is a model, spent asleep."
	print "Load time in ms, median [min-max]; realized: the device\047s cost per"
	print "operation in us, median (p99; mean asked for), commands per operation,"
	print "and its own time on the CVQ per load without the cost (busy, ms,"
	print "median; for QEMU also the cost realized and the rest, idle, per load)."
	print "qemu: QEMU 10, 4098 commands at cont, " rounds " loads each, alternating;"
	print "tool-KICK-MODE: vdpactl-batch compare, 30 commands, median of " tool_rounds
	print "loads, alternating; its realized cost and xN/op (commands per"
	print "operation) cover the compare\047s serial and parallel loads. What"
	print "batching buys, QEMU\047s loads paired round by round: make run\047s verdict."
	for (c = 1; c <= nc; c++) {
		printf "\n%-24s %6s  %-22s %-22s  %-64s %s\n", clients[c],
			"op_us", "batch_ms", "immediate_ms",
			"batch realized", "immediate realized"
		for (l = 1; l <= nl; l++) {
			b = clients[c] SUBSEP levels[l] SUBSEP "batch"
			i = clients[c] SUBSEP levels[l] SUBSEP "immediate"
			if (!((b, "ms") in med) || !((i, "ms") in med))
				continue
			mb = med[b, "ms"]; mi = med[i, "ms"]
			printf "%-24s %6s  %-22s %-22s  %-64s %s\n", "",
				levels[l], sprintf("%.2f %s", mb, spread(b)),
				sprintf("%.2f %s", mi, spread(i)),
				realized(b), realized(i)
			printf("%s\t%s\t%s\t%s\n", clients[c], levels[l], mb, mi) > tsv
		}
	}
}' "$summary" "$dir/cost.raw" | tee "$dir/cost.txt"

# The plot: load time against op cost, log scale, a colour per client,
# batch solid and immediate dashed.
plot_data=$dir/cost.plot
awk -F '\t' '$2 !~ /p$/ { print $1 "\t" $2 "\t" $3 "\t" $4 }' "$dir/cost.tsv" >"$plot_data"
for out in png:pngcairo svg:svg; do
	gnuplot <<EOT
set terminal ${out#*:} size 900,600 font "DejaVu Sans,11"
set output "$dir/cost.${out%%:*}"
set title "CVQ load time against the modelled op cost (cmd 1 us; a model)"
set xlabel "op cost asked for, us"
set ylabel "load time, ms (median)"
set logscale y
set key outside right
set grid
clients = "qemu tool-once-parallel tool-each-parallel tool-each-serial"
plot for [i=1:words(clients)] \
	"< grep '^".word(clients, i)."\t' $plot_data" using 2:3 \
	with linespoints lw 2 lc i title word(clients, i)." batch", \
	for [i=1:words(clients)] \
	"< grep '^".word(clients, i)."\t' $plot_data" using 2:4 \
	with linespoints lw 2 dt 2 lc i title word(clients, i)." immediate"
EOT
done
say "cost-model sweep: $dir/cost.txt, cost.png, cost.svg, cost.raw"
