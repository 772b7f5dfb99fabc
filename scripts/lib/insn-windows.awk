# SPDX-License-Identifier: GPL-2.0-only
#
# The insn_count plugin's windows (tools/insn-count) summed per run, with
# the client's vCPU told from the device's: the guest pins the client to
# vCPU 0 and every device's worker to vCPU 1.
#
# Input, in this order:
#   1. the guest's output: "slot N DEVICE MODE" lines name the runs; a
#      "compare JSON" line gives compare's medians, in the runs' order;
#   2. the plugin's windows, "slot=S user=U kernel=K vcpu0.user=..."
#
# Output, one line per run named by the guest, in slot order:
#   run SLOT DEVICE MODE WINDOWS USER KERNEL CLIENT_USER CLIENT_KERNEL
#       DEVICE DEVICE_EVEN DEVICE_ODD MEDIAN_US
# sums over the run's windows, but DEVICE_EVEN and DEVICE_ODD: the
# device's count per load over the even and over the odd loads (a window
# is a load), two runs in one; DEVICE_ODD "-" for a run of one load.
# MEDIAN_US "-" where the guest gave none. Exits 1, saying why, on a window without
# vCPU 1 or a guest that named no run.
FNR == NR {
	if ($1 == "slot") {
		dev[$2] = $3
		mode[$2] = $4
		order[n++] = $2
	}
	if ($1 == "compare") {
		line = substr($0, 9)
		while (match(line, /"median_us_per_command":[0-9.]+/)) {
			med[m++] = substr(line, RSTART + 24, RLENGTH - 24)
			line = substr(line, RSTART + RLENGTH)
		}
	}
	next
}
{
	delete f
	for (i = 1; i <= NF; i++) {
		split($i, kv, "=")
		f[kv[1]] = kv[2]
	}
	if (!("vcpu1.kernel" in f)) {
		printf "insn-windows: a window without vCPU 1: %s\n", $0
		bad = 1
		exit 1
	}
	s = f["slot"]
	d = f["vcpu1.user"] + f["vcpu1.kernel"]
	half[s, windows[s]++ % 2] += d
	user[s] += f["user"]
	kernel[s] += f["kernel"]
	cuser[s] += f["vcpu0.user"]
	ckernel[s] += f["vcpu0.kernel"]
	device[s] += d
}
END {
	if (bad)
		exit 1
	if (!n) {
		print "insn-windows: no runs named by the guest"
		exit 1
	}
	for (i = 0; i < n; i++) {
		s = order[i]
		w = windows[s]
		even = w ? sprintf("%.2f", half[s, 0] / int((w + 1) / 2)) : "-"
		odd = w > 1 ? sprintf("%.2f", half[s, 1] / int(w / 2)) : "-"
		printf "run %s %s %s %d %.0f %.0f %.0f %.0f %.0f %s %s %s\n",
			s, dev[s], mode[s], w, user[s], kernel[s], cuser[s],
			ckernel[s], device[s], even, odd, i < m ? med[i] : "-"
	}
}
