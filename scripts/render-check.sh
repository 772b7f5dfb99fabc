#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# render-check.sh HTML [SCREENSHOT.png]
#
# Render the benchmark report HTML (build/bench/report.html) in headless
# Chromium, as a reader's browser would, and tell whether its plots and its
# verdict actually show. One line per finding on standard output:
#   plot NAME WIDTHxHEIGHT   a <figure class="plot" id="plot-NAME"> whose
#                            inline <svg> got a rendered box of that size
#   missing NAME             a figure.plot with no <svg>, or one that
#                            rendered with no area (0x0, display:none, ...)
#   verdict LINES            the lines of <pre id="verdict">'s rendered text
#                            (0: empty or not rendered; "absent": no such
#                            element)
# Exit 0 when every plot rendered and the verdict has text; 1 when a plot is
# missing, the verdict is absent or empty, or the page has no figure.plot at
# all (the reason also goes to standard error); 2 when the check could not
# be made (usage, no chromium, chromium failed or timed out).
#
# With SCREENSHOT, also write a full-page PNG of the report there (1280
# pixels wide, as tall as the page, at most 16384) and Chromium's own
# messages (dbus, GPU, ... noise) to SCREENSHOT's name with .chromium.log
# for .png; without it they are dropped unless Chromium fails, when their
# tail goes to standard error.
#
# How: a harness page in a temporary directory loads the report in a
# 1280-pixel-wide iframe (file://, hence --allow-file-access-from-files),
# measures each plot's svg with getBoundingClientRect() and the verdict's
# innerText once the report has loaded, and writes the results into its own
# DOM, which --dump-dom prints. Chromium runs with a fresh profile under that
# directory (removed on exit), no network (every host name fails to resolve,
# no background services), --no-sandbox only as root, and a timeout.
#
# Environment:
#   CHROMIUM=<program>     the browser (default: chromium, Debian's package)
#   RENDER_TIMEOUT=<secs>  give up on one Chromium run after this (default 60)
set -euo pipefail

PROG=$(basename "$0")
WIDTH=1280
MAX_HEIGHT=16384

usage_error() {
	printf '%s: %s\n' "$PROG" "$*" >&2
	exit 2
}

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	usage_error "usage: $PROG HTML [SCREENSHOT.png]"
fi
html=$1
shot=${2:-}
if [ ! -f "$html" ] || [ ! -r "$html" ]; then
	usage_error "cannot read $html"
fi
[ -z "$shot" ] || [ -d "$(dirname -- "$shot")" ] ||
	usage_error "no directory for $shot"
CHROMIUM=${CHROMIUM:-chromium}
RENDER_TIMEOUT=${RENDER_TIMEOUT:-60}
command -v "$CHROMIUM" >/dev/null ||
	usage_error "no $CHROMIUM: install Debian's chromium (scripts/setup.sh does)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/render-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log=$tmp/chromium.log
: >"$log"

