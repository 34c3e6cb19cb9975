// SPDX-License-Identifier: GPL-2.0-only
/*
 * stats.c - descriptive statistics, median confidence intervals, a seeded
 * bootstrap and the quantile of Student's t.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "stats/stats.h"

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

double stats_percentile_sorted(const double *sorted, size_t n, double p)
{
	double h, frac;
	size_t lo;

	if (n == 1 || p <= 0)
		return sorted[0];
	if (p >= 100)
		return sorted[n - 1];
	/* Hyndman-Fan type 7: h = (n - 1) * p, interpolate x[floor h]..x[floor h + 1]. */
	h = (double)(n - 1) * p / 100.0;
	lo = (size_t)h;
	if (lo >= n - 1)
		return sorted[n - 1];
	frac = h - (double)lo;
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/*
 * 95% confidence interval of the median, distribution-free.
 *
 * Let B ~ Binomial(n, 1/2) be the number of samples below the true median.
 * For 1-based order statistics x(l) <= x(u) with u = n + 1 - l, the interval
 * [x(l), x(u)] misses the median only when B <= l - 1 or B >= u, so its
 * coverage is 1 - 2 * P(B <= l - 1). We take the largest l with
 * P(B <= l - 1) <= 0.025, i.e. the narrowest symmetric interval whose coverage
 * is at least 95%. The binomial probabilities are summed in log space
 * (lgamma), so large n does not underflow the whole sum. No l >= 1 reaches 95%
 * for n <= 5 (P(B = 0) = 2^-n > 0.025): there the interval is [min, max],
 * whose coverage is 1 - 2^(1-n) (93.75% at n = 5), and for n == 1 it is the
 * single value. Ties need no special handling: order statistics of tied data
 * are well defined, the interval just gets narrower (possibly zero width).
 */
void stats_median_ci_ranks(size_t n, size_t *lo_rank, size_t *hi_rank)
{
	double log_norm, cdf = 0;
	size_t k, l = 1;

	if (n == 0) {
		*lo_rank = *hi_rank = 0;
		return;
	}
	log_norm = lgamma((double)n + 1) - (double)n * log(2.0);
	for (k = 0; k < n; k++) {
		cdf += exp(log_norm - lgamma((double)k + 1) - lgamma((double)(n - k) + 1));
		if (cdf > 0.025)
			break;
		/* P(B <= k) <= 0.025, so l = k + 1 is still acceptable. */
		l = k + 1;
	}
	if (l > (n + 1) / 2)
		l = (n + 1) / 2;
	*lo_rank = l;
	*hi_rank = n + 1 - l;
}

int stats_summarize(const double *x, size_t n, struct stats_summary *out)
{
	double *s, sum = 0, var = 0;
	size_t i, lo, hi;

	memset(out, 0, sizeof(*out));
	if (n == 0 || !x)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return -EINVAL;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);

	for (i = 0; i < n; i++)
		sum += s[i];
	out->n = n;
	out->min = s[0];
	out->max = s[n - 1];
	out->mean = sum / (double)n;
	for (i = 0; i < n; i++)
		var += (s[i] - out->mean) * (s[i] - out->mean);
	/* Sample standard deviation (n - 1); zero for a single sample. */
	out->stddev = n > 1 ? sqrt(var / (double)(n - 1)) : 0;
	out->cv = out->mean != 0 ? out->stddev / fabs(out->mean) : 0;
	out->median = stats_percentile_sorted(s, n, 50);
	out->p90 = stats_percentile_sorted(s, n, 90);
	out->p99 = stats_percentile_sorted(s, n, 99);
	stats_median_ci_ranks(n, &lo, &hi);
	out->ci95_lo = s[lo - 1];
	out->ci95_hi = s[hi - 1];
	free(s);
	return 0;
}

uint64_t stats_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform index in [0, n) (Lemire's multiply-shift; bias < n / 2^64). */
static size_t rand_index(uint64_t *state, size_t n)
{
	return (size_t)(((unsigned __int128)stats_splitmix64(state) * n) >> 64);
}

static void swap_double(double *x, size_t i, size_t j)
{
	double t = x[i];

	x[i] = x[j];
	x[j] = t;
}

/*
 * k-th smallest (0-based) of x[0..n-1]; reorders x so that x[k] holds it,
 * everything before is <= and everything after is >=. Quickselect with a
 * three-way partition (ties are common: clamped samples are often all 0)
 * and a pseudo-random pivot (no quadratic case for sorted input).
 */
static double select_kth(double *x, size_t n, size_t k)
{
	uint64_t state = n;
	size_t lo = 0, hi = n;

	while (hi - lo > 1) {
		double pivot = x[lo + rand_index(&state, hi - lo)];
		size_t lt = lo, i = lo, gt = hi;

		while (i < gt) {
			if (x[i] < pivot)
				swap_double(x, lt++, i++);
			else if (x[i] > pivot)
				swap_double(x, i, --gt);
			else
				i++;
		}
		/* [lo, lt) < pivot, [lt, gt) == pivot, [gt, hi) > pivot */
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return pivot;
	}
	return x[k];
}

/* Median (type 7) of x[0..n-1]; reorders x. */
static double median_inplace(double *x, size_t n)
{
	double a, b;
	size_t i;

	if (n & 1)
		return select_kth(x, n, n / 2);
	a = select_kth(x, n, n / 2 - 1);
	/* After selecting, everything above n/2 - 1 is >= a: the next one is their minimum. */
	b = x[n / 2];
	for (i = n / 2 + 1; i < n; i++)
		if (x[i] < b)
			b = x[i];
	return a + (b - a) / 2;
}

double stats_median(const double *x, size_t n)
{
	double *s, m;

	if (n == 0)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, x, n * sizeof(*s));
	m = median_inplace(s, n);
	free(s);
	return m;
}

