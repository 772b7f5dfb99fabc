#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# contrib/bash-completion/vdpactl-batch offers what the tool takes, with
# device names from a fake sysfs and management devices from a stand-in
# for the tool; once in plain bash and once under bash-completion's
# _init_completion, as an interactive Debian shell has it.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

COMPLETION=$PWD/contrib/bash-completion/vdpactl-batch
BASH_COMPLETION_LIB=/usr/share/bash-completion/bash_completion
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Three devices: two on vhost_vdpa, one on virtio_vdpa.
sys=$tmp/sys
mkdir -p "$sys/bus/vdpa/drivers/vhost_vdpa" "$sys/bus/vdpa/drivers/virtio_vdpa"
for d in batch0:vhost_vdpa stock0:vhost_vdpa vnet0:virtio_vdpa; do
	mkdir -p "$sys/bus/vdpa/devices/${d%:*}"
	ln -s "../../drivers/${d#*:}" "$sys/bus/vdpa/devices/${d%:*}/driver"
done

# The tool's text "mgmtdev show" output, one record with a BUS/NAME handle.
cat >"$tmp/vdpactl-batch" <<'EOF'
#!/bin/sh
[ "$1 $2" = "mgmtdev show" ] || exit 2
cat <<'EOT'
vdpasim_batch: 
  supported_classes net
  max_supported_vqs 17
  dev_features MAC MTU STATUS CTRL_VQ
pci/0000:3b:00.2: 
  supported_classes net
vdpasim_net: 
  supported_classes net
EOT
EOF
chmod +x "$tmp/vdpactl-batch"

