/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * covariate.h - one covariate's slope within runs (analysis of covariance):
 * how much a probe's round figure moves per cycle of the harness loop timed
 * beside it, from the deviations of both from their own run's means, so
 * that run offsets (and a difference between the sides) do not enter it
 * (docs/method.md, "At equal guest speed").
 */
#ifndef EXITSCOPE_STATS_COVARIATE_H
#define EXITSCOPE_STATS_COVARIATE_H

#include <stddef.h>

#include "stats/welch.h"

/*
 * The pooled within-run regression of y on x over runs j = 0..n-1, y[j]
 * and x[j] paired value by value (x[j].n == y[j].n):
 *   Sxx  = sum_j sum_k (x_jk - mean_j x)^2,  Sxy likewise with y,
 *   beta = Sxy / Sxx,
 *   resid_var = sum_j sum_k ((y_jk - mean_j y) - beta (x_jk - mean_j x))^2 / df,
 *   df   = N - n - 1 (N values, one mean per run and the slope estimated),
 * so that beta's variance is resid_var / Sxx (beta_var).
 */
struct stats_slope {
	double beta, beta_var, sxx, resid_var, df;
	size_t points;
};

/* 0, or -EINVAL: a run without values or of unequal lengths, a value not finite, df < 1 or Sxx 0. */
int stats_slope_within(const struct stats_run *y, const struct stats_run *x, size_t n,
		       struct stats_slope *out);

#endif
