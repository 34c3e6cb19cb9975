// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_noise.c - the noise floor: the estimator on synthetic runs (hand
 * arithmetic, a known between-run SD, probes that skipped in some runs,
 * runs that do not belong together), the spread table's figures (hand
 * arithmetic, as measured and at guest speed), the writer and the reader (round
 * trip, every rule of the reader), and the written file against
 * docs/results-schema.json ($defs/noise, python3-jsonschema).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "results/noise.h"
#include "stats/welch.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/synth.h"
#include "tests/tap.h"

static char *tmp;

static void free_runs(struct result_file **rf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		result_free(rf[i]);
		rf[i] = NULL;
	}
}

/*
 * The numbers of test_stats' test_components, through files: three runs of
 * p with round medians {10, 12}, {14, 16}, {17, 19, 21}: run means 11, 15,
 * 19, run_var 16, within 10/9, between 134/9 (sd 3.8586), df 1.7275.
 */
static void test_arithmetic(void)
{
	const double r1[] = { 10, 12 }, r2[] = { 14, 16 }, r3[] = { 17, 19, 21 };
	struct result_file *rf[3] = { synth_run_medians(r1, 2), synth_run_medians(r2, 2),
				      synth_run_medians(r3, 3) };
	struct noise_floor nf;
	const struct noise_probe *p;
	struct err err;

	if (!rf[0] || !rf[1] || !rf[2]) {
		tap_skip(7, "synthetic runs could not be built");
		free_runs(rf, 3);
		return;
	}
	ok(noise_estimate((const struct result_file *const *)rf, 3, &nf, &err) == 0,
	   "estimate from 3 runs");
	p = noise_find_probe(&nf, "p");
	ok(p && p->runs == 3 && p->rounds == 7 && p->cycles.mean_cycles == 15, "p: 3 runs, 7 rounds, mean 15");
	ok(p && fabs(p->cycles.run_sd_cycles - 4) < 1e-12 && fabs(p->cycles.within_se_cycles - sqrt(10.0 / 9)) < 1e-12,
	   "p: run_sd 4 (sqrt 16), within_se sqrt(10/9)");
	ok(p && fabs(p->cycles.between_sd_cycles - sqrt(134.0 / 9)) < 1e-12 &&
	   fabs(p->cycles.between_sd_rel - sqrt(134.0 / 9) / 15) < 1e-12,
	   "p: between_sd sqrt(134/9) = %.4f, relative %.4f", p ? p->cycles.between_sd_cycles : 0,
	   p ? p->cycles.between_sd_rel : 0);
	ok(p && fabs(p->cycles.df - (17956.0 / 81) / (128 + 26.0 / 81)) < 1e-12, "p: df 1.7275");
	ok(nf.runs == 3 && nf.n_sources == 3 && nf.n_omitted == 0 && nf.settings.method == RUN_METHOD_V2 &&
	   !strcmp(nf.host.cpu_name, "Xeon"), "the floor: 3 runs, their host and settings");
	ok(p && !p->has_at_speed && !noise_probe_est(p, 1) && noise_probe_est(p, 0) == &p->cycles,
	   "loops that never varied (1000 in every round): no estimate at guest speed");
	noise_release(&nf);
	free_runs(rf, 3);
}

/*
 * The spread of test_arithmetic's runs: run means 11, 15, 19 (mean 15),
 * SS 2 + 2 + 8 over 4 df: within sqrt(3); 7/3 rounds a run: se
 * sqrt(3 / (7/3)) = sqrt(9/7); run_sd 4; floor sqrt(16 - 9/7). Loops that
 * never varied: no figures at speed. Shift: -4/15, 0, 4/15, SD 4/15.
 */
