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
# Usage: bench-cvq.sh [REPS]   (prints a table; exit 1 if a goal is missed
# or cannot be judged)
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
results=/tmp/bench-cvq.tsv
: >"$results"
i=0
while [ "$i" -lt "$REPS" ]; do
	for kick in each once; do
		vdpactl-batch -j compare --count $COUNT --rounds $ROUNDS \
			--kick $kick --dev stock0 --dev batch0 >"$raw"
		jq -r --arg kick $kick --argjson count $COUNT '.compare.results[] |
			"\(.device)|\(.mode)|\($kick)|\($count)",
			.median_us_per_command, .us_per_command' \
			"$raw" | paste - - - >>"$results"
	done
	for dev in stock0 batch0; do
		ring=$(vdpa -j dev show $dev | jq -r ".dev.$dev.max_vq_size")
		vdpactl-batch -j load --dev $dev --count $BIG --rounds $BIG_ROUNDS \
			--mode parallel --kick once --ring-size "$ring" >"$raw"
		jq -r --arg dev $dev '.load[$dev] |
			"\($dev)|parallel|once|\(.count)",
			.per_command_us.median, (.total_us / .total_commands)' \
			"$raw" | paste - - - >>"$results"
	done
	i=$((i + 1))
done

# One record per configuration: the medians over the runs of each run's
# median and mean per command (bench-report --summarize).
awk -F '\t' '{ print $1 "|med", $2; print $1 "|mean", $3 }' "$results" |
	bench-report --summarize >/tmp/bench-cvq.summary
awk '{ split($1, k, "|"); if (k[5] == "med") med[k[1] "|" k[2] "|" k[3] "|" k[4]] = $5
	else mean[k[1] "|" k[2] "|" k[3] "|" k[4]] = $5 }
	END { for (c in med) { split(c, k, "|")
		printf "{\"device\":\"%s\",\"mode\":\"%s\",\"kick\":\"%s\",\"count\":%s,\"median_us_per_command\":%s,\"us_per_command\":%s}\n",
			k[1], k[2], k[3], k[4], med[c], mean[c] } }' \
	/tmp/bench-cvq.summary >/tmp/bench-cvq.records

# The goals' arithmetic is in bench-cvq-goals.jq: it stops with an error
# when a figure is missing, and this script fails unless every goal line
# is there and says PASS.
if ! jq -s -r --argjson count $COUNT --argjson big $BIG \
	--argjson rounds $ROUNDS -f scripts/guest/bench-cvq-goals.jq \
	/tmp/bench-cvq.records >/tmp/bench-cvq.txt; then
	echo "bench-cvq: the goals could not be judged (a figure is missing)" >&2
	exit 1
fi
cat /tmp/bench-cvq.txt
passed=$(grep -c '^goal [123]: .*: PASS$' /tmp/bench-cvq.txt || true)
if [ "$passed" != 3 ]; then
	echo "bench-cvq: $passed of 3 goals passed" >&2
	exit 1
fi
