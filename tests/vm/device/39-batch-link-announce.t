#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Link status and announcements through the kernel's virtio_net:
# "vdpactl-batch dev link DEV down|up" changes VIRTIO_NET_S_LINK_UP with a
# config interrupt, and the interface's carrier follows (and stays off
# across a driver rebind: a cable stays unplugged through a reset);
# "vdpactl-batch dev announce DEV" sets VIRTIO_NET_S_ANNOUNCE, and the
# driver sends one gratuitous ARP (a 42-byte frame, seen on the loopback)
# and acks with ANNOUNCE_ACK, which clears it. Both are refused, with the
# kernel's reason, where the features they need are missing.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

DEV=l0
STATUS_BIT=$((1 << 16))

carrier_is() {
	[ "$(cat "/sys/class/net/$X/carrier" 2>/dev/null)" = "$1" ]
}

# config_link: what "vdpa dev config show" reads in the status field (its
# text: bookworm's iproute2 spells the JSON key "link " with a space).
config_link() {
	vdpa dev config show $DEV |
		awk '{ for (i = 1; i < NF; i++) if ($i == "link") print $(i + 1) }'
}

state() {
	vdpactl-batch -j dev state $DEV | jq -r ".state.$DEV.$1"
}

vstat() {
	vdpa -j dev vstats show $DEV qidx "$1" | jq -r ".vstats.$DEV.\"$2\""
}

not_pending() {
	[ "$(state announce_pending)" = false ]
}

# up_with_address: the interface up, IPv4 only (no IPv6 chatter).
up_with_address() {
	X=$(tb_netdev $DEV) &&
		echo 1 >"/proc/sys/net/ipv6/conf/$X/disable_ipv6" &&
		ip link set "$X" up && ip addr add 192.0.2.1/24 dev "$X"
}

tap_plan 21
tb_load_batch
FEATURES=$(tb_features_hex vdpasim_batch)
tap_ok "add with GUEST_ANNOUNCE" \
	tb_dev_add $DEV vdpasim_batch virtio_vdpa device_features "$FEATURES" \
	mac 02:42:00:00:00:40
tb_wait 10 tb_netdev $DEV >/dev/null || exit 1
up_with_address
tap_ok "the carrier is on" tb_wait 5 carrier_is 1
tap_is "$(config_link)/$(state link)" up/up "config space and state: link up"

tx=$(vstat 1 "tx packets")
tap_ok "dev link $DEV down" vdpactl-batch dev link $DEV down
tap_ok "virtio_net turns the carrier off" tb_wait 5 carrier_is 0
tap_is "$(config_link)/$(state link)" down/down \
	"config space and state: link down"
ping -c 2 -W 1 192.0.2.2 >/dev/null 2>&1
tap_is "$(vstat 1 "tx packets")" "$tx" "no frame reaches the device"
echo $DEV >/sys/bus/vdpa/drivers/virtio_vdpa/unbind
tb_bind $DEV virtio_vdpa
tb_wait 10 tb_netdev $DEV >/dev/null
up_with_address
sleep 1
tap_ok "after a rebind (a reset) the carrier is still off" carrier_is 0
tap_ok "dev link $DEV up" vdpactl-batch dev link $DEV up
tap_ok "the carrier is on again" tb_wait 5 carrier_is 1
tap_ok "setting what is set is no error" vdpactl-batch dev link $DEV up

# Let the link-up chatter settle (a gratuitous ARP of its own, maybe).
sleep 2
tx=$(vstat 1 "tx packets")
txb=$(vstat 1 "tx bytes")
rx=$(vstat 0 "rx packets")
acks=$(vstat 2 "cvq announce requests")
tap_ok "dev announce $DEV" vdpactl-batch dev announce $DEV
tap_ok "virtio_net acks it, which clears it" tb_wait 5 not_pending
tap_is "$(vstat 2 "cvq announce requests")" $((acks + 1)) \
	"one ANNOUNCE_ACK through the CVQ"
sleep 1
tap_is "$(($(vstat 1 "tx packets") - tx))/$(($(vstat 1 "tx bytes") - txb))" \
	1/42 "one gratuitous ARP went out (42 bytes)"
tap_is "$(vstat 0 "rx packets")" $((rx + 1)) "and came back"
tap_is "$(config_link)" up "the link stays up"

tap_fails "dev link on a bad argument" vdpactl-batch dev link $DEV sideways
tb_dev_del $DEV
tb_dev_add n0 vdpasim_batch virtio_vdpa mac 02:42:00:00:00:41
tb_wait 10 tb_netdev n0 >/dev/null
out=$(vdpactl-batch dev announce n0 2>&1)
tap_ok "announce refused without GUEST_ANNOUNCE" test $? -ne 0
says_why() {
	printf '%s' "$out" | grep -q GUEST_ANNOUNCE
}
tap_ok "with the kernel's reason" says_why
tb_dev_del n0
tb_dev_add s0 vdpasim_batch vhost_vdpa \
	device_features "$(printf '0x%x' $((FEATURES & ~STATUS_BIT)))"
tap_fails "link refused on a device without STATUS" \
	vdpactl-batch dev link s0 down
tap_done
