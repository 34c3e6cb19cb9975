// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_speed.c - compare at equal guest speed (docs/method.md): the slope
 * within runs on hand-computed numbers, the adjustment of a probe's
 * rounds, and on synthetic runs whose host speed moves whole runs and
 * rounds (tests/synth.c, synth_run_speed): that the interval as measured
 * under-covers there and the one at equal speed covers, also for an op
 * whose cost does not follow the speed and with a noise floor at speed;
 * that a change of the guest's speed alone is no probe's change but the
 * guest speed line's; that a real change is found; when auto normalizes;
 * and the CLI's option and JSON.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "results/noise.h"
#include "results/guest_speed.h"
#include "stats/covariate.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/synth.h"
#include "tests/tap.h"

/*
 * As in test_compare: 2000 A/A trials; a 95% interval misses 0 more than
 * 132 times (100 + 3.29 sqrt(2000 x 0.05 x 0.95), the upper end of the
 * binomial 99.9% band) only with probability 0.0005.
 */
#define TRIALS		2000
#define MISS_BOUND	132
#define MAX_RUNS	10

static char *tmp;

/*
 * The host of the synthetic trials: the loop 7500 cycles per op (as on
 * the kvm_pvm hosts), a run's speed 3% SD (the EPYC host's runs moved by
 * 5-8%, the Xeon's by 1-2.5%: docs/benchmark.md), a round's 2%, the loop's
 * own noise 0.5%, on a host whose guest code is emulated.
 */
static const struct synth_speed host_speed = {
	.loop = 7500, .run_sd = 0.03, .round_sd = 0.02, .loop_sd = 0.005, .track = 1,
	.exec = EXEC_EMULATED,
};

struct sides {
	struct result_file *a[MAX_RUNS], *b[MAX_RUNS];
	size_t na, nb;
};

static void free_sides(struct sides *s)
{
	for (size_t i = 0; i < s->na; i++)
		result_free(s->a[i]);
	for (size_t i = 0; i < s->nb; i++)
		result_free(s->b[i]);
	s->na = s->nb = 0;
}

/* na runs of pa on host sa, nb of pb on host sb (one probe each, 3..8 rounds). */
static int draw(struct sides *s, size_t na, const struct synth_probe *pa, const struct synth_speed *sa,
		size_t nb, const struct synth_probe *pb, const struct synth_speed *sb, uint64_t *st)
{
	int bad = 0;

	s->na = na;
	s->nb = nb;
	for (size_t i = 0; i < na; i++)
		bad |= !(s->a[i] = synth_run_speed(pa, 1, 3, 8, sa, st));
	for (size_t i = 0; i < nb; i++)
		bad |= !(s->b[i] = synth_run_speed(pb, 1, 3, 8, sb, st));
	return bad ? -1 : 0;
}

static struct compare_result *compare_as(const struct sides *s, enum compare_normalize m,
					 const struct noise_floor *nf)
{
	struct compare_opts o;

	compare_opts_init(&o);
	o.normalize = m;
	o.noise = nf;
	return compare_results_multi((const struct result_file *const *)s->a, s->na,
				     (const struct result_file *const *)s->b, s->nb, &o, NULL);
}

static int misses(const struct compare_result *cr)
{
	return !(cr->probes[0].d.lo <= 0 && 0 <= cr->probes[0].d.hi);
}

/*
 * Two runs of three rounds: y {1, 2, 3} on x {10, 20, 30} and y {5, 7, 6}
 * on x {1, 3, 2}. Deviations from the run means: Sxx = 200 + 2, Sxy = 20 +
 * 2, Syy = 2 + 2; beta = 22/202; RSS = 4 - 22^2/202 = 1.603960; df = 6 -
 * 2 - 1 = 3; resid_var = RSS / 3; beta_var = resid_var / 202.
 */
