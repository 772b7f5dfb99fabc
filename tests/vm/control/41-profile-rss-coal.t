#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The profiles' hash-state and coalescing commands on vdpasim_batch devices
# that offer them (both opt-in): one with RSS, NOTF_COAL and VQ_NOTF_COAL,
# one with HASH_REPORT alone.
#
# --profile qemu sends the hash state where QEMU's load does, right after
# MQ_VQ_PAIRS_SET: RSS_CONFIG with RSS, else HASH_CONFIG. It never sends
# coalescing commands (QEMU 10 does not shadow the control queue of a
# device that offers them), so it does not even negotiate them.
# --profile mixed cycles through RSS_CONFIG or HASH_CONFIG and the three
# coalescing set commands as well. The device counts every one of them in
# its class (mq, coal) and acks every one OK; their payloads, built from the
# config space's limits, are ones it takes.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

MAX_VQP=4
ROUNDS=5
# The module's default offer, and what the tests add to it.
DEFAULT=0x328df002e
F_VQ_NOTF_COAL=52
F_NOTF_COAL=53
F_HASH_REPORT=57
F_RSS=60

# load DEV RUN PROFILE COUNT [OPTION...]: ROUNDS loads of PROFILE, the
# report in /tmp/DEV-RUN.json.
load() {
	_dev=$1
	_run=$2
	_prof=$3
	_count=$4
	shift 4
	vdpactl-batch -j load --dev "$_dev" --profile "$_prof" \
		--count "$_count" --rounds $ROUNDS --mode parallel "$@" \
		>"/tmp/$_dev-$_run.json"
}

# field DEV RUN FILTER: a jq filter on that run's report.
field() {
	jq -r ".load.$1 | $3" "/tmp/$1-$2.json"
}

# sent DEV RUN NAME: how many NAME commands one load had (0 if none).
sent() {
	field "$1" "$2" ".commands.\"$3\" // 0"
}

# delta DEV RUN COUNTER: how much a CVQ counter rose during the loads.
delta() {
	field "$1" "$2" ".vstats.delta.\"$3\""
}

# redundant DEV: the module's count of commands that changed nothing.
redundant() {
	vdpactl-batch -j stats "$1" 2>/dev/null |
		jq -r ".module.$1.counters.redundant"
}

# counted DEV RUN CLASS NAMES...: the class's requests over the loads are
# ROUNDS times the commands of NAMES in one load, and none failed.
counted() {
	_dev=$1
	_prof=$2
	_class=$3
	shift 3
	_want=0
	for _n in "$@"; do
		_want=$((_want + $(sent "$_dev" "$_prof" "$_n")))
	done
	_want=$((_want * ROUNDS))
	_got="$(delta "$_dev" "$_prof" "cvq $_class requests")/$(delta \
		"$_dev" "$_prof" "cvq $_class errors")"
	[ "$_got" = "$_want/0" ] || {
		tap_diag "$_dev $_prof: cvq $_class requests/errors $_got, want $_want/0"
		return 1
	}
}

negotiated() {
	field "$1" "$2" ".negotiated_features | join(\",\")"
}

tap_plan 27
tb_load_batch
tap_ok "add r0 with RSS, NOTF_COAL and VQ_NOTF_COAL" \
	tb_dev_add r0 vdpasim_batch vhost_vdpa max_vqp $MAX_VQP \
	device_features "$(printf '0x%x' $((DEFAULT | 1 << F_RSS |
		1 << F_NOTF_COAL | 1 << F_VQ_NOTF_COAL)))"
tap_ok "add h0 with HASH_REPORT" \
	tb_dev_add h0 vdpasim_batch vhost_vdpa max_vqp $MAX_VQP \
	device_features "$(printf '0x%x' $((DEFAULT | 1 << F_HASH_REPORT)))"

# r0, qemu: 30 commands: the set-up ones, RSS_CONFIG among them, then VLANs.
before=$(redundant r0)
tap_ok "r0: --profile qemu runs" load r0 qemu qemu 30
plain=$(($(redundant r0) - before))
tap_is "$(sent r0 qemu RSS_CONFIG)/$(sent r0 qemu HASH_CONFIG)" 1/0 \
	"r0 qemu: one RSS_CONFIG per load, no HASH_CONFIG"
tap_is "$(field r0 qemu '.commands | keys | map(select(test("NOTF_COAL"))) | length')" \
	0 "r0 qemu: no coalescing command"
