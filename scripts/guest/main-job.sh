#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The main job, run inside the test-bed VM by "make run": the original
# experiment of QEMU's "send CVQ state load commands in parallel" work --
# 30 MAC_ADDR_SET commands per load, 1000 loads -- on stock vdpa_sim_net
# and on vdpa_sim_batch, serial and parallel, devices alternating round by
# round, equal 256-entry rings. vdpa_sim_batch runs as six devices that
# differ from its defaults (batch0) in one choice each, so that what each
# is worth shows apart (the ratios: scripts/lib/verdict.spec):
#
#   imm0     immediate completion: batch0 against imm0 is batching alone
#   nopoll0  kick_poll_us=0: no waiting for more work before sleeping
#   nosup0   suppress_kicks=N: the driver kicks for every command
#   nohint0  kick_hint=N: only the worker, once awake, asks for no kicks
#   lead0    lead_notify=Y, an option: a run's first command is notified
#            at once, for drivers that sleep until notified
#
# First as QEMU's shadow virtqueue kicks (once per command), then kicking
# once per batch, then once per batch and sleeping for the ack. Then worker
# placement, for stock0 and batch0 alike: the client pinned to CPU 0 and
# every device's worker to CPU 0 too ("same") or to CPU 1 ("other"),
# against the scheduler's choice above. Last, where a load's time goes:
# its phases, seen with kprobes (testbed/lib/warm-probes.sh). The
# comparisons' samples are printed as "sample cvq-KICK-WAIT ..." lines
# (scripts/run.sh); everything else is for the log.
set -e
. testbed/lib/testbed.sh
. testbed/lib/warm-probes.sh

PARAMS=/sys/module/vdpa_sim_batch/parameters
WQ_MASK=/sys/devices/virtual/workqueue/vdpa_sim_batch/cpumask

# stock_workers: the pids of stock vdpa_sim's kthread workers.
stock_workers() {
	grep -l '^vDPA sim worker' /proc/[0-9]*/comm | cut -d/ -f3
}

# pin_workers MASK: every device's worker on the CPUs of hex MASK.
pin_workers() {
	echo "$1" >$WQ_MASK
	for pid in $(stock_workers); do
		taskset -p "$1" "$pid" >/dev/null
	done
}

# placement KICK WAIT: stock0 and batch0 with the client on CPU 0 and the
# workers on CPU 0, then on CPU 1.
placement() {
	all=$(cat $WQ_MASK)
	for where in same:1 other:2; do
		pin_workers "${where#*:}"
		echo "worker placement ${where%:*} (client on CPU 0, workers on mask ${where#*:}), kick $1, wait $2:"
		taskset 1 vdpactl-batch compare --count 30 --rounds 200 \
			--ring-size 256 --kick "$1" --wait "$2" \
			--baseline stock0 --dev stock0 --dev batch0 >/tmp/placement
		grep -v ': commands \|^profile \|^baseline ' /tmp/placement
	done
	pin_workers "$all"
}

tb_standard_devices
echo immediate >$PARAMS/completion
tb_dev_add imm0 vdpasim_batch vhost_vdpa
echo batch >$PARAMS/completion
poll=$(cat $PARAMS/kick_poll_us)
echo 0 >$PARAMS/kick_poll_us
tb_dev_add nopoll0 vdpasim_batch vhost_vdpa
echo "$poll" >$PARAMS/kick_poll_us
echo N >$PARAMS/suppress_kicks
tb_dev_add nosup0 vdpasim_batch vhost_vdpa
echo Y >$PARAMS/suppress_kicks
echo N >$PARAMS/kick_hint
tb_dev_add nohint0 vdpasim_batch vhost_vdpa
echo Y >$PARAMS/kick_hint
echo Y >$PARAMS/lead_notify
tb_dev_add lead0 vdpasim_batch vhost_vdpa
echo N >$PARAMS/lead_notify

# samples STAGE KICK WAIT FILE: compare's per-load samples as the lines
# scripts/run.sh files for bench-report, which does the statistics.
samples() {
	echo "sample $1 @unit us/cmd 0.001"
	echo "sample $1 @cond 30 MAC_ADDR_SET per load, 1000 rounds, 256-entry rings, kick $2, wait $3, devices alternating"
	grep -v '^#' "$4" | sed "s/^/sample $1 /"
}

for run in each/poll once/poll once/call; do
	kick=${run%/*}
	wait=${run#*/}
	echo
	echo "compare, kick $kick, wait $wait:"
	vdpactl-batch -j compare --count 30 --rounds 1000 --ring-size 256 \
		--kick "$kick" --wait "$wait" --baseline stock0 \
		--dev stock0 --dev imm0 --dev batch0 --dev nopoll0 --dev nosup0 \
		--dev nohint0 --dev lead0 --samples /tmp/samples \
		>/tmp/compare.json
	cat /tmp/compare.json
	# Like with like: stock redoes every command, so ours must too.
	if ! jq -e '.compare.redundant_commands == 0' /tmp/compare.json >/dev/null; then
		echo "main job: vdpa_sim_batch skipped redundant commands: not like with like" >&2
		exit 1
	fi
	samples "cvq-$kick-$wait" "$kick" "$wait" /tmp/samples
done
echo
placement each poll
placement once call

# phases KICK WAIT: stock0, imm0, batch0 and lead0 alternating, each load split
# at its first kick, the worker's first run and its last used
# notification (median us per load, the probes' cost included).
phases() {
	echo
	echo "phases of a load, kick $1, wait $2 (30 x 200, kprobes; median us per load: start to the first kick, to the worker's run, to the last used notification, to the stop; WOKEN: loads that found the worker asleep):"
	warm_trace_clear
	vdpactl-batch compare --trace-marks --count 30 --rounds 200 \
		--ring-size 256 --kick "$1" --wait "$2" --baseline stock0 \
		--dev stock0 --dev imm0 --dev batch0 --dev lead0 >/dev/null
	printf '%-8s %-9s %6s %6s %7s %7s %7s %7s %7s\n' DEVICE MODE LOADS \
		WOKEN SUBMIT WAKE SERVE NOTICE TOTAL
	warm_phases | awk '{ printf "%-8s %-9s %6s %6s %7s %7s %7s %7s %7s\n",
		$1, $2, $3, $4, $5, $6, $7, $8, $9 }'
}
warm_probes_add
phases each poll
phases once call
warm_probes_remove
