#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A set_map that cannot allocate keeps the translations in force: the
# failure says nothing about the driver, so the device goes on serving it,
# with no NEEDS_RESET, and says why in the kernel log. The allocations are
# made to fail with failslab and fail_page_alloc, only in the driver's
# task (vsbdrv --failing-map: around one IOTLB batch) and only with the
# module on the stack, so vhost_vdpa's own IOTLB copy is left alone.
# Needs a kernel with fault injection: the debug test bed ("make check
# KERNEL=debug"); skipped on Debian's kernels, which have none.
. tests/lib/tap.sh
. tests/vm/lib/testbed.sh

FI=/sys/kernel/debug
MOD=vdpa_sim_batch
# Failures allowed, read back to show that some happened.
TIMES=1000

if [ ! -d $FI/failslab ] || [ ! -e $FI/failslab/require-start ]; then
	echo "1..0 # SKIP no failslab with a stack filter: a kernel without FAULT_INJECTION (make check KERNEL=debug has it)"
	exit 0
fi

# fault_arm ATTR START END: fail every allocation of a task that asks for
# it (make-it-fail) made with an address in [START, END) on its stack.
fault_arm() {
	echo 0 >"$FI/$1/times"
	echo Y >"$FI/$1/task-filter"
	echo N >"$FI/$1/ignore-gfp-wait"
	echo "$2" >"$FI/$1/require-start"
	echo "$3" >"$FI/$1/require-end"
	echo 1 >"$FI/$1/verbose"
	echo 100 >"$FI/$1/probability"
	echo 1 >"$FI/$1/interval"
	echo $TIMES >"$FI/$1/times"
}

# module_text: "START END" of the module's code, from its symbols: the
# lowest, and the page boundary after the highest (the text's allocation
# ends on one; the tail of the last function may be left out).
module_text() {
	grep -E "^[0-9a-f]+ [tT] .*\[$MOD\]\$" /proc/kallsyms |
		awk '{ print $1 }' | sort | sed -n '1p;$p' | tr '\n' ' ' |
		{
			read -r lo hi
			echo "$((0x$lo)) $(((0x$hi + 4096) & ~4095))"
		}
}

# served OUT: what vsbdrv says of the command.
served() {
	echo "$1" | grep -o 'used=[0-9]* needs_reset=. config_irq=. acks=[0-9,]*'
}

tap_plan 5
tb_load_batch
tb_dev_add m0 vdpasim_batch vhost_vdpa
dev=$(tb_vhost_chardev m0)
# shellcheck disable=SC2046 # two numbers
set -- $(module_text)
tap_ok "the module's code is found in /proc/kallsyms ($1..$2)" \
	test "${2:-0}" -gt "${1:-0}"
for attr in failslab fail_page_alloc; do
	fault_arm $attr "$1" "$2"
done
echo 0 >$FI/fail_page_alloc/min-order
dmesg -c >/dev/null
out=$(vsbdrv --failing-map "$dev" 2>&1)
tap_diag "$out"
failed=0
for attr in failslab fail_page_alloc; do
	failed=$((failed + TIMES - $(cat $FI/$attr/times)))
	echo 0 >"$FI/$attr/probability"
done
tap_ok "the device's allocations in set_map failed ($failed injected)" \
	test $failed -gt 0
tap_is "$(served "$out")" "used=1 needs_reset=0 config_irq=0 acks=0" \
	"then the command is served through the maps in force: OK, no NEEDS_RESET"
tap_ok "the kernel log says set_map had no memory" sh -c \
	'dmesg | grep -E "m0: address space 0: [0-9]+ maps: no memory"'
out=$(vsbdrv "$dev")
tap_is "$(served "$out")" "used=1 needs_reset=0 config_irq=0 acks=0" \
	"on a fresh open, with no injection, a driver is served"
tb_dev_del m0
tap_done
