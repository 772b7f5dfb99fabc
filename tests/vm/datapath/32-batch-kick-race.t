#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Kicks racing the end of the worker's kick polling are never lost. With a
# polling window of a few microseconds, serial one-command loads make the
# window close right as the next kick arrives, tens of thousands of times;
# a lost kick leaves a command uncompleted and vdpactl-batch times out.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

ROUNDS=20000
PARAMS=/sys/module/vdpa_sim_batch/parameters

tap_plan 6
tb_load_batch
for us in 1 3 10; do
	echo "$us" >$PARAMS/kick_poll_us
	tb_dev_add "k$us" vdpasim_batch vhost_vdpa
done
echo 50 >$PARAMS/kick_poll_us
for us in 1 3 10; do
	for mode in serial parallel; do
		tap_ok "kick_poll_us $us, $ROUNDS $mode loads, no lost kick" \
			vdpactl-batch load --dev "k$us" --count 1 --rounds $ROUNDS \
			--mode "$mode" --timeout 2000
	done
done
tap_done