static void test_slope(void)
{
	const double y1[] = { 1, 2, 3 }, x1[] = { 10, 20, 30 }, y2[] = { 5, 7, 6 }, x2[] = { 1, 3, 2 };
	const double flat[] = { 4, 4, 4 };
	struct stats_run y[2] = { { y1, 3 }, { y2, 3 } }, x[2] = { { x1, 3 }, { x2, 3 } };
	struct stats_run xf[2] = { { flat, 3 }, { flat, 3 } }, y1o[1] = { { y1, 3 } };
	struct stats_run x1o[1] = { { x1, 2 } };
	struct stats_slope s = { 0 };
	double rss = 4 - 22.0 * 22.0 / 202;
	int rc = stats_slope_within(y, x, 2, &s);

	ok(rc == 0 && fabs(s.beta - 22.0 / 202) < 1e-12 &&
	   s.df == 3 && s.points == 6 && fabs(s.sxx - 202) < 1e-12 &&
	   fabs(s.resid_var - rss / 3) < 1e-12 && fabs(s.beta_var - rss / 3 / 202) < 1e-15,
	   "slope within runs: beta 22/202 = %.6f, df 3, residual variance %.6f, its variance %.3g",
	   s.beta, s.resid_var, s.beta_var);
	ok(stats_slope_within(y, xf, 2, &s) < 0, "a loop that did not vary: no slope");
	ok(stats_slope_within(y1o, x1o, 1, &s) < 0, "runs of unequal lengths: refused");
	{
		struct stats_run yy[2] = { { y1, 2 }, { y2, 1 } }, xx[2] = { { x1, 2 }, { x2, 1 } };

		ok(stats_slope_within(yy, xx, 2, &s) < 0, "3 values in 2 runs: no degree of freedom left");
	}
}

/*
 * An op that is all emulation: y = 2 x + its run's offset, exactly. The
 * slope is 2 with no residual; each round put at speed ref = 1000 is its
 * run's level plus 2 x 1000, whatever its own loop was.
 */
static void test_adjust(void)
{
	const double xa[] = { 900, 1000, 1100 }, xb[] = { 950, 1050, 1200, 1000 };
	struct run_round ra[3], rb[4];
	struct run_probe pa, pb;
	const struct run_probe *both[2] = { &pa, &pb };
	struct speed_adj adj;
	int same = 1;

	for (size_t k = 0; k < 3; k++)
		ra[k] = (struct run_round){ .median = 2 * xa[k] + 10, .baseline_median = xa[k] };
	for (size_t k = 0; k < 4; k++)
		rb[k] = (struct run_round){ .median = 2 * xb[k] - 30, .baseline_median = xb[k] };
	run_probe_init(&pa);
	run_probe_init(&pb);
	pa.rounds = ra;
	pa.n_rounds = 3;
	pb.rounds = rb;
	pb.n_rounds = 4;
	ok(speed_probe_ok(&pa) && fabs(speed_mean(both, 2) - (1000 + 1050) / 2.0) < 1e-9,
	   "the mean loop is the mean of the runs' means (1000, 1050)");
	ok(speed_fit(both, 2, 1000, &adj) == 0 && fabs(adj.beta - 2) < 1e-12 && adj.beta_var < 1e-12 &&
	   adj.df == 4 && adj.ref == 1000, "y = 2x + offset: slope 2, no residual, df 7 - 2 - 1 = 4");
	for (size_t k = 0; k < 3; k++)
		same &= fabs(speed_round_at(&ra[k], &adj) - 2010) < 1e-9;
	for (size_t k = 0; k < 4; k++)
		same &= fabs(speed_round_at(&rb[k], &adj) - 1970) < 1e-9;
	ok(same, "every round at speed 1000: 2010 in the first run, 1970 in the second");
	ra[1].baseline_median = 0;
	ok(!speed_probe_ok(&pa) && speed_fit(both, 2, 1000, &adj) < 0 && speed_mean(both, 2) < 0,
	   "a round without a loop: no speed, no fit");
}

/*
 * A/A, one run a side, on the emulated host above: an op of 1000 cycles
 * that is all emulation (its cost follows the speed), no offset of its own
 * between runs (sb 0), round noise sw 1.5%. As measured, each run's speed
 * is an offset its rounds share: the interval misses far more than 5%. At
 * equal speed (auto: every run emulated) the run's speed comes out with
 * the loop beside each round, and the rounds' interval covers.
 */