static void test_spread(void)
{
	const double r1[] = { 10, 12 }, r2[] = { 14, 16 }, r3[] = { 17, 19, 21 };
	struct result_file *rf[3] = { synth_run_medians(r1, 2), synth_run_medians(r2, 2),
				      synth_run_medians(r3, 3) };
	const struct stats_spread *c;
	struct noise_spread ns;
	struct err err;

	if (!rf[0] || !rf[1] || !rf[2] || noise_spread((const struct result_file *const *)rf, 3, &ns, &err)) {
		tap_skip(5, "synthetic runs could not be built or spread");
		free_runs(rf, 3);
		return;
	}
	c = &ns.probes[0].cycles;
	ok(ns.n_probes == 1 && !strcmp(ns.probes[0].name, "p") && c->runs == 3 &&
	   fabs(c->rounds - 7.0 / 3) < 1e-12 && c->mean == 15, "spread: p, 3 runs, 7/3 rounds, mean 15");
	ok(fabs(c->within - sqrt(3)) < 1e-12 && fabs(c->se - sqrt(9.0 / 7)) < 1e-12,
	   "spread: within sqrt(3) (pooled), se sqrt(9/7) (%.6f, %.6f)", c->within, c->se);
	ok(fabs(c->run_sd - 4) < 1e-12 && fabs(c->floor - sqrt(16 - 9.0 / 7)) < 1e-12,
	   "spread: between 4, floor sqrt(16 - 9/7) (%.6f)", c->floor);
	ok(!ns.probes[0].has_at_speed, "spread: loops that never varied: nothing at guest speed");
	ok(ns.shift_runs == 3 && fabs(ns.shift_sd - 4.0 / 15) < 1e-12, "spread: shift SD 4/15 over 3 runs (%.6f)",
	   ns.shift_sd);
	noise_spread_release(&ns);
	ok(noise_spread((const struct result_file *const *)rf, 1, &ns, &err) == -EINVAL &&
	   strstr(err.msg, "at least 2 runs"), "spread of 1 run: refused (%s)", err.msg);
	free_runs(rf, 3);
}

/*
 * At guest speed: medians that follow their loops by 0.5 within every run
 * (loops {100, 102}, {104, 106}, {98, 100, 102}; medians {50, 51},
 * {60, 61}, {40, 41, 42}): beta 0.5, the mean loop 102, so the rounds put
 * at it are {51, 51}, {59, 59}, {42, 42, 42}: within 0, between the SD of
 * 51, 59, 42 (sqrt(217/3)), share 0.5 x 102 / (152/3), loop sqrt(7) / 102.
 */
static void test_spread_speed(void)
{
	static const double y[3][3] = { { 50, 51 }, { 60, 61 }, { 40, 41, 42 } };
	static const double x[3][3] = { { 100, 102 }, { 104, 106 }, { 98, 100, 102 } };
	static const size_t nr[3] = { 2, 2, 3 };
	struct result_file *rf[3] = { 0 };
	const struct noise_spread_probe *p;
	struct noise_spread ns;
	struct err err;

	for (size_t i = 0; i < 3; i++) {
		rf[i] = synth_run_medians(y[i], nr[i]);
		/* The reader's rounds are const: these are the test's own. */
		for (size_t j = 0; rf[i] && j < nr[i]; j++)
			((struct run_round *)rf[i]->probes[0].rounds)[j].baseline_median = x[i][j];
	}
	if (!rf[0] || !rf[1] || !rf[2] || noise_spread((const struct result_file *const *)rf, 3, &ns, &err)) {
		tap_skip(3, "synthetic runs could not be built or spread");
		free_runs(rf, 3);
		return;
	}
	p = &ns.probes[0];
	ok(p->has_at_speed && p->at_speed.runs == 3 && fabs(p->at_speed.mean - 152.0 / 3) < 1e-9 &&
	   fabs(p->at_speed.within) < 1e-9 && fabs(p->at_speed.run_sd - sqrt(217.0 / 3)) < 1e-9 &&
	   fabs(p->at_speed.floor - p->at_speed.run_sd) < 1e-9,
	   "at speed: within 0, between = floor = sqrt(217/3) (%.6f)", p->at_speed.run_sd);
	ok(fabs(p->share - 0.5 * 102 / (152.0 / 3)) < 1e-9, "at speed: share 0.5 x 102 / (152/3) (%.6f)",
	   p->share);
	ok(fabs(p->loop_rel - sqrt(7) / 102) < 1e-12, "at speed: loop sqrt(7) / 102 (%.6f)", p->loop_rel);
	noise_spread_release(&ns);
	free_runs(rf, 3);
}

