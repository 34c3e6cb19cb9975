// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_calibrate_bench.c - the figures scripts/bench-noise and
 * scripts/bench-method take from `exitscope calibrate` instead of
 * computing them: --spread's host speed per round inside a run (its SD
 * over a run's rounds and lag-1 autocorrelation, a median over probes),
 * --matched's table of two series of runs matched run by run, --show's
 * ranges of a floor's figures over its probes, and
 * --verdicts' tally of compare documents (counts, shares and medians),
 * --bench's runs table of a bench-method directory (medians, a range, a
 * share, stop counts), on
 * files written here whose figures are worked out by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/noise.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *exe;

/* A method-v2 run file of probes p, q, r with round medians med[] (q's 100 more, r's 200) and loops base[][]. */
static const char *bench_run(const char *dir, const char *name, const double *med,
			     const double (*base)[5], size_t n)
{
	static const char *const names[] = { "p", "q", "r" };
	json_t *probes = json_array(), *doc;

	for (size_t k = 0; k < 3; k++) {
		json_t *rounds = json_array(), *probe = fixture_probe(names[k], "insn", med, n, 1);

		for (size_t i = 0; i < n; i++) {
			double m = med[i] + 100.0 * (double)k;

			json_array_append_new(rounds, json_pack("{s:i, s:[f], s:f, s:f, s:f}", "batch", 64,
				"samples", m, "median", m, "baseline_median", base[k][i], "raw_median", base[k][i] + m));
		}
		json_object_set_new(probe, "rounds", rounds);
		json_array_append_new(probes, probe);
	}
	doc = fixture_result(fixture_host("6.1.0", "Xeon", "native"), probes);
	json_object_set_new(doc, "settings", fixture_settings("v2", 8));
	name = fixture_write(dir, name, doc);
	json_decref(doc);
	return name;
}

/*
 * The host's speed per round: per round the median over p, q, r of the
 * round's loop / the probe's mean loop in the run - 1. Run 1: p -1 -1 +1 +1
 * %, q -3 -3 +3 +3 %, r flat: the median p's (a mean would be q/3 larger),
 * SD sqrt(4e-4 / 3), lag-1 (1 - 1 + 1) / 4 = 0.25. Run 2: p +2 -2 +2 -2 %,
 * q +-3 %: SD sqrt(16e-4 / 3), lag-1 -3 / 4. Their means: SD 1.73%, -0.25.
 */
static void test_round_speed(const char *dir)
{
	static const double med[4] = { 10, 12, 11, 13 };
	static const double b1[3][5] = { { 990, 990, 1010, 1010 }, { 970, 970, 1030, 1030 },
					 { 1000, 1000, 1000, 1000 } };
	static const double b2[3][5] = { { 1020, 980, 1020, 980 }, { 1030, 970, 1030, 970 },
					 { 1000, 1000, 1000, 1000 } };
	char p1[600], p2[600], want[200];
	struct run_result res;
	const char *p;

	p = bench_run(dir, "speed-1.json", med, b1, 4);
	snprintf(p1, sizeof(p1), "%s", p ? p : "?");
	p = bench_run(dir, "speed-2.json", med, b2, 4);
	snprintf(p2, sizeof(p2), "%s", p ? p : "?");
	snprintf(want, sizeof(want), "round speed: SD over a run's rounds %.2f%% (mean over 2 runs), lag-1 "
		 "autocorrelation %+.2f\n", 100 * (sqrt(4e-4 / 3) + sqrt(16e-4 / 3)) / 2, (0.25 - 0.75) / 2);
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--from", "--spread", p1, p2, NULL });
	ok(res.status == 0 && strstr(res.out, want) && strstr(want, "1.73%") && strstr(want, "-0.25"),
	   "--spread: the host's speed per round, SD 1.73%% and lag-1 -0.25 (%d)", res.status);
	if (res.status || !strstr(res.out, want))
		diag("want %sgot: %s%s", want, res.out, res.err);
	run_free(&res);

	/* Runs of 2 rounds: no SD over a run's rounds to take. */
	p = bench_run(dir, "short-1.json", med, b1, 2);
	snprintf(p1, sizeof(p1), "%s", p ? p : "?");
	p = bench_run(dir, "short-2.json", med, b2, 2);
	snprintf(p2, sizeof(p2), "%s", p ? p : "?");
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--from", "--spread", p1, p2, NULL });
	ok(res.status == 0 && strstr(res.out, "round speed: - (no run of 3 rounds or more)\n"),
	   "--spread on runs of 2 rounds: no round speed (%d)", res.status);
	run_free(&res);
}

