// SPDX-License-Identifier: GPL-2.0-only
/*
 * welch.c - Welch t intervals from independent variance components: the
 * rounds model, the runs model, the between-run variance of a noise floor
 * (docs/method.md).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/welch.h"

void stats_se2_add(struct stats_se2 *s, double v, double df)
{
	s->var += v;
	if (v > 0 && df > 0)
		s->wsum += v * v / df;
	s->df0 += df;
}

void stats_se2_scale(struct stats_se2 *s, double c, double k)
{
	/* (c v)^2 / (k df) = (c^2 / k) v^2 / df */
	s->var *= c;
	s->wsum *= c * c / k;
	s->df0 *= k;
}

double stats_se2_df(const struct stats_se2 *s)
{
	if (!(s->var > 0))
		return s->df0;
	if (!(s->wsum > 0))
		return INFINITY;
	return s->var * s->var / s->wsum;
}

/* Mean and sample variance (n - 1) of x[0..n-1], n >= 1 (variance 0 for one value); -EINVAL when a value is not finite. */
static int mean_var(const double *x, size_t n, double *mean, double *var)
{
	double m = 0, ss = 0;
	size_t i;

	if (!x || !n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return -EINVAL;
		m += x[i];
	}
	m /= (double)n;
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var = n > 1 ? ss / (double)(n - 1) : 0;
	return 0;
}

double stats_run_mean(const struct stats_run *r)
{
	double m, v;

	return mean_var(r->x, r->n, &m, &v) ? NAN : m;
}

/* The runs' means y[0..n-1] and their mean; -EINVAL when a run is empty or not finite. */
static int run_means(const struct stats_run *r, size_t n, double *y, double *mean)
{
	double sum = 0;

	for (size_t j = 0; j < n; j++) {
		y[j] = stats_run_mean(&r[j]);
		if (!isfinite(y[j]))
			return -EINVAL;
		sum += y[j];
	}
	*mean = sum / (double)n;
	return 0;
}

int stats_side_runs(const struct stats_run *r, size_t n, struct stats_side *out)
{
	double m, v, *y;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!r || n < 2)
		return -EINVAL;
	y = malloc(n * sizeof(*y));
	if (!y)
		return -ENOMEM;
	rc = run_means(r, n, y, &out->mean);
	if (!rc)
		rc = mean_var(y, n, &m, &v);
	if (!rc)
		stats_se2_add(&out->se2, v / (double)n, (double)(n - 1));
	free(y);
	return rc;
}

int stats_side_within(const struct stats_run *r, size_t n, struct stats_side *out)
{
	double sum = 0, m, v, nn = (double)n * (double)n;

	memset(out, 0, sizeof(*out));
	if (!r || !n)
		return -EINVAL;
	for (size_t j = 0; j < n; j++) {
		if (r[j].n < 2 || mean_var(r[j].x, r[j].n, &m, &v))
			return -EINVAL;
		sum += m;
		stats_se2_add(&out->se2, v / (double)r[j].n / nn, (double)(r[j].n - 1));
	}
	out->mean = sum / (double)n;
	return 0;
}

void stats_side_diff(const struct stats_side *a, const struct stats_side *b,
		     const struct stats_se2 *extra, struct stats_diff *out)
{
	struct stats_se2 s = a->se2;
	double half;

	memset(out, 0, sizeof(*out));
	s.var += b->se2.var;
	s.wsum += b->se2.wsum;
	s.df0 += b->se2.df0;
	if (extra) {
		s.var += extra->var;
		s.wsum += extra->wsum;
		s.df0 += extra->df0;
	}
	out->median_a = a->mean;
	out->median_b = b->mean;
	out->diff = b->mean - a->mean;
	out->df = stats_se2_df(&s);
	half = s.var > 0 ? stats_t95_df(out->df) * sqrt(s.var) : 0;
	out->lo = out->diff - half;
	out->hi = out->diff + half;
}

int stats_welch_diff(const double *a, size_t na, const double *b, size_t nb,
		     struct stats_diff *out)
{
	const struct stats_run ra = { a, na }, rb = { b, nb };
	struct stats_side sa, sb;

	memset(out, 0, sizeof(*out));
	if (stats_side_within(&ra, 1, &sa) || stats_side_within(&rb, 1, &sb))
		return -EINVAL;
	stats_side_diff(&sa, &sb, NULL, out);
	return 0;
}

int stats_between_runs(const struct stats_run *r, size_t k, struct stats_between *out)
{
	double m, v, y, sum = 0, sumsq = 0, den, d;
	struct stats_se2 w = { 0 };

	memset(out, 0, sizeof(*out));
	if (!r || k < 2)
		return -EINVAL;
	/* The runs' means and within-run variances of them, in one pass each. */
	for (size_t j = 0; j < k; j++) {
		if (r[j].n < 2 || mean_var(r[j].x, r[j].n, &y, &v))
			return -EINVAL;
		sum += y;
		stats_se2_add(&w, v / (double)r[j].n / (double)k, (double)(r[j].n - 1));
		out->rounds += r[j].n;
	}
	out->runs = k;
	out->mean = sum / (double)k;
	for (size_t j = 0; j < k; j++) {
		mean_var(r[j].x, r[j].n, &y, &m);
		sumsq += (y - out->mean) * (y - out->mean);
	}
	out->run_var = sumsq / (double)(k - 1);
	out->within = w.var;
	out->within_df = stats_se2_df(&w);
	d = out->run_var - out->within;
	if (d > 0) {
		out->between = d;
		/* within^2 / within_df is w.wsum. */
		den = out->run_var * out->run_var / (double)(k - 1) + w.wsum;
		out->df = d * d / den;
	}
	return 0;
}

int stats_runs_spread(const struct stats_run *r, size_t k, struct stats_spread *out)
{
	struct stats_between b;
	double ss = 0, df = 0, m, v, fl;

	memset(out, 0, sizeof(*out));
	if (stats_between_runs(r, k, &b))
		return -EINVAL;
	for (size_t j = 0; j < k; j++) {
		mean_var(r[j].x, r[j].n, &m, &v);
		ss += v * (double)(r[j].n - 1);
		df += (double)(r[j].n - 1);
	}
	out->runs = k;
	out->rounds = (double)b.rounds / (double)k;
	out->mean = b.mean;
	out->within = sqrt(ss / df);
	out->se = out->within / sqrt(out->rounds);
	out->run_sd = sqrt(b.run_var);
	fl = b.run_var - out->se * out->se;
	out->floor = fl > 0 ? sqrt(fl) : 0;
	return 0;
}
