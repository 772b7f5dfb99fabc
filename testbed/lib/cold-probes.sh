# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Guest-side helpers for watching cold starts (vdpactl-batch --cold) from
# the devices' side: kprobe events on the parent ops a start goes through,
# for stock vdpa_sim (prefix vdpasim) and vdpa_sim_batch (prefix vsb).

. testbed/lib/trace-awk.sh

CP_T=/sys/kernel/tracing

# cold_probes_add: the events, in group "cold", enabled with
# vdpa_sim_batch's vsb_cvq_cmd; x86-64 passes the 2nd and 3rd arguments
# in si and dx.
cold_probes_add() {
	for _cp in vdpasim vsb; do
		echo "p:cold/${_cp}_reset ${_cp}_compat_reset"
		echo "p:cold/${_cp}_status ${_cp}_set_status status=%si:u8"
		echo "p:cold/${_cp}_ready ${_cp}_set_vq_ready idx=%si:u16 ready=%dx:u8"
	done >>$CP_T/kprobe_events || return 1
	echo 8192 >$CP_T/buffer_size_kb &&
		echo 1 >$CP_T/events/cold/enable &&
		echo 1 >$CP_T/events/vdpa_sim_batch/vsb_cvq_cmd/enable
}

cold_probes_remove() {
	echo 0 >$CP_T/events/cold/enable
	echo 0 >$CP_T/events/vdpa_sim_batch/vsb_cvq_cmd/enable
	echo >$CP_T/kprobe_events
}

cold_trace_clear() {
	echo >$CP_T/trace
}

# cold_tokens PREFIX: the trace of PREFIX's ops as tokens, runs of
# commands as one: Z reset, S<status>, R<queue> enabled, C<n> n commands.
cold_tokens() {
	awk -v p="$1" '
	function flush() { if (cmds) { printf "C%d ", cmds; cmds = 0 } }
	$0 ~ " " p "_reset:" { flush(); printf "Z " }
	$0 ~ " " p "_status:" { flush(); sub(/.*status=/, ""); printf "S%s ", $1 }
	$0 ~ " " p "_ready:" && / ready=1/ {
		flush(); sub(/.*idx=/, ""); printf "R%s ", $1 }
	p == "vsb" && / vsb_cvq_cmd:/ { cmds++ }
	END { flush(); print "" }' $CP_T/trace
}

# cold_starts PREFIX N: the cold starts in the trace with N commands
# between the CVQ's and the data queues' enable (stock has no command
# event, so its commands are not counted).
cold_starts() {
	if [ "$1" = vsb ]; then
		_cp="C$2 "
	else
		_cp=
	fi
	cold_tokens "$1" | grep -o "Z S1 S3 S11 S15 R2 ${_cp}R0 R1 " | wc -l
}

# cold_phases PREFIX: "LOADS" and the median ms (bench-report --summarize)
# of each phase of the cold starts in
# the trace (from one event to the next, so each phase includes the
# ioctls around it): reset, ACKNOWLEDGE to FEATURES_OK, to DRIVER_OK
# (vrings, maps), the CVQ's enable, the commands, the first data queue's
# enable to the last.
cold_phases() {
	awk -v p="$1" "$TRACE_AWK_LIB"'
	$0 ~ " " p "_reset:" { z = ts() }
	$0 ~ " " p "_status:" && / status=1$/ { t0 = z; t1 = ts(); st = 1 }
	$0 ~ " " p "_status:" && / status=11$/ && st == 1 { t11 = ts() }
	$0 ~ " " p "_status:" && / status=15$/ && st == 1 { t15 = ts(); st = 2 }
	$0 ~ " " p "_ready:" && / idx=2 ready=1/ && st == 2 { t2 = ts(); st = 3 }
	$0 ~ " " p "_ready:" && / idx=0 ready=1/ && st == 3 { r0 = ts(); st = 4 }
	$0 ~ " " p "_ready:" && / ready=1/ && st == 4 { last = ts() }
	function record() {
		n++
		printf "reset %.9f\nfeatures_ok %.9f\ndriver_ok %.9f\n", (t1 - t0) * 1000, (t11 - t1) * 1000, (t15 - t11) * 1000
		printf "cvq_enable %.9f\ncommands %.9f\ndata_enable %.9f\n", (t2 - t15) * 1000, (r0 - t2) * 1000, (last - r0) * 1000
	}
	$0 ~ " " p "_reset:" && st == 4 && last { record(); st = 0; last = 0 }
	END {
		if (st == 4 && last) record()
		if (!n) exit 1
	}' $CP_T/trace >/tmp/cold-phases.$$ || { rm -f /tmp/cold-phases.$$; return 1; }
	# The medians, in the order the phases come (bench-report --summarize).
	bench-report --summarize </tmp/cold-phases.$$ |
		awk '{ n = $2; line = line sprintf(" %.3f", $5) } END { print n line }'
	rm -f /tmp/cold-phases.$$
}
