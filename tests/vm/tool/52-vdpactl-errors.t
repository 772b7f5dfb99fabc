#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vdpactl-batch refuses bad requests with one line on stderr and a non-zero
# status (a wrong command line, 2, then shows the command's usage), and
# leaves the device usable: wrong names, a device on the other bus
# driver, out-of-range or non-numeric values, a busy device.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# one_line_error DESC STATUS PATTERN CMD [ARG...]: CMD exits with STATUS,
# prints nothing on stdout and one line matching PATTERN on stderr; with
# STATUS 2, that line and then the usage ("Usage: ...") alone.
one_line_error() {
	_desc=$1 _want=$2 _pattern=$3
	shift 3
	_err=$("$@" 2>&1 >/tmp/stdout)
	_rc=$?
	_lines=$(printf '%s\n' "$_err" | wc -l)
	if [ "$_want" = 2 ] &&
		printf '%s\n' "$_err" | sed -n 2p | grep -q '^Usage: '; then
		_lines=1
		_err=$(printf '%s\n' "$_err" | head -n 1)
	fi
	if [ "$_rc" = "$_want" ] && [ "$_lines" = 1 ] &&
		[ ! -s /tmp/stdout ] &&
		printf '%s' "$_err" | grep -q -- "$_pattern"; then
		tap_result 0 "$_desc"
		return
	fi
	tap_result 1 "$_desc"
	tap_diag "command: $*" "exit status $_rc (want $_want), stderr:" "$_err"
}

cvq_requests() {
	vdpactl-batch -j load --dev vdpa0 --count 30 --rounds 10 |
		jq -r '.load.vdpa0.vstats.delta."cvq requests"'
}

tap_plan 15
tb_load_stock
tb_dev_add vdpa0 vdpasim_net vhost_vdpa
tb_dev_add vdpa1 vdpasim_net virtio_vdpa

one_line_error "a device that does not exist" 1 "vdpa9 does not exist" \
	vdpactl-batch load --count 30 --dev vdpa9
one_line_error "a device bound to virtio_vdpa" 1 \
	"bound to virtio_vdpa, not vhost_vdpa" \
	vdpactl-batch load --count 30 --dev vdpa1
one_line_error "--count 0" 2 "out of range (1..65536)" \
	vdpactl-batch load --count 0 --dev vdpa0
one_line_error "--count beyond the maximum" 2 "out of range (1..65536)" \
	vdpactl-batch load --count 65537 --dev vdpa0
one_line_error "a non-numeric count" 2 "is not a number" \
	vdpactl-batch load --count 30x --dev vdpa0
one_line_error "a non-numeric timeout" 2 "is not a number" \
	vdpactl-batch load --count 30 --timeout soon --dev vdpa0
one_line_error "an unknown mode" 2 "is not one of serial, parallel" \
	vdpactl-batch load --count 30 --mode sideways --dev vdpa0
one_line_error "a ring larger than the device's" 1 "exceeds the device maximum" \
	vdpactl-batch load --count 30 --ring-size 512 --dev vdpa0
one_line_error "stats of a device nobody drives" 1 "no driver has negotiated" \
	vdpactl-batch stats vdpa0

vdpactl-batch load --count 30 --rounds 1000000 --dev vdpa0 >/dev/null 2>&1 &
holder=$!
if tb_wait 10 sh -c "ls -l /proc/$holder/fd | grep -q vhost-vdpa"; then
	one_line_error "a second process on the same device" 1 \
		"Device or resource busy (another process is using the device)" \
		vdpactl-batch load --count 30 --dev vdpa0
else
	tap_result 1 "a second process on the same device"
	tap_diag "the first process never opened the device"
fi
kill "$holder"
# The shell's "Terminated" notice would not be TAP.
wait "$holder" 2>/dev/null
tap_is "$?" 143 "the first process died of SIGTERM mid-load"

tap_is "$(cvq_requests)" 300 "the device still works after all that"
one_line_error "deleting a device that does not exist" 1 "No such device" \
	vdpactl-batch dev del vdpa9
one_line_error "adding a device that exists" 1 "File exists" \
	vdpactl-batch dev add name vdpa0 mgmtdev vdpasim_net
tap_is "$(vdpactl-batch -j dev show vdpa0 | jq -r .dev.vdpa0.mgmtdev)" \
	vdpasim_net "and it is still there"
tap_done