static void test_aa_one_run(void)
{
	const struct synth_probe p = { "p", 1000, 0, 0.015 };
	unsigned raw_miss = 0, adj_miss = 0, normalized = 0, t;
	uint64_t st = 4242;

	for (t = 0; t < TRIALS; t++) {
		struct sides s = { 0 };
		struct compare_result *raw = NULL, *adj = NULL;

		if (!draw(&s, 1, &p, &host_speed, 1, &p, &host_speed, &st)) {
			raw = compare_as(&s, COMPARE_NORMALIZE_NONE, NULL);
			adj = compare_as(&s, COMPARE_NORMALIZE_AUTO, NULL);
		}
		if (raw && adj) {
			raw_miss += misses(raw);
			adj_miss += misses(adj);
			normalized += adj->normalized && adj->probes[0].normalized && !raw->normalized;
		}
		compare_free(raw);
		compare_free(adj);
		free_sides(&s);
		if (!raw || !adj)
			break;
	}
	ok(t == TRIALS && normalized == TRIALS, "auto on emulated runs: at equal guest speed (%u of %u)",
	   normalized, t);
	ok(raw_miss > MISS_BOUND, "A/A, 1 run a side, run speed 3%%: as measured the interval misses 0 "
	   "in %u of %u (%.1f%%; under-covers)", raw_miss, t, 100.0 * raw_miss / TRIALS);
	ok(adj_miss <= MISS_BOUND, "A/A, 1 run a side: at equal guest speed it misses 0 in %u of %u "
	   "(%.1f%%, at most %u: covers 95%%)", adj_miss, t, 100.0 * adj_miss / TRIALS, MISS_BOUND);
}

/*
 * The same for an op whose cost does not follow the guest's speed (track
 * 0: say an exit to user space on a host where that is not emulation
 * work). Put at speed by the loop alone, its rounds would take each run's
 * speed on as an offset; its own slope is about 0, so it is left nearly
 * as measured and still covers.
 */
static void test_aa_untracked(void)
{
	const struct synth_probe p = { "p", 1000, 0, 0.015 };
	struct synth_speed h = host_speed;
	unsigned miss = 0, t;
	uint64_t st = 515;
	double beta = 0;

	h.track = 0;
	for (t = 0; t < TRIALS; t++) {
		struct sides s = { 0 };
		struct compare_result *cr = NULL;

		if (!draw(&s, 1, &p, &h, 1, &p, &h, &st))
			cr = compare_as(&s, COMPARE_NORMALIZE_AUTO, NULL);
		if (cr) {
			miss += misses(cr);
			beta += cr->probes[0].speed.beta / TRIALS;
		}
		compare_free(cr);
		free_sides(&s);
		if (!cr)
			break;
	}
	ok(t == TRIALS && miss <= MISS_BOUND, "A/A, 1 run a side, an op that does not follow the "
	   "speed: at equal speed it misses 0 in %u of %u (%.1f%%; covers), mean slope %.4f "
	   "(1000 / 7500 = %.4f were it all emulation)", miss, t, 100.0 * miss / TRIALS, beta,
	   1000 / 7500.0);
}

/*
 * One run a side with a floor at speed: the op has an offset of its own
 * between runs (sb 1.5%) besides the speed, which no loop can see. The
 * floor of K = 10 runs of the same host (noise_estimate, its at-speed
 * estimate) puts it into the interval, which then covers.
 */