tap_ok "r0 qemu: RSS negotiated, the coalescing features not" sh -c \
	"echo ,$(negotiated r0 qemu), | grep ,RSS, | grep -qv NOTF_COAL"
tap_ok "r0 qemu: the device counted MQ_VQ_PAIRS_SET and RSS_CONFIG, all OK" \
	counted r0 qemu mq MQ_VQ_PAIRS_SET RSS_CONFIG
tap_is "$(delta r0 qemu "cvq errors")" 0 "r0 qemu: no command failed"

# r0, mixed: a cycle of 12 (no HASH_CONFIG), 10 times.
tap_ok "r0: --profile mixed runs" load r0 mixed mixed 120
tap_is "$(sent r0 mixed RSS_CONFIG)/$(sent r0 mixed NOTF_COAL_TX_SET)/$(sent \
	r0 mixed NOTF_COAL_RX_SET)/$(sent r0 mixed NOTF_COAL_VQ_SET)" \
	10/10/10/10 "r0 mixed: RSS_CONFIG and the three coalescing commands"
tap_ok "r0 mixed: the device counted the coalescing commands, all OK" \
	counted r0 mixed coal NOTF_COAL_TX_SET NOTF_COAL_RX_SET NOTF_COAL_VQ_SET
tap_ok "r0 mixed: and the MQ class, all OK" \
	counted r0 mixed mq MQ_VQ_PAIRS_SET RSS_CONFIG
tap_is "$(delta r0 mixed "cvq errors")" 0 "r0 mixed: no command failed"

# --skip-unchanged sends only what changes the state the tool can follow,
# and the rest, RSS_CONFIG and coalescing, always: none of those may be
# redundant either. The qemu profile's RSS_CONFIG is the same every load,
# so it changes state only because the MQ_VQ_PAIRS_SET before it, which
# ends RSS steering, is sent every load too.
tap_ok "r0: plain qemu loads re-send state the device has ($plain redundant)" \
	test "$plain" -gt 0
before=$(redundant r0)
tap_ok "r0: --profile qemu --skip-unchanged runs" \
	load r0 qemu-skip qemu 30 --skip-unchanged
tap_is "$(($(redundant r0) - before))" 0 \
	"r0 qemu --skip-unchanged: no command redundant"
tap_ok "r0 qemu --skip-unchanged: MQ_VQ_PAIRS_SET and RSS_CONFIG every load" \
	counted r0 qemu-skip mq MQ_VQ_PAIRS_SET RSS_CONFIG
before=$(redundant r0)
tap_ok "r0: --profile mixed --skip-unchanged runs" \
	load r0 mixed-skip mixed 120 --skip-unchanged
tap_is "$(($(redundant r0) - before))" 0 \
	"r0 mixed --skip-unchanged: no command redundant"
tap_ok "r0 mixed --skip-unchanged: every coalescing command sent, all OK" \
	counted r0 mixed-skip coal NOTF_COAL_TX_SET NOTF_COAL_RX_SET \
	NOTF_COAL_VQ_SET

# h0: HASH_CONFIG where r0 had RSS_CONFIG; the note names what is missing.
tap_ok "h0: --profile qemu runs" load h0 qemu qemu 30
tap_is "$(sent h0 qemu HASH_CONFIG)/$(sent h0 qemu RSS_CONFIG)" 1/0 \
	"h0 qemu: one HASH_CONFIG per load, no RSS_CONFIG"
tap_ok "h0 qemu: the device counted MQ_VQ_PAIRS_SET and HASH_CONFIG, all OK" \
	counted h0 qemu mq MQ_VQ_PAIRS_SET HASH_CONFIG
tap_ok "h0: --profile mixed runs" load h0 mixed mixed 90
tap_is "$(sent h0 mixed HASH_CONFIG)/$(delta h0 mixed "cvq coal requests")" \
	10/0 "h0 mixed: HASH_CONFIG in the cycle, no coalescing"
tap_ok "h0 mixed: the device counted the MQ class, all OK" \
	counted h0 mixed mq MQ_VQ_PAIRS_SET HASH_CONFIG
tap_ok "h0 mixed: the note names RSS_CONFIG and the coalescing commands" \
	sh -c "jq -r .load.h0.note /tmp/h0-mixed.json |
		grep 'RSS_CONFIG (RSS)' | grep 'NOTF_COAL_TX_SET (NOTF_COAL)' |
		grep -q 'NOTF_COAL_VQ_SET (VQ_NOTF_COAL)'"
tap_done
