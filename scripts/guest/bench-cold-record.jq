# SPDX-License-Identifier: GPL-2.0-only
#
# One record per measured row of a "compare -j --cold" or "load -j --cold"
# output, for scripts/guest/bench-cold.sh. Arguments: $source ("compare"
# or "load"), $kick, $count, $dev (the device of a load).
# Times in ms: load_ms the median load, cmds_ms the median of the loads'
# command parts (load only).

if $source == "compare" then
	.compare.results[] |
	{ source: $source, device, mode, kick: $kick, count: $count,
	  load_ms: (.median_us_per_command * $count / 1000) }
else
	.load[$dev] |
	{ source: $source, device: $dev, mode, kick: $kick, count: $count,
	  load_ms: (.per_load_us.median / 1000),
	  cmds_ms: (.per_load_cmds_us.median / 1000) }
end
