# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# Guest-side helpers for the VM tests (busybox ash). The modules the tests
# load live under /lib/modules/KVER/{stock,vdpa-batch,test}; the in-tree
# vdpa, vhost_vdpa, virtio_vdpa and virtio_net were loaded by /init.

TB_MODDIR=/lib/modules/$(uname -r)

# busybox ash runs its own applet for a command named like one, ahead of
# PATH; the tests mean iproute2's ip (allmulticast, maddr, vlan, ...).
ip() {
	/usr/bin/ip "$@"
}

# tb_insmod MODULE [PARAM=VALUE...]
tb_insmod() {
	_tb_mod=$1
	shift
	insmod "$TB_MODDIR/$_tb_mod.ko" "$@"
}

tb_load_stock() {
	tb_insmod stock/vringh && tb_insmod stock/vdpa_sim &&
		tb_insmod stock/vdpa_sim_net
}

tb_unload_stock() {
	rmmod vdpa_sim_net && rmmod vdpa_sim && rmmod vringh
}

# tb_load_batch [PARAM=VALUE...]
# shellcheck disable=SC2120 # the parameters are optional
tb_load_batch() {
	tb_insmod vdpa-batch/vdpa_sim_batch "$@"
}

# tb_driver NAME: the vdpa bus driver NAME is bound to, or nothing.
tb_driver() {
	_tb_link=$(readlink "/sys/bus/vdpa/devices/$1/driver" 2>/dev/null) &&
		basename "$_tb_link"
}

# tb_bind NAME DRIVER: make DRIVER (vhost_vdpa or virtio_vdpa) drive NAME.
# Both drivers match every vdpa device, so a new device goes to whichever
# probes first; move it explicitly.
tb_bind() {
	_tb_cur=$(tb_driver "$1")
	[ "$_tb_cur" = "$2" ] && return 0
	if [ -n "$_tb_cur" ]; then
		echo "$1" >"/sys/bus/vdpa/drivers/$_tb_cur/unbind" || return 1
	fi
	echo "$1" >"/sys/bus/vdpa/drivers/$2/bind" || return 1
	[ "$(tb_driver "$1")" = "$2" ]
}

# tb_dev_add NAME MGMTDEV DRIVER [vdpa dev add arguments...]
tb_dev_add() {
	_tb_name=$1
	_tb_mgmt=$2
	_tb_drv=$3
	shift 3
	vdpa dev add name "$_tb_name" mgmtdev "$_tb_mgmt" "$@" &&
		tb_bind "$_tb_name" "$_tb_drv"
}

# tb_features_hex MGMTDEV: the features MGMTDEV can offer, as the number
# "vdpa dev add ... device_features" takes (vdpa prints feature names; the
# bit numbers are the virtio spec's; a bit it has no name for comes as
# its number in JSON).
tb_features_hex() {
	vdpa -j mgmtdev show "$1" | jq -r '.. | .dev_features? // empty | .[]' |
		awk '
		BEGIN {
			n = split("CSUM 0 GUEST_CSUM 1 CTRL_GUEST_OFFLOADS 2 MTU 3 " \
				"MAC 5 STATUS 16 CTRL_VQ 17 CTRL_RX 18 CTRL_VLAN 19 " \
				"CTRL_RX_EXTRA 20 GUEST_ANNOUNCE 21 MQ 22 " \
				"CTRL_MAC_ADDR 23 ANY_LAYOUT 27 RING_INDIRECT_DESC 28 " \
				"RING_EVENT_IDX 29 VERSION_1 32 ACCESS_PLATFORM 33 RING_PACKED 34 " \
				"HASH_REPORT 57 RSS 60", t, " ")
			for (i = 1; i < n; i += 2)
				bit[t[i]] = t[i + 1]
			for (i = 0; i < 64; i++)
				bit[i ""] = i
		}
		!($1 in bit) { print "tb_features_hex: unknown feature " $1 >"/dev/stderr"; bad = 1 }
		$1 in bit {
			# busybox awk has no "^"
			b = bit[$1] % 32
			for (v = 1; b > 0; b--)
				v *= 2
			if (bit[$1] >= 32)
				hi += v
			else
				lo += v
		}
		END {
			if (bad)
				exit 1
			printf "0x%x%08x\n", hi, lo
		}'
}

tb_dev_del() {
	vdpa dev del "$1"
}

