#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# setup.sh derives the backports URI from the machine's own apt sources.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/tap.sh
. scripts/lib/apt-sources.sh

F=tests/fixtures/apt

tap_plan 6
tap_is "$(debian_archive_uri bookworm $F/debian.sources)" \
	http://mirror.example/debian \
	"deb822: the release's stanza, not -security, first URI"
tap_is "$(debian_archive_uri bookworm $F/disabled.sources)" "" \
	"deb822: disabled, deb-src only and non-main stanzas are skipped"
tap_is "$(debian_archive_uri bookworm $F/sources.list)" \
	http://oneline.example/debian \
	"one-line: options skipped, comments, deb-src and -security ignored"
tap_is "$(debian_archive_uri trixie $F/debian.sources $F/sources.list)" "" \
	"another release's suite does not match"
tap_is "$(debian_archive_uri bookworm $F/disabled.sources $F/sources.list \
	$F/debian.sources)" http://oneline.example/debian \
	"the first matching file wins"
tap_is "$(debian_archive_uri bookworm $F/missing.sources)" "" \
	"a missing file is no error"
tap_done