static void test_floor_at_speed(void)
{
	const struct synth_probe p = { "p", 1000, 0.015, 0.015 };
	unsigned plain_miss = 0, floor_miss = 0, floored = 0, t;
	uint64_t st = 90210;

	for (t = 0; t < TRIALS; t++) {
		struct result_file *cal[10] = { 0 };
		struct sides s = { 0 };
		struct compare_result *plain = NULL, *with = NULL;
		struct noise_floor nf;
		int bad = draw(&s, 1, &p, &host_speed, 1, &p, &host_speed, &st);

		for (size_t i = 0; i < 10; i++)
			bad |= !(cal[i] = synth_run_speed(&p, 1, 3, 8, &host_speed, &st));
		if (!bad && !noise_estimate((const struct result_file *const *)cal, 10, &nf, NULL)) {
			plain = compare_as(&s, COMPARE_NORMALIZE_AUTO, NULL);
			with = compare_as(&s, COMPARE_NORMALIZE_AUTO, &nf);
			/* The floor's estimate at speed is the one in the interval. */
			floored += with && with->probes[0].floor == &nf.probes[0].at_speed &&
				   with->probes[0].r2r == COMPARE_R2R_FLOOR;
			noise_release(&nf);
		}
		if (plain && with) {
			plain_miss += misses(plain);
			floor_miss += misses(with);
		}
		compare_free(plain);
		compare_free(with);
		for (size_t i = 0; i < 10; i++)
			result_free(cal[i]);
		free_sides(&s);
		if (!plain || !with)
			break;
	}
	ok(t == TRIALS && plain_miss > MISS_BOUND, "A/A, 1 run a side, an offset of the op's own (sb "
	   "1.5%%): at equal speed without a floor misses 0 in %u of %u (%.1f%%; the speed is not all)",
	   plain_miss, t, 100.0 * plain_miss / TRIALS);
	ok(t == TRIALS && floored == TRIALS && floor_miss <= MISS_BOUND, "with the floor at speed of "
	   "K = 10 runs: misses 0 in %u of %u (%.1f%%, at most %u: covers)", floor_miss, t,
	   100.0 * floor_miss / TRIALS, MISS_BOUND);
}

/*
 * A floor without an estimate at speed (its runs' loops never varied, as
 * in a version 1 file) given to a comparison at equal speed: no floor goes
 * into the interval, and the note says the probe lacks the run-to-run part.
 */
static void test_floor_without_speed(void)
{
	const struct synth_probe p = { "p", 1000, 0.015, 0.015 };
	struct result_file *cal[5] = { 0 };
	struct sides s = { 0 };
	struct compare_result *cr = NULL;
	struct noise_floor nf;
	uint64_t st = 8;
	int bad = draw(&s, 1, &p, &host_speed, 1, &p, &host_speed, &st);

	for (size_t i = 0; i < 5; i++)
		bad |= !(cal[i] = synth_run(&p, 1, 3, 8, "6.1.0", "Xeon", "0.1.0", &st));
	if (!bad && !noise_estimate((const struct result_file *const *)cal, 5, &nf, NULL)) {
		cr = compare_as(&s, COMPARE_NORMALIZE_AUTO, &nf);
		ok(!nf.probes[0].has_at_speed && cr && cr->probes[0].normalized && !cr->probes[0].floor &&
		   cr->probes[0].r2r == COMPARE_R2R_NONE && cr->r2r_note &&
		   strstr(cr->r2r_note, "and not in the noise floor"),
		   "a floor without an estimate at speed: not in the interval at equal speed, and said");
		compare_free(cr);
		noise_release(&nf);
	} else {
		ok(0, "no floor of synthetic runs");
	}
	for (size_t i = 0; i < 5; i++)
		result_free(cal[i]);
	free_sides(&s);
}

/*
 * The floor's two estimates on 30 runs (sb 0.5%, run speed 3%): as
 * measured the between-run SD is about sqrt(0.5^2 + 3^2) = 3.04%, at
 * speed about the op's own 0.5% (its standard error over 30 runs is about
 * 3.04% / sqrt(58) = 0.4% for the first).
 */
static void test_floor_estimates(void)
{
	const struct synth_probe p = { "p", 1000, 0.005, 0.015 };
	struct result_file *rf[30] = { 0 };
	const struct noise_probe *np;
	struct noise_floor nf;
	uint64_t st = 7;
	int bad = 0;

	for (size_t i = 0; i < 30; i++)
		bad |= !(rf[i] = synth_run_speed(&p, 1, 3, 8, &host_speed, &st));
	if (bad || noise_estimate((const struct result_file *const *)rf, 30, &nf, NULL)) {
		ok(0, "no floor of 30 synthetic runs");
	} else {
		np = noise_find_probe(&nf, "p");
		ok(np && np->has_at_speed && np->cycles.between_sd_rel > 0.02 &&
		   np->at_speed.between_sd_rel < 0.01, "30 runs: between-run SD %.2f%% as measured "
		   "(true 3.04%%), %.2f%% at speed (true 0.5%%)", np ? 100 * np->cycles.between_sd_rel : 0,
		   np ? 100 * np->at_speed.between_sd_rel : 0);
		noise_release(&nf);
	}
	for (size_t i = 0; i < 30; i++)
		result_free(rf[i]);
}

