/* test_stats.c - stats/stats.c against hand-computed statistics. */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "stats/stats.h"
#include "tests/tap.h"

#define EPS 1e-9

static void test_one_sample(void)
{
	const double x[] = { 5 };
	struct stats_summary s;

	is_int(stats_summarize(x, 1, &s), 0, "n=1: summarize succeeds");
	is_num(s.min, 5, EPS, "n=1: min");
	is_num(s.max, 5, EPS, "n=1: max");
	is_num(s.median, 5, EPS, "n=1: median");
	is_num(s.p90, 5, EPS, "n=1: p90");
	is_num(s.p99, 5, EPS, "n=1: p99");
	is_num(s.mean, 5, EPS, "n=1: mean");
	is_num(s.stddev, 0, EPS, "n=1: stddev is 0");
	is_num(s.cv, 0, EPS, "n=1: cv is 0");
	ok(s.ci95_lo == 5 && s.ci95_hi == 5, "n=1: CI is the single value");
}

static void test_odd(void)
{
	const double x[] = { 3, 1, 2 };
	struct stats_summary s;

	stats_summarize(x, 3, &s);
	is_int((long long)s.n, 3, "odd: n");
	is_num(s.median, 2, EPS, "odd {3,1,2}: median 2");
	is_num(s.mean, 2, EPS, "odd: mean 2");
	is_num(s.stddev, 1, EPS, "odd: sample stddev 1");
	is_num(s.cv, 0.5, EPS, "odd: cv 0.5");
	is_num(s.p90, 2.8, EPS, "odd: p90 = 2 + 0.8 (type 7)");
	is_num(s.p99, 2.98, EPS, "odd: p99 = 2 + 0.98");
	ok(s.ci95_lo == 1 && s.ci95_hi == 3, "odd n=3: CI is [min, max]");
	is_num(x[0], 3, 0, "input not modified");
}

static void test_even(void)
{
	const double x[] = { 4, 1, 3, 2 };
	const double sorted[] = { 1, 2, 3, 4 };
	struct stats_summary s;

	stats_summarize(x, 4, &s);
	is_num(s.median, 2.5, EPS, "even {4,1,3,2}: median 2.5");
	is_num(s.mean, 2.5, EPS, "even: mean 2.5");
	is_num(s.stddev, sqrt(5.0 / 3.0), EPS, "even: stddev sqrt(5/3)");
	is_num(s.p90, 3.7, EPS, "even: p90 3.7");
	is_num(stats_percentile_sorted(sorted, 4, 0), 1, EPS, "percentile 0 = min");
	is_num(stats_percentile_sorted(sorted, 4, 100), 4, EPS, "percentile 100 = max");
	is_num(stats_percentile_sorted(sorted, 4, 25), 1.75, EPS, "percentile 25 = 1.75");
	is_num(stats_percentile_sorted(sorted, 4, 50), 2.5, EPS, "percentile 50 = 2.5");
	is_num(stats_median(x, 4), 2.5, EPS, "stats_median even");
	is_num(stats_median(x, 3), 3, EPS, "stats_median of {4,1,3}");
}

