// SPDX-License-Identifier: GPL-2.0-only
/* test_stats.c - stats/stats.c against hand-computed statistics. */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "base/array_size.h"
#include "stats/stats.h"
#include "stats/welch.h"
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

static void test_t95(void)
{
	is_num(stats_t95(1), 12.706, EPS, "t95: df 1 from the table");
	is_num(stats_t95(4), 2.776, EPS, "t95: df 4 from the table");
	is_num(stats_t95(30), 2.042, EPS, "t95: df 30 from the table");
	/* Exact quantiles: 2.0395 (31), 2.0211 (40), 1.9840 (100), 1.9600 (infinity). */
	is_num(stats_t95(31), 2.0395, 0.001, "t95: df 31 by the expansion, below df 30's");
	is_num(stats_t95(40), 2.0211, 0.001, "t95: df 40");
	is_num(stats_t95(100), 1.9840, 0.001, "t95: df 100");
	is_num(stats_t95(1000000), 1.96, 0.001, "t95: df 10^6 is the normal quantile");
	ok(isinf(stats_t95(0)), "t95: df 0 is infinite (no interval)");
}

/*
 * The exact quantile: published values (qt(0.975, df) to 7 digits) at
 * integer df, the table within its rounding for df 1..30, and fractional df
 * checked against an independent numerical integration of the t density
 * (the tail beyond the quantile is 0.025 +- 1e-9): 6.016663 at df 1.5,
 * 3.574655 at 2.5, 2.309552 at 7.93.
 */
static void test_t95_df(void)
{
	const double df[] = { 1, 2, 3, 4, 10, 30, 100, 101, 1000 };
	const double q[] = { 12.7062047, 4.3026527, 3.1824463, 2.7764451, 2.2281389, 2.0422725,
			     1.9839715, 1.9837310, 1.9623391 };
	double worst = 0;
	int monotone = 1;

	for (size_t i = 0; i < ARRAY_SIZE(df); i++)
		if (!ok(fabs(stats_t95_df(df[i]) - q[i]) < 1e-6, "t95_df(%g) = %.7f", df[i], q[i]))
			diag("  got %.9f", stats_t95_df(df[i]));
	for (size_t k = 1; k <= 30; k++)
		worst = fmax(worst, fabs(stats_t95_df((double)k) - stats_t95(k)));
	ok(worst <= 0.0005, "the table of stats_t95 is stats_t95_df rounded (worst %.5f)", worst);
	is_num(stats_t95_df(1.5), 6.016663, 1e-5, "t95_df(1.5): between df 1 and 2");
	is_num(stats_t95_df(2.5), 3.574655, 1e-5, "t95_df(2.5)");
	is_num(stats_t95_df(7.93), 2.309552, 1e-5, "t95_df(7.93)");
	for (double d = 0.25; d < 200; d *= 1.1)
		monotone &= stats_t95_df(d) > stats_t95_df(d * 1.1);
	ok(monotone, "t95_df falls with df from 0.25 to 200 (across the switch at 100)");
	ok(stats_t95_df(0.5) > 100 && isfinite(stats_t95_df(0.5)), "t95_df(0.5) is large but finite (%.1f)",
	   stats_t95_df(0.5));
	ok(isinf(stats_t95_df(0)) && isinf(stats_t95_df(-1)) && isinf(stats_t95_df(NAN)),
	   "t95_df: df <= 0 or NaN is infinite");
	is_num(stats_t95_df(INFINITY), 1.959964, 1e-6, "t95_df(infinity) is the normal quantile");
}

