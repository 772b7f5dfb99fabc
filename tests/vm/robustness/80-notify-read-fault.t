#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# With EVENT_IDX the device reads the driver's used_event once it has
# published used entries, to tell whether to notify. A used_event it cannot
# read is a ring access fault like any other: the driver must learn of it
# from NEEDS_RESET and a config interrupt, not from a kick that may never
# come. vsbdrv --used-event-unmapped puts the CVQ's avail ring at the end
# of its map, so that used_event is the first byte past it; the set-up
# checks only the ring's alignment and size, and the first run writes only
# the used ring, so the device takes the ring. One kick, after the worker
# went idle: the commands are answered (the read follows the publish), and
# within two seconds NEEDS_RESET and the config interrupt must follow, with no
# other kick, and the kernel log must name the fault.
#
# Where the read fails decides whether anything else would find the fault:
#   - a lone command is published as soon as it is done, and the run then
#     looks at the ring once more, which fails on the fault recorded;
#   - commands that come together are published once the run found the
#     ring empty. With kick polling and suppression (the defaults) kicks
#     are still off then, and the worker's next look at the ring or
#     request for kicks fails too; without either, the run asked for kicks
#     before it published, the worker goes to sleep, and only the failed
#     read itself can report the fault.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

PARAMS=/sys/module/vdpa_sim_batch/parameters

# drive NAME CMDS KICK_POLL_US SUPPRESS_KICKS DESC: CMDS commands and one
# kick to a new device NAME made with those module parameters.
drive() {
	echo "$3" >$PARAMS/kick_poll_us
	echo "$4" >$PARAMS/suppress_kicks
	tb_dev_add "$1" vdpasim_batch vhost_vdpa || return 1
	_out=$(vsbdrv --used-event-unmapped --config-call --cmds "$2" \
		--wait-ms 2000 "$(tb_vhost_chardev "$1")")
	tap_diag "$1: $_out"
	# Every ack 0 (VIRTIO_NET_OK): "0" for 1, "0,0" for 2.
	tap_is "$(echo "$_out" | grep -o 'used=.* acks=[0-9,]*')" \
		"used=$2 needs_reset=1 config_irq=1 acks=$(seq -s , "$2" | sed 's/[0-9]*/0/g')" \
		"$5: answered, then NEEDS_RESET and a config interrupt"
	tap_ok "$5: the kernel log names the fault" sh -c \
		"dmesg | grep -q '$1: queue 2: ring memory not accessible; device needs reset'"
	tb_dev_del "$1"
}

tap_plan 8
tb_load_batch
drive e0 1 50 Y "one command"
drive e1 2 50 Y "two commands"
drive e2 2 0 Y "two commands, no kick polling"
drive e3 2 50 N "two commands, no kick suppression"
tap_done
