#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Every Documentation/*.rst renders to HTML with docutils (Debian's
# python3-docutils, as rst2html does) without a warning, and every page is
# in index.rst's toctree. Sphinx's toctree directive and its :doc: and :ref:
# roles, which plain docutils lacks, are stood in for; a toctree entry or a
# :doc: target must be an existing page.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh

rst2html=$(command -v rst2html || true)
if [ -z "$rst2html" ]; then
	echo "Bail out! rst2html not found (Debian package python3-docutils)"
	exit 1
fi
# The interpreter docutils is installed for, not whichever python3 PATH has.
python=$(sed -n '1s/^#! *//p' "$rst2html")

# render PAGE: docutils' HTML writer with warnings fatal (rst2html
# --strict), the page's problems on stderr.
render() {
	"$python" - "$1" <<'EOF'
import io
import os
import sys

from docutils import nodes
from docutils.core import publish_file
from docutils.parsers.rst import Directive, directives, roles
from docutils.utils import SystemMessage

PAGE = sys.argv[1]
DOCDIR = os.path.dirname(PAGE)


def page_exists(name):
    return os.path.isfile(os.path.join(DOCDIR, name + ".rst"))


class TocTree(Directive):
    """Sphinx's toctree: a list of pages, each of which must exist."""

    has_content = True
    option_spec = {
        "maxdepth": directives.nonnegative_int,
        "caption": directives.unchanged,
        "hidden": directives.flag,
        "numbered": directives.unchanged,
        "glob": directives.flag,
        "titlesonly": directives.flag,
    }

    def run(self):
        entries = [line.strip() for line in self.content if line.strip()]
        for entry in entries:
            if not page_exists(entry):
                return [self.state_machine.reporter.error(
                    "toctree entry %s: no page %s.rst" % (entry, entry),
                    line=self.lineno)]
        items = nodes.bullet_list()
        for entry in entries:
            items += nodes.list_item("", nodes.paragraph(text=entry))
        return [items]


def doc_role(name, rawtext, text, lineno, inliner, options={}, content=[]):
    target = text.split("<")[-1].rstrip(">").strip()
    if not page_exists(target):
        msg = inliner.reporter.error(
            ":doc: target %s: no page %s.rst" % (target, target), line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    return [nodes.literal(rawtext, text)], []


def ref_role(name, rawtext, text, lineno, inliner, options={}, content=[]):
    return [nodes.literal(rawtext, text)], []


directives.register_directive("toctree", TocTree)
roles.register_canonical_role("doc", doc_role)
roles.register_canonical_role("ref", ref_role)

try:
    publish_file(source_path=PAGE, destination_path=os.devnull,
                 writer_name="html",
                 settings_overrides={"halt_level": 2, "report_level": 2,
                                     "input_encoding": "utf-8",
                                     "warning_stream": io.StringIO()})
except SystemMessage as e:
    print(e, file=sys.stderr)
    sys.exit(1)
EOF
}

# The pages index.rst's toctrees list.
toctree_entries() {
	awk '/^\.\. toctree::/ { on = 1; next }
		on && /^[^ \t]/ { on = 0 }
		on && /^[ \t]+[^ \t:]/ { print $1 }' Documentation/index.rst
}

mapfile -t pages < <(ls Documentation/*.rst)
# The reasons the module gives for NEEDS_RESET, as its log and traces show
# them; troubleshooting.rst explains each.
mapfile -t faults < <(sed -n 's/^\t\[VSB_FAULT_[A-Z_]*\] = "\(.*\)",$/\1/p' kmod/engine/vsb_fault.c |
	grep -vx none)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
toctree_entries >"$tmp/toctree"

tap_plan $((2 * ${#pages[@]} + 8))
for page in "${pages[@]}"; do
	tap_ok "$page renders without warnings" render "$page"
	name=$(basename "$page" .rst)
	if [ "$name" = index ]; then
		tap_ok "index.rst has a toctree" test -s "$tmp/toctree"
	else
		tap_ok "$name is in index.rst's toctree" grep -qxF "$name" "$tmp/toctree"
	fi
done

tap_ok "kmod/engine/vsb_fault.c names NEEDS_RESET reasons (${#faults[@]})" \
	test "${#faults[@]}" -ge 10
undocumented=()
for f in "${faults[@]}"; do
	grep -qF "\`\`$f\`\`" Documentation/troubleshooting.rst || undocumented+=("$f")
done
tap_is "${undocumented[*]}" "" "troubleshooting.rst explains every NEEDS_RESET reason"

# The README's layout table names every top-level folder of the tree,
# and every folder it names exists.
layout=$(sed -n '/^## Layout/,/^## /p' README.md)
mapfile -t folders < <(git ls-files 2>/dev/null | sed -n 's|^\([^./][^/]*\)/.*|\1|p' | sort -u)
[ ${#folders[@]} -gt 0 ] || mapfile -t folders < <(find . -mindepth 1 -maxdepth 1 \
	-type d ! -name '.*' ! -name build -printf '%f\n' | sort)
missing=()
for d in "${folders[@]}"; do
	grep -qF "\`$d/\`" <<<"$layout" || missing+=("$d")
done
tap_is "${missing[*]}" "" "README's layout table names every top-level folder (${#folders[@]})"
stale=()
# shellcheck disable=SC2016 # backquotes are markdown, not shell
mapfile -t named < <(grep -o '^| `[^`]*/`' <<<"$layout" | sed 's/^| `//; s/`$//')
for d in "${named[@]}"; do
	[ -d "$d" ] || stale+=("$d")
done
tap_is "${stale[*]}" "" "and each folder it names exists"

# The stand-ins accept a good page and let no broken one through.
mkdir -p "$tmp/doc"
sample() {
	printf 'Title\n=====\n\n%s\n' "$2" >"$tmp/doc/$1.rst"
}
sample other 'Another page.'
# shellcheck disable=SC2016 # backquotes are rst, not shell
sample good "$(printf '.. toctree::\n   :maxdepth: 1\n\n   other\n\nSee :doc:`other`.')"
sample toctree "$(printf '.. toctree::\n\n   no-such-page')"
# shellcheck disable=SC2016
sample doc 'See :doc:`no-such-page`.'
sample markup 'An *unclosed emphasis.'

tap_ok "a sample page with a toctree and :doc: renders" render "$tmp/doc/good.rst"
for bad in toctree doc markup; do
	tap_fails "a sample page with a bad $bad fails" render "$tmp/doc/$bad.rst"
done
tap_done
