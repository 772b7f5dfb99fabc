# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# awk functions the trace-reading helpers share (cold-probes.sh,
# warm-probes.sh), to be put in front of their programs: ts(), the
# timestamp of a trace line in seconds. Their statistics are
# bench-report --summarize's.

# Used by the files that source this one (SC2034), and awk, not the
# shell, expands what it holds (SC2016).
# shellcheck disable=SC2034,SC2016
TRACE_AWK_LIB='
function ts(   i) { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) return $i + 0 }
'
