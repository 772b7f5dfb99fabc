#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Cold, migration-shaped loads (--cold) on stock vdpa_sim_net and on
# vdpa_sim_batch, 256-entry rings, 30 and 256 commands: every load is a
# whole start of the device, which kprobes on each parent's ops show from
# the device's side: reset, ACKNOWLEDGE, DRIVER, FEATURES_OK, DRIVER_OK,
# the CVQ enabled, the commands (vdpa_sim_batch's vsb_cvq_cmd event), then
# the data queues enabled; the device acks every command OK.
. tests/lib/tap.sh
. tests/vm/lib/testbed.sh

R=3
T=/sys/kernel/tracing
OUT=/tmp/cold.json

tap_plan 39
tb_standard_devices

# One kprobe event per parent op the start goes through: reset, status
# writes and queue enables (x86-64: the 2nd and 3rd arguments in si, dx).
probes() {
	prefix=$1
	reset=$2
	echo "p:cold/${prefix}_reset $reset"
	echo "p:cold/${prefix}_status ${prefix}_set_status status=%si:u8"
	echo "p:cold/${prefix}_ready ${prefix}_set_vq_ready idx=%si:u16 ready=%dx:u8"
}
{
	probes vdpasim vdpasim_compat_reset
	probes vsb vsb_compat_reset
} >>$T/kprobe_events
tap_is "$?" 0 "kprobes on both parents' reset, set_status and set_vq_ready"
echo 8192 >$T/buffer_size_kb
echo 1 >$T/events/cold/enable
echo 1 >$T/events/vdpa_sim_batch/vsb_cvq_cmd/enable

# starts PREFIX: the trace of PREFIX's ops as tokens, runs of commands as
# one token: Z reset, S<status>, R<queue> enabled, C<n> n commands.
starts() {
	awk -v p="$1" '
	function flush() { if (cmds) { printf "C%d ", cmds; cmds = 0 } }
	$0 ~ " " p "_reset:" { flush(); printf "Z " }
	$0 ~ " " p "_status:" { flush(); sub(/.*status=/, ""); printf "S%s ", $1 }
	$0 ~ " " p "_ready:" && / ready=1/ {
		flush(); sub(/.*idx=/, ""); printf "R%s ", $1 }
	p == "vsb" && / vsb_cvq_cmd:/ { cmds++ }
	END { flush(); print "" }' $T/trace
}

# count_starts PREFIX N: cold starts in the trace with N commands between
# the CVQ's and the data queues' enable (stock has no command event).
count_starts() {
	if [ "$1" = vsb ]; then
		cmds="C$2 "
	else
		cmds=
	fi
	starts "$1" | grep -o "Z S1 S3 S11 S15 R2 ${cmds}R0 R1 " | wc -l
}

for dev in stock0 batch0; do
	case $dev in
	stock0) prefix=vdpasim ;;
	batch0) prefix=vsb ;;
	esac
	for n in 30 256; do
		for mode in serial parallel; do
			what="$dev: $R cold $mode loads of $n"
			echo >$T/trace
			vdpactl-batch -j load --cold --dev $dev --count $n \
				--rounds $R --mode $mode --ring-size 256 >$OUT
			tap_is "$?" 0 "$what"
			tap_is "$(jq -c ".load.$dev | [.total_commands, .cold_starts]" $OUT)" \
				"[$((n * R)),$R]" "$what: every command sent, $R cold starts"
			tap_is "$(jq -c ".load.$dev.vstats.delta |
				[.\"cvq requests\", .\"cvq successes\"]" $OUT)" \
				"[$((n * R)),$((n * R))]" "$what: the device acked all OK"
			c=$(count_starts "$prefix" $n)
			tap_is "$c" $R "$what: $R starts to DRIVER_OK, the commands between CVQ and data queue enables"
			[ "$c" = $R ] || tap_diag "$(starts "$prefix")"
		done
	done
done

# compare: an untimed warm-up load and R timed ones per device and mode.
for n in 30 256; do
	echo >$T/trace
	vdpactl-batch -j compare --cold --count $n --rounds $R --ring-size 256 \
		--dev stock0 --dev batch0 >$OUT
	tap_is "$?" 0 "compare --cold --count $n"
	tap_is "$(jq -c '[.compare.results[] | .total_commands]' $OUT)" \
		"[$((n * R)),$((n * R)),$((n * R)),$((n * R))]" \
		"compare --cold --count $n: every timed command sent"
	tap_is "$(count_starts vdpasim $n),$(count_starts vsb $n)" \
		"$((2 * R + 2)),$((2 * R + 2))" \
		"compare --cold --count $n: a cold start per load on each device"
done

echo 0 >$T/events/cold/enable
echo 0 >$T/events/vdpa_sim_batch/vsb_cvq_cmd/enable
echo >$T/kprobe_events
tap_done
