// SPDX-License-Identifier: GPL-2.0-only
/* covariate.c - one covariate's slope within runs (stats/covariate.h). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "stats/covariate.h"

/* The mean of r's values; NAN when one is not finite. */
static double mean_of(const struct stats_run *r)
{
	double m = 0;

	for (size_t k = 0; k < r->n; k++) {
		if (!isfinite(r->x[k]))
			return NAN;
		m += r->x[k];
	}
	return m / (double)r->n;
}

int stats_slope_within(const struct stats_run *y, const struct stats_run *x, size_t n,
		       struct stats_slope *out)
{
	double sxx = 0, sxy = 0, syy = 0, rss;
	size_t points = 0;

	memset(out, 0, sizeof(*out));
	if (!y || !x || !n)
		return -EINVAL;
	for (size_t j = 0; j < n; j++) {
		double my, mx;

		if (!y[j].n || y[j].n != x[j].n)
			return -EINVAL;
		my = mean_of(&y[j]);
		mx = mean_of(&x[j]);
		if (!isfinite(my) || !isfinite(mx))
			return -EINVAL;
		for (size_t k = 0; k < y[j].n; k++) {
			double dx = x[j].x[k] - mx, dy = y[j].x[k] - my;

			sxx += dx * dx;
			sxy += dx * dy;
			syy += dy * dy;
		}
		points += y[j].n;
	}
	if (points < n + 2 || !(sxx > 0))
		return -EINVAL;
	out->points = points;
	out->df = (double)(points - n - 1);
	out->sxx = sxx;
	out->beta = sxy / sxx;
	/* The residual sum of squares: Syy - Sxy^2 / Sxx, not below 0 by rounding. */
	rss = syy - sxy * sxy / sxx;
	out->resid_var = rss > 0 ? rss / out->df : 0;
	out->beta_var = out->resid_var / sxx;
	return 0;
}