static void test_ties(void)
{
	const double same[] = { 7, 7, 7, 7 };
	const double x[] = { 2, 1, 2, 3, 2 };
	const double zeros[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	struct stats_summary s;

	stats_summarize(same, 4, &s);
	ok(s.median == 7 && s.min == 7 && s.max == 7, "all tied: median/min/max 7");
	ok(s.stddev == 0 && s.cv == 0, "all tied: stddev and cv 0");
	ok(s.ci95_lo == 7 && s.ci95_hi == 7, "all tied: zero-width CI");
	stats_summarize(x, 5, &s);
	is_num(s.median, 2, EPS, "ties {2,1,2,3,2}: median 2");
	is_num(s.p90, 2.6, EPS, "ties: p90 = 2 + 0.6");
	stats_summarize(zeros, 12, &s);
	ok(s.median == 0 && s.cv == 0 && s.ci95_lo == 0 && s.ci95_hi == 0,
	   "all zero: median 0, cv 0 (no division by zero)");
	is_num(stats_median(zeros, 12), 0, 0, "stats_median of many ties");
}

static void check_ranks(size_t n, size_t lo, size_t hi)
{
	size_t l, h;

	stats_median_ci_ranks(n, &l, &h);
	if (!ok(l == lo && h == hi, "median CI ranks for n=%zu are (%zu, %zu)", n, lo, hi))
		diag("  got (%zu, %zu)", l, h);
}

static void test_ci_ranks(void)
{
	double x[20];
	struct stats_summary s;
	size_t i;

	/*
	 * Hand-computed with Binomial(n, 1/2): n=6: P(B<=0)=1/64 <= .025 -> l=1;
	 * n=10: P(B<=1)=11/1024 <= .025 < P(B<=2)=56/1024 -> l=2;
	 * n=20: P(B<=5)=.0207 <= .025 < P(B<=6)=.0577 -> l=6;
	 * n=100: the textbook (40, 61). n<=5 cannot reach 95%: [min, max].
	 */
	check_ranks(0, 0, 0);
	check_ranks(1, 1, 1);
	check_ranks(2, 1, 2);
	check_ranks(5, 1, 5);
	check_ranks(6, 1, 6);
	check_ranks(10, 2, 9);
	check_ranks(20, 6, 15);
	check_ranks(100, 40, 61);
	check_ranks(1000, 469, 532);

	for (i = 0; i < 20; i++)
		x[i] = (double)(20 - i);	/* 20..1, unsorted */
	stats_summarize(x, 20, &s);
	ok(s.ci95_lo == 6 && s.ci95_hi == 15, "summary of 1..20: CI [x(6), x(15)] = [6, 15]");
	is_num(s.median, 10.5, EPS, "summary of 1..20: median 10.5");
}

static void test_errors(void)
{
	const double bad[] = { 1, NAN, 2 };
	const double inf[] = { INFINITY };
	struct stats_summary s;

	is_int(stats_summarize(bad, 0, &s), -EINVAL, "n=0 is -EINVAL");
	is_int(stats_summarize(bad, 3, &s), -EINVAL, "NaN is -EINVAL");
	is_int(stats_summarize(inf, 1, &s), -EINVAL, "infinity is -EINVAL");
	ok(isnan(stats_median(bad, 0)), "stats_median of nothing is NaN");
}

static void test_splitmix(void)
{
	uint64_t st = 0;

	/* Reference output of splitmix64 seeded with 0 (Vigna's splitmix64.c). */
	ok(stats_splitmix64(&st) == 0xe220a8397b1dcdafULL, "splitmix64(0) #1");
	ok(stats_splitmix64(&st) == 0x6e789e6aa1b965f4ULL, "splitmix64(0) #2");
	ok(stats_splitmix64(&st) == 0x06c45d188009454fULL, "splitmix64(0) #3");
}

static void test_bootstrap(void)
{
	const double a1[] = { 100, 100, 100 }, b1[] = { 90, 90, 90, 90 };
	const double a2[] = { 10, 10, 10 }, b2[] = { 20, 20, 21 };
	const double a3[] = { 1, 2 };
	struct stats_diff d, e;
	double big[64];
	size_t i;

	is_int(stats_bootstrap_median_diff(a1, 3, b1, 4, 0, 1, &d), 0, "bootstrap constant samples");
	ok(d.diff == -10 && d.lo == -10 && d.hi == -10, "constant samples: diff and CI exactly -10");
	is_int(d.iters, STATS_BOOTSTRAP_ITERS, "iters 0 means the default");

	/*
	 * b2's resampled median is 21 iff at least two of three draws are 21:
	 * 3*(1/3)^2*(2/3) + (1/3)^3 = 7/27 ~ 26%, else 20. So the difference is 10
	 * (74%) or 11 (26%): the 2.5% and 97.5% points are 10 and 11.
	 */
	stats_bootstrap_median_diff(a2, 3, b2, 3, 4000, 42, &d);
	ok(d.diff == 10 && d.lo == 10 && d.hi == 11, "{10,10,10} vs {20,20,21}: diff 10, CI [10, 11]");
	ok(d.median_a == 10 && d.median_b == 20, "medians reported");

	/*
	 * Medians of two draws from {1, 2}: 1 (1/4), 1.5 (1/2), 2 (1/4); the
	 * difference is -1 with probability 1/16 > 2.5%, likewise +1: CI [-1, 1].
	 */
	stats_bootstrap_median_diff(a3, 2, a3, 2, 4000, 7, &d);
	ok(d.diff == 0 && d.lo == -1 && d.hi == 1, "{1,2} vs itself: diff 0, CI [-1, 1]");

	for (i = 0; i < 64; i++)
		big[i] = (double)((i * 37) % 64);
	stats_bootstrap_median_diff(big, 64, big, 32, 500, 99, &d);
	stats_bootstrap_median_diff(big, 64, big, 32, 500, 99, &e);
	ok(d.lo == e.lo && d.hi == e.hi && d.diff == e.diff, "same seed: same interval (reproducible)");
	ok(d.lo <= d.diff && d.diff <= d.hi, "interval contains the point estimate");
	is_int(d.iters, 500, "iters as requested");
	is_int(stats_bootstrap_median_diff(a1, 0, b1, 4, 0, 1, &d), -EINVAL, "empty input is -EINVAL");

	is_int(stats_bootstrap_iters(100000, 100000, 0), STATS_BOOTSTRAP_ITERS / 10,
	       "huge inputs: resamples capped by the budget");
	is_int(stats_bootstrap_iters(10000000, 1, 5000), STATS_BOOTSTRAP_MIN_ITERS,
	       "never fewer than the minimum");
}

int main(void)
{
	test_one_sample();
	test_odd();
	test_even();
	test_ties();
	test_ci_ranks();
	test_errors();
	test_splitmix();
	test_bootstrap();
	return done_testing();
}
