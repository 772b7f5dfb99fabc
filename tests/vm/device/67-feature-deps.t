#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Feature dependencies (the network device's "Feature bit requirements")
# and the features the device cannot work without (VERSION_1,
# ACCESS_PLATFORM) hold at both ends: "vdpa dev add ... device_features"
# refuses a set that breaks them, and FEATURES_OK does not stick on one
# (vsbdrv --features negotiates exactly the bits given, going on to
# FEATURES_OK even when VHOST_SET_FEATURES failed, as a careless driver
# would). Bits: VERSION_1 32, ACCESS_PLATFORM 33, CTRL_VQ 17, CTRL_RX 18,
# GUEST_ANNOUNCE 21.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# refused DESC FEATURES: the add fails and leaves no device.
refused() {
	if vdpa dev add name bad mgmtdev vdpasim_batch device_features "$2" \
		2>/dev/null; then
		tap_result 1 "dev add: $1 is refused"
		vdpa dev del bad
		return
	fi
	tap_is "$(vdpa -j dev show | jq -r '.dev | has("bad")')" false \
		"dev add: $1 is refused"
}

# negotiated FEATURES: vsbdrv's verdict on FEATURES_OK for FEATURES.
negotiated() {
	vsbdrv --features "$1" "$(tb_vhost_chardev f0)"
}

tap_plan 7
tb_load_batch
refused "CTRL_RX without CTRL_VQ" 0x300040000
refused "GUEST_ANNOUNCE without CTRL_VQ" 0x300200000
tap_ok "dev add: CTRL_RX with CTRL_VQ is taken" \
	vdpa dev add name f1 mgmtdev vdpasim_batch device_features 0x300060000
tb_dev_add f0 vdpasim_batch vhost_vdpa
tap_is "$(negotiated 300040000)" "set_features=0 features_ok=0" \
	"FEATURES_OK does not stick on CTRL_RX without CTRL_VQ"
tap_is "$(negotiated 100020000)" "set_features=-22 features_ok=0" \
	"nor after a refused feature set without ACCESS_PLATFORM"
tap_is "$(negotiated 200020000)" "set_features=-22 features_ok=0" \
	"nor after a refused feature set without VERSION_1"
tap_is "$(negotiated 300060000)" "set_features=0 features_ok=1" \
	"it sticks on VERSION_1, ACCESS_PLATFORM, CTRL_VQ and CTRL_RX"
tb_dev_del f0
tb_dev_del f1
tap_done
