# SPDX-License-Identifier: GPL-2.0-only
#
# The statistics and reports of scripts/bench.sh, from the lines of a sweep
# log (scripts/guest/bench.sh's output plus the host's {"host": ...} line),
# read with jq -s. --arg what selects the output:
#
#   json     {run, host, errors, measurements, summary}
#   csv      one row per measurement (device turn)
#   markdown the summary table
#   plot     tab-separated series for gnuplot (see def plot)
#
# A measurement is one device's turn: ROUNDS loads of COUNT commands, of
# which the tool reports the median load time. A configuration's figure is
# the median over its repetitions of those medians; the interquartile
# range over the repetitions is its spread (min and max are kept too).
# Speed-ups divide the stock device's figure by the device's, both
# measured side by side in the same boot.

def r3: . * 1000 | round / 1000;

# The P quantile of numbers, interpolating between the two nearest (as
# numpy's default): P = 0.5 is the median, the mean of the middle two for
# an even count; 0.25 and 0.75 bound the interquartile range.
def quantile($p):
	sort | length as $n |
	if $n == 0 then null
	else (($n - 1) * $p) as $pos | ($pos | floor) as $lo |
		.[$lo] + (.[[$lo + 1, $n - 1] | min] - .[$lo]) * ($pos - $lo)
	end;
def median: quantile(0.5);

def per_load($n): if . == null then null else . / $n | r3 end;

