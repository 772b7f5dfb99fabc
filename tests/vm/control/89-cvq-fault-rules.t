#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Device-side CVQ fault injection through vdpactl-batch and the module's
# netlink family: rules are added, shown and cleared; a rule the device
# cannot hold is refused with the kernel's reason; and each action does
# to a load what it says -- nack (the command named, acked ERR), stall
# (a timeout, not a hang), delay, reorder (every ack still attributed to
# its command), silent (no notification: the tool, which re-reads the
# ring every 10 ms while it waits for one, still sees the completion),
# reset (DEVICE_NEEDS_RESET). Rules go at a device reset unless
# persistent -- and a load's open of /dev/vhost-vdpa-N resets the device,
# so the rules for a load persist; hits are counted per rule and in the
# statistics, and traced.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

OUT=/tmp/89.out
TRACING=/sys/kernel/tracing

# rules: c0's rules, one "action hits" line each.
rules() {
	vdpactl-batch -j dev fault c0 show |
		jq -r '.dev.c0.rules[] | "\(.action) \(.hits)"'
}

# load ARGS...: a VLAN load on c0 (output in $OUT), its status in $status.
load() {
	vdpactl-batch load --dev c0 --profile vlan "$@" >"$OUT" 2>&1
	status=$?
}

# load_us ARGS...: the time of a one-command load, in us, as the tool
# timed it (nothing if it failed).
load_us() {
	vdpactl-batch -j load --dev c0 --profile vlan --count 1 --rounds 1 \
		"$@" 2>/dev/null | jq '.load.c0.total_us | floor'
}

# has TEXT: the last load's output has TEXT.
has() {
	grep -q -- "$1" "$OUT"
}

faults() {
	vdpactl-batch -j stats c0 2>/dev/null | jq -r '.module.c0.counters.faults'
}

tap_plan 33
tb_load_batch
tb_dev_add c0 vdpasim_batch vhost_vdpa

tap_is "$(rules)" "" "a new device has no rules"
tap_ok "add a rule" vdpactl-batch dev fault c0 add nack class vlan cmd add nth 3
tap_is "$(rules)" "nack 0" "shown with no hits"
out=$(vdpactl-batch dev fault c0 add delay 2s 2>&1)
tap_is "$?" 2 "a delay over 1 s is refused" || tap_diag "$out"
out=$(vdpactl-batch dev fault c0 add nack class rx cmd 200 2>&1)
tap_is "$?" 1 "a command the class does not have is refused by the device" ||
	tap_diag "$out"
case "$out" in
*"unknown command of this class"*) tap_result 0 "with the kernel's reason" ;;
*) tap_result 1 "with the kernel's reason" && tap_diag "$out" ;;
esac
i=1
while [ $i -lt 16 ]; do
	vdpactl-batch dev fault c0 add silent nth 1000 >/dev/null || break
	i=$((i + 1))
done
out=$(vdpactl-batch dev fault c0 add silent 2>&1)
tap_is "$?" 1 "a 17th rule is refused" || tap_diag "$out"
case "$out" in
*"16 fault rules at most"*) tap_result 0 "with the kernel's reason" ;;
*) tap_result 1 "with the kernel's reason" && tap_diag "$out" ;;
esac
tap_ok "clear" vdpactl-batch dev fault c0 clear
tap_is "$(rules)" "" "no rules left"

# nack: the third VLAN_ADD of a load, once.
vdpactl-batch stats c0 --reset >/dev/null
vdpactl-batch dev fault c0 add nack class vlan cmd add nth 3 persist >/dev/null
load --count 5 --rounds 1
tap_is "$status" 1 "nack: the load fails" || tap_diag "$(cat "$OUT")"
tap_ok "naming the third command, acked ERR" has "command 3.*acked ERR"
tap_is "$(rules)" "nack 1" "the rule counts its hit"
tap_is "$(faults)" 1 "so do the statistics"
load --count 5 --rounds 3
tap_is "$status" 0 "nth 3 fired once: the next loads succeed" ||
	tap_diag "$(cat "$OUT")"
tap_is "$(rules)" "nack 1" "a persistent rule outlives the loads' resets"
vdpactl-batch dev fault c0 clear
# The tool's model of the state applies only what the device acked OK.
vdpactl-batch dev fault c0 add nack class vlan cmd add nth 3 persist >/dev/null
out=$(vdpactl-batch -j load --dev c0 --profile vlan --count 5 --rounds 2 \
	--skip-unchanged 2>/dev/null)