/*
 * A known between-run SD: 200 runs of one probe, offsets sb = 2%, round
 * noise sw = 3%, 8 rounds. The variance of a run mean is sb^2 + sw^2 / 8
 * = 4e-4 + 1.125e-4 (of mu^2); the estimate of sb^2 = run_var - within has
 * a standard deviation of about sqrt(2 (5.125e-4)^2 / 199 + 2 (1.125e-4)^2
 * / 1400) = 5.14e-5 (the chi-square spreads of both parts; within has
 * 200 x 7 df). The estimate must be within 3.29 of those (99.9%) of 4e-4:
 * a bound from the model, not from the result.
 */
static void test_known_sd(void)
{
	const struct synth_probe sp = { "p", 1000, 0.02, 0.03 };
	struct result_file *rf[200] = { 0 };
	struct noise_floor nf;
	const struct noise_probe *p;
	uint64_t st = 42;
	struct err err;
	double est, sd = sqrt(2 * 5.125e-4 * 5.125e-4 / 199 + 2 * 1.125e-4 * 1.125e-4 / 1400);

	for (size_t i = 0; i < 200; i++)
		if (!(rf[i] = synth_run(&sp, 1, 8, 8, "6.1.0", "Xeon", "0.1.0", &st))) {
			tap_skip(3, "synthetic runs could not be built");
			free_runs(rf, 200);
			return;
		}
	ok(noise_estimate((const struct result_file *const *)rf, 200, &nf, &err) == 0,
	   "estimate from 200 runs");
	p = noise_find_probe(&nf, "p");
	est = p ? p->cycles.between_sd_rel * p->cycles.between_sd_rel : 0;
	ok(p && fabs(est - 4e-4) < 3.29 * sd, "between-run variance %.3g within 3.29 x %.2g of the "
	   "true 4e-4 (relative SD %.2f%%, true 2%%)", est, sd, p ? 100 * p->cycles.between_sd_rel : 0);
	/* Its df: 2 (4e-4)^2 / sd^2 = 121 by the model; Satterthwaite from the data. */
	ok(p && p->cycles.df > 121 / 2.0 && p->cycles.df < 121 * 2.0, "df %.1f of the order the model gives (121)",
	   p ? p->cycles.df : 0);
	noise_release(&nf);
	free_runs(rf, 200);
}

/*
 * Five runs of three probes: "steady" ran in all, "flaky" was skipped in 2
 * (its floor is from the other 3), "rare" ran in 2 only (omitted, runs 2),
 * "short" stopped after 1 round in 2 runs (those runs do not count: 3).
 */
static void test_skipped(void)
{
	const struct synth_probe sp[] = {
		{ "steady", 1000, 0.01, 0.02 }, { "flaky", 500, 0.01, 0.02 },
		{ "rare", 200, 0.01, 0.02 }, { "short", 300, 0.01, 0.02 },
	};
	struct result_file *rf[5] = { 0 };
	struct noise_floor nf;
	const struct noise_probe *p;
	uint64_t st = 7;
	struct err err;
	int built = 1;
	size_t short_rounds[5] = { 0 };	/* restored before the runs are freed */

	for (size_t i = 0; i < 5; i++) {
		rf[i] = synth_run(sp, 4, 4, 6, "6.1.0", "Xeon", "0.1.0", &st);
		if (!rf[i]) {
			built = 0;
			continue;
		}
		if (i < 2) {	/* flaky skipped */
			struct run_probe *q = &rf[i]->probes[1];

			q->status = PROBE_SKIPPED;
			q->reason = "synthetic skip";
		}
		if (i >= 2)	/* rare: failed in runs 2..4 */
			rf[i]->probes[2].status = PROBE_FAILED;
		short_rounds[i] = rf[i]->probes[3].n_rounds;
		if (i == 1 || i == 3)	/* short: one round */
			rf[i]->probes[3].n_rounds = 1;
	}
	if (!built) {
		tap_skip(5, "synthetic runs could not be built");
		free_runs(rf, 5);
		return;
	}
	ok(noise_estimate((const struct result_file *const *)rf, 5, &nf, &err) == 0,
	   "estimate from 5 runs");
	p = noise_find_probe(&nf, "steady");
	ok(p && p->runs == 5, "steady: all 5 runs");
	p = noise_find_probe(&nf, "flaky");
	ok(p && p->runs == 3, "flaky, skipped in 2: from the other 3 runs");
	p = noise_find_probe(&nf, "short");
	ok(p && p->runs == 3, "short, one round in 2 runs: from the 3 with rounds to spare");
	ok(!noise_find_probe(&nf, "rare") && nf.n_omitted == 1 && !strcmp(nf.omitted[0].name, "rare") &&
	   nf.omitted[0].runs == 2, "rare, in 2 runs: omitted with its run count");
	noise_release(&nf);
	for (size_t i = 0; i < 5; i++)
		rf[i]->probes[3].n_rounds = short_rounds[i];
	free_runs(rf, 5);
}