# tb_vhost_chardev NAME: /dev/vhost-vdpa-N of a device bound to vhost_vdpa.
tb_vhost_chardev() {
	for _tb_d in "/sys/bus/vdpa/devices/$1"/vhost-vdpa-*; do
		[ -e "$_tb_d" ] || return 1
		echo "/dev/$(basename "$_tb_d")"
		return 0
	done
}

# tb_netdev NAME: the network interface virtio_net made for NAME.
tb_netdev() {
	for _tb_d in "/sys/bus/vdpa/devices/$1"/virtio*/net/*; do
		[ -e "$_tb_d" ] || return 1
		basename "$_tb_d"
		return 0
	done
}

# The devices "testbed/vm.sh --devices" provides: stock0 and batch0 on
# vhost_vdpa, for running vdpactl-batch as a user would.
tb_standard_devices() {
	tb_load_stock && tb_load_batch &&
		tb_dev_add stock0 vdpasim_net vhost_vdpa &&
		tb_dev_add batch0 vdpasim_batch vhost_vdpa
}

# tb_pin_devices CPU [STOCK]: every device's worker runs on CPU alone from
# now on: vdpa_sim_batch's work items (its unbound workqueue's cpumask) and
# each stock vdpa_sim device's kthread worker ("vDPA sim worker: NAME",
# which comm gives whole for a kthread, or cut to 15 characters); stock
# devices added later are not pinned. Fails if a worker cannot be pinned,
# or if STOCK is given and not that many stock workers were: one left out
# would run the device's side on another CPU.
tb_pin_devices() {
	printf '%x\n' $((1 << $1)) \
		>/sys/devices/virtual/workqueue/vdpa_sim_batch/cpumask || return 1
	_tb_pinned=0
	for _tb_comm in /proc/[0-9]*/comm; do
		case "$(cat "$_tb_comm" 2>/dev/null)" in
		"vDPA sim worker"*) ;;
		*) continue ;;
		esac
		_tb_pid=${_tb_comm#/proc/}
		taskset -p $((1 << $1)) "${_tb_pid%/comm}" >/dev/null || return 1
		_tb_pinned=$((_tb_pinned + 1))
	done
	[ -z "${2:-}" ] || [ "$_tb_pinned" -eq "$2" ] || {
		echo "tb_pin_devices: $_tb_pinned stock workers pinned, $2 wanted" >&2
		return 1
	}
}

# tb_wait SECONDS CMD [ARG...]: retry CMD every 0.1 s until it succeeds.
tb_wait() {
	_tb_left=$(($1 * 10))
	shift
	until "$@"; do
		_tb_left=$((_tb_left - 1))
		[ "$_tb_left" -gt 0 ] || return 1
		sleep 0.1
	done
}

# tb_centis: the uptime in 1/100 s, for deadlines and durations.
tb_centis() {
	tr -d . </proc/uptime | cut -d' ' -f1
}

# tb_within SECONDS CMD [ARG...]: run CMD, giving up on it (status 124,
# and it is left running) after SECONDS; its output in $WORK/out.
tb_within() {
	_tb_end=$(($(tb_centis) + 100 * $1))
	shift
	"$@" >"$WORK/out" 2>&1 &
	_tb_pid=$!
	while kill -0 "$_tb_pid" 2>/dev/null; do
		[ "$(tb_centis)" -lt "$_tb_end" ] || return 124
		sleep 0.1
	done
	wait "$_tb_pid"
}

# tb_meminfo_kb FIELD: a /proc/meminfo field in kB, after dropping caches
# and shrinking every slab cache: a KASAN kernel (make check KERNEL=debug)
# keeps freed objects in a quarantine of up to 1/32 of memory, which only
# a shrink of their cache gives back, so Slab would count them as live.
tb_meminfo_kb() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	for _tb_shrink in /sys/kernel/slab/*/shrink; do
		[ -w "$_tb_shrink" ] && echo 1 >"$_tb_shrink"
	done
	awk -v f="$1:" '$1 == f { print $2 }' /proc/meminfo
}

# tb_cycles N: N times create a vdpasim_batch device on vhost_vdpa, open
# and close its chardev (each resets the device), delete it.
tb_cycles() {
	_tb_i=0
	while [ "$_tb_i" -lt "$1" ]; do
		tb_dev_add "c$_tb_i" vdpasim_batch vhost_vdpa || return 1
		_tb_dev=$(tb_vhost_chardev "c$_tb_i") || return 1
		exec 3<>"$_tb_dev" || return 1
		exec 3>&-
		tb_dev_del "c$_tb_i" || return 1
		_tb_i=$((_tb_i + 1))
	done
}
