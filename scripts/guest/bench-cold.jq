# SPDX-License-Identifier: GPL-2.0-only
#
# The table of scripts/guest/bench-cold.sh from its records (jq -s).
# Argument: $reps. A configuration without its records is an error: a
# ratio is never printed from missing data.

def median: sort | .[(length / 2 | floor)];
def pick(src; dev; n; kick; mode; f):
	[.[] | select(.source == src and .device == dev and .count == n and
		      .kick == kick and .mode == mode) | f] |
	if length == 0 or any(.[]; type != "number") then
		error("no \(src) figure for \(dev) \(n) \(kick) \(mode)")
	else median end;
def r2: . * 100 | round / 100;
def pad(w): tostring | (" " * (w - length)) + .;
def cell(s; o): "\(s | r2 | pad(8)) \(o | r2 | pad(8)) \(s / o | r2 | pad(6))";

. as $all |
[ "Cold loads (reset to data queues enabled), 256-entry CVQs, median of \($reps) runs; ms;",
  "RATIO = stock vdpasim_net / vdpasim_batch; START = load - cmds (medians, load --cold)",
  "                       compare --cold           load --cold              commands alone            START",
  "COUNT KICK MODE        STOCK     OURS  RATIO    STOCK     OURS  RATIO    STOCK     OURS  RATIO    STOCK     OURS",
  ( [$all[] | .count] | unique[] ) as $n |
  ( "each", "once" ) as $kick |
  ( "serial", "parallel" ) as $mode |
  ($all | pick("compare"; "stock0"; $n; $kick; $mode; .load_ms)) as $cs |
  ($all | pick("compare"; "batch0"; $n; $kick; $mode; .load_ms)) as $cb |
  ($all | pick("load"; "stock0"; $n; $kick; $mode; .load_ms)) as $ls |
  ($all | pick("load"; "batch0"; $n; $kick; $mode; .load_ms)) as $lb |
  ($all | pick("load"; "stock0"; $n; $kick; $mode; .cmds_ms)) as $ms |
  ($all | pick("load"; "batch0"; $n; $kick; $mode; .cmds_ms)) as $mb |
  "\($n | pad(5)) \($kick) \($mode + "    " | .[0:8]) \(cell($cs; $cb)) \(cell($ls; $lb)) \(cell($ms; $mb)) \($ls - $ms | r2 | pad(8)) \($lb - $mb | r2 | pad(8))"
] | .[]
