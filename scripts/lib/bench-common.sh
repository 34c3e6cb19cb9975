# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck disable=SC2154 # bench_name: set by the script that sources this
# bench-common.sh - what scripts/bench-method and scripts/bench-noise share:
# their one-line failures and count checks (named by bench_name, set
# before sourcing; usage is each script's own), and the median function
# of bench-method's runs table: the medians of the script's own timings of
# its runs (wall and CPU time, the host's CPU time beside), which no
# exitscope file holds. Every figure of exitscope's results comes from
# exitscope (calibrate --spread, --matched, --verdicts, --show; compare).

die() { echo "$bench_name: $*" >&2; exit 1; }
count() { [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "$bench_name: $1: '$2' is not a count >= 1" >&2; usage; }; }

# An awk function: med(a, n) sorts a[1..n] in place and returns its median.
# shellcheck disable=SC2034 # used inside bench-method-verdicts.sh's awk
bench_awk_med='function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }'