/*
 * The new side's guest runs 8% slower (every run's speed x 1.08), the op
 * is all emulation and otherwise unchanged; three runs a side, run speed
 * 1%. As measured the op is 8% dearer: "slower". At equal speed it is no
 * change, and the guest speed line says the loop is slower; the notes say
 * it is in none of the probes' verdicts.
 */
static void test_speed_only(void)
{
	const struct synth_probe p = { "p", 1000, 0, 0.015 };
	struct synth_speed a = host_speed, b = host_speed;
	unsigned raw_slower = 0, adj_same = 0, line_slower = 0, noted = 0, t;
	uint64_t st = 1234;

	a.run_sd = b.run_sd = 0.01;
	b.shift = 0.08;
	for (t = 0; t < TRIALS / 4; t++) {
		struct sides s = { 0 };
		struct compare_result *raw = NULL, *adj = NULL;

		if (!draw(&s, 3, &p, &a, 3, &p, &b, &st)) {
			raw = compare_as(&s, COMPARE_NORMALIZE_NONE, NULL);
			adj = compare_as(&s, COMPARE_NORMALIZE_SPEED, NULL);
		}
		if (raw && adj) {
			raw_slower += raw->n_slower;
			adj_same += !misses(adj);
			if (adj->has_speed && adj->speed.verdict == COMPARE_SLOWER) {
				line_slower += fabs(adj->speed.pct - 8) < 3;
				for (size_t i = 0; i < adj->n_warnings; i++)
					noted += strstr(adj->warnings[i], "note: the guest itself ran slower "
							"on the new side") != NULL;
			}
		}
		compare_free(raw);
		compare_free(adj);
		free_sides(&s);
		if (!raw || !adj)
			break;
	}
	ok(t == TRIALS / 4 && raw_slower >= 0.9 * t, "guest 8%% slower, op unchanged: as measured "
	   "called slower in %u of %u", raw_slower, t);
	ok(adj_same >= 0.95 * t - 3.29 * sqrt(0.05 * 0.95 * t), "at equal speed its interval holds 0 "
	   "in %u of %u (a 95%% interval)", adj_same, t);
	ok(line_slower >= 0.9 * t && noted >= line_slower, "the guest speed line: slower by 8 +- 3%% "
	   "in %u of %u, each slower one with its note (%u)", line_slower, t, noted);
}

/*
 * A real change: the op 5% dearer on the new side, three runs a side on
 * the emulated host (run speed 3%, an offset of the op's own 0.5%, round
 * noise 1.5%). As measured a run mean varies by about 3.1%, the
 * difference's SE about 2.5% and Welch's half width about 7%: 5% is mostly
 * "too noisy". At equal speed a run mean varies by about 0.8%: the half
 * width is about 1.8%, so a majority must be found (bound: half).
 */
static void test_power(void)
{
	const struct synth_probe pa = { "p", 1000, 0.005, 0.015 }, pb = { "p", 1050, 0.005, 0.015 };
	unsigned raw_found = 0, adj_found = 0, wrong = 0, t;
	uint64_t st = 555;

	for (t = 0; t < TRIALS / 4; t++) {
		struct sides s = { 0 };
		struct compare_result *raw = NULL, *adj = NULL;

		if (!draw(&s, 3, &pa, &host_speed, 3, &pb, &host_speed, &st)) {
			raw = compare_as(&s, COMPARE_NORMALIZE_NONE, NULL);
			adj = compare_as(&s, COMPARE_NORMALIZE_AUTO, NULL);
		}
		if (raw && adj) {
			raw_found += raw->n_slower;
			adj_found += adj->n_slower;
			wrong += raw->n_faster + adj->n_faster;
		}
		compare_free(raw);
		compare_free(adj);
		free_sides(&s);
		if (!raw || !adj)
			break;
	}
	ok(t == TRIALS / 4 && adj_found >= t / 2 && adj_found > raw_found && wrong == 0,
	   "5%% slower, 3 runs a side, run speed 3%%: found in %u of %u at equal speed, %u as "
	   "measured, never faster", adj_found, t, raw_found);
}

