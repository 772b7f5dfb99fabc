#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# "make install DESTDIR=..." stages the module, the tool, its man page, the
# bash completion and the example configuration where mk/install.mk says,
# each of them usable; "make uninstall" takes exactly that away again.
# The sh -c '...' checks take their file as $1, expanded by that shell.
# shellcheck disable=SC2016
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
# modinfo, modprobe and dkms live in sbin, which a user's PATH may lack.
PATH=$PATH:/usr/sbin:/sbin

dest=$(mktemp -d)
tmp=$(mktemp -d)
trap 'rm -rf "$dest" "$tmp"' EXIT

tap_plan 16

if ! make install DESTDIR="$dest" >"$tmp/install.log" 2>&1; then
	tap_result 1 "make install DESTDIR=..."
	tap_diag "$(tail -n 30 "$tmp/install.log")"
	exit 1
fi
tap_result 0 "make install DESTDIR=..."

# The module: one file, under the release it was built for.
mapfile -t kos < <(find "$dest/lib/modules" -path '*/updates/kmod/vdpa_sim_batch.ko*')
tap_is "${#kos[@]}" 1 "one vdpa_sim_batch.ko[.xz] under lib/modules/KREL/updates/kmod"
ko=${kos[0]:-/missing}
krel=${ko#"$dest"/lib/modules/}
krel=${krel%%/*}
tap_is "$(modinfo -F name "$ko" 2>&1)" vdpa_sim_batch "the module's name is vdpa_sim_batch"
vermagic=$(modinfo -F vermagic "$ko" 2>&1)
tap_is "${vermagic%% *}" "$krel" "its vermagic names the release it is installed for ($krel)"
tap_ok "no module index was written into DESTDIR (depmod is the packager's)" \
	test ! -e "$dest/lib/modules/$krel/modules.dep"

prefix=$dest/usr/local
tool=$prefix/sbin/vdpactl-batch
tap_ok "the tool runs -V" sh -c '"$1" -V | grep -qx "vdpactl-batch [0-9][0-9.]*"' sh "$tool"

page=$prefix/share/man/man8/vdpactl-batch.8
tap_is "$(groff -man -Tutf8 -ww -z "$page" 2>&1)" "" \
	"the man page formats without groff warnings"
tap_ok "man -l renders its NAME and SYNOPSIS" sh -c \
	'MANWIDTH=80 man -l "$1" 2>&1 | grep -q "^NAME" &&
	 MANWIDTH=80 man -l "$1" 2>&1 | grep -q "vdpactl-batch load --count N"' sh "$page"

completion=$prefix/share/bash-completion/completions/vdpactl-batch
tap_ok "the bash completion registers itself" bash --norc --noprofile -c \
	'. "$1" && complete -p vdpactl-batch | grep -q "_vdpactl_batch"' sh "$completion"

examples=$prefix/share/doc/vdpa-batch/examples
modprobe_conf=$examples/modprobe.d/vdpa_sim_batch.conf
tap_ok "modprobe reads the modprobe.d example" sh -c \
	'modprobe -C "$1" --showconfig | grep -q "^options vdpa_sim_batch "' \
	sh "$modprobe_conf"
# Each parameter the example sets is one the module has.
params=$(sed -n 's/^options vdpa_sim_batch //p' "$modprobe_conf" |
	tr ' ' '\n' | sed -n 's/=.*//p' | sort)
known=$(modinfo -F parm "$ko" | sed 's/:.*//' | sort)
tap_is "$(comm -23 <(echo "$params") <(echo "$known") | xargs)" "" \
	"the example's options ($(echo "$params" | xargs)) are module parameters"
load_conf=$examples/modules-load.d/vdpa_sim_batch.conf
tap_ok "the modules-load.d example lists only module names, vdpa_sim_batch too" \
	sh -c '! grep -v -e "^#" -e "^\$" "$1" | grep -qv "^[a-z0-9_-]*\$" &&
	grep -qx vdpa_sim_batch "$1"' sh "$load_conf"

# Another prefix.
tap_ok "PREFIX=/usr puts the tool in /usr/sbin" sh -c \
	'make install-tool DESTDIR="$1" PREFIX=/usr >/dev/null 2>&1 &&
	 test -x "$1/usr/sbin/vdpactl-batch"' sh "$tmp/usr-prefix"

# Uninstall.
if make uninstall DESTDIR="$dest" >"$tmp/uninstall.log" 2>&1; then
	tap_result 0 "make uninstall DESTDIR=..."
else
	tap_result 1 "make uninstall DESTDIR=..."
	tap_diag "$(tail -n 30 "$tmp/uninstall.log")"
fi
tap_is "$(find "$dest" \( -type f -o -type l \) -printf '%P ')" "" \
	"no file is left after uninstall"
tap_ok "the package's doc directory is gone" \
	test ! -e "$prefix/share/doc/vdpa-batch"
tap_done
