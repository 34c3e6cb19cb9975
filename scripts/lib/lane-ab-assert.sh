# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck disable=SC2154 # host_exe, tol: set by scripts/lane-ab
# lane-ab-assert.sh - sourced by scripts/lane-ab: ab_assert, which checks an
# A/B expectations file on the comparisons of an output directory with
# `exitscope expect --ab` (the language: man exitscope-expect, A/B files;
# an example: lanes/ab/example.expect). One line per expectation with the
# measured figures: verdicts, exits and counters per op, map and check
# changes, exit-path functions (path), the census of costly instructions
# (census) and sums of figures (about).

# ab_assert EXPECT OUT PAIR... - check EXPECT on the comparisons in OUT of
# the pairs PAIR (BASE:NEW, the first the default); print one line per
# expectation (a line that does not parse: "exitscope expect: FILE:LINE:
# why"), then the summary; 0 when all hold and at least one was checked.
ab_assert() {
	local expect=$1 dir=$2
	shift 2
	"$host_exe" expect --tol "$tol" --ab "$dir" --pairs "$*" "$expect" 2>&1
}
