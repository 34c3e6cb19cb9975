// SPDX-License-Identifier: GPL-2.0-only
/*
 * counters.c - is a per-op counter's difference between the sides a
 * change? (docs/method.md, "Per-op counters"). The unit is the run, as for
 * the cycles: the counters are totals over all of a run's rounds, so one
 * run says nothing of how they vary from run to run, but for what its
 * counts themselves exclude: chance (an exact test of the counts over the
 * ops) and the host (a step larger than the host's own exits per op).
 */
#include <errno.h>
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

/* A side's total count of counter i and its ops, over the runs that have it. */
struct counts {
	double k, ops;
};

/*
 * The counts behind counter i of the runs r[0..n-1]: per op x ops, each a
 * whole number (within 0.01) over ops > 0. 0, or -EINVAL when a run lacks
 * its ops or its figure is no count over them (not a failure: the exact
 * test does not apply).
 */
static int side_counts(const struct run_probe *const *r, size_t n, int i, struct counts *t)
{
	t->k = t->ops = 0;
	for (size_t j = 0; j < n; j++) {
		double k;

		if (r[j]->per_op[i] < 0)
			continue;
		if (r[j]->ops <= 0)
			return -EINVAL;
		k = r[j]->per_op[i] * (double)r[j]->ops;
		if (!(fabs(k - round(k)) <= 0.01))
			return -EINVAL;
		t->k += round(k);
		t->ops += (double)r[j]->ops;
	}
	return t->ops > 0 ? 0 : -EINVAL;
}

/* log of the binomial probability of x of n at p (0 < p < 1). */
static double binom_logpmf(double x, double n, double p)
{
	return lgamma(n + 1) - lgamma(x + 1) - lgamma(n - x + 1) + x * log(p) + (n - x) * log1p(-p);
}

double counters_poisson_p(double ka, double ops_a, double kb, double ops_b)
{
	double n = ka + kb, p = ops_b / (ops_a + ops_b), sum = 0, t;
	bool up = kb >= n * p;

	if (!(n > 0) || !(p > 0) || !(p < 1))
		return 1;
	/* From kb outward into its tail: the terms only fall there; stop once they add nothing. */
	for (double x = kb; x >= 0 && x <= n; x += up ? 1 : -1) {
		t = exp(binom_logpmf(x, n, p));
		sum += t;
		if (t < sum * 1e-17)
			break;
	}
	return fmin(1, 2 * sum);
}

/*
 * What the host itself adds per op on a side (docs/method.md, "Per-op
 * counters"): its interrupts and signals, each an exit; -1 unknown.
 */
static double host_per_op(const struct run_probe *const *r, size_t n)
{
	double irq = counters_mean(r, n, RESULT_OP_IRQ_EXITS);
	double sig = counters_mean(r, n, RESULT_OP_SIGNAL_EXITS);

	return irq < 0 || sig < 0 ? -1 : irq + sig;
}

/* The host's own counters: a step of them is what the host did, never a probe's change. */
static int host_counter(int i)
{
	return i == RESULT_OP_IRQ_EXITS || i == RESULT_OP_SIGNAL_EXITS || i == RESULT_OP_USER_INTR;
}

/*
 * A side of one run (no spread of runs to judge by): a change when its
 * counts exclude chance at COMPARE_COUNTER_P and the step is larger than
 * the host's own exits per op on either side. Its interval: the normal one
 * of the difference of two Poisson rates.
 */
static enum counters_call by_counts(const struct run_probe *const *a, size_t na,
				    const struct run_probe *const *b, size_t nb, int i,
				    struct compare_counter *c)
{
	struct counts ta, tb;
	double ha = host_per_op(a, na), hb = host_per_op(b, nb), se;

	if (host_counter(i) || ha < 0 || hb < 0 || side_counts(a, na, i, &ta) ||
	    side_counts(b, nb, i, &tb))
		return COUNTERS_UNJUDGED;
	if (!(fabs(c->b - c->a) > fmax(ha, hb)) ||
	    !(counters_poisson_p(ta.k, ta.ops, tb.k, tb.ops) < COMPARE_COUNTER_P))
		return COUNTERS_UNJUDGED;
	se = sqrt(ta.k / (ta.ops * ta.ops) + tb.k / (tb.ops * tb.ops));
	c->by = COMPARE_COUNTER_COUNTS;
	c->lo = c->b - c->a - 1.96 * se;
	c->hi = c->b - c->a + 1.96 * se;
	return COUNTERS_CHANGED;
}

static enum counters_call judge(const struct run_probe *const *a, size_t n_a,
				const struct run_probe *const *b, size_t n_b, int i, bool emulated,
				const double *xa, size_t na, const double *xb, size_t nb,
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
	/* Emulated, a run's counts move with the host's speed beyond chance (docs/method.md). */
	return emulated ? COUNTERS_UNJUDGED : by_counts(a, n_a, b, n_b, i, c);
}

enum counters_call counters_judge(const struct run_probe *const *a, size_t na,
				  const struct run_probe *const *b, size_t nb, int i, bool emulated,
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
		r = judge(a, na, b, nb, i, emulated, xa, ka, xb, kb, c);
	free(xa);
	free(xb);
	return r;
}