# file_url PATH: PATH made absolute and percent-encoded, as a file:// URL.
file_url() {
	local path s='' c i
	path=$(realpath -- "$1")
	local LC_ALL=C
	for ((i = 0; i < ${#path}; i++)); do
		c=${path:i:1}
		case "$c" in
		[A-Za-z0-9/._~-]) s+=$c ;;
		*) s+=$(printf '%%%02X' "'$c") ;;
		esac
	done
	printf 'file://%s\n' "$s"
}

report_url=$(file_url "$html")

# The harness. Its results go to <pre id="render-check">, one per line, each
# behind "=rc= " so that nothing else in the dump can pass for one.
cat >"$tmp/harness.html" <<EOT
<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<style>
html, body { margin: 0; }
iframe { border: 0; display: block; width: ${WIDTH}px; height: 4000px; }
#render-check { display: none; }
</style>
</head>
<body>
<iframe id="report" src="$report_url"></iframe>
<pre id="render-check"></pre>
<script>
const frame = document.getElementById("report");
frame.addEventListener("load", () => {
	const out = [];
	let doc = null;
	try {
		doc = frame.contentDocument;
	} catch (e) {
		doc = null;
	}
	if (!doc || !doc.documentElement) {
		out.push("error the report's document cannot be read");
	} else {
		// As tall as the report, so that it is laid out without a
		// scrollbar: its height is what scrolls in a frame with none.
		frame.style.height = "0px";
		const height = doc.documentElement.scrollHeight;
		frame.style.height = height + "px";
		const name = (fig, i) => {
			const id = fig.id || "";
			const n = id.startsWith("plot-") ? id.slice(5) : id;
			return (n || "#" + (i + 1)).replace(/\s/g, "_");
		};
		doc.querySelectorAll("figure.plot").forEach((fig, i) => {
			const svg = fig.querySelector("svg");
			const r = svg ? svg.getBoundingClientRect() : null;
			const w = r ? Math.round(r.width) : 0;
			const h = r ? Math.round(r.height) : 0;
			if (w > 0 && h > 0)
				out.push("plot " + name(fig, i) + " " + w + "x" + h);
			else
				out.push("missing " + name(fig, i));
		});
		const v = doc.getElementById("verdict");
		if (!v) {
			out.push("verdict absent");
		} else {
			const text = v.getClientRects().length ? v.innerText.replace(/\s+$/, "") : "";
			out.push("verdict " + (text.trim() ? text.split("\n").length : 0));
		}
		out.push("height " + height);
	}
	document.getElementById("render-check").textContent =
		"\n" + out.map((l) => "=rc= " + l).join("\n") + "\n";
});
</script>
</body>
</html>
EOT

# chromium ARG...: one headless run; its stdout is the caller's.
chromium() {
	local args=(
		--headless --disable-gpu --hide-scrollbars
		--user-data-dir="$tmp/profile" --no-first-run
		--no-default-browser-check --disable-default-apps
		--disable-extensions --disable-sync --disable-component-update
		--disable-background-networking --disable-breakpad
		--disable-dev-shm-usage --host-resolver-rules='MAP * ~NOTFOUND'
		--virtual-time-budget=5000
	)
	[ "$(id -u)" = 0 ] && args+=(--no-sandbox)
	local rc=0
	# Its home, caches and NSS database stay in the temporary directory.
	HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config \
		XDG_CACHE_HOME=$tmp/home/.cache \
		timeout --kill-after=5 "$RENDER_TIMEOUT" \
		"$CHROMIUM" "${args[@]}" "$@" 2>>"$log" || rc=$?
	[ "$rc" = 0 ] && return
	if [ "$shot" ]; then
		cp "$log" "${shot%.png}.chromium.log" 2>/dev/null || true
	fi
	case "$rc" in
	124 | 137) usage_error "$CHROMIUM timed out after ${RENDER_TIMEOUT}s" ;;
	esac
	tail -n 20 "$log" >&2
	usage_error "$CHROMIUM failed (exit status $rc)"
}

mkdir -p "$tmp/home"
chromium --allow-file-access-from-files --window-size="$WIDTH,800" \
	--dump-dom "file://$tmp/harness.html" >"$tmp/dom.html"
sed -n 's/^=rc= //p' "$tmp/dom.html" |
	sed -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&nbsp;/ /g' -e 's/&amp;/\&/g' \
		>"$tmp/results"
[ -s "$tmp/results" ] ||
	usage_error "no result from $CHROMIUM: the report never finished loading"
if grep -q '^error ' "$tmp/results"; then
	usage_error "$(sed -n 's/^error //p' "$tmp/results")"
fi

grep -v '^height ' "$tmp/results"

bad=0
while read -r what name _; do
	case "$what $name" in
	"missing "*)
		printf '%s: plot %s: no svg, or it rendered with no area\n' "$PROG" "$name" >&2
		bad=1
		;;
	"verdict absent")
		printf '%s: no <pre id="verdict">\n' "$PROG" >&2
		bad=1
		;;
	"verdict 0")
		printf '%s: the verdict is empty\n' "$PROG" >&2
		bad=1
		;;
	esac
done <"$tmp/results"
if ! grep -q -E '^(plot|missing) ' "$tmp/results"; then
	printf '%s: no <figure class="plot"> in %s\n' "$PROG" "$html" >&2
	bad=1
fi

if [ "$shot" ]; then
	height=$(sed -n 's/^height //p' "$tmp/results")
	[ "${height:-0}" -ge 800 ] || height=800
	[ "$height" -le "$MAX_HEIGHT" ] || height=$MAX_HEIGHT
	chromium --window-size="$WIDTH,$height" --screenshot="$tmp/shot.png" \
		"$report_url" >/dev/null
	[ -s "$tmp/shot.png" ] || usage_error "$CHROMIUM wrote no screenshot"
	mv "$tmp/shot.png" "$shot"
	cp "$log" "${shot%.png}.chromium.log"
fi

exit "$bad"
