#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Inside the test-bed VM, under QEMU's insn_count plugin (see
# scripts/bench-scale.sh): how the device's instructions per command grow
# with the load, the client on vCPU 0 and every device's worker on vCPU 1.
# MAC_ADDR_SET commands, each of a load to another address, one kick per
# load, sleeping for the acks, 256-entry rings (stock's largest):
#
#   count COUNT ROUNDS   one compare of COUNT-command loads: stock0,
#                        batch0 (the defaults: kick polling on) and
#                        batch2 (kick_poll_us=0: counts that do not
#                        follow the clock), serial and parallel
#   devices ROUNDS       N devices loaded at once, N = 1, 2, 8, of stock
#                        and of vdpa_sim_batch with kick_poll_us=0: N
#                        "vdpactl-batch load" processes of 30-command
#                        parallel loads, in one window (testbed/programs/simmark)
#
# Prints "slot N DEVICE MODE" for each window (for "devices", MODE is
# "Nx"), and for "count" compare's JSON on one line prefixed "compare ".
#
# Usage: bench-scale.sh count COUNT ROUNDS | bench-scale.sh devices ROUNDS
set -e
. testbed/lib/testbed.sh

PARAMS=/sys/module/vdpa_sim_batch/parameters
LOAD="--kick once --wait call --profile mac --ring-size 256"

tb_load_stock
tb_load_batch

# add_batch NAME POLL_US: a vdpa_sim_batch device with kick_poll_us POLL_US.
add_batch() {
	_poll=$(cat $PARAMS/kick_poll_us)
	echo "$2" >$PARAMS/kick_poll_us
	tb_dev_add "$1" vdpasim_batch vhost_vdpa
	echo "$_poll" >$PARAMS/kick_poll_us
}

# at_once SLOT KIND N ROUNDS: N devices of KIND (stock, batch) loaded by N
# processes at once, in the window of SLOT.
at_once() {
	_i=0
	while [ $_i -lt "$3" ]; do
		if [ "$2" = stock ]; then
			tb_dev_add "s$_i" vdpasim_net vhost_vdpa
		else
			add_batch "s$_i" 0
		fi
		_i=$((_i + 1))
	done
	if [ "$2" = stock ]; then
		tb_pin_devices 1 "$3"
	else
		tb_pin_devices 1 0
	fi
	echo "slot $1 $2 $3x"
	simmark start "$1"
	_i=0
	_pids=
	while [ $_i -lt "$3" ]; do
		# shellcheck disable=SC2086 # $LOAD is a list of options
		taskset -c 0 vdpactl-batch load --dev "s$_i" --count 30 \
			--rounds "$4" --mode parallel $LOAD >/dev/null &
		_pids="$_pids $!"
		_i=$((_i + 1))
	done
	_failed=0
	# Each load's status, not only the last one's.
	for _pid in $_pids; do
		wait "$_pid" || _failed=1
	done
	simmark stop "$1"
	_i=0
	while [ $_i -lt "$3" ]; do
		tb_dev_del "s$_i"
		_i=$((_i + 1))
	done
	return $_failed
}

case "$1" in
count)
	tb_dev_add stock0 vdpasim_net vhost_vdpa
	tb_dev_add batch0 vdpasim_batch vhost_vdpa
	add_batch batch2 0
	tb_pin_devices 1 1
	# shellcheck disable=SC2086 # $LOAD is a list of options
	taskset -c 0 vdpactl-batch -j compare --count "${2:?}" \
		--rounds "${3:?}" $LOAD --dev stock0 --dev batch0 \
		--dev batch2 >/tmp/scale.json
	jq -r '.compare.results | to_entries[] |
		"slot \(.key) \(.value.device) \(.value.mode)"' /tmp/scale.json
	printf 'compare %s\n' "$(jq -c . /tmp/scale.json)"
	;;
devices)
	slot=0
	for kind in stock batch; do
		for n in 1 2 8; do
			at_once $slot $kind $n "${2:?}"
			slot=$((slot + 1))
		done
	done
	;;
*)
	echo "usage: bench-scale.sh count COUNT ROUNDS | devices ROUNDS" >&2
	exit 2
	;;
esac
