# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Read the Debian archive URI from the machine's own apt configuration,
# and what the enabled suites hold.
#
# The project must never name a package mirror: whatever mirror the machine
# already uses for its release is the one the backports entry points at.

# suite_version PACKAGE SUITE: the candidate version of PACKAGE in SUITE,
# from the current apt lists.
suite_version() {
	apt-cache madison "$1" 2>/dev/null |
		awk -F'|' -v s="$2" '$3 ~ "[ /]" s "/" { gsub(/ /, "", $2); print $2; exit }'
}

# debian_archive_uri CODENAME [FILE...]
# Print the first URI that serves suite CODENAME with component "main",
# from deb822 (*.sources) or one-line (*.list) files. Entries marked
# "Enabled: no", deb-src lines and other suites (CODENAME-security,
# CODENAME-updates) are ignored. Prints nothing when none matches.
debian_archive_uri() {
	local codename=$1
	shift
	if [ $# -eq 0 ]; then
		set -- /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
			/etc/apt/sources.list.d/*.sources
	fi
	local f
	for f in "$@"; do
		[ -r "$f" ] || continue
		case "$f" in
		*.sources) deb822_uri "$codename" <"$f" ;;
		*) oneline_uri "$codename" <"$f" ;;
		esac
	done | head -n 1
}

deb822_uri() {
	awk -v want="$1" '
	function flush() {
		if (enabled && types ~ /(^| )deb( |$)/ && has(suites, want) &&
		    has(comps, "main") && uris != "") {
			split(uris, u, " ")
			print u[1]
		}
		types = suites = comps = uris = ""
		enabled = 1
	}
	function has(list, word,    n, i, w) {
		n = split(list, w, " ")
		for (i = 1; i <= n; i++)
			if (w[i] == word)
				return 1
		return 0
	}
	BEGIN { enabled = 1 }
	/^[ \t]*#/ { next }
	/^[ \t]*$/ { flush(); next }
	{
		key = tolower($1)
		sub(/^[^:]*:[ \t]*/, "")
		if (key == "types:") types = $0
		else if (key == "uris:") uris = $0
		else if (key == "suites:") suites = $0
		else if (key == "components:") comps = $0
		else if (key == "enabled:") enabled = (tolower($0) != "no")
	}
	END { flush() }
	'
}

oneline_uri() {
	awk -v want="$1" '
	/^[ \t]*#/ { next }
	$1 == "deb" {
		i = 2
		if ($i ~ /^\[/)
			while (i <= NF && $i !~ /\]$/)
				i++
		if ($i ~ /^\[/ || $i ~ /\]$/)
			i++
		uri = $i; suite = $(i + 1)
		if (suite != want)
			next
		for (j = i + 2; j <= NF; j++)
			if ($j == "main") {
				print uri
				next
			}
	}
	'
}