/* What auto does with emulated, native and mixed runs, and what is asked overrides it. */
static void test_auto(void)
{
	const struct synth_probe p = { "p", 1000, 0, 0.015 };
	struct synth_speed native = host_speed;
	struct sides s = { 0 };
	struct compare_result *cr;
	uint64_t st = 99;

	native.exec = EXEC_NATIVE;
	if (draw(&s, 1, &p, &host_speed, 1, &p, &native, &st)) {
		ok(0, "no synthetic runs");
		return;
	}
	cr = compare_as(&s, COMPARE_NORMALIZE_AUTO, NULL);
	ok(cr && !cr->normalized && !cr->probes[0].normalized && strstr(cr->normalize_why, "natively"),
	   "auto, an emulated and a native run: as measured (%s)", cr ? cr->normalize_why : "");
	compare_free(cr);
	result_free(s.a[0]);
	s.a[0] = synth_run_speed(&p, 1, 3, 8, &native, &st);
	cr = s.a[0] ? compare_as(&s, COMPARE_NORMALIZE_AUTO, NULL) : NULL;
	ok(cr && !cr->normalized, "auto, two native runs: as measured");
	compare_free(cr);
	cr = s.a[0] ? compare_as(&s, COMPARE_NORMALIZE_SPEED, NULL) : NULL;
	ok(cr && cr->normalized && cr->probes[0].normalized && cr->has_speed &&
	   !strcmp(cr->normalize_why, "--normalize speed"), "--normalize speed on native runs: at equal speed");
	compare_free(cr);
	free_sides(&s);
	if (draw(&s, 1, &p, &host_speed, 1, &p, &host_speed, &st))
		return;
	cr = compare_as(&s, COMPARE_NORMALIZE_NONE, NULL);
	ok(cr && !cr->normalized && cr->has_speed && !strcmp(cr->normalize_why, "--normalize none"),
	   "--normalize none on emulated runs: as measured, the guest speed line still there");
	compare_free(cr);
	free_sides(&s);
}

/* A synthetic run as a file in tmp (name), its probe's rounds with their loops. */
static const char *save_run(const char *name, struct result_file *rf, const char *mode)
{
	json_t *doc;
	const char *path;

	if (!rf)
		return NULL;
	doc = fixture_result(fixture_host("6.1.0", "Xeon", mode), run_probes_json(rf->probes, rf->n_probes));
	json_object_set_new(doc, "settings", run_settings_json(&rf->settings));
	path = fixture_write(tmp, name, doc);
	json_decref(doc);
	result_free(rf);
	return path ? strdup(path) : NULL;
}

