#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Inside the test-bed VM: measure vdpasim_batch against stock vdpasim_net
# side by side in this one boot and check the module's performance goals.
# vdpactl-batch compare alternates the devices round by round, so drift in
# the machine hits both alike. Goals are judged on the median time per
# load (as compare's speed-up is): under TCG about one load in a hundred
# stalls for a scheduler tick or two, which swamps means. Means are shown
# beside them. Each figure is the median over REPS runs.
#
#   1. batch completion, parallel load: at most 1/4 of the time stock
#      takes in its best parallel mode (30 MAC commands x 1000 loads);
#   2. serial: no slower than stock serial;
#   3. 1000 commands per load, parallel: under 1 us per command.
#
# Usage: bench-cvq.sh [REPS]   (prints a table; exit 1 if a goal is missed)
set -e
. tests/vm/lib/testbed.sh

REPS=${1:-3}
COUNT=30
ROUNDS=1000
BIG=1000
BIG_ROUNDS=100

tb_load_stock
tb_load_batch
tb_dev_add stock0 vdpasim_net vhost_vdpa
tb_dev_add batch0 vdpasim_batch vhost_vdpa

# Nothing else may run during a measurement: even jq starting up beside
# the load (a pipe) stalled loads by milliseconds. Raw output goes to
# files and is read afterwards.
raw=/tmp/bench-cvq.raw
results=/tmp/bench-cvq.json
: >"$results"
i=0
while [ "$i" -lt "$REPS" ]; do
	for kick in each once; do
		vdpactl-batch -j compare --count $COUNT --rounds $ROUNDS \
			--kick $kick --dev stock0 --dev batch0 >"$raw"
		jq -c --arg kick $kick '.compare.results[] | . + {kick: $kick}' \
			"$raw" >>"$results"
	done
	for dev in stock0 batch0; do
		ring=$(vdpa -j dev show $dev | jq -r ".dev.$dev.max_vq_size")
		vdpactl-batch -j load --dev $dev --count $BIG --rounds $BIG_ROUNDS \
			--mode parallel --kick once --ring-size "$ring" >"$raw"
		jq -c --arg dev $dev '.load[$dev] |
			{device: $dev, mode: "parallel", kick: "once",
			 count: .count, total_us: .total_us,
			 us_per_command: (.total_us / .total_commands),
			 median_us_per_command: .per_command_us.median}' \
			"$raw" >>"$results"
	done
	i=$((i + 1))
done

# The median over repetitions of one figure for one configuration.
jq -s -r --argjson count $COUNT --argjson big $BIG '
def median: sort | .[(length / 2 | floor)];
def pick(f; dev; mode; kick; n):
	[.[] | select(.device == dev and .mode == mode and .kick == kick and
		      ((.count // $count) == n)) | f] | median;
def med(dev; mode; kick; n): pick(.median_us_per_command; dev; mode; kick; n);
def mean(dev; mode; kick; n): pick(.us_per_command; dev; mode; kick; n);
def r3: . * 1000 | round / 1000;
def row(name; m; a):
	"\(name | . + (" " * (46 - length)))\(m | r3) us/cmd  (mean \(a | r3))";
. as $all |
[$all | med("stock0"; "serial"; "each"; $count),
	mean("stock0"; "serial"; "each"; $count)] as $ss |
[[$all | med("stock0"; "parallel"; "each"; $count),
	 mean("stock0"; "parallel"; "each"; $count)],
 [$all | med("stock0"; "parallel"; "once"; $count),
	 mean("stock0"; "parallel"; "once"; $count)]] | min as $sp |
[$all | med("batch0"; "serial"; "each"; $count),
	mean("batch0"; "serial"; "each"; $count)] as $bs |
[[$all | med("batch0"; "parallel"; "each"; $count),
	 mean("batch0"; "parallel"; "each"; $count)],
 [$all | med("batch0"; "parallel"; "once"; $count),
	 mean("batch0"; "parallel"; "once"; $count)]] | min as $bp |
[$all | med("stock0"; "parallel"; "once"; $big),
	mean("stock0"; "parallel"; "once"; $big)] as $sbig |
[$all | med("batch0"; "parallel"; "once"; $big),
	mean("batch0"; "parallel"; "once"; $big)] as $bbig |
def verdict(ok): if ok then "PASS" else "FAIL" end;
[ "CVQ loads of \($count) MAC_ADDR_SET x \($ROUNDS) (per command, median of loads)",
  row("stock vdpasim_net  serial"; $ss[0]; $ss[1]),
  row("stock vdpasim_net  parallel (best kick mode)"; $sp[0]; $sp[1]),
  row("vdpasim_batch      serial"; $bs[0]; $bs[1]),
  row("vdpasim_batch      parallel (best kick mode)"; $bp[0]; $bp[1]),
  row("stock vdpasim_net  \($big) per load, parallel"; $sbig[0]; $sbig[1]),
  row("vdpasim_batch      \($big) per load, parallel"; $bbig[0]; $bbig[1]),
  "",
  "goal 1: batch parallel <= 1/4 of stock best parallel: \($sp[0] / $bp[0] * 100 | round / 100)x: \(verdict($bp[0] * 4 <= $sp[0]))",
  "goal 2: batch serial <= stock serial: \($ss[0] / $bs[0] * 100 | round / 100)x: \(verdict($bs[0] <= $ss[0]))",
  "goal 3: \($big) per load under 1 us/cmd: \($bbig[0] | r3) us: \(verdict($bbig[0] < 1))"
] | .[]' --argjson ROUNDS $ROUNDS "$results" | tee /tmp/bench-cvq.txt
! grep -q FAIL /tmp/bench-cvq.txt
