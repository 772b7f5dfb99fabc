#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/guest/bench-cvq-goals.jq judges bench-cvq's goals, and must
# never pass one on missing data: a configuration without a record, or a
# record without its figure, is an error; a missed goal says FAIL.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

goals() {
	jq -s -r --argjson count 30 --argjson big 1000 --argjson rounds 1000 \
		-f scripts/guest/bench-cvq-goals.jq
}

# record DEVICE MODE KICK COUNT MEDIAN: one result as bench-cvq.sh keeps it.
record() {
	jq -nc --arg d "$1" --arg m "$2" --arg k "$3" --argjson n "$4" \
		--argjson med "$5" '{device: $d, mode: $m, kick: $k, count: $n,
		median_us_per_command: $med, us_per_command: ($med + 1)}'
}

# A full set: batch 5x stock parallel, serial faster, big loads fast.
full() {
	for k in each once; do
		record stock0 serial $k 30 10
		record stock0 parallel $k 30 8
		record batch0 serial $k 30 6
		record batch0 parallel $k 30 "${1:-1.5}"
	done
	record stock0 parallel once 1000 5
	record batch0 parallel once 1000 0.5
}

tap_plan 6
out=$(full | goals)
tap_is "$?" 0 "a full set of results is judged"
tap_is "$(echo "$out" | grep -c '^goal [123]: .*: PASS$')" 3 "and every goal met says PASS"
tap_is "$(full 3 | goals | grep -o '^goal 1: .*: [A-Z]*$' | sed 's/.*: //')" FAIL \
	"a missed goal says FAIL"
without_big() {
	full | grep -v '"count":1000' | goals
}

without_figure() {
	full | sed 's/"median_us_per_command":1.5/"median_us_per_command":null/' |
		goals
}

tap_fails "a configuration without a record is an error, not a figure" \
	without_big
tap_fails "so is a record without its figure" without_figure
err=$(full | grep -v '"device":"batch0","mode":"serial"' | goals 2>&1 >/dev/null)
case "$err" in
*"no result for batch0 serial kick each"*) tap_result 0 "the error names what is missing" ;;
*) tap_result 1 "the error names what is missing"; tap_diag "$err" ;;
esac
tap_done
