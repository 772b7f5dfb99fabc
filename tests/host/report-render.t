#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# scripts/render-check.sh renders a report page in headless Chromium and
# tells one whose plots and verdict show from one where they do not, on the
# small sample page tests/fixtures/report/good.html (two plots, a
# three-line verdict) and one page per fault, made from it here.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

if ! command -v "${CHROMIUM:-chromium}" >/dev/null; then
	echo "1..0 # SKIP chromium is not installed (Debian package chromium; scripts/setup.sh)"
	exit 0
fi

F=tests/fixtures/report
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The faulty pages, each good.html with one thing wrong.
P=$out/pages
mkdir -p "$P"
cp "$F/good.html" "$P/"
sed '/style="width: 480px"/,/<\/svg>/d' "$F/good.html" >"$P/missing-svg.html"
sed 's/width="640" height="400"/width="0" height="0"/' "$F/good.html" >"$P/empty-svg.html"
sed '/<pre id="verdict">/,/<\/pre>/d' "$F/good.html" >"$P/no-verdict.html"
sed '/<pre id="verdict">/,/<\/pre>/{/^<pre\|^<\/pre/!d}' "$F/good.html" \
	>"$P/empty-verdict.html"

# render PAGE [SCREENSHOT]: render-check on $P/PAGE.html; its exit status
# in $out/PAGE.rc, its findings in $out/PAGE.out, its reasons in
# $out/PAGE.err.
render() {
	local rc=0
	scripts/render-check.sh "$P/$1.html" ${2:+"$2"} >"$out/$1.out" \
		2>"$out/$1.err" || rc=$?
	echo "$rc" >"$out/$1.rc"
}

# verdict_of PAGE: exit status, then the findings, on one line.
verdict_of() {
	printf '%s: %s' "$(cat "$out/$1.rc")" "$(paste -sd ' ' "$out/$1.out")"
}

is_png() {
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
}

# quiet_with_log PAGE: render left a log beside the screenshot and said
# nothing itself.
quiet_with_log() {
	[ -e "$out/$1.chromium.log" ] && [ ! -s "$out/$1.err" ]
}

png_width() {
	od -An -tu1 -j 16 -N 4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }'
}

# generated_report_case: the report bench-report makes from the fixture
# samples of tests/fixtures/bench-report renders with every plot the
# verdict's spec asks for, in the spec's order, and its verdict.
generated_report_case() {
	local want got
	if ! make -s bench-report >"$out/gen.make" 2>&1; then
		tap_ok "a report generated from fixture data renders" false
		return
	fi
	mkdir -p "$out/gen"
	build/bench-report/bench-report --data tests/fixtures/bench-report \
		--spec scripts/lib/verdict.spec --out "$out/gen" >/dev/null
	want=$(sed -n 's/^plot[a-z]* *| *\([^ |]*\) *|.*/plot \1/p' \
		scripts/lib/verdict.spec | paste -sd ' ')
	got=$(scripts/render-check.sh "$out/gen/report.html" 2>/dev/null |
		sed -n 's/^\(plot [^ ]*\) .*/\1/p' | paste -sd ' ')
	tap_is "$got" "$want" "a report generated from fixture data renders every plot of the spec"
}

for page in good missing-svg empty-svg no-verdict empty-verdict; do
	render "$page"
done

tap_plan 14
tap_is "$(verdict_of good)" \
	"0: plot us-per-command 640x400 plot notifications 480x225 verdict 3" \
	"a good page passes with every plot's rendered size and the verdict's lines"
tap_is "$(cat "$out/good.err")" "" "and has nothing to complain about"

tap_is "$(verdict_of missing-svg)" \
	"1: plot us-per-command 640x400 missing notifications verdict 3" \
	"a plot without an svg fails, named"
tap_ok "and the reason says so" \
	grep -q 'plot notifications: no svg' "$out/missing-svg.err"
tap_is "$(verdict_of empty-svg)" \
	"1: missing us-per-command plot notifications 480x225 verdict 3" \
	"a 0x0 svg fails, named"
tap_is "$(verdict_of no-verdict)" \
	"1: plot us-per-command 640x400 plot notifications 480x225 verdict absent" \
	"a page without a verdict fails"
tap_ok "and the reason says so" grep -q 'no <pre id="verdict">' "$out/no-verdict.err"
tap_is "$(verdict_of empty-verdict)" \
	"1: plot us-per-command 640x400 plot notifications 480x225 verdict 0" \
	"an empty verdict fails"
tap_ok "and the reason says so" grep -q 'the verdict is empty' "$out/empty-verdict.err"

render good "$out/good.png"
tap_ok "a screenshot is a PNG" is_png "$out/good.png"
tap_is "$(png_width "$out/good.png")" 1280 "1280 pixels wide"
tap_ok "Chromium's own messages go beside it, not to the output" \
	quiet_with_log good
scripts/render-check.sh "$F/no-such.html" 2>/dev/null
tap_is "$?" 2 "an unreadable page is a usage error, not a failed check"

generated_report_case
tap_done