/* Runs that do not belong to one floor: one line naming the file and what differs. */
static void test_estimate_errors(void)
{
	const struct synth_probe sp = { "p", 1000, 0.01, 0.02 };
	struct result_file *rf[4] = { 0 };
	struct noise_floor nf;
	uint64_t st = 9;
	struct err err;
	int rc;

	for (size_t i = 0; i < 4; i++)
		rf[i] = synth_run(&sp, 1, 3, 5, "6.1.0", "Xeon", "0.1.0", &st);
	if (!rf[0] || !rf[1] || !rf[2] || !rf[3]) {
		tap_skip(7, "synthetic runs could not be built");
		free_runs(rf, 4);
		return;
	}
	free((char *)rf[3]->name);
	rf[3]->name = strdup("odd.json");
	rc = noise_estimate((const struct result_file *const *)rf, 2, &nf, &err);
	ok(rc == -EINVAL && !strcmp(err.msg, "a noise floor needs at least 3 runs of one host, got 2"),
	   "2 runs: \"%s\"", err.msg);
	rf[3]->host.cpu_name = "EPYC";
	rc = noise_estimate((const struct result_file *const *)rf, 4, &nf, &err);
	ok(rc == -EINVAL && strstr(err.msg, "odd.json: another host than synth.json (CPU EPYC") == err.msg,
	   "another CPU: \"%s\"", err.msg);
	rf[3]->host.cpu_name = "Xeon";
	rf[3]->host.kernel = "6.18.0";
	rc = noise_estimate((const struct result_file *const *)rf, 4, &nf, &err);
	ok(rc == -EINVAL && strstr(err.msg, "odd.json: another kernel than synth.json (6.18.0 vs 6.1.0)") == err.msg,
	   "another kernel: \"%s\"", err.msg);
	rf[3]->host.kernel = "6.1.0";
	rf[3]->settings.rounds = 32;
	rc = noise_estimate((const struct result_file *const *)rf, 4, &nf, &err);
	ok(rc == -EINVAL && strstr(err.msg, "odd.json: measured with rounds 32, synth.json with 5") == err.msg,
	   "other rounds: \"%s\"", err.msg);
	rf[3]->settings.rounds = 5;
	rf[3]->tool_version = "0.0.9";
	rc = noise_estimate((const struct result_file *const *)rf, 4, &nf, &err);
	ok(rc == -EINVAL && strstr(err.msg, "odd.json: measured by exitscope 0.0.9, synth.json by 0.1.0") == err.msg,
	   "another exitscope: \"%s\"", err.msg);
	rf[3]->tool_version = "0.1.0";
	rf[3]->settings.method = RUN_METHOD_V1;
	rc = noise_estimate((const struct result_file *const *)rf, 4, &nf, &err);
	ok(rc == -EINVAL && strstr(err.msg, "odd.json: not measured in rounds (method v1)") == err.msg,
	   "a v1 run: \"%s\"", err.msg);
	rf[3]->settings.method = RUN_METHOD_V2;
	/* A run without --cpu is pinned where it started: runs differ in it, and a floor takes them. */
	rf[0]->settings.cpu = 0;
	rf[0]->settings.cpus[0] = 0;
	rf[0]->settings.n_cpus = 1;
	rf[3]->settings.cpu = 1;
	rf[3]->settings.cpus[0] = 1;
	rf[3]->settings.n_cpus = 1;
	rc = noise_estimate((const struct result_file *const *)rf, 4, &nf, &err);
	ok(rc == 0 && nf.runs == 4, "the same four runs, put right (one pinned to CPU 1, one to CPU 0): "
	   "estimated%s%s", rc ? ": " : "", rc ? err.msg : "");
	noise_release(&nf);
	free_runs(rf, 4);
}