/* The sample SD of x[0..n-1]. */
static double sd_of(const double *x, size_t n)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += x[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return sqrt(ss / (double)(n - 1));
}

/*
 * --matched: series a's runs have round medians {10.5, 11.5}, {14.5,
 * 15.5}, {20.5, 21.5} (run means 11, 15, 21, squared standard errors 0.5 /
 * 2), b's {10, 10}, {14, 14}, {19, 19}. Differences 1, 1, 2: SD sqrt(1/3);
 * expected sqrt(0.25); floor sqrt((1/3 - 1/4) / 2); over the pairs' mean
 * 15 (p's row). Shifts: the median over p, q, r of the run mean over the
 * probe's mean, less 1, q's (p's moves most, r's least): a's 111, 115, 121
 * over 347/3, b's 110, 114, 119 over 343/3, less 1.
 */
static void test_matched(const char *dir)
{
	static const double ma[3][2] = { { 10.5, 11.5 }, { 14.5, 15.5 }, { 20.5, 21.5 } };
	static const double mb[3][2] = { { 10, 10 }, { 14, 14 }, { 19, 19 } };
	static const double flat[3][5] = { { 1000, 1000 }, { 1000, 1000 }, { 1000, 1000 } };
	double sa[3], sb[3], sd[3], mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
	char path[6][600], want[300];
	struct run_result res;

	for (size_t i = 0; i < 6; i++) {
		char name[32];
		const char *p;

		snprintf(name, sizeof(name), "matched-%zu.json", i + 1);
		p = bench_run(dir, name, i < 3 ? ma[i] : mb[i - 3], flat, 2);
		snprintf(path[i], sizeof(path[i]), "%s", p ? p : "?");
	}
	for (size_t i = 0; i < 3; i++) {
		sa[i] = ((ma[i][0] + ma[i][1]) / 2 + 100) / (347.0 / 3) - 1;
		sb[i] = (mb[i][0] + 100) / (343.0 / 3) - 1;
		sd[i] = sa[i] - sb[i];
		mx += sa[i] / 3;
		my += sb[i] / 3;
	}
	for (size_t i = 0; i < 3; i++) {
		sxy += (sa[i] - mx) * (sb[i] - my);
		sxx += (sa[i] - mx) * (sa[i] - mx);
		syy += (sb[i] - my) * (sb[i] - my);
	}
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--from", "--matched", path[0], path[1], path[2],
			path[3], path[4], path[5], NULL });
	snprintf(want, sizeof(want), "\n%-20s %5d %7.2f%% %8.2f%% %8.2f %7.2f%%\n", "p", 3, 100 * sqrt(1.0 / 3) / 15,
		 100 * 0.5 / 15, sqrt(1.0 / 3) / 0.5, 100 * sqrt((1.0 / 3 - 0.25) / 2) / 15);
	ok(res.status == 0 && strstr(res.out, want) && strstr(want, "3.85%") && strstr(want, "1.36%"),
	   "--matched: p's diff SD 3.85%%, expected 3.33%%, floor 1.36%% (%d)", res.status);
	if (res.status || !strstr(res.out, want))
		diag("want %sgot: %s%s", want, res.out, res.err);
	snprintf(want, sizeof(want), "common shift over 3 runs: SD %.2f%% (first), %.2f%% (second), difference "
		 "%.2f%%; correlation %.2f\n", 100 * sd_of(sa, 3), 100 * sd_of(sb, 3), 100 * sd_of(sd, 3),
		 sxy / sqrt(sxx * syy));
	ok(strstr(res.out, want) != NULL, "--matched: both series' shifts, their difference and correlation");
	if (!strstr(res.out, want))
		diag("want %sgot: %s", want, res.out);
	run_free(&res);

	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--from", "--matched", path[0], path[1], path[3],
			NULL });
	ok(res.status == 2 && strstr(res.err, "an even number"), "--matched with an odd count: exit 2 (%d)",
	   res.status);
	run_free(&res);
}

