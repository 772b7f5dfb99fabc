#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# vdpa_sim_batch.ko built for the other test-bed kernel (Debian's 6.12 and
# the newest kernel in the archive, each the other's; mkinitramfs.sh packs it
# in other/RELEASE) names that kernel in its vermagic and is refused here,
# while the build for this kernel loads: the compatibility matrix cannot
# load the wrong build and count it as this kernel's.
. tests/lib/tap.sh
. testbed/lib/testbed.sh

# vermagic KO: the module's vermagic string (busybox modinfo wants a
# modules.dep, and tr on a 5 MB module takes seconds under TCG).
vermagic() {
	grep -a -o -m 1 'vermagic=[^[:cntrl:]]*' "$1" | sed 's/^vermagic=//'
}

other_ko=
for dir in "$TB_MODDIR"/other/*; do
	[ -e "$dir/vdpa_sim_batch.ko" ] && other_ko=$dir/vdpa_sim_batch.ko
done
if [ -z "$other_ko" ]; then
	echo "1..0 # SKIP no other kernel's build in the image: the archive has no kernel newer than the test bed's"
	exit 0
fi
other=$(basename "$(dirname "$other_ko")")
own_ko=$TB_MODDIR/vdpa-batch/vdpa_sim_batch.ko  # what tb_load_batch loads

tap_plan 8
tap_ok "the other kernel ($other) is not this one ($(uname -r))" \
	test "$other" != "$(uname -r)"
tap_is "$(vermagic "$other_ko" | cut -d' ' -f1)" "$other" \
	"the other build's vermagic names $other"
tap_is "$(vermagic "$own_ko" | cut -d' ' -f1)" "$(uname -r)" \
	"this build's vermagic names $(uname -r)"
dmesg -c >/dev/null
tap_fails "insmod of the build for $other fails" insmod "$other_ko"
# busybox insmod tries finit_module, then init_module: two lines.
refusal=$(dmesg | grep -m 1 -E 'vdpa_sim_batch: (version magic|disagrees about version of symbol)')
tap_ok "the kernel refuses it for its version" test -n "$refusal"
tap_diag "$refusal"
tap_fails "and it is not loaded" test -e /sys/module/vdpa_sim_batch
tap_ok "the build for this kernel loads" tb_load_batch
tap_ok "and unloads" rmmod vdpa_sim_batch
tap_done
