/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - descriptive statistics and confidence intervals for samples;
 * the Welch intervals of compare are in stats/welch.h.
 */
#ifndef EXITSCOPE_STATS_STATS_H
#define EXITSCOPE_STATS_STATS_H

#include <stddef.h>
#include <stdint.h>

struct stats_summary {
	size_t n;
	double min, max, median, p90, p99, mean, stddev, cv;
	double ci95_lo, ci95_hi;	/* 95% confidence interval of the median */
};

/*
 * Summarize x[0..n-1] (not modified). Percentiles use linear interpolation
 * between order statistics (Hyndman-Fan type 7). Returns 0, or -EINVAL when
 * n == 0 or a value is not finite.
 */
int stats_summarize(const double *x, size_t n, struct stats_summary *out);

/* p-th percentile (0..100) of sorted[0..n-1], type 7; n must be > 0. */
double stats_percentile_sorted(const double *sorted, size_t n, double p);

/*
 * 1-based ranks [lo, hi] of the order statistics that bound the
 * distribution-free 95% confidence interval of the median of n samples
 * (binomial method, see stats.c). n == 0 gives 0, 0.
 */
void stats_median_ci_ranks(size_t n, size_t *lo_rank, size_t *hi_rank);

/* Median (type 7) of x[0..n-1] (not modified); NAN when n == 0 or out of memory. */
double stats_median(const double *x, size_t n);

/* splitmix64: next value of the tiny deterministic PRNG whose state is *state. */
uint64_t stats_splitmix64(uint64_t *state);

#define STATS_BOOTSTRAP_ITERS		2000		/* default resamples */
#define STATS_BOOTSTRAP_MIN_ITERS	200
#define STATS_BOOTSTRAP_BUDGET		40000000u	/* resamples x samples cap */

struct stats_diff {
	double median_a, median_b;
	double diff;		/* median_b - median_a */
	double lo, hi;		/* 95% interval of diff */
	unsigned iters;		/* resamples actually drawn (0: not a bootstrap) */
	double df;		/* stats/welch.h: Welch-Satterthwaite df; 0 otherwise */
};

/*
 * Resamples that stats_bootstrap_median_diff() draws for na + nb samples when
 * asked for requested (0: the default): requested, capped so that very large
 * sample sets stay within STATS_BOOTSTRAP_BUDGET, never below the minimum.
 */
unsigned stats_bootstrap_iters(size_t na, size_t nb, unsigned requested);

/*
 * Percentile bootstrap of the difference of medians, median(b) - median(a):
 * each resample draws na values from a and nb values from b with replacement
 * (splitmix64 seeded with seed, so the result is reproducible), the 2.5th and
 * 97.5th percentiles of the resampled differences bound the interval.
 * Returns 0, -EINVAL (empty input, non-finite value) or -ENOMEM.
 */
int stats_bootstrap_median_diff(const double *a, size_t na, const double *b, size_t nb,
				unsigned iters, uint64_t seed, struct stats_diff *out);

/*
 * Two-sided 95% quantile of Student's t with df degrees of freedom: a table
 * for df 1..30, the Cornish-Fisher expansion to 1/df^2 beyond (2.021 at 40,
 * 1.984 at 100, towards 1.960; within 0.001 of the exact values there).
 * df 0 gives INFINITY (no interval).
 */
double stats_t95(size_t df);

/*
 * The same quantile for any df > 0, fractional too (a Welch-Satterthwaite
 * df is not an integer): exact to the last digits for df <= 100 (the
 * regularized incomplete beta function, bisected), the Abramowitz-Stegun
 * 26.7.5 expansion beyond (within 1e-8 there). stats_t95's table is its
 * values rounded to 3 decimals. df <= 0 gives INFINITY.
 */
double stats_t95_df(double df);

#endif