/*
 * --show: a floor of three probes (test_matched's first series) printed
 * back with each figure's range over the probes: the smallest, the middle
 * one of the three and the largest, as the noise file has them.
 */
static void test_show(const char *dir)
{
	char noise[600], path[3][600], want[300];
	double rel[3], t;
	struct run_result res;
	struct noise_floor *nf;
	struct err err;

	for (size_t i = 0; i < 3; i++) {
		char name[32];

		snprintf(name, sizeof(name), "matched-%zu.json", i + 1);
		snprintf(path[i], sizeof(path[i]), "%s/%s", dir, name);
	}
	snprintf(noise, sizeof(noise), "%s/show-noise.json", dir);
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--from", "-o", noise, path[0], path[1], path[2],
			NULL });
	run_free(&res);
	nf = noise_read_file(noise, &err);
	if (!nf || nf->n_probes != 3) {
		ok(0, "--show: a floor of 3 probes to show");
		noise_free(nf);
		return;
	}
	for (size_t i = 0; i < 3; i++)
		rel[i] = 100 * nf->probes[i].cycles.between_sd_rel;
	noise_free(nf);
	/* Sorted by hand: three values, three swaps at most. */
	for (size_t i = 0; i < 2; i++)
		for (size_t j = 0; j < 2 - i; j++)
			if (rel[j] > rel[j + 1]) {
				t = rel[j];
				rel[j] = rel[j + 1];
				rel[j + 1] = t;
			}
	snprintf(want, sizeof(want), "range of between %%: min %.2f%%, median %.2f%%, max %.2f%% over 3 probes\n",
		 rel[0], rel[1], rel[2]);
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--show", noise, NULL });
	ok(res.status == 0 && strstr(res.out, want) && rel[0] < rel[1] && rel[1] < rel[2],
	   "--show: the floor's between %% over its 3 probes, min < median < max (%d)", res.status);
	if (res.status || !strstr(res.out, want))
		diag("want %sgot: %s%s", want, res.out, res.err);
	run_free(&res);
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--show", noise, noise, NULL });
	ok(res.status == 2 && strstr(res.err, "--show wants one noise file, got 2"),
	   "--show with two files: exit 2 (%d)", res.status);
	run_free(&res);
}

/* A compare document (schema_version 3) of the probes given, warning of the baseline when warn. */
static const char *bench_compare(const char *dir, const char *name, json_t *probes, int warn)
{
	json_t *doc = json_pack("{s:s, s:i, s:[s], s:[s], s:f, s:i, s:o, s:o}", "schema", "exitscope-compare",
				"schema_version", 3, "base_files", "a.json", "new_files", "b.json",
				"threshold_pct", 1.0, "seed", 1, "warnings",
				warn ? json_pack("[s]", "WARNING: the harness baseline moved by 3%") : json_array(),
				"probes", probes);

	name = fixture_write(dir, name, doc);
	json_decref(doc);
	return name;
}

/* One compared probe: its verdict, diff_pct, interval and min_detectable_pct (NAN: null). */
static json_t *bench_verdict(const char *name, const char *verdict, double diff, double lo, double hi,
			     double mdc)
{
	return json_pack("{s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:o}", "name", name, "verdict", verdict,
			 "base_median", 100.0, "new_median", 100 + diff, "diff_pct", diff, "ci95_pct_lo", lo,
			 "ci95_pct_hi", hi, "min_detectable_pct", isnan(mdc) ? json_null() : json_real(mdc));
}

/*
 * Two comparisons. 1: a faster (+2, [1, 3], mdc 1.5), b no significant
 * change (-0.5, [-2, 1], 2.5), c not compared (not counted); the baseline
 * warning. 2: a too noisy (+4, [-6, 14], no mdc), b slower (+3, [1, 5],
 * 2.1). All: 4 probes, one of each; medians mdc (2.1 + 2.5) / 2 = 2.3,
 * diff (2 + 3) / 2 = 2.5, half (1.5 + 2) / 2 = 1.75.
 */
