# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Filing the measurements a guest prints as "sample STAGE ..." lines
# (tools/bench-report/samples.h): scripts/run.sh and scripts/bench.sh.

# extract_samples LOG DIR: the "sample STAGE ..." lines of LOG into
# DIR/STAGE.samples, one file per stage, each started afresh.
extract_samples() {
	local stage rest
	declare -A seen=()
	while read -r _ stage rest; do
		case "$stage" in
		'' | *[!a-z0-9-]*) continue ;;
		esac
		if [ -z "${seen[$stage]:-}" ]; then
			seen[$stage]=1
			: >"$2/$stage.samples"
		fi
		printf '%s\n' "$rest" >>"$2/$stage.samples"
	done < <(tr -d '\r' <"$1" | grep '^sample ')
}
