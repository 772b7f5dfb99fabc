# SPDX-License-Identifier: GPL-2.0-only
#
# Where the guest instructions of scripts/bench-insns.sh went: the
# insn_count plugin's profile (one line per translation block and slot)
# named after the guest's /proc/kallsyms, summed per function and per
# module, and printed per command for every run of one boot.
#
# Input, in this order:
#   1. the guest's output: "slot N DEVICE MODE" lines name the runs;
#   2. one stream sorted by "LC_ALL=C sort -k1,1 -k2,2n" of
#        ADDR 0 NAME [MODULE]    text symbols (ADDR: 16 hex digits)
#        ADDR 1 SLOT INSNS       profile lines
#      so that every block follows the symbol it starts in. Blocks below
#      the first kernel symbol are user space: "[user]".
#
# Variables: cmds (commands per run), top (functions per run), title.
FNR == NR {
	if ($1 == "slot") {
		label[$2] = $3 " " $4
		mode[$2] = $4
		runs[++nruns] = $2
	}
	next
}
$2 == 0 {
	func_name = $3
	module = NF >= 4 ? $4 : "[vmlinux]"
	next
}
$2 == 1 {
	fn = func_name == "" ? "[user]" : func_name " " module
	mod = func_name == "" ? "[user]" : module
	by_func[$3, fn] += $4
	by_mod[$3, mod] += $4
	total[$3] += $4
	if (!((mod) in mods)) {
		mods[mod] = 1
		mod_list[++nmods] = mod
	}
	funcs[$3, fn] = 1
	next
}
END {
	if (!nruns) {
		print "insn-profile: no runs reported by the guest"
		exit 1
	}
	for (r = 1; r <= nruns; r++)
		if (!total[runs[r]]) {
			printf "insn-profile: %s: no instructions profiled\n", label[runs[r]]
			exit 1
		}
	printf "%s: guest instructions per command by module\n", title
	printf "%-22s", "MODULE"
	for (r = 1; r <= nruns; r++)
		printf " %16s", label[runs[r]]
	printf "\n"
	for (m = 1; m <= nmods; m++) {
		printf "%-22s", mod_list[m]
		for (r = 1; r <= nruns; r++)
			printf " %16.0f", by_mod[runs[r], mod_list[m]] / cmds
		printf "\n"
	}
	printf "%-22s", "total"
	for (r = 1; r <= nruns; r++)
		printf " %16.0f", total[runs[r]] / cmds
	printf "\n\n"
	for (r = 1; r <= nruns; r++) {
		s = runs[r]
		printf "%s, %s: the %d functions that ran most, instructions per command\n", title, label[s], top
		# Selection by repeated maximum: a few hundred functions a run.
		delete shown
		for (i = 1; i <= top; i++) {
			best = ""
			for (key in funcs) {
				split(key, k, SUBSEP)
				if (k[1] != s || (key in shown))
					continue
				if (best == "" || by_func[key] > by_func[best])
					best = key
			}
			if (best == "")
				break
			shown[best] = 1
			split(best, k, SUBSEP)
			printf "%10.0f %5.1f%%  %s\n", by_func[best] / cmds, 100 * by_func[best] / total[s], k[2]
		}
		printf "\n"
	}
}