static void test_verdicts(const char *dir)
{
	char c1[600], c2[600], want[300];
	struct run_result res;
	const char *p;

	p = bench_compare(dir, "cmp-1.json", json_pack("[o, o, {s:s, s:s}]",
			  bench_verdict("a", "faster", 2, 1, 3, 1.5),
			  bench_verdict("b", "no significant change", -0.5, -2, 1, 2.5),
			  "name", "c", "verdict", "not compared"), 1);
	snprintf(c1, sizeof(c1), "%s", p ? p : "?");
	p = bench_compare(dir, "cmp-2.json", json_pack("[o, o]", bench_verdict("a", "too noisy", 4, -6, 14, NAN),
			  bench_verdict("b", "slower", 3, 1, 5, 2.1)), 0);
	snprintf(c2, sizeof(c2), "%s", p ? p : "?");
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--verdicts", c1, c2, NULL });
	snprintf(want, sizeof(want), "\n%-17s %4d %3d %5.1f%% %3d %5.1f%% %3d %5.1f%% %3d %5.1f%% %3d %5.1f%% %7s "
		 "%7s %6s\n", "all", 4, 1, 25.0, 1, 25.0, 1, 25.0, 1, 25.0, 0, 0.0, "2.3%", "+2.50%", "1.75%");
	ok(res.status == 0 && strstr(res.out, want),
	   "--verdicts: all 4 compared, one of each verdict, the medians (%d)", res.status);
	ok(strstr(res.out, "\nfaster or slower: 2 (50.0%) in 2 of 2 files; baseline warning in 1 of 2\n") != NULL,
	   "--verdicts: the files with a false verdict, those with the baseline warning");
	/* File 1: mdc (1.5 + 2.5) / 2, diff (2 - 0.5) / 2, half (1 + 1.5) / 2. */
	snprintf(want, sizeof(want), "\n%-17s %4d %3d %5.1f%% %3d %5.1f%% %3d %5.1f%% %3d %5.1f%% %3d %5.1f%% %7s "
		 "%7s %6s\n", "1", 2, 1, 50.0, 0, 0.0, 0, 0.0, 1, 50.0, 0, 0.0, "2.0%", "+0.75%", "1.25%");
	ok(strstr(res.out, want) != NULL, "--verdicts: file 1's row, in the order given");
	/* Probe a: mdc of 1.5 and none (above any), diff (2 + 4) / 2, half (1 + 10) / 2. */
	snprintf(want, sizeof(want), "\n%-17s %4d %3d %5.1f%% %3d %5.1f%% %3d %5.1f%% %3d %5.1f%% %3d %5.1f%% %7s "
		 "%7s %6s\n", "a", 2, 1, 50.0, 0, 0.0, 1, 50.0, 0, 0.0, 0, 0.0, ">1000%", "+3.00%", "5.50%");
	ok(strstr(res.out, want) && !strstr(res.out, "\nc "), "--verdicts: probe a's row; c not compared, no row");
	if (res.status || !strstr(res.out, want))
		diag("want %sgot: %s%s", want, res.out, res.err);
	run_free(&res);

	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--verdicts", c1, "/nonexistent.json", NULL });
	ok(res.status == 1 && strstr(res.err, "/nonexistent.json"), "--verdicts on a missing file: exit 1 (%d)",
	   res.status);
	run_free(&res);
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--verdicts", "--from", c1, NULL });
	ok(res.status == 2 && strstr(res.err, "--verdicts reads compare documents: no --from"),
	   "--verdicts --from: usage error, exit 2 (%d)", res.status);
	run_free(&res);
}

/* A bench-method directory's runs.tsv (header, then one line per run) and stops.tsv in dir. */
static void bench_tables(const char *dir, const char *runs, const char *stops)
{
	static const char head[] = "variant\tk\tsetup\tseed\tfile\tstarted\ttime\twall\tcpu\tload1\t"
				   "busy\tnice\tidle\tsteal\n";
	char buf[2000];

	snprintf(buf, sizeof(buf), "%s%s", head, runs);
	fixture_write_raw(dir, "runs.tsv", buf, strlen(buf));
	fixture_write_raw(dir, "stops.tsv", stops, strlen(stops));
}

