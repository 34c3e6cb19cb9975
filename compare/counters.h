/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * counters.h - (inside compare/) a probe's per-op counter over the runs of
 * each side: the sides' means, and whether their difference is a change
 * (docs/method.md, "Per-op counters").
 */
#ifndef EXITSCOPE_COMPARE_COUNTERS_H
#define EXITSCOPE_COMPARE_COUNTERS_H

#include "compare/compare.h"

/* What counters_judge found. */
enum counters_call {
	COUNTERS_ABSENT,	/* no run of a side has it, or a run's is beyond COMPARE_MAX_CYCLES */
	COUNTERS_SAME,		/* no change: under the size rule, or within the runs' variation */
	COUNTERS_CHANGED,	/* a change, shown by c->by */
	COUNTERS_UNJUDGED,	/* a difference of the size rule's size that cannot be judged */
	COUNTERS_NOMEM,		/* out of memory */
};

/* The mean over r[0..n-1] of per_op[i] of the runs that have it; -1 when none has. */
double counters_mean(const struct run_probe *const *r, size_t n, int i);

/*
 * Counter i of a probe whose ok runs are a[0..na-1] and b[0..nb-1]: c's
 * a, b (the sides' means), runs_a, runs_b (runs that have it), by, lo, hi
 * are filled (probe, counter and note are the caller's). emulated: a file
 * of either side ran its guest code emulated (its counts then vary from
 * run to run beyond chance: a one-run side is not judged by them).
 */
enum counters_call counters_judge(const struct run_probe *const *a, size_t na,
				  const struct run_probe *const *b, size_t nb, int i, bool emulated,
				  struct compare_counter *c);

/*
 * The two-sided p-value of the exact test that two Poisson counts ka over
 * ops_a and kb over ops_b (ops the exposure) come from one rate: kb given
 * ka + kb is binomial with p = ops_b / (ops_a + ops_b); twice its tail
 * (at most 1). 1 when there is nothing to test.
 */
double counters_poisson_p(double ka, double ops_a, double kb, double ops_b);

#endif