static void test_cli(void)
{
	const struct synth_probe p = { "p", 1000, 0, 0.015 };
	uint64_t st = 3;
	char *a = (char *)save_run("a.json", synth_run_speed(&p, 1, 8, 8, &host_speed, &st), "emulated");
	char *b = (char *)save_run("b.json", synth_run_speed(&p, 1, 8, 8, &host_speed, &st), "emulated");
	const char *exe = getenv("EXITSCOPE");
	struct run_result r;
	json_t *doc, *pj, *g;

	if (!exe || !a || !b) {
		tap_skip(7, "EXITSCOPE not set (run through make check) or no files");
		free(a);
		free(b);
		return;
	}
	{
		const char *argv[] = { exe, "compare", a, b, "--normalize", "fast", NULL };

		run_cmd(&r, argv);
		ok(r.status == 2 && !strncmp(r.err, "exitscope compare: --normalize wants auto, none or "
		   "speed, not 'fast'\n", 69), "--normalize fast: exit 2, says so (%.69s)", r.err);
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "compare", a, b, "--json", "-", NULL };

		run_cmd(&r, argv);
		doc = json_loads(r.out, 0, NULL);
		pj = json_array_get(json_object_get(doc, "probes"), 0);
		g = json_object_get(doc, "guest_speed");
		ok(r.status == 0 && doc && json_integer_value(json_object_get(doc, "schema_version")) == COMPARE_SCHEMA_VERSION &&
		   !strcmp(fixture_str(json_object_get(doc, "normalize"), "asked"), "auto") &&
		   !strcmp(fixture_str(json_object_get(doc, "normalize"), "used"), "speed") &&
		   json_is_true(json_object_get(pj, "normalized")) && isfinite(fixture_num(pj, "speed_slope")) &&
		   fixture_num(pj, "base_loop_cycles") > 6000 && fixture_num(pj, "new_loop_cycles") > 6000 &&
		   fixture_num(g, "probes") == 1 && isfinite(fixture_num(g, "diff_pct")) &&
		   !strcmp(fixture_str(g, "method"), "rounds"),
		   "--json: this version, normalize auto -> speed, the probe normalized with both loops, "
		   "guest_speed by rounds");
		json_decref(doc);
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "compare", a, b, NULL };
		size_t w = 0;

		run_cmd(&r, argv);
		for (const char *q = r.out; *q;) {
			size_t n = strcspn(q, "\n");

			w = n > w ? n : w;
			q += n + (q[n] == '\n');
		}
		ok(r.status == 0 && w <= COMPARE_COLUMNS &&
		   strstr(r.out, "\nfigures: net cycles/op at the base side's guest speed (--normalize auto:") &&
		   !strstr(r.out, "slope"), "at equal guest speed: every line at most %d columns (widest "
		   "%zu), the figures line without how", COMPARE_COLUMNS, w);
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "compare", a, b, "--wide", NULL };

		run_cmd(&r, argv);
		ok(r.status == 0 && strstr(r.out, "\nfigures: net cycles/op at the base side's guest speed: "
		   "each round's net cost less the probe's slope on its harness loop"),
		   "--wide: the figures line says how");
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "compare", a, b, "--normalize", "none", NULL };

		run_cmd(&r, argv);
		ok(r.status == 0 && strstr(r.out, "figures: net cycles/op as measured (--normalize none)\n") &&
		   strstr(r.out, "\nguest speed (the harness loop beside 1 probe, cycles per op, new vs base): "),
		   "--normalize none: the figures line says so; the guest speed line is there");
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "report", a, b, "-o", "-", NULL };

		run_cmd(&r, argv);
		ok(r.status == 0 && strstr(r.out, "figures: net cycles/op at the base side&#39;s guest speed") &&
		   strstr(r.out, "guest speed (the harness loop beside 1 probe"),
		   "report: the comparison says what its figures are and the guest speed line");
		run_free(&r);
	}
	{
		double x[8];
		json_t *d1, *d2;
		const char *p1, *argv[] = { exe, "compare", NULL, NULL, "--wide", NULL };

		fixture_samples(x, 8, 1000, 20, 1);
		d1 = fixture_result(fixture_host("6.1.0", "Xeon", "emulated"),
				    json_pack("[o]", fixture_probe("p", "insn", x, 8, 1)));
		d2 = json_deep_copy(d1);	/* another run (its own start) of the same samples */
		json_object_set_new(d2, "started", json_string("2026-11-30T02:00:00Z"));
		p1 = fixture_write(tmp, "v1a.json", d1);
		argv[2] = p1 ? strdup(p1) : NULL;
		p1 = fixture_write(tmp, "v1b.json", d2);
		argv[3] = p1 ? strdup(p1) : NULL;
		json_decref(d1);
		json_decref(d2);
		run_cmd(&r, argv);
		ok(r.status == 0 && strstr(r.out, "figures: net cycles/op as measured: no probe had rounds "
		   "with loops to put at equal guest speed (--normalize auto: every run's guest code was "
		   "emulated"), "emulated runs without rounds: auto, but the figures line says nothing "
		   "was put at speed");
		run_free(&r);
		free((char *)argv[2]);
		free((char *)argv[3]);
	}
	free(a);
	free(b);
}

int main(void)
{
	tmp = fixture_tmpdir();
	if (!tmp)
		return tap_skip_all("cannot make a temp dir");
	test_slope();
	test_adjust();
	test_aa_one_run();
	test_aa_untracked();
	test_floor_at_speed();
	test_floor_estimates();
	test_floor_without_speed();
	test_speed_only();
	test_power();
	test_auto();
	test_cli();
	fixture_rmdir(tmp);
	return done_testing();
}