static void test_welch(void)
{
	const double a[] = { 10, 12, 14 }, b[] = { 20, 22, 24 };
	const double u[] = { 1, 2, 3 }, v[] = { 10, 20, 30, 40, 50 };
	const double c5[] = { 5, 5, 5 }, c7[] = { 7, 7 }, bad[] = { 1, NAN };
	struct stats_diff d;

	/*
	 * Means 12 and 22, s^2 = 4 each, SE^2 = 4/3 + 4/3 = 8/3; df =
	 * (8/3)^2 / ((4/3)^2/2 + (4/3)^2/2) = 4; half = t95(4) sqrt(8/3) =
	 * 2.7764451 * 1.632993 = 4.533916.
	 */
	is_int(stats_welch_diff(a, 3, b, 3, &d), 0, "welch: equal variances");
	ok(d.median_a == 12 && d.median_b == 22 && d.diff == 10, "welch: means 12, 22, diff 10");
	is_num(d.df, 4, EPS, "welch: df 4");
	is_num(d.hi - d.diff, 2.7764451 * sqrt(8.0 / 3), 1e-6, "welch: half width 4.534");
	is_num(d.diff - d.lo, 2.7764451 * sqrt(8.0 / 3), 1e-6, "welch: symmetric interval");
	is_int(d.iters, 0, "welch: nothing resampled");

	/*
	 * Unequal variances and sizes: u = {1, 2, 3}: mean 2, s^2 = 1, s^2/n =
	 * 1/3; v = {10, 20, 30, 40, 50}: mean 30, s^2 = 1000/4 = 250, s^2/n =
	 * 50. SE^2 = 151/3; df = (151/3)^2 / ((1/3)^2/2 + 50^2/4) =
	 * (22801/9) / (11251/18) = 45602/11251 = 4.0532, used as it is
	 * (t95(4.0532) = 2.76215, not rounded down to t95(4) = 2.77645);
	 * half = 2.76215 * sqrt(151/3) = 2.76215 * 7.094599 = 19.5963, so
	 * the interval is [8.4037, 47.5963] around 28.
	 */
	is_int(stats_welch_diff(u, 3, v, 5, &d), 0, "welch: unequal variances");
	is_num(d.diff, 28, EPS, "welch: diff 28");
	is_num(d.df, 45602.0 / 11251, 1e-9, "welch: Welch-Satterthwaite df 4.0532");
	is_num(d.hi - d.diff, stats_t95_df(45602.0 / 11251) * sqrt(151.0 / 3), 1e-9,
	       "welch: half width t95(df) * SE, df not rounded");
	is_num(d.lo, 8.4037, 1e-4, "welch: lo 8.4037");
	is_num(d.hi, 47.5963, 1e-4, "welch: hi 47.5963");

	is_int(stats_welch_diff(c5, 3, c7, 2, &d), 0, "welch: zero variance on both sides");
	ok(d.diff == 2 && d.lo == 2 && d.hi == 2, "welch: zero variance: CI of width 0");
	is_num(d.df, 3, EPS, "welch: zero variance: df na + nb - 2");

	is_int(stats_welch_diff(a, 1, b, 3, &d), -EINVAL, "welch: one value on a side is -EINVAL");
	is_int(stats_welch_diff(a, 3, b, 0, &d), -EINVAL, "welch: none on a side is -EINVAL");
	is_int(stats_welch_diff(a, 3, bad, 2, &d), -EINVAL, "welch: NaN is -EINVAL");
}

/*
 * The components on numbers worked out by hand. Three runs of a probe:
 * {10, 12} (mean 11, s^2 2, s^2/n 1), {14, 16} (15, 2, 1), {17, 19, 21}
 * (19, 4, 4/3). Run means 11, 15, 19: mean 15, s_y^2 = (16 + 0 + 16) / 2
 * = 16.
 */
