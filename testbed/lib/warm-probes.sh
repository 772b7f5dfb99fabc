# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Guest-side helpers for splitting warm loads into phases from the
# devices' side: kprobe events on what every load goes through, on stock
# vdpa_sim and vdpa_sim_batch alike, between the lines vdpactl-batch
# --trace-marks writes around each load.
#
#   kick    the parent's kick_vq (vdpasim_kick_vq, vsb_kick_vq)
#   run     the worker starts (vdpasim_work_fn, vsb_work)
#   used    vhost_vdpa passes a used buffer notification on: the parent
#           has published used entries (both call it after the used idx)

. testbed/lib/trace-awk.sh

WP_T=/sys/kernel/tracing

warm_probes_add() {
	{
		echo "p:warm/vdpasim_kick vdpasim_kick_vq"
		echo "p:warm/vsb_kick vsb_kick_vq"
		echo "p:warm/vdpasim_run vdpasim_work_fn"
		echo "p:warm/vsb_run vsb_work"
		echo "p:warm/used vhost_vdpa_virtqueue_cb"
	} >>$WP_T/kprobe_events &&
		echo 16384 >$WP_T/buffer_size_kb &&
		echo 1 >$WP_T/events/warm/enable
}

warm_probes_remove() {
	echo 0 >$WP_T/events/warm/enable
	echo >$WP_T/kprobe_events
}

warm_trace_clear() {
	echo >$WP_T/trace
}

# warm_phases: one line per device and mode with loads in the trace:
#   DEVICE MODE LOADS WOKEN SUBMIT WAKE SERVE NOTICE TOTAL
# WOKEN is how many loads found the worker asleep: they kicked before any
# worker run. The rest are medians in us over those loads (bench-report
# --summarize): from the start mark to the first kick (the driver's first
# command), to the worker's run, to the last used notification, to the
# stop mark. Loads that found the worker awake count only in LOADS.
warm_phases() {
	_wp=/tmp/warm-phases.$$
	awk -v counts="$_wp.counts" "$TRACE_AWK_LIB"'
	function field(name,   s) {
		s = $0; sub(".* " name "=", "", s); sub(/ .*/, "", s); return s
	}
	/ vdpactl-batch: load start / {
		key = field("dev") " " field("mode"); open = 1
		t0 = ts(); kick = 0; run = 0; used = 0
		if (!(key in loads)) order[++nkeys] = key
		loads[key]++
		next
	}
	!open { next }
	/ (vdpasim|vsb)_kick: / { if (!kick && !run) kick = ts(); next }
	/ (vdpasim|vsb)_run: / { if (!run) run = ts(); next }
	/ used: / { used = ts(); next }
	/ vdpactl-batch: load stop / {
		open = 0
		if (!kick || !run || run < kick || !used || used < run) next
		woken[key]++
		k = key; sub(/ /, "/", k)
		printf "%s/submit %.9f\n%s/wake %.9f\n", k, (kick - t0) * 1e6, k, (run - kick) * 1e6
		printf "%s/serve %.9f\n%s/notice %.9f\n", k, (used - run) * 1e6, k, (ts() - used) * 1e6
		printf "%s/total %.9f\n", k, (ts() - t0) * 1e6
	}
	END {
		for (k = 1; k <= nkeys; k++)
			print order[k], loads[order[k]], woken[order[k]] + 0 >counts
	}' $WP_T/trace | bench-report --summarize >"$_wp.sum"
	while read -r _dev _mode _loads _woken; do
		_line="$_dev $_mode $_loads $_woken"
		for _phase in submit wake serve notice total; do
			_med=$(awk -v k="$_dev/$_mode/$_phase" '$1 == k { printf "%.1f", $5 }' "$_wp.sum")
			_line="$_line ${_med:--}"
		done
		echo "$_line"
	done <"$_wp.counts"
	rm -f "$_wp.counts" "$_wp.sum"
}
