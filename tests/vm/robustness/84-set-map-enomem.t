#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A set_map that cannot allocate keeps the translations in force: the
# failure says nothing about the driver, so the device goes on serving it,
# with no NEEDS_RESET, and says why in the kernel log. Each allocation the
# device makes in set_map is made to fail in turn, the first, the second
# and so on until there is none left to fail (fail-nth, as syzkaller's
# fault injection does): failslab and fail_page_alloc count only
# allocations with the module on the stack, so vhost_vdpa's own IOTLB
# copy is left alone. Needs a kernel with fault injection: the debug test
# bed ("make check KERNEL=debug"); skipped on Debian's kernels.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

FI=/sys/kernel/debug
MOD=vdpa_sim_batch
# Allocations of one set_map failed in turn, at most.
MAX_NTH=32

if [ ! -d $FI/failslab ] || [ ! -e $FI/failslab/require-start ]; then
	echo "1..0 # SKIP no failslab with a stack filter: a kernel without FAULT_INJECTION (make check KERNEL=debug has it)"
	exit 0
fi

# fault_arm ATTR START END: make ATTR count, for fail-nth, only the
# allocations with an address in [START, END) on the stack, sleeping ones
# too. Its probability stays 0: nothing fails but the Nth.
fault_arm() {
	echo 0 >"$FI/$1/probability" &&
		echo N >"$FI/$1/ignore-gfp-wait" &&
		echo "$2" >"$FI/$1/require-start" &&
		echo "$3" >"$FI/$1/require-end" &&
		echo 1 >"$FI/$1/verbose"
}

# arm START END: both allocators' injection, for [START, END).
arm() {
	fault_arm failslab "$1" "$2" && fault_arm fail_page_alloc "$1" "$2" &&
		echo 0 >$FI/fail_page_alloc/min-order
}

# module_text: "START END" of the module's code, in hex, from its symbols:
# the lowest, and the page boundary after the highest (the text's
# allocation ends on one; the tail of the last function may be left out).
# Kernel addresses overflow the shell's signed arithmetic: the page
# number, 13 hex digits, does not.
module_text() {
	_syms=$(grep -E "^[0-9a-f]+ [tT] .*\[$MOD\]\$" /proc/kallsyms |
		cut -d' ' -f1 | sort)
	_lo=$(echo "$_syms" | head -n 1)
	_hi=$(echo "$_syms" | tail -n 1)
	[ ${#_lo} = 16 ] && [ ${#_hi} = 16 ] || return 1
	printf '0x%s 0x%013x000\n' "$_lo" $((0x$(echo "$_hi" | cut -c1-13) + 1))
}

# served OUT: what vsbdrv says of the command.
served() {
	echo "$1" | grep -o 'used=[0-9]* needs_reset=. config_irq=. acks=[0-9,]*'
}

tap_plan 6
tb_load_batch
tb_dev_add m0 vdpasim_batch vhost_vdpa
dev=$(tb_vhost_chardev m0)
# shellcheck disable=SC2046 # two numbers
set -- $(module_text)
tap_ok "the module's code is found in /proc/kallsyms ($1..$2)" \
	test -n "$2"
tap_ok "failslab and fail_page_alloc count its allocations" arm "$1" "$2"
dmesg -c >/dev/null
bad=
n=1
while [ $n -le $MAX_NTH ]; do
	out=$(vsbdrv --failing-map $n "$dev" 2>&1)
	left=$(echo "$out" | sed -n 's/.*fail_nth_left=\([0-9]*\).*/\1/p')
	[ "$left" = 0 ] || break
	[ "$(served "$out")" = "used=1 needs_reset=0 config_irq=0 acks=0" ] ||
		bad="$bad allocation $n: $out;"
	n=$((n + 1))
done
failed=$((n - 1))
tap_diag "set_map made $failed allocations; each failed once"
tap_ok "set_map's allocations were made to fail ($failed of them)" \
	test $failed -gt 0
tap_is "$bad" "" \
	"after each failure, a command is served through the maps in force: OK, no NEEDS_RESET"
tap_ok "the kernel log says set_map had no memory" sh -c \
	'dmesg | grep -E "m0: address space 0: [0-9]+ maps: no memory"'
out=$(vsbdrv "$dev")
tap_is "$(served "$out")" "used=1 needs_reset=0 config_irq=0 acks=0" \
	"on a fresh open, with no injection, a driver is served"
tb_dev_del m0
tap_done
