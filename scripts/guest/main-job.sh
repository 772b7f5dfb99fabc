#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The main job, run inside the test-bed VM by "make run": the original
# experiment of QEMU's "send CVQ state load commands in parallel" work --
# 30 MAC_ADDR_SET commands per load, 1000 loads -- on stock vdpa_sim_net
# and on vdpa_sim_batch, serial and parallel, devices alternating round by
# round, equal 256-entry rings. vdpa_sim_batch runs as four devices that
# differ from its defaults (batch0) in one choice each, so that what each
# is worth shows apart (scripts/guest/attribution.jq):
#
#   imm0     immediate completion: batch0 against imm0 is batching alone
#   nopoll0  kick_poll_us=0: no waiting for more work before sleeping
#   nosup0   suppress_kicks=N: the driver kicks for every command
#
# First as QEMU's shadow virtqueue kicks (once per command), then kicking
# once per batch, then once per batch and sleeping for the ack.
set -e
. tests/vm/lib/testbed.sh

PARAMS=/sys/module/vdpa_sim_batch/parameters

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

for run in each/poll once/poll once/call; do
	echo
	vdpactl-batch -j compare --count 30 --rounds 1000 --ring-size 256 \
		--kick "${run%/*}" --wait "${run#*/}" --baseline stock0 \
		--dev stock0 --dev imm0 --dev batch0 --dev nopoll0 --dev nosup0 \
		>/tmp/compare.json
	jq -r -f scripts/guest/attribution.jq /tmp/compare.json
done