static double resample_median(const double *x, size_t n, double *buf, uint64_t *state)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = x[rand_index(state, n)];
	return median_inplace(buf, n);
}

unsigned stats_bootstrap_iters(size_t na, size_t nb, unsigned requested)
{
	size_t total = na + nb, cap;

	if (requested == 0)
		requested = STATS_BOOTSTRAP_ITERS;
	if (total == 0)
		return requested;
	cap = STATS_BOOTSTRAP_BUDGET / total;
	if (cap < STATS_BOOTSTRAP_MIN_ITERS)
		cap = STATS_BOOTSTRAP_MIN_ITERS;
	return requested < cap ? requested : (unsigned)cap;
}

int stats_bootstrap_median_diff(const double *a, size_t na, const double *b, size_t nb,
				unsigned iters, uint64_t seed, struct stats_diff *out)
{
	double *diffs, *buf;
	uint64_t state = seed;
	unsigned i;
	size_t k;

	memset(out, 0, sizeof(*out));
	if (!a || !b || na == 0 || nb == 0)
		return -EINVAL;
	for (k = 0; k < na; k++)
		if (!isfinite(a[k]))
			return -EINVAL;
	for (k = 0; k < nb; k++)
		if (!isfinite(b[k]))
			return -EINVAL;
	iters = stats_bootstrap_iters(na, nb, iters);
	diffs = malloc(iters * sizeof(*diffs));
	buf = malloc((na > nb ? na : nb) * sizeof(*buf));
	if (!diffs || !buf) {
		free(diffs);
		free(buf);
		return -ENOMEM;
	}
	out->median_a = stats_median(a, na);
	out->median_b = stats_median(b, nb);
	out->diff = out->median_b - out->median_a;
	for (i = 0; i < iters; i++) {
		double ma = resample_median(a, na, buf, &state);
		double mb = resample_median(b, nb, buf, &state);

		diffs[i] = mb - ma;
	}
	qsort(diffs, iters, sizeof(*diffs), cmp_double);
	out->lo = stats_percentile_sorted(diffs, iters, 2.5);
	out->hi = stats_percentile_sorted(diffs, iters, 97.5);
	out->iters = iters;
	free(diffs);
	free(buf);
	return 0;
}

double stats_t95(size_t df)
{
	static const double q[] = {
		12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	const double z = 1.959964, z3 = z * z * z, z5 = z3 * z * z;
	double v = (double)df;

	if (df == 0)
		return INFINITY;
	if (df <= ARRAY_SIZE(q))
		return q[df - 1];
	/* Cornish-Fisher: t = z + (z^3 + z) / 4v + (5z^5 + 16z^3 + 3z) / 96v^2 + O(v^-3). */
	return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v);
}

/*
 * The regularized incomplete beta function I_x(a, b) by its continued
 * fraction (the modified Lentz method); for x < (a + 1) / (a + b + 2)
 * directly, else through I_x(a, b) = 1 - I_(1-x)(b, a), where the fraction
 * converges fast. Used for a <= 50, b = 1/2 only (stats_t95_df), where 300
 * terms are far more than it needs.
 */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, aa, del;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double incomplete_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double stats_t95_df(double df)
{
	const double z = 1.959963984540054, z2 = z * z;
	double lo = 0, hi = 1, mid;

	if (!(df > 0))
		return INFINITY;
	if (df > 100) {
		/* Abramowitz and Stegun 26.7.5, four terms: within 1e-8 of the exact value here. */
		double g1 = (z2 + 1) * z / 4;
		double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
		double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
		double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;

		return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
	}
	/*
	 * P(|T| > t) = I_x(df/2, 1/2) with x = df / (df + t^2), increasing in x:
	 * bisect for the x where it is 0.05 (to the last bits of a double, also
	 * for df << 1 where x is tiny), then t = sqrt(df (1 - x) / x).
	 */
	for (int i = 0; i < 2000 && hi - lo > 1e-16 * hi; i++) {
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (incomplete_beta(df / 2, 0.5, mid) < 0.05)
			lo = mid;
		else
			hi = mid;
	}
	mid = lo + (hi - lo) / 2;
	return sqrt(df * (1 - mid) / mid);
}
