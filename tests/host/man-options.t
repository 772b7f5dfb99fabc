#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every option and keyword that vdpactl-batch's help prints -- the top
# usage and each object's "help" -- is in the man page source, set in bold
# or as a literal (a word of running text does not count), and is a word
# the bash completion knows. The checks are also run on copies with one
# option removed, which they must reject.
#
# VDPACTL=/path/to/vdpactl-batch tests another build; by default the test
# builds the tool ("make tool").
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
export LC_ALL=C

MAN_SRC=Documentation/vdpactl-batch.8.rst
COMPLETION=contrib/bash-completion/vdpactl-batch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -z "${VDPACTL:-}" ]; then
	if ! make tool >"$tmp/build.log" 2>&1; then
		echo "Bail out! make tool failed"
		sed 's/^/# /' "$tmp/build.log"
		exit 1
	fi
	VDPACTL=build/tool/vdpactl-batch
fi

# usage_lines: the synopsis lines of a help text on stdin: "Usage:" and
# the lines that continue it (indented, or "where ...").
usage_lines() {
	awk '/^Usage:/ { on = 1; print; next }
		on && (/^[ \t]/ || /^where /) { print; next }
		{ on = 0 }'
}

# tokens: the options and keywords of synopsis lines on stdin, one a line.
# "-j[son]" stands for -j and --json; UPPERCASE words are placeholders.
tokens() {
	perl -ne 's/^(Usage:|where)\s//;
		s/-([A-Za-z])\[([a-z]+)\]/"-$1 --" . lc($1) . $2/ge;
		print "$_\n" for grep { /^--?[A-Za-z][A-Za-z0-9-]*$/ ||
			/^[a-z][a-z0-9_-]*$/ } split /[\s\[\]{}|]+/' | sort -u
}

# The words set in bold (**...**) or as literals (``...``) in an rst file.
rst_marked_words() {
	perl -ne 'while (/\*\*(.+?)\*\*|``(.+?)``/g) {
		print "$_\n" for grep { length } split /[^A-Za-z0-9_-]+/,
			defined $1 ? $1 : $2 }' "$1" | sort -u
}

file_words() {
	tr -c 'A-Za-z0-9_-' '\n' <"$1" | grep -v '^$' | sort -u
}

# missing TOKENS WORDS: the tokens that are not among the words.
missing() {
	comm -23 "$1" "$2"
}

"$VDPACTL" help 2>&1 | usage_lines >"$tmp/usage"
objects=$(sed -n 's/^where *OBJECT := {\(.*\)}$/\1/p' "$tmp/usage" | tr -d '|' | xargs)
for obj in $objects; do
	"$VDPACTL" "$obj" help 2>&1 | usage_lines >>"$tmp/usage"
done
tokens <"$tmp/usage" >"$tmp/tokens"
rst_marked_words "$MAN_SRC" >"$tmp/man-words"
file_words "$COMPLETION" >"$tmp/completion-words"

# A real option to take out of copies of both files: the last one listed.
victim=$(grep -- '^--' "$tmp/tokens" | tail -n 1)
perl -pe "s/\Q$victim\E(?![A-Za-z0-9_-])//g" "$MAN_SRC" >"$tmp/man-without.rst"
perl -pe "s/\Q$victim\E(?![A-Za-z0-9_-])//g" "$COMPLETION" >"$tmp/completion-without"
rst_marked_words "$tmp/man-without.rst" >"$tmp/man-words-without"
file_words "$tmp/completion-without" >"$tmp/completion-words-without"

tap_plan 7
tap_ok "the help names objects ($objects)" test -n "$objects"
tap_ok "the help yields options and keywords ($(wc -l <"$tmp/tokens"))" \
	test "$(wc -l <"$tmp/tokens")" -ge 40
tap_is "$(grep -cxF -e --count -e max_vqp -e --json -e help "$tmp/tokens")" 4 \
	"the tokens include --count, max_vqp, --json and help"
tap_is "$(missing "$tmp/tokens" "$tmp/man-words" | xargs)" "" \
	"every option and keyword of the help is marked up in $MAN_SRC"
tap_is "$(missing "$tmp/tokens" "$tmp/man-words-without" | xargs)" "$victim" \
	"a man page without $victim fails the check"
tap_is "$(missing "$tmp/tokens" "$tmp/completion-words" | xargs)" "" \
	"every option and keyword of the help is known to $COMPLETION"
tap_is "$(missing "$tmp/tokens" "$tmp/completion-words-without" | xargs)" \
	"$victim" "a completion without $victim fails the check"
tap_done