static void test_components(void)
{
	const double r1[] = { 10, 12 }, r2[] = { 14, 16 }, r3[] = { 17, 19, 21 }, one[] = { 5 };
	const double nb[] = { 20, 22, 24 }, bad[] = { 1, NAN };
	const struct stats_run runs[] = { { r1, 2 }, { r2, 2 }, { r3, 3 } }, rb = { nb, 3 };
	const struct stats_run short_run[] = { { r1, 2 }, { one, 1 } }, nan_run[] = { { r1, 2 }, { bad, 2 } };
	struct stats_side a, b;
	struct stats_between bw;
	struct stats_se2 extra = { 0 };
	struct stats_diff d;

	is_num(stats_run_mean(&runs[2]), 19, EPS, "run mean: the mean of its round medians");
	/* Runs model: var = s_y^2 / n = 16/3 with n - 1 = 2 df. */
	is_int(stats_side_runs(runs, 3, &a), 0, "runs model: 3 runs");
	is_num(a.mean, 15, EPS, "runs model: mean of the run means");
	is_num(a.se2.var, 16.0 / 3, EPS, "runs model: SE^2 = s_y^2 / n = 16/3");
	is_num(stats_se2_df(&a.se2), 2, EPS, "runs model: n - 1 = 2 df");
	/*
	 * Within model: one component per run, s_j^2 / (n_j n^2): 1/9, 1/9,
	 * 4/27 (df 1, 1, 2): var 10/27; wsum = 1/81 + 1/81 + (4/27)^2 / 2 =
	 * 26/729; df = (10/27)^2 / (26/729) = 100/26 = 3.846.
	 */
	is_int(stats_side_within(runs, 3, &b), 0, "within model: 3 runs");
	is_num(b.mean, 15, EPS, "within model: the same mean");
	is_num(b.se2.var, 10.0 / 27, EPS, "within model: SE^2 = sum s_j^2 / (n_j n^2) = 10/27");
	is_num(stats_se2_df(&b.se2), 100.0 / 26, 1e-9, "within model: Satterthwaite df 100/26");
	ok(stats_side_within(short_run, 2, &b) == -EINVAL, "within model: a run of one round is -EINVAL");
	ok(stats_side_runs(runs, 1, &b) == -EINVAL, "runs model: one run is -EINVAL");
	ok(stats_side_runs(short_run, 2, &b) == 0 && b.mean == 8, "runs model: a run of one round is a run");
	ok(stats_side_runs(nan_run, 2, &b) == -EINVAL, "runs model: NaN is -EINVAL");

	/*
	 * Between runs: within = (1 + 1 + 4/3) / 3 = 10/9, between = 16 - 10/9
	 * = 134/9; df = (134/9)^2 / (16^2 / 2 + wsum), wsum = (1/3)^2 + (1/3)^2
	 * + (4/9)^2 / 2 = 26/81: (17956/81) / (128 + 26/81) = 1.727534.
	 */
	is_int(stats_between_runs(runs, 3, &bw), 0, "between: 3 runs");
	ok(bw.runs == 3 && bw.rounds == 7 && bw.mean == 15, "between: 3 runs, 7 rounds, mean 15");
	is_num(bw.run_var, 16, EPS, "between: run_var = s_y^2 = 16");
	is_num(bw.within, 10.0 / 9, EPS, "between: within = mean s_j^2/n_j = 10/9");
	is_num(bw.within_df, 100.0 / 26, 1e-9, "between: within df 100/26");
	is_num(bw.between, 134.0 / 9, 1e-9, "between: 16 - 10/9");
	is_num(bw.df, (17956.0 / 81) / (128 + 26.0 / 81), 1e-9, "between: Satterthwaite df 1.7275");
	/* Runs that agree better than their rounds say: no between-run part, no df. */
	{
		const double q1[] = { 10, 20 }, q2[] = { 11, 21 }, q3[] = { 12, 18 };
		const struct stats_run quiet[] = { { q1, 2 }, { q2, 2 }, { q3, 2 } };

		ok(stats_between_runs(quiet, 3, &bw) == 0 && bw.between == 0 && bw.df == 0 &&
		   bw.run_var < bw.within, "between: run_var %.2f < within %.2f: between 0, df 0",
		   bw.run_var, bw.within);
	}
	ok(stats_between_runs(runs, 1, &bw) == -EINVAL, "between: one run is -EINVAL");
	ok(stats_between_runs(short_run, 2, &bw) == -EINVAL, "between: a run of one round is -EINVAL");

	/*
	 * A difference with a shared extra component: a = the runs model above
	 * (16/3, df 2), b = {20, 22, 24} as one run (4/3, df 2), extra 2 with
	 * df 4. SE^2 = 26/3, wsum = (16/3)^2/2 + (4/3)^2/2 + 4/4 = 145/9, df =
	 * (26/3)^2 / (145/9) = 676/145 = 4.662.
	 */
	stats_side_runs(runs, 3, &a);
	stats_side_within(&rb, 1, &b);
	stats_se2_add(&extra, 2, 4);
	stats_side_diff(&a, &b, &extra, &d);
	ok(d.median_a == 15 && d.median_b == 22 && d.diff == 7, "diff: 22 - 15 = 7");
	is_num(d.df, 676.0 / 145, 1e-9, "diff: Welch-Satterthwaite df over all components 4.662");
	is_num(d.hi - d.diff, stats_t95_df(676.0 / 145) * sqrt(26.0 / 3), 1e-9,
	       "diff: half width t95(df) * sqrt(26/3)");
	stats_side_diff(&a, &b, NULL, &d);
	is_num(d.df, (20.0 / 3) * (20.0 / 3) / (136.0 / 9), 1e-9, "diff: no extra: df of the sides alone");
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
	test_t95();
	test_t95_df();
	test_welch();
	test_components();
	return done_testing();
}
