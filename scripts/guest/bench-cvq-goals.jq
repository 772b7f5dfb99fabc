# SPDX-License-Identifier: GPL-2.0-only
#
# The goals of scripts/guest/bench-cvq.sh, judged from one record per
# configuration (jq -s: an array of them), whose figures are already the
# medians over the runs (bench-report --summarize). Arguments: $count
# (commands per load of the main loads), $big (commands per load of the
# big ones), $rounds. A configuration with no record is an error, not a
# figure: a goal must never pass on missing data.

def pick(f; dev; mode; kick; n):
	[.[] | select(.device == dev and .mode == mode and .kick == kick and
		      ((.count // $count) == n)) | f] |
	if length == 0 then
		error("no result for \(dev) \(mode) kick \(kick), \(n) per load")
	elif length > 1 then
		error("\(length) records for \(dev) \(mode) kick \(kick), \(n) per load")
	elif .[0] | type != "number" then
		error("a result of \(dev) \(mode) kick \(kick) lacks the figure")
	else .[0] end;
def med(dev; mode; kick; n): pick(.median_us_per_command; dev; mode; kick; n);
def mean(dev; mode; kick; n): pick(.us_per_command; dev; mode; kick; n);
def r3: . * 1000 | round / 1000;
def row(name; m; a):
	"\(name | . + (" " * (46 - length)))\(m | r3) us/cmd  (mean \(a | r3))";
def verdict(ok): if ok then "PASS" else "FAIL" end;

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
[ "CVQ loads of \($count) MAC_ADDR_SET x \($rounds) (per command, median of loads)",
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
] | .[]