/* Two estimates alike to the 10 significant digits of the file. */
static int same_est(const struct noise_est *q, const struct noise_est *p)
{
	return fabs(q->mean_cycles - p->mean_cycles) <= 1e-9 * fabs(p->mean_cycles) &&
	       fabs(q->between_sd_cycles - p->between_sd_cycles) <= 1e-9 * p->between_sd_cycles &&
	       fabs(q->df - p->df) <= 1e-9 * p->df && (q->between_sd_rel < 0) == (p->between_sd_rel < 0);
}

/* A floor written and read back: every field the same. */
static struct noise_floor *round_trip(const char *path)
{
	const struct synth_probe sp[] = { { "a", 1000, 0.01, 0.02 }, { "zero", -0.5, 0, 1 } };
	/* The guest's speed varies, so every probe has its estimate at speed too. */
	const struct synth_speed speed = { .loop = 7500, .run_sd = 0.02, .round_sd = 0.02,
					   .loop_sd = 0.005, .track = 1, .exec = EXEC_NATIVE };
	struct result_file *rf[5] = { 0 };
	struct noise_floor nf, *back = NULL;
	const struct noise_probe *p, *q;
	uint64_t st = 3;
	struct err err;
	int same = 1;

	for (size_t i = 0; i < 5; i++)
		rf[i] = synth_run_speed(sp, 2, 3, 8, &speed, &st);
	if (!rf[0] || !rf[1] || !rf[2] || !rf[3] || !rf[4] ||
	    noise_estimate((const struct result_file *const *)rf, 5, &nf, &err)) {
		tap_skip(4, "no floor to write");
		free_runs(rf, 5);
		return NULL;
	}
	ok(noise_write(&nf, path, &err) == 0, "noise_write");
	back = noise_read_file(path, &err);
	if (!ok(back != NULL, "read back"))
		diag("  %s", err.msg);
	for (size_t i = 0; back && i < nf.n_probes; i++) {
		p = &nf.probes[i];
		q = noise_find_probe(back, p->name);
		/* 10 significant digits in the file. */
		same &= q && q->runs == p->runs && q->rounds == p->rounds &&
			same_est(&q->cycles, &p->cycles) && p->has_at_speed && q->has_at_speed &&
			same_est(&q->at_speed, &p->at_speed);
	}
	ok(back && same && back->n_probes == 2 && back->runs == 5 && !strcmp(back->tool_version, "0.1.0") &&
	   back->settings.rounds == 8 && !strcmp(back->host.kernel, "6.1.0") && back->n_sources == 5 &&
	   back->created && back->first_started, "the probes (both estimates), runs, version, settings, "
	   "host, sources and time stamps read back as written");
	q = back ? noise_find_probe(back, "zero") : NULL;
	ok(q && q->cycles.mean_cycles < 0 && q->cycles.between_sd_rel < 0,
	   "a probe whose mean is below 0 has no relative figure (%g cycles)", q ? q->cycles.mean_cycles : 0);
	noise_release(&nf);
	free_runs(rf, 5);
	return back;
}

/* The valid floor at path with one edit, read: the reader's one line. */
static void expect_err(json_t *valid, const char *what, json_t *edited, const char *want)
{
	char *text = json_dumps(edited, 0);
	struct err err;
	struct noise_floor *nf = text ? noise_read_buffer("noise.json", text, strlen(text), &err) : NULL;

	if (!ok(!nf && strstr(err.msg, want) && !strchr(err.msg, '\n'), "reader: %s", what))
		diag("  got \"%s\", want \"%s\"", err.msg, want);
	noise_free(nf);
	free(text);
	json_decref(edited);
	(void)valid;
}

