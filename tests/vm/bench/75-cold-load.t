#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Cold, migration-shaped loads (--cold) on stock vdpa_sim_net and on
# vdpa_sim_batch, 256-entry rings, 30 and 256 commands: every load is a
# whole start of the device, which kprobes on each parent's ops show from
# the device's side: reset, ACKNOWLEDGE, DRIVER, FEATURES_OK, DRIVER_OK,
# the CVQ enabled, the commands (vdpa_sim_batch's vsb_cvq_cmd event), then
# the data queues enabled; the device acks every command OK.
. tests/lib/tap.sh
. testbed/lib/testbed.sh
. testbed/lib/cold-probes.sh

R=3
OUT=/tmp/cold.json

tap_plan 48
tb_standard_devices
cold_probes_add
tap_is "$?" 0 "kprobes on both parents' reset, set_status and set_vq_ready"

for dev in stock0 batch0; do
	case $dev in
	stock0) prefix=vdpasim ;;
	batch0) prefix=vsb ;;
	esac
	for n in 30 256; do
		for mode in serial parallel; do
			what="$dev: $R cold $mode loads of $n"
			cold_trace_clear
			vdpactl-batch -j load --cold --dev $dev --count $n \
				--rounds $R --mode $mode --ring-size 256 >$OUT
			tap_is "$?" 0 "$what"
			tap_is "$(jq -c ".load.$dev | [.total_commands, .cold_starts]" $OUT)" \
				"[$((n * R)),$R]" "$what: every command sent, $R cold starts"
			tap_is "$(jq -c ".load.$dev.vstats.delta |
				[.\"cvq requests\", .\"cvq successes\"]" $OUT)" \
				"[$((n * R)),$((n * R))]" "$what: the device acked all OK"
			c=$(cold_starts "$prefix" $n)
			tap_is "$c" $R "$what: $R starts to DRIVER_OK, the commands between CVQ and data queue enables"
			[ "$c" = $R ] || tap_diag "$(cold_tokens "$prefix")"
			tap_is "$(cold_phases "$prefix" | cut -d ' ' -f 1)" $R \
				"$what: the phases of $R starts timed"
		done
	done
done

# compare: an untimed warm-up load and R timed ones per device and mode.
for n in 30 256; do
	cold_trace_clear
	vdpactl-batch -j compare --cold --count $n --rounds $R --ring-size 256 \
		--dev stock0 --dev batch0 >$OUT
	tap_is "$?" 0 "compare --cold --count $n"
	tap_is "$(jq -c '[.compare.results[] | .total_commands]' $OUT)" \
		"[$((n * R)),$((n * R)),$((n * R)),$((n * R))]" \
		"compare --cold --count $n: every timed command sent"
	tap_is "$(cold_starts vdpasim $n),$(cold_starts vsb $n)" \
		"$((2 * R + 2)),$((2 * R + 2))" \
		"compare --cold --count $n: a cold start per load on each device"
done

vdpactl-batch load --cold --skip-unchanged --dev batch0 --count 30 \
	--rounds 1 2>/dev/null
tap_is "$?" 2 "--cold refuses --skip-unchanged, whose model assumes warm loads"

cold_probes_remove
tap_done
