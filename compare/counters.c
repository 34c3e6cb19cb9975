// SPDX-License-Identifier: GPL-2.0-only
/*
 * counters.c - is a per-op counter's difference between the sides a
 * change? (docs/method.md, "Per-op counters"). The unit is the run, as for
 * the cycles: the counters are totals over all of a run's rounds, so one
 * run says nothing of how they vary from run to run.
 */
#include <math.h>
#include <stdlib.h>

#include "compare/counters.h"
#include "stats/welch.h"

double counters_mean(const struct run_probe *const *r, size_t n, int i)
{
	double mean = 0;
	size_t k = 0;

	/* A running mean: finite for any finite values (a sum of two 1e308 is not). */
	for (size_t j = 0; j < n; j++)
		if (r[j]->per_op[i] >= 0)
			mean += (r[j]->per_op[i] - mean) / (double)++k;
	return k ? mean : -1;
}

/* The runs' values of counter i (malloc'd, *k of them; NULL when out of memory). */
static double *values(const struct run_probe *const *r, size_t n, int i, size_t *k)
{
	double *x = malloc((n ? n : 1) * sizeof(*x));

	*k = 0;
	for (size_t j = 0; x && j < n; j++)
		if (r[j]->per_op[i] >= 0)
			x[(*k)++] = r[j]->per_op[i];
	return x;
}

/*
 * Is every value within COMPARE_COUNTER_ZERO of one and the same whole
 * number (every op of every run counted the same, e.g. 1.00 exits/op)?
 */
static int whole(const double *x, size_t n)
{
	double w = round(x[0]);

	for (size_t j = 0; j < n; j++)
		if (fabs(x[j] - w) >= COMPARE_COUNTER_ZERO)
			return 0;
	return 1;
}

/* Is every value under COMPARE_COUNTER_ZERO (none counted), or at least 1 (every op, once or more)? */
static int none(const double *x, size_t n)
{
	for (size_t j = 0; j < n; j++)
		if (!(x[j] < COMPARE_COUNTER_ZERO))
			return 0;
	return 1;
}

static int every_op(const double *x, size_t n)
{
	for (size_t j = 0; j < n; j++)
		if (!(x[j] >= 1))
			return 0;
	return 1;
}

/*
 * The size rule: smaller differences are no change whatever the runs say
 * (as the threshold is for the cycles).
 */
static int small(double a, double b)
{
	return fabs(a - b) < COMPARE_COUNTER_EPS || fabs(a - b) < COMPARE_COUNTER_REL * fmax(a, b);
}

static enum counters_call judge(const double *xa, size_t na, const double *xb, size_t nb,
				struct compare_counter *c)
{
	struct stats_diff d;

	for (size_t j = 0; j < na || j < nb; j++)
		if ((j < na && !(xa[j] <= COMPARE_MAX_CYCLES)) || (j < nb && !(xb[j] <= COMPARE_MAX_CYCLES)))
			return COUNTERS_ABSENT;	/* no op does that: nothing to judge */
	if (small(c->a, c->b))
		return COUNTERS_SAME;
	if (whole(xa, na) && whole(xb, nb)) {
		c->by = COMPARE_COUNTER_WHOLE;
		c->lo = c->hi = c->b - c->a;
		return COUNTERS_CHANGED;
	}
	/*
	 * Host events add counts at their rate per time; they do not make an
	 * op that never counted one count one on every op.
	 */
	if ((none(xa, na) && every_op(xb, nb)) || (every_op(xa, na) && none(xb, nb))) {
		c->by = COMPARE_COUNTER_FROM_ZERO;
		c->lo = c->hi = c->b - c->a;
		return COUNTERS_CHANGED;
	}
	if (na >= 2 && nb >= 2 && !stats_welch_diff(xa, na, xb, nb, &d)) {
		c->by = COMPARE_COUNTER_RUNS;
		c->lo = d.lo;
		c->hi = d.hi;
		return d.lo > 0 || d.hi < 0 ? COUNTERS_CHANGED : COUNTERS_SAME;
	}
	c->by = COMPARE_COUNTER_NOT_JUDGED;
	return COUNTERS_UNJUDGED;
}

enum counters_call counters_judge(const struct run_probe *const *a, size_t na,
				  const struct run_probe *const *b, size_t nb, int i,
				  struct compare_counter *c)
{
	size_t ka, kb;
	double *xa = values(a, na, i, &ka), *xb = values(b, nb, i, &kb);
	enum counters_call r = COUNTERS_ABSENT;

	c->a = counters_mean(a, na, i);
	c->b = counters_mean(b, nb, i);
	c->runs_a = ka;
	c->runs_b = kb;
	c->lo = c->hi = NAN;
	if (!xa || !xb)
		r = COUNTERS_NOMEM;
	else if (ka && kb)
		r = judge(xa, ka, xb, kb, c);
	free(xa);
	free(xb);
	return r;
}
