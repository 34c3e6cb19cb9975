# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck disable=SC2154 # query_exe: set by the script that sources this
# query.sh - sourced by the scripts that read figures out of exitscope's
# files (results, compare --json output, noise floors): they ask
# `exitscope query`, which validates the file with exitscope's own reader,
# instead of parsing the JSON a second time. The script sets query_exe (the
# host exitscope it already uses, EXITSCOPE or its own variable) first.

# q FILE PATH...: `exitscope query FILE PATH...` (one line per value; exit 1
# when a PATH selects nothing, 2 when the file or a path is invalid).
q() { "$query_exe" query "$@"; }

# qv FILE PATH: the first value PATH selects, "-" when none or null.
qv() {
	local v
	v=$("$query_exe" query "$1" "$2" 2>/dev/null | head -n 1)
	case $v in '' | null) echo - ;; *) echo "$v" ;; esac
}

# qa FILE PATH: as qv, but "(absent)" when PATH selects nothing or null.
qa() {
	local v
	v=$(qv "$1" "$2")
	[ "$v" = - ] && v="(absent)"
	echo "$v"
}

# qn FILE PATH: how many values PATH selects, 0 also when FILE cannot be read.
qn() {
	local n
	n=$("$query_exe" query "$1" "$2#" 2>/dev/null)
	echo "${n:-0}"
}

# is_result FILE: FILE is a valid exitscope result file (any kind).
is_result() { [ -n "$("$query_exe" query "$1" kind 2>/dev/null)" ]; }
