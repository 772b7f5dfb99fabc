#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The main job, run inside the test-bed VM by "make run": the original
# experiment of QEMU's "send CVQ state load commands in parallel" work --
# 30 MAC_ADDR_SET commands per load, 1000 loads -- on stock vdpa_sim_net
# and on vdpa_sim_batch (batch completion), serial and parallel, devices
# alternating round by round. First as QEMU's shadow virtqueue kicks (once
# per command), then kicking once per batch.
set -e
. tests/vm/lib/testbed.sh

tb_standard_devices
for kick in each once; do
	echo
	vdpactl-batch compare --count 30 --rounds 1000 --kick "$kick" \
		--dev stock0 --dev batch0
done
