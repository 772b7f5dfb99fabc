#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# One version number: vdpactl-batch -V, the module's MODULE_VERSION
# (DRV_VERSION) and dkms.conf's PACKAGE_VERSION say the same.
#
# VDPACTL=/path/to/vdpactl-batch tests another build; by default the test
# builds the tool ("make tool").
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

if [ -z "${VDPACTL:-}" ]; then
	make -s tool >/dev/null || exit 1
	VDPACTL=build/tool/vdpactl-batch
fi
module=$(sed -n 's/^#define DRV_VERSION "\(.*\)"$/\1/p' kmod/vdpa/vsb_main.c)
dkms=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)

tap_plan 3
tap_ok "the module has a DRV_VERSION ($module)" test -n "$module"
tap_is "$("$VDPACTL" -V)" "vdpactl-batch $module" "the tool's is the module's"
tap_is "$dkms" "$module" "dkms.conf's is the module's"
tap_done
