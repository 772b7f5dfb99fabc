#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Inside the test-bed VM, under QEMU's insn_count plugin (see
# scripts/bench-insns.sh): one vdpactl-batch compare of stock vdpa_sim_net
# and five vdpa_sim_batch devices that differ in one device-side choice
# each, devices alternating round by round, equal 256-entry rings, the
# same negotiated features, MAC_ADDR_SET payloads that change every round:
#
#   batch0   batch completion, kick polling on (the defaults)
#   batch1   immediate completion, kick polling on: batch0 vs batch1 is
#            what batching alone buys
#   batch2   batch completion, kick_poll_us=0: what polling costs and
#            buys, and counts that do not depend on the clock
#   batch3   batch completion, polling, suppress_kicks=N: what asking
#            the driver not to kick buys
#   batch4   batch completion, polling, kick_hint=N: what the first
#            kick's own request for no more kicks buys
#   batch5   batch completion, polling, lead_notify=Y (an option): what
#            notifying a run's first command at once costs or buys
#
# The client runs on vCPU 0 and every device's worker on vCPU 1, so that
# the plugin's per-vCPU counts tell the device's side from the client's.
#
# Prints "slot N DEVICE MODE" for each run (the plugin's slots are the
# runs' indices), then compare's JSON on one line prefixed "compare ",
# then the kernel's text symbols (address, name, module), gzipped and in
# base64 between "kallsyms-begin" and "kallsyms-end" lines: the plugin's
# profile holds addresses of this boot, randomised (KASLR) and with the
# modules wherever they were loaded.
#
# Usage: bench-insns.sh COUNT ROUNDS KICK WAIT
set -e
. testbed/lib/testbed.sh

COUNT=${1:?}
ROUNDS=${2:?}
KICK=${3:?}
WAIT=${4:?}
PARAMS=/sys/module/vdpa_sim_batch/parameters

tb_load_stock
tb_load_batch
tb_dev_add stock0 vdpasim_net vhost_vdpa
tb_dev_add batch0 vdpasim_batch vhost_vdpa
tb_dev_add batch1 vdpasim_batch vhost_vdpa
vdpactl-batch dev batching batch1 completion immediate
poll=$(cat $PARAMS/kick_poll_us)
echo 0 >$PARAMS/kick_poll_us
tb_dev_add batch2 vdpasim_batch vhost_vdpa
echo "$poll" >$PARAMS/kick_poll_us
echo N >$PARAMS/suppress_kicks
tb_dev_add batch3 vdpasim_batch vhost_vdpa
echo Y >$PARAMS/suppress_kicks
echo N >$PARAMS/kick_hint
tb_dev_add batch4 vdpasim_batch vhost_vdpa
echo Y >$PARAMS/kick_hint
echo Y >$PARAMS/lead_notify
tb_dev_add batch5 vdpasim_batch vhost_vdpa
echo N >$PARAMS/lead_notify

# The client on vCPU 0, every device's worker on vCPU 1: what vCPU 1
# runs in a window is the device's side (scripts/bench-insns.sh).
tb_pin_devices 1 1
taskset -c 0 vdpactl-batch -j compare --count "$COUNT" --rounds "$ROUNDS" --kick "$KICK" \
	--wait "$WAIT" --ring-size 256 --dev stock0 --dev batch0 --dev batch1 --dev batch2 \
	--dev batch3 --dev batch4 --dev batch5 >/tmp/insns.json
jq -r '.compare.results | to_entries[] |
	"slot \(.key) \(.value.device) \(.value.mode)"' /tmp/insns.json
printf 'compare %s\n' "$(jq -c . /tmp/insns.json)"
echo kallsyms-begin
grep ' [tT] ' /proc/kallsyms | cut -d' ' -f1,3,4 | gzip -c | base64
echo kallsyms-end
