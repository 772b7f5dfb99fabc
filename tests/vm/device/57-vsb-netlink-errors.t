#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vdpa_sim_batch's netlink family refuses malformed and unprivileged
# requests with the right errno and an extended-ack message (sent by hand
# with vsbnl), vdpactl-batch prints that message, and STATE_GET dumps stay
# whole while devices are deleted and added under them.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# refused DESC ERRNO MESSAGE VSBNL-ARGS...: vsbnl gets ERRNO and an extack
# message containing MESSAGE.
refused() {
	_desc=$1
	_errno=$2
	_msg=$3
	shift 3
	_out=$(vsbnl "$@")
	case $_out in
	"error errno=$_errno "*"msg="*"$_msg"*)
		tap_result 0 "$_desc"
		;;
	*)
		tap_result 1 "$_desc"
		tap_diag "vsbnl $*" "got:  $_out" \
			"want: errno=$_errno, a message with \"$_msg\""
		;;
	esac
}

tap_plan 30
tb_load_batch
tb_load_stock
tb_dev_add b0 vdpasim_batch vhost_vdpa
tb_dev_add stock0 vdpasim_net vhost_vdpa

tap_is "$(vsbnl dev-get str:name=b0)" "ok replies=1" \
	"a well-formed request is answered"
refused "DEV_SET without a device name" EINVAL "name" \
	dev-set u8:completion=1
refused "STATE_GET without a name and without NLM_F_DUMP" EINVAL "name" \
	state-get
refused "an unknown device" ENODEV "no vdpa_sim_batch device" \
	state-get str:name=nosuch
refused "a stock vdpa_sim_net device is not the module's" ENODEV \
	"no vdpa_sim_batch device" stats-get str:name=stock0
refused "a u32 where the completion u8 belongs" EINVAL \
	"invalid attribute length" dev-set str:name=b0 u32:completion=1
refused "a u8 where the batch limit u32 belongs" EINVAL \
	"invalid attribute length" dev-set str:name=b0 u8:batch-limit=1
refused "a 64-byte device name" ERANGE "policy validation" \
	state-get strn:name=64
refused "an unknown completion mode" ERANGE "out of range" \
	dev-set str:name=b0 u8:completion=2
refused "an attribute type beyond the family's" EINVAL \
	"Unknown attribute type" dev-get str:name=b0 u32:200=1
refused "an attribute the command does not take" EINVAL "Unsupported" \
	dev-get str:name=b0 u8:completion=1
refused "DEV_SET without CAP_NET_ADMIN" EPERM "CAP_NET_ADMIN" \
	--drop-cap dev-set str:name=b0 u8:completion=0
# The cost model (VSB_A_COST, items 1 op ... 12 stats, 13 precise).
refused "a cost item above 1 s" ERANGE "out of range" \
	dev-set str:name=b0 nest:cost u32:1=1000000001 end
refused "a u8 where a cost item's u32 belongs" EINVAL \
	"invalid attribute length" dev-set str:name=b0 nest:cost u8:2=1 end
refused "a cost item beyond the model's" EINVAL "Unknown attribute type" \
	dev-set str:name=b0 nest:cost u32:14=1 end
refused "precise other than 0 or 1" ERANGE "out of range" \
	dev-set str:name=b0 nest:cost u8:13=2 end
refused "an empty cost" EINVAL "no cost item" \
	dev-set str:name=b0 nest:cost end
refused "a cost without CAP_NET_ADMIN" EPERM "CAP_NET_ADMIN" \
	--drop-cap dev-set str:name=b0 nest:cost u32:1=5000 end
tap_is "$(vdpactl-batch -j dev cost b0 | jq -c '.dev.b0.cost | [.op_ns, .cmd_ns]')" \
	"[0,0]" "none of them changed the model"
tap_is "$(vsbnl dev-set str:name=b0 nest:cost u32:1=1000000000 end)" \
	"ok replies=0" "a cost item of exactly 1 s is taken"
refused "STATS_RESET without CAP_NET_ADMIN" EPERM "CAP_NET_ADMIN" \
	--drop-cap stats-reset str:name=b0
# The control state holds the guest's MAC filter tables and VLANs: like
# vdpa's vendor statistics, reading it, and the statistics, needs admin.
for get in state-get stats-get; do
	refused "${get%-get} GET without CAP_NET_ADMIN" EPERM "CAP_NET_ADMIN" \
		--drop-cap "$get" str:name=b0
	refused "${get%-get} dump without CAP_NET_ADMIN" EPERM "CAP_NET_ADMIN" \
		--drop-cap --dump "$get"
done
tap_is "$(vsbnl --drop-cap dev-get str:name=b0)" "ok replies=1" \
	"reading the device's settings needs no privilege"
tap_ok "vdpactl-batch prints the kernel's message" sh -c \
	'vdpactl-batch dev set nosuch completion batch 2>&1 >/dev/null |
	grep -q "^vdpactl-batch: dev set nosuch: No such device: no vdpa_sim_batch device of this name$"'

# Four devices; three are deleted and re-added in the background while
# STATE_GET dumps run. Every dump must end cleanly; the kernel log is
# checked for warnings by the harness.
for d in b1 b2 b3; do
	tb_dev_add "$d" vdpasim_batch vhost_vdpa
done
tap_is "$(vsbnl --dump state-get)" "ok replies=4" "a dump of four devices"
(
	for i in 1 2 3 4 5 6 7 8 9 10; do
		for d in b1 b2 b3; do
			vdpa dev del "$d"
			vdpa dev add name "$d" mgmtdev vdpasim_batch
		done
		[ "$i" = 10 ] && vdpa dev del b3
	done
) &
churn=$!
bad=0
dumps=0
while kill -0 "$churn" 2>/dev/null || [ "$dumps" -lt 20 ]; do
	out=$(vsbnl --dump state-get)
	dumps=$((dumps + 1))
	case $out in
	"ok replies="[1-4]) ;;
	*)
		bad=$((bad + 1))
		tap_diag "dump $dumps: $out"
		;;
	esac
	vdpactl-batch -j dev state >/dev/null || bad=$((bad + 1))
done
wait "$churn"
tap_is "$bad" 0 "$dumps STATE_GET dumps during deletions all completed"

# A dump resumes after the last device it sent, even when one sent before
# it is deleted in between. A dump message holds what fits NLMSG_GOODSIZE
# (3 devices' statistics), one is filled at the request and the next
# during each read: of twelve devices, the first goes away after the first
# read, when six were sent, and all the others must still come.
for d in b0 b1 b2; do
	vdpa dev del "$d"
done
devs="d0 d1 d2 d3 d4 d5 d6 d7 d8 d9 d10 d11"
for d in $devs; do
	vdpa dev add name "$d" mgmtdev vdpasim_batch
done
out=$(vsbnl --names --recv-len 4096 --after-first "vdpa dev del d0" \
	--dump stats-get)
tap_diag "$out"
missing=
for d in ${devs#d0 }; do
	case ",${out#*names=}," in
	*",$d,"*) ;;
	*) missing="$missing $d" ;;
	esac
done
tap_is "$missing" "" "no device is skipped when one already sent is deleted"
tap_done
