# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck disable=SC2154 # bench_name: set by the script that sources this
# bench-common.sh - what scripts/bench-method and scripts/bench-noise share:
# their one-line failures and count checks (named by bench_name, set
# before sourcing; usage is each script's own). Every figure comes from
# exitscope (calibrate --spread, --matched, --verdicts, --show, --bench;
# compare).

die() { echo "$bench_name: $*" >&2; exit 1; }
count() { [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "$bench_name: $1: '$2' is not a count >= 1" >&2; usage; }; }

