#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The CVQ cost model through the netlink family and vdpactl-batch: "dev
# cost" shows and sets a device's model, only the items given; bad input
# is refused before anything is sent, and changes nothing; "dev batching"
# and "stats" show the model and what it realized. Then the model and
# the completion mode change again and again under a running load: the
# load must end, every command acked OK, none lost. Last, a dear
# operation (31 s) is cut short when its driver goes away: the device is
# deleted within 2 s. (The kernel's own checks of malformed requests:
# tests/vm/57.)
. tests/lib/tap.sh
. testbed/lib/testbed.sh

N=30
ROUNDS=1500

# model: c0's model as "op cmd mac vlan precise" (ns).
model() {
	vdpactl-batch -j dev cost c0 |
		jq -r '.dev.c0.cost | "\(.op_ns) \(.cmd_ns) \(.mac_ns) \(.vlan_ns) \(.precise)"'
}

# refused ARGS... WORD: "dev cost c0 ARGS" exits 2 with a message
# containing WORD (the last word is not sent).
refused() {
	_want=$(eval echo "\${$#}")
	_args=
	while [ $# -gt 1 ]; do
		_args="$_args $1"
		shift
	done
	# shellcheck disable=SC2086 # the words
	_out=$(vdpactl-batch dev cost c0 $_args 2>&1)
	_rc=$?
	case "$_rc $_out" in
	"2 "*"$_want"*) tap_result 0 "dev cost c0$_args: refused ($_want)" ;;
	*)
		tap_result 1 "dev cost c0$_args: refused ($_want)"
		tap_diag "exit $_rc: $_out"
		;;
	esac
}

# stat NAME: one of c0's module counters.
stat() {
	vdpactl-batch -j stats c0 2>/dev/null | jq -r ".module.c0.counters.$1"
}

tap_plan 17
tb_load_batch
tb_dev_add c0 vdpasim_batch vhost_vdpa

tap_is "$(vdpactl-batch dev cost c0 | sed 's/ *$//')" "c0: cost none precise off" \
	"a new device has no model"
tap_ok "dev cost c0 op 20us cmd 1us vlan 3us" \
	vdpactl-batch dev cost c0 op 20us cmd 1us vlan 3us
tap_is "$(model)" "20000 1000 0 3000 false" "read back, in ns"
tap_ok "dev cost c0 mac 1.5us precise on" \
	vdpactl-batch dev cost c0 mac 1.5us precise on
tap_is "$(model)" "20000 1000 1500 3000 true" "only the items given changed"
refused op 20 "no unit"
refused op -5us "-5us"
refused op 5xs "unknown unit"
refused op 2s "2s"
refused bogus 1us "bogus"
refused op 1us op 2us "op"
tap_is "$(model)" "20000 1000 1500 3000 true" "nothing refused changed the model"
tap_is "$(vdpactl-batch dev batching c0 | grep -o 'cost .*' | sed 's/ *$//')" \
	"cost op 20us cmd 1us mac 1500ns vlan 3us precise on" \
	"dev batching shows the model"

vdpactl-batch stats c0 --reset >/dev/null 2>&1
vdpactl-batch load --dev c0 --count $N --rounds 10 --mode parallel \
	--kick once >/dev/null
tap_ok "after a load, stats counts operations that paid, realized >= asked" \
	sh -c "[ $(stat cost_ops) -gt 0 ] && [ $(stat cost_real_ns) -ge $(stat cost_ns) ]"

# The load, with changes under it.
vdpactl-batch stats c0 --reset >/dev/null 2>&1
vdpactl-batch load --dev c0 --count $N --rounds $ROUNDS --mode parallel \
	--kick each --timeout 5000 >/tmp/86.load 2>&1 &
load=$!
i=0
while kill -0 $load 2>/dev/null; do
	case $((i % 4)) in
	0) vdpactl-batch dev cost c0 op 50us cmd 0ns precise off ;;
	1) vdpactl-batch dev batching c0 completion immediate ;;
	2) vdpactl-batch dev cost c0 op 0ns mac 0ns vlan 0ns cmd 2us ;;
	3) vdpactl-batch dev batching c0 completion batch ;;
	esac >/dev/null
	i=$((i + 1))
	usleep 20000
done
wait $load
rc=$?
tap_is "$rc" 0 "a load of $ROUNDS x $N, the model and mode changed $i times under it, ends, all acked OK"
[ "$rc" = 0 ] || tap_diag "$(tail -n 5 /tmp/86.load)"
tap_ok "the device acked every command it took OK ($(stat commands))" \
	sh -c "[ $(stat commands) -ge $((ROUNDS * N)) ] && [ $(stat ok) = $(stat commands) ]"

vdpactl-batch dev cost c0 op 1s cmd 1s >/dev/null
vdpactl-batch dev batching c0 completion batch
vdpactl-batch load --dev c0 --count $N --rounds 1 --mode parallel \
	--kick once --timeout 600000 >/dev/null 2>&1 &
load=$!
tb_wait 10 sh -c "[ \$(vdpactl-batch -j stats c0 2>/dev/null |
	jq .module.c0.counters.commands) -ge $N ]"
start=$(tb_centis)
kill -KILL $load
wait $load 2>/dev/null
tb_dev_del c0
ms=$((($(tb_centis) - start) * 10))
tap_ok "a 31 s operation is cut short: its driver gone, c0 is deleted in $ms ms" \
	test $ms -lt 2000
tap_done