def sort_rank($list): . as $v | ($list | index([$v]) // 99);
def profile_rank: sort_rank(["mac", "qemu", "vlan", "mixed"]);
def mode_rank: sort_rank(["serial", "parallel"]);
def kick_rank: sort_rank(["each", "once"]);
def wait_rank: sort_rank(["poll", "call"]);

def config_key: [.profile, .count, .mode, .kick, .wait];
def config_order:
	[(.profile | profile_rank), .count, (.wait | wait_rank),
	 (.kick | kick_rank), (.mode | mode_rank)];

def run: (map(.run // empty) | first) // {};
def host: (map(.host // empty) | first) // {};
def errors: map(.error // empty);
def devices: (run | .devices) // (map(.device // empty) | unique);
def baseline: devices | first;

def device_short:
	{stock0: "stock", imm0: "immediate", batch0: "batch"}[.] // .;

# The per-load rates of one record.
def with_rates:
	. as $r | $r + {
		us_per_command: ($r.load_us.median / $r.count | r3),
		kicks_per_load: ($r.kicks | per_load($r.rounds)),
		batches_per_load: ($r.batches | per_load($r.rounds)),
		wakeups_per_load: ($r.wakeups | per_load($r.rounds)),
		device_notifications_per_load:
			($r.device_notifications | per_load($r.rounds)),
		device_batches_per_load:
			($r.device_batches | per_load($r.rounds))
	};
def measured: map(select(.seq != null) | with_rates) | sort_by(.seq);

# One device's figures in one configuration.
def device_stats:
	map(.us_per_command) as $us |
	{
		reps: length,
		us_per_command: ($us | median | r3),
		q1: ($us | quantile(0.25) | r3),
		q3: ($us | quantile(0.75) | r3),
		min: ($us | min),
		max: ($us | max),
		device_notifications_per_load:
			(map(.device_notifications_per_load // empty) |
			 median | if . == null then null else r3 end),
		wakeups_per_load: (map(.wakeups_per_load) | median | r3),
		kicks_per_load: (map(.kicks_per_load) | median | r3),
		note: (map(.note) | unique | join("; "))
	};

def summary:
	baseline as $base | devices as $devs |
	measured | group_by(config_key) | map(
		(first | {profile, count, mode, kick, wait, rounds}) +
		{devices: (group_by(.device) |
			   map({key: first.device, value: device_stats}) |
			   from_entries)}
	) | map(
		.devices[$base].us_per_command as $stock |
		. + {speedup: (.devices | with_entries(
			select(.key != $base) |
			.value |= (if $stock and .us_per_command > 0
				   then $stock / .us_per_command | r3
				   else null end)))}
	) | sort_by(config_order) | {baseline: $base, devices: $devs,
				     configurations: .};

def csv_columns:
	["seq", "rep", "device", "mgmtdev", "profile", "count", "rounds",
	 "mode", "kick", "wait", "ring_size", "load_us_min", "load_us_median",
	 "load_us_p99", "load_us_max", "load_us_mean", "us_per_command",
	 "kicks_per_load", "batches_per_load", "wakeups_per_load",
	 "device_notifications_per_load", "device_batches_per_load", "note"];

def csv:
	csv_columns, (measured[] | [
		.seq, .rep, .device, .mgmtdev, .profile, .count, .rounds,
		.mode, .kick, .wait, .ring_size, .load_us.min,
		.load_us.median, .load_us.p99, .load_us.max, .load_us.mean,
		.us_per_command, .kicks_per_load, .batches_per_load,
		.wakeups_per_load, .device_notifications_per_load,
		.device_batches_per_load, .note]) | @csv;

# Fixed-point text, with fewer decimals for bigger numbers.
def fixed($d):
	pow(10; $d) as $s | (. * $s | round) as $n |
	($n / $s | floor | tostring) +
	(if $d == 0 then ""
	 else "." + ("\($n % $s)" | ("0" * ($d - length)) + .) end);
def num:
	if . == null then "-"
	elif . >= 100 then fixed(0)
	elif . >= 10 then fixed(1)
	elif . >= 1 then fixed(2)
	else fixed(3) end;

def spread_cell: "\(.us_per_command | num) (\(.q1 | num)–\(.q3 | num))";

def workload: "\(.profile) x\(.count)";

def markdown:
	summary as $s | $s.baseline as $base |
	($s.devices | map(select(. != $base))) as $others |
	run as $run | host as $host |
	"# CVQ benchmark sweep",
	"",
	"Guest kernel \($run.kernel // "?"), \($run.guest_cpus // "?") vCPUs (TCG); " +
	"\($run.reps // "?") repetitions per configuration, devices " +
	"alternating; \($host.started // "?"), \($host.wall_s // "?") s wall " +
	"time, host load average \($host.loadavg_before // "?") before, " +
	"\($host.loadavg_after // "?") after, at most " +
	"\($host.loadavg_max // "?") during, commit \($host.commit // "?")" +
	(if $run.quick then " (--quick)" else "" end) + ".",
	"",
	($host.loadavg_before // "0" | split(" ") | first | tonumber) as $load |
	(if $load > 2 then
		"WARNING: the host's load average was \($load) before the " +
		"sweep: other work competed for the CPUs the guest's vCPUs " +
		"run on, which stalls loads for whole scheduler ticks; these " +
		"figures are not comparable with a run on a quiet host.", ""
	 else empty end),
	(if ($host.loadavg_max // 0) > 3 then
		"WARNING: the host's load average reached " +
		"\($host.loadavg_max) during the sweep (the guest alone makes " +
		"about 2): other work competed with the guest for a while; " +
		"repetitions that ran then are slow (see each repetition's " +
		"figures in measurements.csv) and the medians lean on the " +
		"others.", ""
	 else empty end),
	(if ($run.reps_done // $run.reps) < $run.reps then
		"INCOMPLETE: the time budget of \($run.budget_s) s ran out " +
		"after \($run.reps_done) of \($run.reps) repetitions; the " +
		"configurations of the unfinished one have one figure more " +
		"than the rest.", ""
	 else empty end),
	"µs/cmd: median over repetitions of each turn's median load time " +
	"divided by the commands per load; in brackets the interquartile " +
	"range over repetitions (min and max are in measurements.json). " +
	"speed-up: stock's figure over the device's (same mode, same " +
	"boot). notif/load: the device's \"cvq " +
	"notifications\" counter per load (stock offers none).",
	"",
	([["workload", "mode", "kick", "wait",
	   ($s.devices[] | "\(device_short) µs/cmd"),
	   ($others[] | "\(device_short) speed-up"),
	   ($others[] | "\(device_short) notif/load")] |
	  ., map("---")] | .[] | "| " + join(" | ") + " |"),
	($s.configurations[] | . as $c |
	 [workload, .mode, .kick, .wait,
	  ($s.devices[] | $c.devices[.] | if . then spread_cell else "-" end),
	  ($others[] | $c.speedup[.] | if . then fixed(2) else "-" end),
	  ($others[] | $c.devices[.].device_notifications_per_load | num)] |
	 "| " + join(" | ") + " |"),
	"",
	(measured | map(select(.note != "")) | map("\(.device): " +
	 "\(.profile) x\(.count): \(.note)") | unique |
	 if length > 0 then ("Notes from the tool:", "", map("- " + .)[])
	 else empty end),
	(errors | if length > 0 then
		("", "FAILED turns:", "", map("- \(.turn): \(.message)")[])
	 else empty end);

# Series for gnuplot, one row per point:
#   PANEL SERIES COUNT US_MEDIAN US_Q1 US_Q3 NOTIFICATIONS WAKEUPS
# PANEL is KICK-WAIT, SERIES is MODE-DEVICE; only the mac profile has
# several sizes, so only it is plotted.
def plot:
	summary | .devices as $devs | .configurations[] |
	select(.profile == "mac") | . as $c | $devs[] | . as $dev |
	$c.devices[$dev] // empty |
	["\($c.kick)-\($c.wait)", "\($c.mode)-\($dev)", $c.count,
	 .us_per_command, .q1, .q3,
	 (.device_notifications_per_load // "NaN"),
	 .wakeups_per_load] | @tsv;

if $what == "json" then
	{run: run, host: host, errors: errors, measurements: measured,
	 summary: summary}
elif $what == "csv" then csv
elif $what == "markdown" then markdown
elif $what == "plot" then plot
else error("unknown report: \($what)")
end
