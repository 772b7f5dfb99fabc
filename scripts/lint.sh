#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Static checks, each of which fails the run:
#   kernel C   W=1 with -Werror, sparse (C=2), checkpatch --strict (options
#              and justified exceptions in .checkpatch.conf), clang-format
#              with the kernel's .clang-format
#   userspace  clang-format with the same style (tool, unit tests)
#   shell      shellcheck
#   layers     no loop in kmod's include graph nor in the calls between
#              its files (scripts/kmod-graph.sh, on lint's own build)
# checkpatch.pl and .clang-format come from the test-bed kernel's source
# (build/cache/KVER/src), never from the repository.
set -euo pipefail
# shellcheck source=lib/common.sh
. "$(dirname "$0")/lib/common.sh"
load_testbed_env
cd "$VB_ROOT"

failed=()
step() {
	local name=$1
	shift
	[ "${V:-0}" = 1 ] && say "$name: $*"
	if "$@"; then
		printf '  LINT    %s ok\n' "$name"
	else
		printf '  LINT    %s FAILED\n' "$name"
		failed+=("$name")
	fi
}

# kbuild_checked NAME SRCDIR: W=1 -Werror build plus sparse on every file;
# sparse only warns, so its output decides. Without the calling make's
# flags: under "make -j2" they name a jobserver kbuild cannot reach, and
# make's own warning about it would fail the check.
kbuild_checked() {
	local out=$VB_BUILD/lint/$1 log
	log=$(env -u MAKEFLAGS -u MFLAGS scripts/kbuild.sh "$2" "$out" \
		"$TESTBED_KDIR" W=1 KCFLAGS=-Werror \
		C=2 CHECK=sparse modules 2>&1) || {
		echo "$log"
		return 1
	}
	if grep -E '(warning|error):' <<<"$log"; then
		return 1
	fi
}

# kmod_graph OBJDIR: scripts/kmod-graph.sh, its report only on a loop.
kmod_graph() {
	local out
	out=$(scripts/kmod-graph.sh "$1") || {
		echo "$out"
		return 1
	}
}

checkpatch() {
	perl "$VB_KSRC/scripts/checkpatch.pl" --quiet -f "$@"
}

clang_format() {
	clang-format --style="file:$VB_KSRC/.clang-format" --dry-run -Werror "$@"
}

# source_files PATTERN...: the files lint checks, as git pathspecs ("*"
# crosses "/"). In a git checkout of this tree, tracked and untracked files
# that are not ignored; in an unpacked tarball or "git archive" copy (make
# fresh-check), every file outside build/ that matches, even when the copy
# sits inside another checkout.
source_files() {
	if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$PWD" ]; then
		git ls-files --cached --others --exclude-standard "$@"
		return
	fi
	local p args=()
	for p in "$@"; do
		args+=(${args[0]+-o} -path "./$p")
	done
	find . -path ./build -prune -o -type f \( "${args[@]}" \) -print |
		sed 's|^\./||' | LC_ALL=C sort
}

# The seam's host half (kmod/engine/vsb_seam_host.h) is userspace C that
# stands in for kernel headers: checkpatch's kernel rules are not its.
seam_host=kmod/engine/vsb_seam_host.h
mapfile -t kernel_c < <(source_files 'kmod/*/*.[ch]' 'testbed/warn-module/*.[ch]' |
	grep -vx "$seam_host")
mapfile -t tool_c < <(source_files 'tools/*.[ch]' 'tests/unit/*.[ch]' \
	'testbed/programs/*.[ch]' 'tests/fuzz/*.[ch]' "$seam_host")
mapfile -t shell < <(source_files '*.sh' '*.t' tests/run-test .ci/run \
	contrib/bash-completion/vdpactl-batch)

step "W=1 + sparse (kmod)" kbuild_checked kmod .
step "W=1 + sparse (testbed/warn-module)" kbuild_checked testmod testbed/warn-module
step "kmod includes and calls one way" kmod_graph "$VB_BUILD/lint/kmod/kmod"
step checkpatch checkpatch "${kernel_c[@]}"
step "clang-format (kernel)" clang_format "${kernel_c[@]}"
[ ${#tool_c[@]} -gt 0 ] && step "clang-format (userspace)" clang_format "${tool_c[@]}"
step shellcheck shellcheck -x "${shell[@]}"

if [ ${#failed[@]} -gt 0 ]; then
	die "failed: ${failed[*]}"
fi