tap_is "$(echo "$out" | jq -c '.load.c0.nacked | [.count, .first[0].load, .first[0].index, .first[0].command]')" \
	'[1,1,3,"VLAN_ADD"]' "the report names the refused command" ||
	tap_diag "$out"
tap_is "$(echo "$out" | jq -c '.load.c0.skip_unchanged | [.sent, .model_agrees]')" \
	'[6,true]' "--skip-unchanged sends it again, and its model agrees with the device"
vdpactl-batch dev fault c0 clear
vdpactl-batch dev fault c0 add nack >/dev/null
load --count 5 --rounds 1
tap_is "$status" 0 "a rule without persist: the load's open drops it unused" ||
	tap_diag "$(cat "$OUT")"
tap_is "$(rules)" "" "and it is gone"

# stall: the second command is never completed.
vdpactl-batch dev fault c0 add stall nth 2 persist >/dev/null
start=$(tb_centis)
load --count 5 --rounds 1 --timeout 500
tap_is "$status" 1 "stall: the load fails" || tap_diag "$(cat "$OUT")"
tap_ok "with a timeout, after $(($(tb_centis) - start))0 ms" \
	has "no completion within 500 ms"
load --count 5 --rounds 1
tap_is "$status" 0 "the next open's reset: the device serves its CVQ again" ||
	tap_diag "$(cat "$OUT")"
vdpactl-batch dev fault c0 clear

# delay: 200 ms on every command, as the tool times it: the load takes
# at least that, where the same load without the rule takes far less.
# (Not their difference: the two loads' other costs vary by more than
# the margin, under TCG by milliseconds.)
base=$(load_us)
vdpactl-batch dev fault c0 add delay 200ms persist >/dev/null
took=$(load_us --timeout 5000)
tap_ok "delay: the command completes 200 ms or more later ($took us, $base without)" \
	test "${base:-0}" -lt 100000 -a "${took:-0}" -ge 200000
vdpactl-batch dev fault c0 clear

# reorder: every second command is completed after the next.
vdpactl-batch dev fault c0 add reorder every 2 persist >/dev/null
load --count 16 --rounds 20 --mode parallel --kick once
tap_is "$status" 0 "reorder: every ack attributed to its command" ||
	tap_diag "$(cat "$OUT")"
tap_ok "the device reordered ($(rules))" \
	sh -c "[ \$(vdpactl-batch -j dev fault c0 show | jq '.dev.c0.rules[0].hits') -ge 20 ]"
vdpactl-batch dev fault c0 clear

# silent: published, never notified.
vdpactl-batch dev fault c0 add silent persist >/dev/null
load --count 4 --rounds 2 --wait poll
tap_ok "silent: the rule acted ($(rules))" \
	test "$(vdpactl-batch -j dev fault c0 show | jq '.dev.c0.rules[0].hits')" -ge 8
tap_is "$status" 0 "silent: a driver that polls sees every completion" ||
	tap_diag "$(cat "$OUT")"
load --count 4 --rounds 2 --wait call --timeout 500
tap_is "$status" 0 "so does one asleep on the call eventfd, re-reading the ring" ||
	tap_diag "$(cat "$OUT")"
vdpactl-batch dev fault c0 clear

# reset: DEVICE_NEEDS_RESET at the second command, traced.
echo 0 >"$TRACING/tracing_on"
echo >"$TRACING/trace"
echo 1 >"$TRACING/events/vdpa_sim_batch/vsb_cvq_fault/enable"
echo 1 >"$TRACING/tracing_on"
vdpactl-batch dev fault c0 add reset nth 2 persist >/dev/null
load --count 5 --rounds 1
tap_is "$status" 1 "reset: the load fails" || tap_diag "$(cat "$OUT")"
tap_ok "on DEVICE_NEEDS_RESET" has "DEVICE_NEEDS_RESET" ||
	tap_diag "$(head -n 3 "$OUT")"
tap_ok "the kernel log says a rule asked for it" \
	sh -c 'dmesg | grep -q "reset injected by a fault rule"'
tap_ok "and the hit is traced" \
	grep -q "vsb_cvq_fault: dev=c0 rule=[0-9]* action=reset" "$TRACING/trace"
echo 0 >"$TRACING/events/vdpa_sim_batch/vsb_cvq_fault/enable"
tb_dev_del c0
tap_done