/*
 * --bench's runs table. v1: wall 10 30 12 s, median 12 (the mean would be
 * 17.33), the most 30; CPU median 6; load 0.50-1.50; busy, nice, idle,
 * steal medians 25, 1, 75, 0.0; probe-runs of 8 8 5 8 rounds: median 8,
 * 3 of 4 (75%) reach the most, 8; stops: 3 none, 1 precision. v2: wall
 * (4 + 6) / 2; rounds 3 and 4: median 3.5, 1 of 2 reach 4. v9 has no runs.
 */
static void test_bench(const char *dir)
{
	char want[300];
	struct run_result res;

	bench_tables(dir, "v1\t1\ta\t1\tr1.json\t0\t10:00\t10\t5\t1.5\t20\t1\t79\t0\n"
			  "v1\t2\ta\t1\tr2.json\t0\t10:01\t30\t7\t0.5\t30\t2\t68\t0.5\n"
			  "v2\t1\ta\t1\tr3.json\t0\t10:02\t4\t2\t2\t50\t0\t50\t1\n"
			  "v1\t3\ta\t1\tr4.json\t0\t10:03\t12\t6\t0.9\t25\t0\t75\t0\n"
			  "v2\t2\ta\t1\tr5.json\t0\t10:04\t6\t3\t3\t60\t0\t40\t2\n",
		     "v1\t8\t-\nv1\t8\t-\nv1\t5\tprecision\nv2\t3\tbudget\nv1\t8\t-\n"
		     "v2\t4\tbudget\nv9\t2\tbudget\n");
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--bench", dir, NULL });
	snprintf(want, sizeof(want), "\n  %-10s %5d %7.2f %7.2f %7.2f %5.2f-%-5.2f %7.1f %5.1f%% of %-2d "
		 "%5.0f%% %5.0f%% %5.0f%% %5.1f%%  - 3 precision 1\n", "v1", 3, 12.0, 30.0, 6.0, 0.5, 1.5,
		 8.0, 75.0, 8, 25.0, 1.0, 75.0, 0.0);
	ok(res.status == 0 && strstr(res.out, want), "--bench: v1's medians, range, share and stops (%d)",
	   res.status);
	if (res.status || !strstr(res.out, want))
		diag("want %sgot: %s%s", want, res.out, res.err);
	snprintf(want, sizeof(want), "\n  %-10s %5d %7.2f %7.2f %7.2f %5.2f-%-5.2f %7.1f %5.1f%% of %-2d "
		 "%5.0f%% %5.0f%% %5.0f%% %5.1f%%  budget 2\n", "v2", 2, 5.0, 6.0, 2.5, 2.0, 3.0,
		 3.5, 50.0, 4, 55.0, 0.0, 45.0, 1.5);
	ok(strstr(res.out, want) && !strstr(res.out, "v9"),
	   "--bench: v2's medians of an even count, its share; v9 without runs has no row");
	if (!strstr(res.out, want))
		diag("want %sgot: %s%s", want, res.out, res.err);
	run_free(&res);

	bench_tables(dir, "v1\t1\ta\t1\tr1.json\t0\t10:00\t10\tfast\t1.5\t20\t1\t79\t0\n", "");
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--bench", dir, NULL });
	ok(res.status == 1 && strstr(res.err, "runs.tsv:2: column 9 is not a number: 'fast'"),
	   "--bench: a run's CPU time not a number: exit 1, the line and column (%d)", res.status);
	run_free(&res);
	run_cmd(&res, (const char *const[]){ exe, "calibrate", "--bench", dir, dir, NULL });
	ok(res.status == 2 && strstr(res.err, "--bench wants one directory, got 2"),
	   "--bench of two directories: usage error, exit 2 (%d)", res.status);
	run_free(&res);
}

int main(void)
{
	char *dir;

	exe = getenv("EXITSCOPE");
	if (!exe || access(exe, X_OK))
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	dir = fixture_tmpdir();
	test_round_speed(dir);
	test_matched(dir);
	test_show(dir);
	test_verdicts(dir);
	test_bench(dir);
	fixture_rmdir(dir);
	return done_testing();
}