/* A copy of doc with probes[0].key set to v (NULL: removed). */
static json_t *with_probe(json_t *doc, const char *key, json_t *v)
{
	json_t *c = json_deep_copy(doc), *p = json_array_get(json_object_get(c, "probes"), 0);

	if (v)
		json_object_set_new(p, key, v);
	else
		json_object_del(p, key);
	return c;
}

static json_t *with_top(json_t *doc, const char *key, json_t *v)
{
	json_t *c = json_deep_copy(doc);

	if (v)
		json_object_set_new(c, key, v);
	else
		json_object_del(c, key);
	return c;
}

static void test_reader(const char *path)
{
	json_t *doc = json_load_file(path, 0, NULL), *c;
	struct err err;

	if (!doc) {
		tap_skip(15, "no written floor");
		return;
	}
	ok(!noise_read_buffer("noise.json", "{\"schema\":", 10, &err) &&
	   strstr(err.msg, "noise.json: truncated JSON at line 1"), "reader: truncated JSON: \"%s\"", err.msg);
	expect_err(doc, "a result file", with_top(doc, "schema", json_string("exitscope-result")),
		   "noise.json: schema: \"exitscope-result\": a result file, not a noise floor");
	expect_err(doc, "another schema", with_top(doc, "schema", json_string("geojson")),
		   "noise.json: schema: \"geojson\" is not \"exitscope-noise\" "
		   "(not an exitscope noise floor?)");
	expect_err(doc, "no schema", with_top(doc, "schema", NULL),
		   "noise.json: missing required field \"schema\" (not an exitscope noise floor?)");
	expect_err(doc, "no host", with_top(doc, "host", NULL),
		   "noise.json: missing required field \"host\"");
	expect_err(doc, "another version", with_top(doc, "schema_version", json_integer(3)),
		   "noise.json: schema_version: unsupported version 3 (this exitscope reads 1 to 2)");
	expect_err(doc, "no version of exitscope", with_top(doc, "tool", json_object()),
		   "noise.json: tool: missing required field \"version\"");
	expect_err(doc, "no settings", with_top(doc, "settings", NULL),
		   "noise.json: missing required field \"settings\" (how the runs measured)");
	expect_err(doc, "runs below 3", with_top(doc, "runs", json_integer(2)),
		   "noise.json: runs: must be in 3..100000 (got 2)");
	expect_err(doc, "a probe's runs above the floor's", with_probe(doc, "runs", json_integer(6)),
		   "noise.json: probes[0].runs: must be in 3..5 (got 6)");
	expect_err(doc, "fewer than 2 rounds a run", with_probe(doc, "rounds", json_integer(9)),
		   "noise.json: probes[0].rounds: must be >= 10 (got 9)");
	expect_err(doc, "between above run_sd", with_probe(doc, "between_sd_cycles", json_real(1e9)),
		   "noise.json: probes[0].between_sd_cycles: larger than run_sd_cycles, of which it is a part");
	c = with_probe(doc, "df", json_real(0));
	json_object_set_new(json_array_get(json_object_get(c, "probes"), 0), "between_sd_cycles",
			    json_real(1e-3));
	expect_err(doc, "no df for a between-run part", c,
		   "noise.json: probes[0].df: 0 while between_sd_cycles is not");
	c = json_deep_copy(doc);
	json_array_append(json_object_get(c, "probes"), json_array_get(json_object_get(c, "probes"), 0));
	expect_err(doc, "a probe twice", c, "noise.json: probes[2].name: duplicate probe \"a\"");
	expect_err(doc, "a negative SD", with_probe(doc, "run_sd_cycles", json_real(-1)),
		   "noise.json: probes[0].run_sd_cycles: not a finite non-negative number");
	json_decref(doc);
}

