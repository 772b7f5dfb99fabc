# SPDX-License-Identifier: GPL-2.0-only
#
# What each device-side choice is worth, from one "vdpactl-batch -j
# compare" of stock0 (stock vdpa_sim_net), imm0 (vdpa_sim_batch,
# immediate completion), batch0 (the defaults), nopoll0 (kick_poll_us=0),
# nosup0 (suppress_kicks=N), nohint0 (kick_hint=N) and lead0
# (lead_notify=Y, an option, not the default): ratios of median time per command, one
# line per choice, serial and parallel. A ratio above 1 means the choice
# makes loads faster. The table gives the driver's kicks per command too. Prints the compare table first. Errors out if a
# device or figure is missing, or if a vdpa_sim_batch device found a
# command redundant (it acks those without work, stock never does: the
# comparison would not be like with like).

def need($c; $dev; $mode):
	[$c.results[] | select(.device == $dev and .mode == $mode)
	 | .median_us_per_command] as $m
	| if ($m | length) != 1 or ($m[0] | type) != "number" or $m[0] <= 0
	  then error("attribution: no median for \($dev) \($mode)")
	  else $m[0] end;

def ratio($c; $a; $b; $mode): need($c; $a; $mode) / need($c; $b; $mode);

def pad(n): tostring | . + " " * (n - length);

def line($c; $what; $a; $b):
	($what | pad(53))
	+ (["serial", "parallel"] | map(ratio($c; $a; $b; .) * 100 | round / 100
	   | tostring) | (.[0] | pad(10)) + .[1]);

.compare as $c
| ([$c.results[] | .vstats.delta."cvq redundant" // empty] | add // 0) as $redundant
| if $redundant > 0
  then error("attribution: \($redundant) redundant commands: not like with like")
  else . end
| "profile \($c.profile) count \($c.count) rounds \($c.rounds) kick \($c.kick) wait \($c.wait) ring \($c.ring_size)",
  "DEVICE     MODE      MEDIAN_US/CMD  SPEEDUP  KICKS/CMD",
  ($c.results[] | "\(.device | pad(10)) \(.mode | pad(9)) \(.median_us_per_command * 1000 | round / 1000 | tostring | " " * (13 - length) + .)  \(.speedup * 100 | round / 100 | tostring | pad(7))  \(.kicks / .total_commands * 100 | round / 100)"),
  "redundant commands (vdpa_sim_batch's counter, all rows): \($redundant)",
  "",
  "what it is worth (ratio of median time per command)  serial    parallel",
  line($c; "our engine: stock0 / imm0"; "stock0"; "imm0"),
  line($c; "batching alone: imm0 / batch0"; "imm0"; "batch0"),
  line($c; "kick polling: nopoll0 / batch0"; "nopoll0"; "batch0"),
  line($c; "kick suppression: nosup0 / batch0"; "nosup0"; "batch0"),
  line($c; "kick hint, part of suppression: nohint0 / batch0"; "nohint0"; "batch0"),
  line($c; "all of it: stock0 / batch0"; "stock0"; "batch0"),
  line($c; "lead notification (option): batch0 / lead0"; "batch0"; "lead0")
