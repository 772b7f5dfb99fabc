# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Guest-side helpers for the tests that run QEMU 10 inside the test-bed VM
# as a vhost-vdpa client (tests with a "# vm.sh: --qemu" line get it). The
# QEMU guest has no OS: a BIOS that halts, and testbed/programs/qvnet drives its
# virtio-net-pci over qtest and its monitor over QMP. See
# Documentation/qemu.rst.

QM_DIR=/tmp/qemu
QM_BIOS=$QM_DIR/halt.bin
# Trace events the tests read (-trace events=FILE).
QM_EVENTS="vhost_vdpa_set_address_space_id vhost_vdpa_net_load_cmd
vhost_vdpa_set_vring_enable_one vhost_vdpa_suspend vhost_vdpa_reset_device"

# qm_start NAME VDPA_DEV [NETDEV_OPTS [QEMU_ARGS...]]: start QEMU NAME in
# the background on VDPA_DEV (bound to vhost_vdpa), its NIC carrying the
# device's MAC, guest RAM a shared memfd unless QEMU_ARGS say
# "-machine pc" alone (QM_PRIVATE=1). Sockets and logs are
# $QM_DIR/NAME.{qtest,qmp,trace,err}.
qm_start() {
	_qm_name=$1
	_qm_chr=$(tb_vhost_chardev "$2") || return 1
	_qm_mac=$(vdpa -j dev config show "$2" | sed -n 's/.*"mac":"\([^"]*\)".*/\1/p')
	_qm_netdev=$3
	shift 3 2>/dev/null || shift $#
	mkdir -p "$QM_DIR"
	[ -s "$QM_BIOS" ] || qvnet bios "$QM_BIOS" || return 1
	# shellcheck disable=SC2086 # one event a line
	printf '%s\n' $QM_EVENTS >"$QM_DIR/events"
	if [ "${QM_PRIVATE:-0}" = 1 ]; then
		set -- -machine pc "$@"
	else
		set -- -object memory-backend-memfd,id=mem0,size=64M,share=on \
			-machine pc,memory-backend=mem0 "$@"
	fi
	rm -f "$QM_DIR/$_qm_name".*
	qemu-system-x86_64 -L /usr/share/qemu -bios "$QM_BIOS" \
		-nodefaults -no-user-config -display none -accel tcg -m 64 \
		-qtest "unix:$QM_DIR/$_qm_name.qtest,server=on,wait=off" \
		-qtest-log none \
		-qmp "unix:$QM_DIR/$_qm_name.qmp,server=on,wait=off" \
		-trace "events=$QM_DIR/events" -D "$QM_DIR/$_qm_name.trace" \
		-msg timestamp=on \
		-netdev "vhost-vdpa,id=n0,vhostdev=$_qm_chr${_qm_netdev:+,$_qm_netdev}" \
		-device "virtio-net-pci,netdev=n0,mac=$_qm_mac,mq=on,disable-legacy=on,vectors=0,romfile=" \
		"$@" >"$QM_DIR/$_qm_name.err" 2>&1 &
	echo $! >"$QM_DIR/$_qm_name.pid"
	# QEMU creates the QMP socket before the qtest one: wait for both.
	tb_wait 60 test -S "$QM_DIR/$_qm_name.qmp" -a -S "$QM_DIR/$_qm_name.qtest"
}

# qm NAME STEP...: qvnet on QEMU NAME; output in $QM_DIR/NAME.out. Each
# run is a new qvnet process: unless it starts with init (or only talks to
# the monitor), it first attaches to the device as the last run left it.
# Each step waits at most QM_TIMEOUT seconds (60).
qm() {
	_qm_name=$1
	shift
	case $1 in
	init | hmp | migrate) ;;
	*) set -- attach "$@" ;;
	esac
	qvnet -T "${QM_TIMEOUT:-60}" -q "$QM_DIR/$_qm_name.qtest" -m "$QM_DIR/$_qm_name.qmp" \
		"$@" >"$QM_DIR/$_qm_name.out" 2>&1
}

# qm_quit NAME: stop QEMU NAME and wait for it.
qm_quit() {
	_qm_pid=$(cat "$QM_DIR/$1.pid" 2>/dev/null) || return 0
	qvnet -m "$QM_DIR/$1.qmp" hmp quit >/dev/null 2>&1 ||
		kill "$_qm_pid" 2>/dev/null
	tb_wait 30 sh -c "! kill -0 $_qm_pid 2>/dev/null"
	rm -f "$QM_DIR/$1.pid"
}

# qm_load_ms NAME FROM: QEMU NAME's last CVQ state load, from its trace
# lines after line FROM: the first vhost_vdpa_net_load_cmd to the last
# vring enable after it (the data queues are enabled once the load is
# acked), in ms; "-" if there was none.
qm_load_ms() {
	tail -n "+$(($2 + 1))" "$QM_DIR/$1.trace" | awk -F'[@: ]' '
	/:vhost_vdpa_net_load_cmd / && !first { first = $2 }
	/:vhost_vdpa_set_vring_enable_one / && first && / enable: 1/ { last = $2 }
	END { if (first && last) printf "%.3f\n", (last - first) * 1000; else print "-" }'
}

# qm_trace_count NAME EVENT [PATTERN]: trace lines of EVENT matching PATTERN.
qm_trace_count() {
	grep -E "(^|:)$2 " "$QM_DIR/$1.trace" 2>/dev/null | grep -c -- "${3:-}"
}

# qm_diag NAME: what a failing check should show.
qm_diag() {
	tap_diag "$(tail -n 5 "$QM_DIR/$1.out" "$QM_DIR/$1.err" 2>/dev/null)"
}

# qm_state DEV: the control state of vdpa_sim_batch device DEV, as its
# netlink state dump gives it: what a guest sets through the CVQ. VLANs
# as ranges ("0-99,101-4095"), to keep a failing check's output short.
qm_state() {
	vdpactl-batch -j dev state "$1" |
		jq -c ".state.$1 | .vlans |= (reduce .[] as \$v ([];
			if length > 0 and .[-1][1] == \$v - 1 then .[-1][1] = \$v
			else . + [[\$v, \$v]] end) |
			map(if .[0] == .[1] then \"\(.[0])\" else \"\(.[0])-\(.[1])\" end) |
			join(\",\")) |
		{mac, rx_modes, uni_macs, multi_macs, uni_overflow, multi_overflow, vlans, pairs, offloads}"
}

# qm_vstat DEV NAME: one of DEV's control-queue vendor statistics
# ("requests", "successes", "vlan requests", ...).
qm_vstat() {
	vdpactl-batch stats "$1" |
		sed -n "s/.* cvq $2 \([0-9]*\) .*/\1/p" | head -n 1
}

# qm_loaded NAME CLASS: commands of CVQ class CLASS QEMU NAME loaded.
qm_loaded() {
	qm_trace_count "$1" vhost_vdpa_net_load_cmd "class: $2 "
}

# qm_running NAME: QEMU NAME's guest runs. The monitor answers only once
# a start, and with it the device's load, is over.
qm_running() {
	qvnet -m "$QM_DIR/$1.qmp" hmp "info status" 2>/dev/null |
		grep -q "status: running"
}