/* The written floor validates against docs/results-schema.json's $defs/noise. */
static void test_schema(const char *path)
{
	static const char py[] =
		"import json, sys\n"
		"from jsonschema import Draft202012Validator as V\n"
		"s = json.load(open(sys.argv[1]))\n"
		"V.check_schema(s)\n"
		"v = V({'$ref': '#/$defs/noise', '$defs': s['$defs']})\n"
		"for f in sys.argv[2:]:\n"
		"    e = next(iter(v.iter_errors(json.load(open(f)))), None)\n"
		"    print(('VALID ' if e is None else 'INVALID ') + f + ('' if e is None else ': ' + e.message[:200]))\n";
	const char *probe[] = { "/usr/bin/python3", "-c", "import jsonschema", NULL };
	char bad[4200];
	const char *argv[] = { "/usr/bin/python3", "-c", py, "docs/results-schema.json", path, bad,
			       "fuzz/corpus-noise/valid-noise.json", "fuzz/corpus-noise/valid-noise-omitted.json",
			       "fuzz/corpus-noise/valid-noise-v2.json", NULL };
	json_t *doc = json_load_file(path, 0, NULL);
	struct run_result r;

	if (!run_works(probe) || !doc) {
		tap_skip(3, "python3-jsonschema not installed");
		json_decref(doc);
		return;
	}
	/* The reader's rule between_sd <= run_sd is beyond JSON Schema; a missing field is not. */
	json_object_del(json_array_get(json_object_get(doc, "probes"), 0), "df");
	snprintf(bad, sizeof(bad), "%s/bad-noise.json", tmp);
	json_dump_file(doc, bad, 0);
	json_decref(doc);
	run_cmd(&r, argv);
	tap_like(r.out, "VALID ", "the written floor validates against $defs/noise");
	ok(strstr(r.out, "VALID fuzz/corpus-noise/valid-noise.json\n") &&
	   strstr(r.out, "VALID fuzz/corpus-noise/valid-noise-omitted.json\n") &&
	   strstr(r.out, "VALID fuzz/corpus-noise/valid-noise-v2.json\n"),
	   "the fuzz seeds valid-noise*.json validate too (versions 1 and 2)");
	ok(strstr(r.out, "INVALID ") && strstr(r.out, "'df' is a required property"),
	   "a probe without df does not");
	if (r.status)
		diag("  %s", r.err);
	run_free(&r);
}

/* The fuzz seeds: the reader takes the valid ones and refuses the broken ones, in one line. */
static void test_seeds(void)
{
	static const char *const seeds[] = {
		"valid-noise.json", "valid-noise-omitted.json", "valid-noise-v2.json",
		"broken-noise-between.json", "broken-noise-at-speed.json", "broken-noise-dup.json", "broken-noise-no-settings.json", "broken-noise-result-schema.json",
		"broken-noise-runs.json", "broken-noise-truncated.json", "broken-noise-version.json",
	};
	char path[256];
	struct err err;

	for (size_t i = 0; i < ARRAY_SIZE(seeds); i++) {
		struct noise_floor *nf;
		int valid = !strncmp(seeds[i], "valid-", 6);

		snprintf(path, sizeof(path), "fuzz/corpus-noise/%s", seeds[i]);
		err_init(&err);
		nf = noise_read_file(path, &err);
		ok(valid ? nf != NULL : !nf && err.msg[0] && !strchr(err.msg, '\n'), "seed %s: %s%s", seeds[i],
		   valid ? "read" : "refused: ", valid ? "" : err.msg);
		noise_free(nf);
	}
}

int main(void)
{
	char path[4200];
	struct noise_floor *back;

	tmp = fixture_tmpdir();
	if (!tmp)
		return tap_skip_all("cannot make a temp dir");
	test_arithmetic();
	test_known_sd();
	test_skipped();
	test_estimate_errors();
	test_spread();
	test_spread_speed();
	snprintf(path, sizeof(path), "%s/noise.json", tmp);
	back = round_trip(path);
	noise_free(back);
	test_reader(path);
	test_schema(path);
	test_seeds();
	fixture_rmdir(tmp);
	return done_testing();
}
