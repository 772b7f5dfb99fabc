#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The device reaches a CVQ's ring areas in place, through pages it pins
# at their first access (kmod/vdpa/vsb_pin.c). Those pages are the
# device's only while the IOTLB says so:
#   - a driver that moves its rings to other memory under the same IOVAs
#     (vsbdrv --move-rings: set_map, then the old pages filled with 0xff)
#     has its next command answered in the moved rings, not refused from
#     the old ones;
#   - every pin is given back: once the driver's file is closed (which
#     resets the device), and still once the device is gone. The kernel
#     counts pins taken and given back in /proc/vmstat, and nothing else
#     in the test bed pins pages.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# pins: "TAKEN RELEASED", the kernel's pin counts, folded in first.
pins() {
	echo 1 >/proc/sys/vm/stat_refresh
	awk '/^nr_foll_pin_acquired / { a = $2 }
	     /^nr_foll_pin_released / { r = $2 } END { print a, r }' /proc/vmstat
}

tap_plan 5
# Without the kick hint: sharing it translates the used ring afresh at
# the start of every run, which would hide pages kept past a set_map.
tb_load_batch kick_hint=0
tb_dev_add p0 vdpasim_batch vhost_vdpa
dev=$(tb_vhost_chardev p0)

out=$(vsbdrv --cmds 2 --move-rings "$dev")
tap_diag "$out"
tap_is "$(echo "$out" | grep -o 'moved_used=[0-9]* needs_reset=.')" \
	"moved_used=3 needs_reset=0" "the command after the move is answered"
tap_is "$(echo "$out" | grep -o 'mac=[0-9a-f:]*' | tail -n 1)" \
	"mac=02:00:00:00:00:bb" "the command read from the moved rings is in force"

pins >/tmp/pins.0
vdpactl-batch load --dev p0 --count 30 --rounds 20 --mode serial >/dev/null
pins >/tmp/pins.1
read -r taken0 released0 </tmp/pins.0
read -r taken1 released1 </tmp/pins.1
tap_diag "pins taken $taken0 -> $taken1, given back $released0 -> $released1"
tap_ok "a load through vhost_vdpa pins ring pages" test "$taken1" -gt "$taken0"
tap_is "$((taken1 - released1))" "$((taken0 - released0))" \
	"all of them given back once the load's file is closed"
tb_dev_del p0
pins >/tmp/pins.2
read -r taken2 released2 </tmp/pins.2
tap_is "$taken2" "$released2" "none left pinned once the device is gone"
tap_done
