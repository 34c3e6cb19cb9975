/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bench_runs.h - the runs table of a scripts/bench-method directory: per
 * variant the medians of its runs' wall and CPU time and of the host's CPU
 * time beside (runs.tsv), the range of its load, and of its probe-runs
 * (stops.tsv: variant, rounds, stop reason or "-") the median rounds, the
 * share reaching the most rounds and the count of each stop reason.
 */
#ifndef EXITSCOPE_RESULTS_BENCH_RUNS_H
#define EXITSCOPE_RESULTS_BENCH_RUNS_H

#include <stddef.h>

#include "base/err.h"

struct bench_runs_row {
	char *variant;
	size_t runs;			/* rows of runs.tsv */
	double wall, wall_max, cpu;	/* s: medians, the largest wall time */
	double load_lo, load_hi;	/* load1 range */
	double busy, nice, idle, steal;	/* % of all CPUs, medians */
	size_t probe_runs, full;	/* stops.tsv rows; those with the most rounds */
	double rounds, rounds_max;	/* median and most rounds (0, 0 without rows) */
	size_t *stops;			/* per stop reason of struct bench_runs: count */
};

struct bench_runs {
	struct bench_runs_row *rows;	/* in runs.tsv's order of first appearance */
	size_t n;
	char **stop_names;		/* in stops.tsv's order of first appearance */
	size_t n_stops;
};

/*
 * Read dir/runs.tsv (a header line, then per run: variant in column 1,
 * wall s, CPU s, load1, busy, nice, idle, steal % in columns 8 to 14) and
 * dir/stops.tsv (no header) into *b. 0, or -errno with why in err
 * ("runs.tsv:3: column 9 is not a number"). bench_runs_release() it.
 */
int bench_runs_read(const char *dir, struct bench_runs *b, struct err *err);
void bench_runs_release(struct bench_runs *b);

#endif
