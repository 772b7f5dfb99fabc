# SPDX-License-Identifier: GPL-2.0-only
#
# One "vdpactl-batch -j load" report, in a file named SEQ-REP.json, to the
# compact record scripts/bench.sh reads: the turn's place in the sweep, its
# configuration, the statistics of its per-load times and the notification
# counts. device_notifications comes from the device's own counter ("cvq
# notifications" in vdpa vstats); null when the device offers none, as
# stock vdpa_sim_net does.
(input_filename | split("/") | last | rtrimstr(".json") | split("-")
 | map(tonumber)) as [$seq, $rep]
| .load | to_entries[0] | .key as $device | .value
| {
	seq: $seq,
	rep: $rep,
	device: $device,
	mgmtdev,
	profile,
	count,
	rounds,
	mode,
	kick,
	wait,
	ring_size,
	commands,
	total_commands,
	load_us: .per_load_us,
	kicks,
	batches,
	wakeups: .sleeps,
	device_notifications: .vstats.delta["cvq notifications"],
	device_batches: .vstats.delta["cvq batches"],
	note: (.note // "")
}