# complete_line MODE LINE: the sorted completions of LINE (cursor at its
# end), space-separated. MODE "plain" or "bash-completion".
complete_line() {
	bash --norc --noprofile -c '
		mode=$1 line=$2 tool=$3
		if [ "$mode" = bash-completion ]; then
			. "$4" || exit 3
		fi
		. "$5" || exit 4
		_vdpactl_batch_sysfs=$6
		read -ra COMP_WORDS <<<"$line"
		[[ $line == *" " ]] && COMP_WORDS+=("")
		COMP_WORDS[0]=$tool
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="$tool ${line#* }"
		COMP_POINT=${#COMP_LINE}
		_vdpactl_batch
		printf "%s\n" "${COMPREPLY[@]}" | sort | xargs
	' complete_line "$1" "$2" "$tmp/vdpactl-batch" "$BASH_COMPLETION_LIB" \
		"$COMPLETION" "$sys"
}

# check MODE LINE WANT
check() {
	tap_is "$(complete_line "$1" "$2")" "$3" "$1: '$2'"
}

CASES=(
	'vdpactl-batch |compare dev help inject load mgmtdev stats'
	'vdpactl-batch -|--help --json --pretty --verbose --version -V -h -j -p -v'
	'vdpactl-batch -j d|dev'
	'vdpactl-batch dev |add announce batching config cost del fault help link list set show state vstats'
	'vdpactl-batch dev show |batch0 stock0 vnet0'
	'vdpactl-batch dev link batch0 |down up'
	'vdpactl-batch dev announce |batch0 stock0 vnet0'
	'vdpactl-batch dev vstats show |batch0 help stock0 vnet0'
	'vdpactl-batch dev vstats show batch0 |qidx reset'
	'vdpactl-batch d con s |batch0 stock0 vnet0'
	'vdpactl-batch dev cost batch0 |announce cmd coal mac mac_table mq offloads op precise rss rx stats vlan'
	'vdpactl-batch dev cost batch0 op 20us precise |off on'
	'vdpactl-batch dev fault |batch0 help stock0 vnet0'
	'vdpactl-batch dev fault batch0 |add clear help show'
	'vdpactl-batch dev fault batch0 add |delay help nack reorder reset silent stall'
	'vdpactl-batch dev fault batch0 a nack |class every nth persist probability seed times'
	'vdpactl-batch dev fault batch0 add nack class |ANNOUNCE GUEST_OFFLOADS MAC MQ NOTF_COAL RX STATS VLAN'
	'vdpactl-batch dev fault batch0 add nack class MAC |cmd every nth persist probability seed times'
	'vdpactl-batch dev fault batch0 add nack class vlan cmd |VLAN_ADD VLAN_DEL'
	'vdpactl-batch dev fault batch0 add delay |'
	'vdpactl-batch dev fault batch0 add stall persist every 3 |class nth probability seed times'
	'vdpactl-batch dev f batch0 show |'
	'vdpactl-batch load --dev |batch0 stock0'
	'vdpactl-batch load --prof |mac mixed qemu vlan'
	'vdpactl-batch load --count 30 --mode parallel --|--asid --cold --dev --kick --profile --restore-mac --ring --ring-size --rounds --skip-unchanged --timeout --trace --trace-marks --wait'
	'vdpactl-batch compare --dev batch0 --|--asid --baseline --cold --count --cpu --csv --dev --first-round --kick --profile --restore-mac --ring --ring-size --rounds --samples --timeout --trace-marks --turn --wait'
	'vdpactl-batch compare --baseline |batch0 stock0'
	'vdpactl-batch compare --kick |each once'
	'vdpactl-batch load --ring |packed split'
	'vdpactl-batch dev add name b1 mgmtdev |pci/0000:3b:00.2 vdpasim_batch vdpasim_net'
	'vdpactl-batch dev add name b1 mgmtdev vdpasim_batch m|mac max_vqp mtu'
	'vdpactl-batch dev set batch0 completion |batch immediate'
	'vdpactl-batch dev set batch0 completion batch |batch-limit'
	'vdpactl-batch mgmtdev show |pci/0000:3b:00.2 vdpasim_batch vdpasim_net'
	'vdpactl-batch stats |batch0 help stock0 vnet0'
	'vdpactl-batch stats batch0 |qidx reset'
	'vdpactl-batch stats batch0 qidx |'
	'vdpactl-batch stats batch0 qidx 2 |reset'
	'vdpactl-batch stats batch0 reset |qidx'
	'vdpactl-batch dev set batch0 |batch-limit completion'
	'vdpactl-batch dev set batch0 batch-limit 8 |completion'
	'vdpactl-batch dev set |batch0 name stock0 vnet0'
	'vdpactl-batch dev set name batch0 |mac'
	'vdpactl-batch dev batching batch0 |batch_limit completion'
	'vdpactl-batch dev batching batch0 completion |batch immediate'
	'vdpactl-batch dev s |'
	'vdpactl-batch inject |help list'
	'vdpactl-batch inject next-loop --|--dev --no-recovery --ring --rounds --timeout'
	'vdpactl-batch inject packed-id-range --ring |packed split'
	'vdpactl-batch inject next-loop --dev |batch0 stock0'
)

modes=(plain bash-completion)
tap_plan $((${#CASES[@]} * ${#modes[@]} + 1))

# shellcheck disable=SC2016 # the inner shell expands $1
tap_ok "the file registers _vdpactl_batch for vdpactl-batch" \
	bash --norc --noprofile -c '. "$1" && complete -p vdpactl-batch |
		grep -qx "complete -F _vdpactl_batch vdpactl-batch"' sh "$COMPLETION"

for mode in "${modes[@]}"; do
	if [ "$mode" = bash-completion ] && [ ! -r "$BASH_COMPLETION_LIB" ]; then
		for c in "${CASES[@]}"; do
			tap_skip "$mode: '${c%%|*}'" \
				"no $BASH_COMPLETION_LIB (Debian package bash-completion)"
		done
		continue
	fi
	for c in "${CASES[@]}"; do
		check "$mode" "${c%%|*}" "${c#*|}"
	done
done
tap_done
