/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * welch.h - Welch t intervals built from independent variance components:
 * a side's figure from the rounds of its runs or from its run means, a
 * host's between-run variance (the noise floor) estimated from K runs, and
 * the interval of the difference of two sides (docs/method.md has the
 * formulas and why).
 */
#ifndef EXITSCOPE_STATS_WELCH_H
#define EXITSCOPE_STATS_WELCH_H

#include <stddef.h>

#include "stats/stats.h"

/*
 * A squared standard error as a sum of independent components, component i
 * a variance v_i estimated with df_i degrees of freedom: var = sum v_i,
 * wsum = sum v_i^2 / df_i, so that its Welch-Satterthwaite df is
 * var^2 / wsum; df0 = sum df_i is the df when every v_i is 0. Start from
 * all zero.
 */
struct stats_se2 {
	double var, wsum, df0;
};

/* Add a component v >= 0 with df > 0 (v == 0 adds only its df to df0). */
void stats_se2_add(struct stats_se2 *s, double v, double df);

/*
 * Scale every component of s: its variance by c, its df by k (c = df /
 * (df - used), k = 1 / c for variances estimated from the residuals of a
 * fit that used up a share of their degrees of freedom; k = 1 to make them
 * also carry a variance that was estimated from the same residuals).
 */
void stats_se2_scale(struct stats_se2 *s, double c, double k);

/* The Welch-Satterthwaite df of s: var^2 / wsum; df0 when var is 0; INFINITY when wsum is 0. */
double stats_se2_df(const struct stats_se2 *s);

/* One run of a probe: the medians of its rounds (n >= 1). */
struct stats_run {
	const double *x;
	size_t n;
};

/* The mean of a run's round medians: the run's figure (the "run mean"). */
double stats_run_mean(const struct stats_run *r);

/* One side of a comparison: its figure and the squared standard error of it. */
struct stats_side {
	double mean;
	struct stats_se2 se2;
};

/*
 * The runs model, n >= 2 runs: mean = the mean of the run means y_j (each
 * run counts once, whatever its rounds), se2 one component s_y^2 / n with
 * n - 1 df, s_y^2 the sample variance of the y_j. 0, or -EINVAL (n < 2, a
 * run without rounds, a value not finite) or -ENOMEM.
 */
int stats_side_runs(const struct stats_run *r, size_t n, struct stats_side *out);

/*
 * The within-run model, n >= 1 runs of at least 2 rounds each: the same
 * mean; se2 the variance of that mean given the runs' own offsets, one
 * component per run, s_j^2 / (n_j n^2) with n_j - 1 df (s_j^2: the sample
 * variance of run j's round medians). For one run it is the round-level
 * Welch side. It does not contain the variation from run to run: add it
 * (stats_se2_add) from a floor. 0 or -EINVAL.
 */
int stats_side_within(const struct stats_run *r, size_t n, struct stats_side *out);

/*
 * The 95% interval of b->mean - a->mean: SE^2 = the sum of both sides'
 * components and of extra (may be NULL: a component shared by both sides,
 * such as a floor's variance estimated once), df their Welch-Satterthwaite
 * df, the interval diff -+ stats_t95_df(df) * SE. out: median_a, median_b
 * the means, diff, lo, hi, df; iters 0.
 */
void stats_side_diff(const struct stats_side *a, const struct stats_side *b,
		     const struct stats_se2 *extra, struct stats_diff *out);

/*
 * Welch's 95% t interval of mean(b) - mean(a) on the values themselves, for
 * cluster summaries such as one median per round (docs/method.md):
 * stats_side_diff of the two samples as one run each (SE^2 = s_a^2/na +
 * s_b^2/nb, df Welch-Satterthwaite, na + nb - 2 when both variances are
 * 0). Returns 0, or -EINVAL when na or nb < 2 or a value is not finite.
 */
int stats_welch_diff(const double *a, size_t na, const double *b, size_t nb,
		     struct stats_diff *out);

/*
 * The between-run variance of a probe from K >= 2 independent runs of one
 * setup, each of at least 2 rounds (the estimator of the noise floor):
 *   run_var  = s_y^2, the sample variance of the run means (K - 1 df): what
 *              a run's figure varies by, its within-run error included;
 *   within   = the mean over the runs of s_j^2 / n_j (the part of run_var
 *              the runs' own rounds account for), within_df its
 *              Welch-Satterthwaite df;
 *   between  = max(0, run_var - within): the variance of a run's offset,
 *              what no run can see in its rounds;
 *   df       = (run_var - within)^2 / (run_var^2 / (K - 1) + within^2 /
 *              within_df) (Satterthwaite for a difference), 0 when between
 *              is 0.
 * mean is the mean of the run means, rounds the rounds of all runs.
 */
struct stats_between {
	size_t runs, rounds;
	double mean, run_var, within, within_df, between, df;
};

/* 0, or -EINVAL (k < 2, a run of fewer than 2 rounds, a value not finite). */
int stats_between_runs(const struct stats_run *r, size_t k, struct stats_between *out);

/*
 * The spread of K >= 2 runs of a probe as a table shows it, in cycles:
 *   mean    the mean of the run means (stats_between_runs), rounds the
 *           mean rounds of a run;
 *   within  the pooled SD of the round medians around their run's mean,
 *           sqrt(sum_j SS_j / sum_j (n_j - 1));
 *   se      within / sqrt(rounds): the part of a run mean's SD its rounds
 *           explain;
 *   run_sd  the SD of the run means (sqrt of stats_between_runs' run_var);
 *   floor   sqrt(max(0, run_sd^2 - se^2)): what is left beyond se.
 * 0, or -EINVAL as stats_between_runs.
 */
struct stats_spread {
	size_t runs;
	double rounds, mean, within, se, run_sd, floor;
};

int stats_runs_spread(const struct stats_run *r, size_t k, struct stats_spread *out);

#endif
