// SPDX-License-Identifier: GPL-2.0-only
/* test_compare.c - compare on synthetic result files with known differences: verdicts, lines, exit codes. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "compare/compare.h"
#include "compare/counters.h"
#include "compare/lane_spread.h"
#include "compare/path.h"
#include "results/exit_path.h"
#include "tests/fixture.h"
#include "tests/fifo_stop.h"
#include "tests/run_cmd.h"
#include "tests/synth.h"
#include "tests/tap.h"

#define N 60

static char *tmp;
static char base_path[4096], new_path[4096], slow_a_path[4096], slow_b_path[4096];
static char emu_path[4096], user_a_path[4096], user_b_path[4096], xcr0_path[4096];
static char lane_a_path[4096], lane_b_path[4096];
/* One Bochs (or QEMU) lane run a side of slow_probe, 1000 -> 1100 cycles/op. */
static char slane_a_path[4096], slane_b_path[4096], qlane_a_path[4096], qlane_b_path[4096];
/* Lane runs of 7.2: one source version, then the next, then with emulator patches. */
static char src_a_path[4096], src_b_path[4096], src_c_path[4096], src_d_path[4096];
/* Round files (method v2): A/A with drift, a 10% change, too noisy, and a v1 copy. */
static char aa1_path[4096], aa2_path[4096], aa3_path[4096], aa4_path[4096], up_path[4096];
static char wild_a_path[4096], wild_b_path[4096], flat_a_path[4096], flat_b_path[4096];
/* Runs with settings for --noise: five of one setup, one of 16 rounds, one v1; floors from them. */
static char nrun_path[5][4096], r16_path[4096], v1_path[4096];
static char noise_path[4096], noise_epyc[4096], noise_old[4096], noise_trunc[4096], noise_v3[4096];
static char noise_r8[4096];

static json_t *noisy_probe(const char *name, const char *group, double center, double spread,
			   uint64_t seed, double exits)
{
	double s[N];

	fixture_samples(s, N, center, spread, seed);
	return fixture_probe(name, group, s, N, exits);
}

static json_t *const_probe(const char *name, const double *s, size_t n)
{
	return fixture_probe(name, "hand", s, n, 1.0);
}

/* Set the run loop's exact counters of a probe; a negative value leaves that one out. */
static json_t *with_user(json_t *probe, double io, double mmio, double msr, double intr)
{
	json_t *per_op = json_object_get(probe, "per_op");
	const char *names[] = { "user_io", "user_mmio", "user_msr", "user_intr" };
	double v[] = { io, mmio, msr, intr };

	for (size_t i = 0; i < 4; i++)
		if (v[i] >= 0)
			json_object_set_new(per_op, names[i], json_real(v[i]));
	return probe;
}

#define ROUNDS	30
#define PER	10

/*
 * A method-v2 probe: ROUNDS rounds of PER net samples each, round r's level
 * center * (1 + drift_r) with drift_r uniform in +-drift (the slow host drift
 * between rounds), samples uniform +-noise around it (both fractions). The
 * flat samples are all rounds' (they are all > 0 here, so clamping is moot);
 * with_rounds 0 leaves "rounds" out: the same data as a v1 file.
 */
static json_t *rounds_probe(const char *name, double center, double drift, double noise,
			    uint64_t seed, int with_rounds)
{
	double all[ROUNDS * PER], lvl[ROUNDS];
	json_t *probe, *rounds = json_array();
	uint64_t st = seed;

	fixture_samples(lvl, ROUNDS, center, center * drift, seed ^ 0x5eed);
	for (size_t r = 0; r < ROUNDS; r++) {
		double *x = all + r * PER;
		json_t *xs = json_array();

		fixture_samples(x, PER, lvl[r], lvl[r] * noise, stats_splitmix64(&st));
		for (size_t k = 0; k < PER; k++)
			json_array_append_new(xs, json_real(x[k]));
		json_array_append_new(rounds, json_pack("{s:i, s:o, s:f, s:f, s:f}", "batch", 64,
			"samples", xs, "median", stats_median(x, PER), "baseline_median", 1000.0,
			"raw_median", 1000.0 + stats_median(x, PER)));
	}
	probe = fixture_probe(name, "insn", all, ROUNDS * PER, 1);
	if (with_rounds) {
		json_object_set_new(probe, "rounds", rounds);
		json_object_set_new(probe, "stop", json_string("budget"));
	} else {
		json_decref(rounds);
	}
	return probe;
}

static json_t *rounds_file(json_t *probe)
{
	return fixture_result(fixture_host("6.1.0", "Xeon", "native"), json_pack("[o]", probe));
}

static void save(char *dst, const char *name, json_t *doc)
{
	const char *p = fixture_write(tmp, name, doc);

	snprintf(dst, 4096, "%s", p ? p : "?");
	json_decref(doc);
}

/*
 * base -> new:
 *   fast_probe      1000 -> 800 cycles (clearly faster)
 *   same_probe       500 -> 500 (noise only)
 *   toggle_cr4_cet  2000 -> 300, exits/op 2 -> 0 (now guest-owned)
 *   enter_exit       900 -> 900, exits/op 0 -> 1 (now intercepted)
 *   hand_const      {100 x5} -> {90 x5}: diff -10, CI [-10, -10]
 *   hand_small      {10,10,10} -> {20,20,21}: diff +10, CI [10, 11]
 *   flaky           ok -> skipped
 *   old_only / new_only in one file each
 */
static void make_files(void)
{
	const double c100[] = { 100, 100, 100, 100, 100 }, c90[] = { 90, 90, 90, 90, 90 };
	const double s10[] = { 10, 10, 10 }, s20[] = { 20, 20, 21 };
	json_t *pa, *pb, *a, *b;

	pa = json_pack("[o, o, o, o, o, o, o, o]",
		       noisy_probe("fast_probe", "insn", 1000, 20, 1, 1),
		       noisy_probe("same_probe", "insn", 500, 10, 2, 1),
		       noisy_probe("toggle_cr4_cet", "cr", 2000, 30, 3, 2),
		       noisy_probe("enter_exit", "cr", 900, 10, 4, 0),
		       const_probe("hand_const", c100, 5),
		       const_probe("hand_small", s10, 3),
		       noisy_probe("flaky", "io", 100, 1, 5, 1),
		       noisy_probe("old_only", "io", 100, 1, 6, 1));
	pb = json_pack("[o, o, o, o, o, o, o, o]",
		       noisy_probe("new_only", "io", 100, 1, 7, 1),
		       noisy_probe("fast_probe", "insn", 800, 20, 11, 1),
		       noisy_probe("same_probe", "insn", 500, 10, 12, 1),
		       noisy_probe("toggle_cr4_cet", "cr", 300, 10, 13, 0),
		       noisy_probe("enter_exit", "cr", 900, 10, 14, 1),
		       const_probe("hand_const", c90, 5),
		       const_probe("hand_small", s20, 3),
		       fixture_probe_status("flaky", "io", "skipped", "no PIO port"));
	a = fixture_result(fixture_host("6.1.0", "Xeon", "native"), pa);
	b = fixture_result(fixture_host("6.18.44", "Xeon", "native"), pb);
	json_object_set_new(a, "map", fixture_map(0, "host",
		json_pack("[o, o]", fixture_map_entry("cr4", 23, "CET", "toggle", "intercepted", 2),
			  fixture_map_entry("cr4", 7, "PGE", "toggle", "owned", 0))));
	json_object_set_new(b, "map", fixture_map(0, "host",
		json_pack("[o, o]", fixture_map_entry("cr4", 23, "CET", "toggle", "owned", 0),
			  fixture_map_entry("cr4", 7, "PGE", "toggle", "owned", 0))));
	/* Checks: xstate/b skip -> pass, cet/c only in base, cet/d only in new, xstate/a same. */
	json_object_set_new(a, "checks", json_pack("[o, o, o]",
		fixture_check("xstate", "a", "pass", "same"),
		fixture_check("xstate", "b", "skip", "no XSAVE"),
		fixture_check("cet", "c", "pass", "gone in new")));
	json_object_set_new(b, "checks", json_pack("[o, o, o]",
		fixture_check("cet", "d", "fail", "new in new"),
		fixture_check("xstate", "b", "pass", "ran"),
		fixture_check("xstate", "a", "pass", "same")));
	save(base_path, "base.json", a);
	save(new_path, "new.json", b);

	/* A 10% regression, for --fail-on-regression and --threshold. */
	a = fixture_result(fixture_host("6.1.0", "Xeon", "native"),
			   json_pack("[o]", noisy_probe("slow_probe", "insn", 1000, 10, 21, 1)));
	b = fixture_result(fixture_host("6.1.0", "Xeon", "native"),
			   json_pack("[o]", noisy_probe("slow_probe", "insn", 1100, 10, 22, 1)));
	json_object_set_new(a, "settings", json_pack("{s:i, s:f}", "samples", 15, "time_budget_s", 1.5));
	json_object_set_new(b, "settings", json_pack("{s:i, s:f}", "samples", 15, "time_budget_s", 1.5));
	save(slow_a_path, "slow_a.json", a);
	save(slow_b_path, "slow_b.json", b);
	/* slow_a again, measured with --guest-xcr0 0x3 and fewer samples. */
	b = fixture_result(fixture_host("6.1.0", "Xeon", "native"),
			   json_pack("[o]", noisy_probe("slow_probe", "insn", 1000, 10, 21, 1)));
	json_object_set_new(b, "settings", json_pack("{s:i, s:i}", "samples", 5, "guest_xcr0", 3));
	save(xcr0_path, "xcr0.json", b);

	/* Two lane runs of one release: unpatched, and with a patch series. */
	for (int side = 0; side < 2; side++) {
		json_t *host = fixture_host("6.1.192", "Xeon", "native");

		json_object_set_new(host, "lane", json_pack("{s:s, s:s, s:{s:s, s:s, s:o}}",
			"name", "vmx", "emulator", "bochs",
			"kernel", "kind", "tiny", "config_sha256", "5a12",
			"patches", side ? json_pack("[s, s]", "s/0001-a.patch", "s/0002-b.patch")
					: json_array()));
		a = fixture_result(host, json_pack("[o]", noisy_probe("slow_probe", "insn", 1000, 10, 21, 1)));
		save(side ? lane_b_path : lane_a_path, side ? "lane_b.json" : "lane_a.json", a);
	}
	for (int side = 0; side < 4; side++) {
		static const char *const names[] = { "slane_a.json", "slane_b.json", "qlane_a.json",
						     "qlane_b.json" };
		char *const dst[] = { slane_a_path, slane_b_path, qlane_a_path, qlane_b_path };
		json_t *host = fixture_host("6.1.192", "Xeon", "native");

		json_object_set_new(host, "lane", json_pack("{s:s, s:s, s:{s:s, s:s, s:[]}}",
			"name", "vmx", "emulator", side < 2 ? "bochs 3.0 ryzen" : "qemu 7.2 TCG EPYC",
			"kernel", "kind", "tiny", "config_sha256", "5a12", "patches"));
		a = fixture_result(host, json_pack("[o]", noisy_probe("slow_probe", "insn",
								     side & 1 ? 1100 : 1000, 10,
								     21 + (side & 1), 1)));
		save(dst[side], names[side], a);
	}
	for (int side = 0; side < 4; side++) {
		static const char *const vers[] = { "linux-source-7.2 7.2.11-1~bpo13+1",
						    "linux-source-7.2 7.2.12-1~bpo13+1",
						    "linux-source-7.2 7.2.12-1~bpo13+1",
						    "linux-source-7.2 7.2.12-1~bpo13+1" };
		static const char *const shas[] = { "11112222333344445555", "dd8cf7080e709d050ce2",
						    "dd8cf7080e709d050ce2", "dd8cf7080e709d050ce2" };
		static const char *const emus[] = { "bochs 3.0", "bochs 3.0", "bochs 3.0",
						    "bochs 3.0 tigerlake" };
		char *const paths[] = { src_a_path, src_b_path, src_c_path, src_d_path };
		static const char *const names[] = { "src_a.json", "src_b.json", "src_c.json",
						     "src_d.json" };
		json_t *host = fixture_host("7.2.12", "Xeon", "native"), *lane;

		lane = json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:s, s:[]}}", "name", "vmx",
				 "emulator", emus[side], "kernel", "kind", "tiny", "config_sha256", "5a12",
				 "source", vers[side], "source_sha256", shas[side], "patches");
		if (side == 2)
			json_object_set_new(lane, "emulator_patches", json_pack("[s]", "0001-x.patch"));
		json_object_set_new(host, "lane", lane);
		a = fixture_result(host, json_pack("[o]", noisy_probe("slow_probe", "insn", 1000, 10, 21, 1)));
		save(paths[side], names[side], a);
	}

	/* Same probes, emulated on another CPU. */
	a = fixture_result(fixture_host("6.1.0", "EPYC", "emulated"),
			   json_pack("[o]", noisy_probe("slow_probe", "insn", 1000, 10, 23, 1)));
	save(emu_path, "emulated.json", a);

	/*
	 * Emulated host, the run loop's exact counters (stats-fd exits equal):
	 *   pio_to_user     user_io 1 -> 0 (now served in the kernel)
	 *   mmio_to_user    user_mmio 1 -> 1.02 (under the 0.05/op rule: no line)
	 *   rd_user_msr     user_msr 0 -> 2, user_intr 0.5 -> 0 (one run a side, not whole: not judged)
	 *   old_format      user_* only in the new file: not compared
	 */
	a = fixture_result(fixture_host("6.1.0", "EPYC", "emulated"), json_pack("[o, o, o, o]",
		with_user(noisy_probe("pio_to_user", "io", 5000, 10, 31, 1), 1, 0, 0, 0),
		with_user(noisy_probe("mmio_to_user", "io", 5000, 10, 32, 1), 0, 1, 0, 0),
		with_user(noisy_probe("rd_user_msr", "msr", 5000, 10, 33, 1), 0, 0, 0, 0.5),
		noisy_probe("old_format", "io", 5000, 10, 34, 1)));
	b = fixture_result(fixture_host("6.1.0", "EPYC", "emulated"), json_pack("[o, o, o, o]",
		with_user(noisy_probe("pio_to_user", "io", 5000, 10, 41, 1), 0, 0, 0, 0),
		with_user(noisy_probe("mmio_to_user", "io", 5000, 10, 42, 1), 0, 1.02, 0, 0),
		with_user(noisy_probe("rd_user_msr", "msr", 5000, 10, 43, 1), 0, 0, 2, 0),
		with_user(noisy_probe("old_format", "io", 5000, 10, 44, 1), 3, 0, 0, 0)));
	save(user_a_path, "user_a.json", a);
	save(user_b_path, "user_b.json", b);

	/* Four runs of one setup (drift +-3% between rounds, noise +-2%), then 10% up. */
	save(aa1_path, "aa1.json", rounds_file(rounds_probe("drifty", 1000, 0.03, 0.02, 101, 1)));
	save(aa2_path, "aa2.json", rounds_file(rounds_probe("drifty", 1000, 0.03, 0.02, 202, 1)));
	save(aa3_path, "aa3.json", rounds_file(rounds_probe("drifty", 1000, 0.03, 0.02, 303, 1)));
	save(aa4_path, "aa4.json", rounds_file(rounds_probe("drifty", 1000, 0.03, 0.02, 404, 1)));
	save(up_path, "up.json", rounds_file(rounds_probe("drifty", 1100, 0.03, 0.02, 505, 1)));
	/* Drift +-40% between rounds: the interval cannot resolve 2%. */
	save(wild_a_path, "wild_a.json", rounds_file(rounds_probe("drifty", 1000, 0.4, 0.02, 606, 1)));
	save(wild_b_path, "wild_b.json", rounds_file(rounds_probe("drifty", 1000, 0.4, 0.02, 707, 1)));
	/* aa1 and aa2 without their rounds: what a v1 reader of the same samples sees. */
	save(flat_a_path, "flat_a.json", rounds_file(rounds_probe("drifty", 1000, 0.03, 0.02, 101, 0)));
	save(flat_b_path, "flat_b.json", rounds_file(rounds_probe("drifty", 1000, 0.03, 0.02, 202, 0)));
}

static struct result_file *load(const char *path);

/* A run file of the drifty probe with settings (v2: rounds 30, 0.2 s, 0.5%; v1: no rounds). */
static json_t *settings_file(uint64_t seed, int v2, long long rounds)
{
	json_t *doc = rounds_file(rounds_probe("drifty", 1000, 0.03, 0.02, seed, v2));

	if (v2)
		json_object_set_new(doc, "settings", fixture_settings("v2", rounds));
	else
		json_object_set_new(doc, "settings", json_pack("{s:i, s:f, s:i, s:s}", "samples", 300,
			"time_budget_s", 0.2, "cpu", -1, "method", "v1"));
	return doc;
}

/* doc (the written floor) with one edit, saved as name. */
static void save_edit(char *dst, const char *name, json_t *doc, const char *obj, const char *key,
		      json_t *v)
{
	json_t *c = json_deep_copy(doc);

	json_object_set_new(obj ? json_object_get(c, obj) : c, key, v);
	save(dst, name, c);
}

static void make_noise_files(void)
{
	struct result_file *rf[5] = { 0 };
	struct noise_floor nf;
	char name[32];
	struct err err;
	json_t *doc;
	char *text;
	int loaded = 1;

	for (int i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "n%d.json", i + 1);
		save(nrun_path[i], name, settings_file(900 + i, 1, 30));
		loaded &= (rf[i] = load(nrun_path[i])) != NULL;
	}
	save(r16_path, "r16.json", settings_file(950, 1, 16));
	save(v1_path, "v1.json", settings_file(960, 0, 0));
	snprintf(noise_path, sizeof(noise_path), "%s/noise.json", tmp);
	if (!loaded || noise_estimate((const struct result_file *const *)rf, 5, &nf, &err) ||
	    noise_write(&nf, noise_path, &err))
		diag("no noise floor: %s", loaded ? err.msg : "runs did not load");
	else
		noise_release(&nf);
	for (int i = 0; i < 5; i++)
		result_free(rf[i]);
	doc = json_load_file(noise_path, JSON_PRESERVE_ORDER, NULL);
	if (!doc)
		return;
	save_edit(noise_epyc, "noise-epyc.json", doc, "host", "cpu", json_pack("{s:s, s:i, s:i, s:i, s:s}",
		  "vendor", "AuthenticAMD", "family", 25, "model", 1, "stepping", 1, "name", "EPYC"));
	save_edit(noise_old, "noise-old.json", doc, "tool", "version", json_string("0.0.9"));
	save_edit(noise_v3, "noise-v3.json", doc, NULL, "schema_version", json_integer(3));
	save_edit(noise_r8, "noise-r8.json", doc, "settings", "rounds", json_integer(8));
	text = json_dumps(doc, 0);
	snprintf(noise_trunc, sizeof(noise_trunc), "%s", text ?
		 fixture_write_raw(tmp, "noise-trunc.json", text, strlen(text) / 2) ?: "?" : "?");
	free(text);
	json_decref(doc);
}

static struct result_file *load(const char *path)
{
	struct err err;
	struct result_file *rf = result_read_file(path, &err);

	if (!rf)
		diag("cannot load %s: %s", path, err.msg);
	return rf;
}

static const struct compare_probe *find(const struct compare_result *cr, const char *name)
{
	size_t i;

	for (i = 0; i < cr->n_probes; i++)
		if (strcmp(cr->probes[i].name, name) == 0)
			return &cr->probes[i];
	return NULL;
}

static void verdict_is(const struct compare_result *cr, const char *name, enum compare_verdict v)
{
	const struct compare_probe *p = find(cr, name);

	/* One run a side without a floor: its interval says v, the verdict is "not judged". */
	bool unjudged = p && p->verdict == COMPARE_UNJUDGED && p->by_interval == v;

	if (!ok(p && (p->verdict == v || unjudged), "%s: %s%s", name, compare_verdict_names[v],
		unjudged ? " by its interval (not judged: one run a side)" : ""))
		diag("  got %s", p ? compare_verdict_names[p->verdict] : "(not compared)");
}

static void test_library(void)
{
	struct result_file *a = load(base_path), *b = load(new_path);
	struct compare_result *cr, *cr2;
	const struct compare_probe *p;
	struct compare_opts o;
	struct err line;
	size_t i;
	int found;

	if (!a || !b) {
		tap_skip(31, "synthetic files did not load");
		result_free(a);
		result_free(b);
		return;
	}
	compare_opts_init(&o);
	cr = compare_results(a, b, &o, &line);
	if (!cr) {
		ok(0, "compare_results: %s", line.msg);
		return;
	}
	verdict_is(cr, "fast_probe", COMPARE_FASTER);
	verdict_is(cr, "same_probe", COMPARE_SAME);
	verdict_is(cr, "toggle_cr4_cet", COMPARE_FASTER);
	verdict_is(cr, "enter_exit", COMPARE_SAME);
	verdict_is(cr, "hand_const", COMPARE_FASTER);
	verdict_is(cr, "hand_small", COMPARE_SLOWER);
	verdict_is(cr, "flaky", COMPARE_NOT_RUN);
	p = find(cr, "fast_probe");
	ok(p && p->pct < -15 && p->pct > -25 && p->d.hi < 0, "fast_probe: about -20%%, CI below 0");
	p = find(cr, "hand_const");
	ok(p && p->d.diff == -10 && p->d.lo == -10 && p->d.hi == -10 && p->pct == -10,
	   "hand_const: diff -10 cycles, -10%%, CI [-10, -10]");
	/* b's resampled median is 21 with probability 7/27, else 20: CI [10, 11]. */
	p = find(cr, "hand_small");
	ok(p && p->d.diff == 10 && p->d.lo == 10 && p->d.hi == 11 && p->pct == 100,
	   "hand_small: diff +10 (+100%%), CI [10, 11]");
	/* One run a side, no floor: every difference is not judged, whatever its interval says. */
	is_int((long long)(cr->n_faster + cr->n_slower + cr->n_same), 0,
	       "one run a side: no faster, slower or no significant change");
	is_int((long long)cr->n_not_judged, 6, "6 not judged (3 faster, 1 slower, 2 unchanged by their intervals)");
	is_int((long long)cr->n_not_run, 1, "1 not compared");
	ok(cr->n_only_a == 1 && strcmp(cr->only_a[0], "old_only") == 0, "only in base: old_only");
	ok(cr->n_only_b == 1 && strcmp(cr->only_b[0], "new_only") == 0, "only in new: new_only");
	ok(!compare_regressed(cr), "a probe slower by its interval but not judged is no regression");

	is_int((long long)cr->n_counters, 2, "two exits/op changes");
	found = 0;
	for (i = 0; i < cr->n_counters; i++) {
		compare_counter_line(&cr->counters[i], line.msg, sizeof(line.msg));
		found += !strcmp(line.msg, "toggle_cr4_cet: 2.00 -> 0.00 exits/op (now guest-owned)");
		found += !strcmp(line.msg, "enter_exit: 0.00 -> 1.00 exits/op (now intercepted)") * 2;
	}
	is_int(found, 3, "exits/op lines: now guest-owned, now intercepted");

	ok(cr->map_compared && cr->n_map == 1, "one map change");
	if (cr->n_map)
		tap_is_str(compare_map_line(cr, &cr->map[0], line.msg, sizeof(line.msg)),
			   "host: cr4 bit 23 (CET) toggle: intercepted -> owned", "map change line");
	/* fixture_map_entry: cycles/op = exits/op * 1000 + 20. */
	ok(cr->n_map == 1 && cr->map[0].a_exits == 2 && cr->map[0].b_exits == 0 &&
	   cr->map[0].a_cycles == 2020 && cr->map[0].b_cycles == 20,
	   "map change carries exits/op 2 -> 0 and cycles/op 2020 -> 20");

	ok(cr->checks_compared, "both files have checks: compared");
	is_int((long long)cr->n_checks, 3, "three check changes (the unchanged one is not listed)");
	if (cr->n_checks == 3) {
		tap_is_str(compare_check_line(&cr->checks[0], line.msg, sizeof(line.msg)),
			   "cet/c: pass -> (absent)", "check only in base");
		tap_is_str(compare_check_line(&cr->checks[1], line.msg, sizeof(line.msg)),
			   "cet/d: (absent) -> fail", "check only in new");
		tap_is_str(compare_check_line(&cr->checks[2], line.msg, sizeof(line.msg)),
			   "xstate/b: skip -> pass", "check status change");
	} else {
		tap_skip(3, "wrong number of check changes");
	}
	ok(cr->n_host == 1 && strcmp(cr->host[0].field, "kernel") == 0 &&
	   strcmp(cr->host[0].b, "6.18.44") == 0, "host difference: kernel only");
	is_int((long long)cr->n_warnings, 0, "same CPU and mode: no warnings");

	/* Same seed, same intervals; the threshold turns verdicts off. */
	o.threshold_pct = 30;
	cr2 = compare_results(a, b, &o, &line);
	ok(cr2 && find(cr2, "fast_probe")->d.lo == find(cr, "fast_probe")->d.lo &&
	   find(cr2, "fast_probe")->d.hi == find(cr, "fast_probe")->d.hi, "same seed: same CI");
	ok(cr2 && find(cr2, "fast_probe")->by_interval == COMPARE_SAME,
	   "--threshold 30: a 20%% change is not significant");
	compare_free(cr2);
	compare_free(cr);
	result_free(a);
	result_free(b);
}

/* The run loop's user_* counters: read back and compared like the stats-fd ones. */
static void test_user_counters(void)
{
	static const char *const want[] = {
		"pio_to_user: 1.00 -> 0.00 user_io/op",
		"rd_user_msr: 0.00 -> 2.00 user_msr/op",
		"rd_user_msr: 0.50 -> 0.00 user_intr/op",
	};
	struct result_file *a = load(user_a_path), *b = load(user_b_path);
	const struct run_probe *p;
	struct compare_result *cr;
	struct err line;
	size_t i, k, hits[3] = { 0 };

	if (!a || !b) {
		tap_skip(8, "synthetic files did not load");
		result_free(a);
		result_free(b);
		return;
	}
	p = result_find_probe(a, "rd_user_msr");
	ok(p && p->per_op[RESULT_OP_USER_INTR] == 0.5 && p->per_op[RESULT_OP_USER_MSR] == 0,
	   "per_op.user_* read back");
	p = result_find_probe(a, "old_format");
	ok(p && p->per_op[RESULT_OP_USER_IO] == -1 && p->per_op[RESULT_OP_USER_INTR] == -1,
	   "per_op.user_* absent: -1");
	cr = compare_results(a, b, NULL, &line);
	if (!ok(cr != NULL, "compare_results"))
		diag("  %s", line.msg);
	if (cr) {
		/* 0.5 -> 0 with one run a side is not a whole number per op: not judged. */
		is_int((long long)cr->n_counters, 2, "two user_* changes (whole numbers per op)");
		is_int((long long)cr->n_unjudged, 1, "one difference not judged");
		for (i = 0; i < cr->n_counters; i++) {
			compare_counter_line(&cr->counters[i], line.msg, sizeof(line.msg));
			for (k = 0; k < 2; k++)
				hits[k] += !strcmp(line.msg, want[k]);
		}
		if (cr->n_unjudged)
			hits[2] = !strcmp(compare_counter_line(&cr->unjudged[0], line.msg, sizeof(line.msg)),
					  want[2]) && cr->unjudged[0].by == COMPARE_COUNTER_NOT_JUDGED;
		for (k = 0; k < 3; k++)
			ok(hits[k] == 1, "%s line \"%s\"", k < 2 ? "counter" : "not judged", want[k]);
	} else {
		tap_skip(5, "no comparison");
	}
	compare_free(cr);
	result_free(a);
	result_free(b);
}

/* Compare files pa[0..na-1] against pb[0..nb-1] (NULL when they do not load). */
static struct compare_result *compare_paths(const char *const *pa, size_t na,
					    const char *const *pb, size_t nb, struct result_file **rf)
{
	const struct result_file *a[4], *b[4];
	struct compare_result *cr = NULL;
	struct err err;
	size_t i;

	for (i = 0; i < na + nb; i++)
		if (!(rf[i] = load(i < na ? pa[i] : pb[i - na])))
			return NULL;
	for (i = 0; i < na; i++)
		a[i] = rf[i];
	for (i = 0; i < nb; i++)
		b[i] = rf[na + i];
	cr = compare_results_multi(a, na, b, nb, NULL, &err);
	if (!cr)
		diag("compare_results_multi: %s", err.msg);
	return cr;
}

static void free_files(struct result_file **rf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		result_free(rf[i]);
		rf[i] = NULL;
	}
}

/* A one-probe round file read back from memory (with_rounds 0: the same data as v1). */
static struct result_file *mem_file(double drift, uint64_t seed, int with_rounds)
{
	json_t *doc = rounds_file(rounds_probe("drifty", 1000, drift, 0.02, seed, with_rounds));
	char *text = json_dumps(doc, 0);
	struct err err;
	struct result_file *rf = text ? result_read_buffer("mem.json", text, strlen(text), &err) : NULL;

	if (!rf)
		diag("mem_file: %s", text ? err.msg : "out of memory");
	free(text);
	json_decref(doc);
	return rf;
}

/*
 * The A/A experiment on synthetic data: 20 pairs of runs of one setup whose
 * rounds drift +-10% (so two runs' levels differ by chance by a few
 * percent). The batch bootstrap, blind to the drift, calls many of them a
 * change (11 of 20 with these seeds); the Welch interval on the round medians
 * at most 5% (a 95% interval misses now and then), the issue's target.
 */
/* Probes whose interval alone calls a change (their verdict may be "not judged"). */
static size_t interval_changes(const struct compare_result *cr)
{
	size_t n = 0;

	for (size_t i = 0; i < cr->n_probes; i++)
		n += cr->probes[i].by_interval == COMPARE_FASTER ||
		     cr->probes[i].by_interval == COMPARE_SLOWER;
	return n;
}

static void test_aa_pairs(void)
{
	unsigned fp_batches = 0, fp_rounds = 0, fp_verdicts = 0, k;

	for (k = 0; k < 20; k++) {
		for (int with_rounds = 0; with_rounds < 2; with_rounds++) {
			struct result_file *a = mem_file(0.10, 1000 + 2 * k, with_rounds);
			struct result_file *b = mem_file(0.10, 1001 + 2 * k, with_rounds);
			struct compare_result *cr = a && b ? compare_results(a, b, NULL, NULL) : NULL;

			if (cr && (cr->n_faster || cr->n_slower))
				fp_verdicts++;
			if (cr && interval_changes(cr))
				(*(with_rounds ? &fp_rounds : &fp_batches))++;
			compare_free(cr);
			result_free(a);
			result_free(b);
		}
	}
	ok(fp_batches > 0, "A/A, drift between rounds: the batch bootstrap calls %u of 20 pairs a change",
	   fp_batches);
	ok(fp_rounds <= 1 && fp_rounds < fp_batches, "A/A, drift between rounds: the Welch "
	   "interval on round medians calls %u of 20 a change (at most 5%%)", fp_rounds);
	is_int(fp_verdicts, 0, "A/A, one run a side: no pair has a faster or slower verdict (not judged)");
}

/*
 * A one-probe file whose rounds have the given medians, each round the
 * samples {m - 1, m, m + 1} (read back from memory).
 */
static struct result_file *medians_file(const double *med, size_t n)
{
	json_t *rounds = json_array(), *probe, *doc;
	double all[3 * 8];
	char *text;
	struct err err;
	struct result_file *rf = NULL;

	for (size_t r = 0; r < n && r < 8; r++) {
		for (int k = 0; k < 3; k++)
			all[3 * r + k] = med[r] - 1 + k;
		json_array_append_new(rounds, json_pack("{s:i, s:[f, f, f], s:f, s:f, s:f}",
			"batch", 64, "samples", med[r] - 1, med[r], med[r] + 1, "median", med[r],
			"baseline_median", 1000.0, "raw_median", 1000.0 + med[r]));
	}
	probe = fixture_probe("p", "insn", all, 3 * (n < 8 ? n : 8), 1);
	json_object_set_new(probe, "rounds", rounds);
	doc = rounds_file(probe);
	text = json_dumps(doc, 0);
	if (text)
		rf = result_read_buffer("mem.json", text, strlen(text), &err);
	if (!rf)
		diag("medians_file: %s", text ? err.msg : "out of memory");
	free(text);
	json_decref(doc);
	return rf;
}

/* Compare files made of round medians: base a[0..na-1], new b[0..nb-1]. */
static struct compare_result *compare_medians(struct result_file **a, size_t na,
					      struct result_file **b, size_t nb)
{
	struct err err;
	struct compare_result *cr;

	for (size_t i = 0; i < na; i++)
		if (!a[i])
			return NULL;
	for (size_t i = 0; i < nb; i++)
		if (!b[i])
			return NULL;
	cr = compare_results_multi((const struct result_file *const *)a, na,
				   (const struct result_file *const *)b, nb, NULL, &err);
	if (!cr)
		diag("compare_results_multi: %s", err.msg);
	return cr;
}

/* The Welch interval on round medians, on numbers worked out by hand. */
/* Three probes with rounds whose every round's baseline is base (cycles/op). */
/*
 * Three probes whose rounds' harness baselines are base, their batch sizes
 * batch[k % nb] (the whole default of 64 when nb is 0); a round of batch 1
 * has a baseline per op one1 times base (one batch's fixed cost on one op).
 */
static struct result_file *shift_file_batches(double base, uint64_t seed, const long long *batch,
					      size_t nb, double one1)
{
	static const char *const names[] = { "p_one", "p_two", "p_three" };
	json_t *probes = json_array(), *doc;
	char *text;
	struct err err;
	struct result_file *rf;

	for (size_t i = 0; i < 3; i++) {
		json_t *p = rounds_probe(names[i], 1000 * (i + 1), 0.01, 0.01, seed + i, 1), *r;
		size_t k;

		json_array_foreach(json_object_get(p, "rounds"), k, r) {
			long long bk = nb ? batch[k % nb] : 64;

			json_object_set_new(r, "batch", json_integer(bk));
			json_object_set_new(r, "baseline_median", json_real(bk == 1 ? base * one1 : base));
		}
		json_array_append_new(probes, p);
	}
	doc = fixture_result(fixture_host("6.1.0", "Xeon", "native"), probes);
	text = json_dumps(doc, 0);
	rf = text ? result_read_buffer("mem.json", text, strlen(text), &err) : NULL;
	if (!rf)
		diag("shift_file: %s", text ? err.msg : "out of memory");
	free(text);
	json_decref(doc);
	return rf;
}

static struct result_file *shift_file(double base, uint64_t seed)
{
	return shift_file_batches(base, seed, NULL, 0, 1);
}

static bool has_warning(const struct compare_result *cr, const char *needle)
{
	for (size_t i = 0; i < cr->n_warnings; i++)
		if (strstr(cr->warnings[i], needle))
			return true;
	return false;
}

/*
 * Runs of probe "p" (synthetic, 8 rounds around 1000 cycles) whose counter
 * i is v[k] in run k: a side of n runs, into rf[0..n-1].
 */
static int counter_side(struct result_file **rf, size_t n, int i, const double *v, uint64_t seed)
{
	double med[8];

	for (size_t k = 0; k < n; k++) {
		for (size_t r = 0; r < 8; r++)
			med[r] = 1000 + 10 * synth_normal(&seed);
		rf[k] = synth_run_medians(med, 8);
		if (!rf[k])
			return -1;
		rf[k]->probes[0].per_op[i] = v[k];
	}
	return 0;
}

/* The runs of both sides and their comparison, which borrows the runs' probes. */
struct counter_cmp {
	struct result_file *a[8], *b[8];
	struct compare_result *cr;
};

/* Compare counter i with base values va[0..na-1] and new vb[0..nb-1]; NULL on failure. */
static struct compare_result *compare_counter(struct counter_cmp *cc, int i, const double *va,
					      size_t na, const double *vb, size_t nb, uint64_t seed)
{
	struct err err;

	memset(cc, 0, sizeof(*cc));
	if (!counter_side(cc->a, na, i, va, seed) && !counter_side(cc->b, nb, i, vb, seed + 7))
		cc->cr = compare_results_multi((const struct result_file *const *)cc->a, na,
					       (const struct result_file *const *)cc->b, nb, NULL, &err);
	return cc->cr;
}

/* The comparison first, then the runs it borrows from. */
static void counter_free(struct counter_cmp *cc)
{
	compare_free(cc->cr);
	for (size_t k = 0; k < 8; k++) {
		result_free(cc->a[k]);
		result_free(cc->b[k]);
	}
	memset(cc, 0, sizeof(*cc));
}

/*
 * Per-op counters: pooled over every run of a side (the mean of the runs),
 * a change only when it stands out of the runs' own variation (Welch t on
 * the run values) or every run of both sides is a whole number per op; one
 * run on a side and not whole: not judged. False claims on A/A runs are
 * counted on synthetic runs.
 */
static void test_counters(void)
{
	static const double a3[] = { 245.7, 262.3, 258.0 }, b3[] = { 273.7, 253.2, 250.0 };
	static const double up3[] = { 290, 300, 295 }, huge[] = { 1e308, 1.7e308, 1.5e308 };
	static const double zero[] = { 0.0001 }, cet[] = { 2.02 }, part[] = { 0.6 };
	static const double one[] = { 1, 1, 1 }, two[] = { 2, 2, 2 }, near1[] = { 1.001, 0.999, 1.0 };
	const int ie = RESULT_OP_INSN_EMULATION, ex = RESULT_OP_EXITS;
	struct counter_cmp cc;
	struct compare_result *cr;
	char line[256];
	json_t *doc;
	uint64_t st = 0xc0117e5;
	size_t claims = 0, found = 0, trials = 1000;

	/* Three runs a side of one setup: the first files differ by 11%, the sides do not. */
	cr = compare_counter(&cc, ie, a3, 3, b3, 3, 1);
	ok(cr && cr->n_counters == 0 && cr->n_unjudged == 0,
	   "3 runs a side, 245.7 262.3 258.0 vs 273.7 253.2 250.0: no change (within the runs')");
	ok(cr && fabs(cr->probes[0].per_op_a[ie] - (245.7 + 262.3 + 258.0) / 3) < 1e-9 &&
	   fabs(cr->probes[0].per_op_b[ie] - (273.7 + 253.2 + 250.0) / 3) < 1e-9,
	   "each side's counter is the mean of its runs, not its first file's");
	doc = cr ? compare_result_json(cr) : NULL;
	ok(doc && fabs(json_real_value(json_object_get(json_object_get(json_array_get(
	   json_object_get(doc, "probes"), 0), "base_per_op"), "insn_emulation")) - 255.3333333) < 1e-6,
	   "--json base_per_op: the side's mean");
	json_decref(doc);
	counter_free(&cc);
	/* One run a side: the same two values cannot be judged. */
	cr = compare_counter(&cc, ie, a3, 1, b3, 1, 2);
	ok(cr && cr->n_counters == 0 && cr->n_unjudged == 1 &&
	   cr->unjudged[0].by == COMPARE_COUNTER_NOT_JUDGED &&
	   !strcmp(compare_counter_line(&cr->unjudged[0], line, sizeof(line)),
		   "p: 245.70 -> 273.70 insn_emulation/op"),
	   "one run a side, 245.7 -> 273.7: not judged, not a change");
	doc = cr ? compare_result_json(cr) : NULL;
	ok(doc && json_array_size(json_object_get(doc, "counter_changes")) == 0 &&
	   json_array_size(json_object_get(doc, "counters_not_judged")) == 1 &&
	   !strcmp(json_string_value(json_object_get(json_array_get(json_object_get(doc,
	   "counters_not_judged"), 0), "by")) ?: "", "not judged"),
	   "--json: in counters_not_judged, not in counter_changes");
	json_decref(doc);
	counter_free(&cc);
	cr = compare_counter(&cc, ie, a3, 1, up3, 3, 3);
	ok(cr && cr->n_counters == 0 && cr->n_unjudged == 1,
	   "one run on one side, 245.7 -> 290 300 295: not judged");
	counter_free(&cc);
	/* Whole numbers per op, the same in every run: a step is a change, runs or not. */
	cr = compare_counter(&cc, ex, one, 3, two, 3, 4);
	ok(cr && cr->n_counters == 1 && cr->counters[0].by == COMPARE_COUNTER_WHOLE &&
	   !strcmp(compare_counter_line(&cr->counters[0], line, sizeof(line)),
		   "p: 1.00 -> 2.00 exits/op"), "exits/op 1.000 in every run -> 2.000: a change");
	counter_free(&cc);
	cr = compare_counter(&cc, ex, one, 1, two, 1, 5);
	ok(cr && cr->n_counters == 1 && cr->counters[0].by == COMPARE_COUNTER_WHOLE,
	   "one run a side, exits/op 1 -> 2: a change (whole numbers)");
	counter_free(&cc);
	cr = compare_counter(&cc, ex, near1, 3, two, 3, 6);
	ok(cr && cr->n_counters == 1 && cr->counters[0].by == COMPARE_COUNTER_WHOLE,
	   "within 0.005 of 1 in every run -> 2: whole, a change");
	counter_free(&cc);
	cr = compare_counter(&cc, ex, two, 3, one, 1, 7);
	ok(cr && cr->n_counters == 1 && cr->n_unjudged == 0, "3 runs of 2 -> one run of 1: a change");
	counter_free(&cc);
	cr = compare_counter(&cc, ex, zero, 1, cet, 1, 9);
	ok(cr && cr->n_counters == 1 && cr->counters[0].by == COMPARE_COUNTER_FROM_ZERO &&
	   !strcmp(compare_counter_line(&cr->counters[0], line, sizeof(line)),
		   "p: 0.00 -> 2.02 exits/op (now intercepted)"),
	   "one run a side, exits/op 0.00 -> 2.02: a change (none, then every op)");
	counter_free(&cc);
	cr = compare_counter(&cc, ex, cet, 1, zero, 1, 10);
	ok(cr && cr->n_counters == 1 && !strcmp(cr->counters[0].note ?: "", "now guest-owned"),
	   "2.02 -> 0.00: now guest-owned");
	counter_free(&cc);
	cr = compare_counter(&cc, ex, zero, 1, part, 1, 11);
	ok(cr && cr->n_counters == 0 && cr->n_unjudged == 1,
	   "one run a side, 0.00 -> 0.60 (not every op): not judged");
	counter_free(&cc);
	cr = compare_counter(&cc, ie, huge, 3, one, 3, 8);
	ok(cr && cr->n_counters == 0 && cr->n_unjudged == 0 && isfinite(cr->probes[0].per_op_a[ie]),
	   "1e308 per op in every base run: not compared, its mean finite (%g)",
	   cr ? cr->probes[0].per_op_a[ie] : 0);
	counter_free(&cc);
	/*
	 * A/A: every run's counter 2.0 x (1 + 0.2 N), 3 runs a side (noise so large
	 * that the size rule rarely decides): the share called a change must be
	 * the test's 5% at most (3 standard errors of slack over the trials).
	 */
	for (size_t t = 0; t < trials; t++) {
		double va[3], vb[3];

		for (size_t k = 0; k < 3; k++) {
			va[k] = 2.0 * (1 + 0.2 * synth_normal(&st));
			vb[k] = 2.0 * (1 + 0.2 * synth_normal(&st));
		}
		cr = compare_counter(&cc, ie, va, 3, vb, 3, t);
		claims += cr && cr->n_counters;
		counter_free(&cc);
	}
	ok((double)claims / trials <= 0.05 + 3 * sqrt(0.05 * 0.95 / trials),
	   "A/A, 3 runs a side, 20%% noise: %zu of %zu called a change (at most 5%% + 3 SE)",
	   claims, trials);
	/* +30% under 5% noise: found in most trials (the test has power). */
	for (size_t t = 0; t < 200; t++) {
		double va[3], vb[3];

		for (size_t k = 0; k < 3; k++) {
			va[k] = 250 * (1 + 0.05 * synth_normal(&st));
			vb[k] = 325 * (1 + 0.05 * synth_normal(&st));
		}
		cr = compare_counter(&cc, ie, va, 3, vb, 3, t);
		found += cr && cr->n_counters == 1 && cr->counters[0].by == COMPARE_COUNTER_RUNS &&
			 cr->counters[0].lo > 0;
		counter_free(&cc);
	}
	ok(found >= 190, "250 -> 325 insn_emulation/op, 5%% noise, 3 runs a side: found in %zu of 200",
	   found);
}

/*
 * One run a side of counter i: ka over ops_a on the base, kb over ops_b on
 * the new, with the host's irq_exits per op irq_a, irq_b (none of its
 * signals). NULL on failure.
 */
static struct compare_result *compare_counts(struct counter_cmp *cc, int i, double ka, long long ops_a,
					     double irq_a, double kb, long long ops_b, double irq_b)
{
	const double va[] = { ka / (double)ops_a }, vb[] = { kb / (double)ops_b };
	struct err err;

	memset(cc, 0, sizeof(*cc));
	if (counter_side(cc->a, 1, i, va, 41) || counter_side(cc->b, 1, i, vb, 48))
		return NULL;
	cc->a[0]->probes[0].ops = ops_a;
	cc->b[0]->probes[0].ops = ops_b;
	cc->a[0]->probes[0].per_op[RESULT_OP_SIGNAL_EXITS] = 0;
	cc->b[0]->probes[0].per_op[RESULT_OP_SIGNAL_EXITS] = 0;
	if (i != RESULT_OP_IRQ_EXITS) {
		cc->a[0]->probes[0].per_op[RESULT_OP_IRQ_EXITS] = irq_a;
		cc->b[0]->probes[0].per_op[RESULT_OP_IRQ_EXITS] = irq_b;
	}
	cc->cr = compare_results_multi((const struct result_file *const *)cc->a, 1,
				       (const struct result_file *const *)cc->b, 1, NULL, &err);
	return cc->cr;
}

/*
 * A counter of one run a side (docs/method.md, "Per-op counters"): a
 * change when its counts exclude chance (exact test, p < 0.001, the ops
 * the exposure) and the step is larger than the host's own exits per op;
 * else not judged.
 */
static void test_counter_counts(void)
{
	const int ex = RESULT_OP_EXITS, irq = RESULT_OP_IRQ_EXITS;
	struct counter_cmp cc;
	struct compare_result *cr;
	char line[256];
	json_t *doc;
	double p;

	/* 3 against 10 over equal exposure: 2 P(X >= 10 | 13, 1/2) = 2 (286 + 78 + 13 + 1) / 8192. */
	p = counters_poisson_p(3, 100, 10, 100);
	ok(fabs(p - 2 * 378.0 / 8192) < 1e-12, "exact test: 3 vs 10 over equal ops, p = %.6f", p);
	p = counters_poisson_p(10, 100, 3, 100);
	ok(fabs(p - 2 * 378.0 / 8192) < 1e-12, "exact test: symmetric (10 vs 3, p = %.6f)", p);
	ok(counters_poisson_p(5, 100, 5, 100) == 1, "exact test: equal counts, p = 1 (capped)");
	p = counters_poisson_p(1, 93, 188, 93);
	ok(p < 1e-40, "exact test: 1 vs 188 over 93 ops each, p = %.3g", p);
	p = counters_poisson_p(4, 92349, 188, 93);
	ok(p < 1e-40, "exact test: 4 over 92349 ops vs 188 over 93, p = %.3g", p);

	/* The lane A/B's step: 0.01 -> 2.02 exits/op over 93 ops, a host interrupt on each side. */
	cr = compare_counts(&cc, ex, 1, 93, 1.0 / 93, 188, 93, 1.0 / 93);
	ok(cr && cr->n_counters == 1 && cr->n_unjudged == 0 &&
	   cr->counters[0].by == COMPARE_COUNTER_COUNTS && cr->counters[0].lo > 1.5 &&
	   cr->counters[0].hi < 2.5 &&
	   !strcmp(compare_counter_line(&cr->counters[0], line, sizeof(line)), "p: 0.01 -> 2.02 exits/op"),
	   "one run a side, 1 -> 188 exits over 93 ops: a change by the counts (CI [%.2f, %.2f])",
	   cr && cr->n_counters ? cr->counters[0].lo : 0, cr && cr->n_counters ? cr->counters[0].hi : 0);
	doc = cr ? compare_result_json(cr) : NULL;
	ok(doc && json_array_size(json_object_get(doc, "counter_changes")) == 1 &&
	   !strcmp(json_string_value(json_object_get(json_array_get(json_object_get(doc,
	   "counter_changes"), 0), "by")) ?: "", "counts"),
	   "--json: in counter_changes, by \"counts\"");
	json_decref(doc);
	/* The same counts where a side's guest code ran emulated: they vary beyond chance there. */
	if (cr) {
		cc.b[0]->host.exec_mode = EXEC_EMULATED;
		compare_free(cc.cr);
		cr = cc.cr = compare_results_multi((const struct result_file *const *)cc.a, 1,
						   (const struct result_file *const *)cc.b, 1, NULL, NULL);
	}
	ok(cr && cr->n_counters == 0 && cr->n_unjudged == 1,
	   "the same 1 -> 188 exits, the new side emulated: not judged");
	counter_free(&cc);
	/* An irq-like change: 0.03 -> 0.10 exits/op, the host's interrupts 0.03 -> 0.10 with it. */
	cr = compare_counts(&cc, ex, 30000, 1000000, 0.03, 100000, 1000000, 0.10);
	ok(cr && cr->n_counters == 0 && cr->n_unjudged == 2 &&
	   !strcmp(cr->unjudged[0].counter, "exits") && !strcmp(cr->unjudged[1].counter, "irq_exits"),
	   "0.03 -> 0.10 exits/op over 1e6 ops, irq_exits 0.03 -> 0.10: neither judged (the host's)");
	counter_free(&cc);
	/* The same counts without the host's interrupts: the step is the probe's. */
	cr = compare_counts(&cc, ex, 30000, 1000000, 0, 100000, 1000000, 0);
	ok(cr && cr->n_counters == 1 && cr->counters[0].by == COMPARE_COUNTER_COUNTS,
	   "0.03 -> 0.10 exits/op over 1e6 ops, no host interrupts: a change");
	counter_free(&cc);
	/* Too few counts to exclude chance (p 0.09): not judged. */
	cr = compare_counts(&cc, ex, 3, 100, 0, 10, 100, 0);
	ok(cr && cr->n_counters == 0 && cr->n_unjudged == 1,
	   "3 -> 10 exits over 100 ops (p 0.09): not judged");
	counter_free(&cc);
	/* The host's own counter is never a probe's change from one run. */
	cr = compare_counts(&cc, irq, 0, 1000000, 0, 100000, 1000000, 0);
	ok(cr && cr->n_counters == 0 && cr->n_unjudged == 1, "irq_exits 0.00 -> 0.10: not judged");
	counter_free(&cc);
	/* Counts that are no whole numbers over the ops: not counts, not judged. */
	cr = compare_counts(&cc, ex, 30000.5, 1000000, 0, 100000, 1000000, 0);
	ok(cr && cr->n_counters == 0 && cr->n_unjudged == 1,
	   "a per-op figure that is no count over the ops: not judged");
	counter_free(&cc);
}

/* The harness baseline of every probe moved alike: the host's speed, said as a warning. */
static void test_baseline_shift(void)
{
	struct result_file *a = shift_file(7200, 11), *b = shift_file(7200 * 1.03, 21),
			   *c = shift_file(7200 * 1.002, 31);
	struct compare_result *ab = a && b ? compare_results(a, b, NULL, NULL) : NULL,
			      *ac = a && c ? compare_results(a, c, NULL, NULL) : NULL;
	char line[512];

	ok(ab && has_warning(ab, "harness baseline (the same empty loop in every probe) moved by a "
			     "median +3.00% over 3 probes"),
	   "every probe's baseline 3%% dearer: a warning names the median shift and the probes");
	ok(ac && !has_warning(ac, "harness baseline"),
	   "a 0.2%% baseline difference (below half the 2%% threshold) is not warned about");
	compare_free(ab);
	compare_free(ac);
	result_free(a);
	result_free(b);
	result_free(c);

	/* The same speed, batches of 9 against batches of 1 (whose baseline per op is 16% dearer). */
	{
		static const long long nine[] = { 9 }, one[] = { 1 }, mixed[] = { 1, 9, 9 };

		a = shift_file_batches(7200, 11, nine, 1, 1.1649);
		b = shift_file_batches(7200, 21, one, 1, 1.1649);
		c = shift_file_batches(7200, 31, mixed, 3, 1.1649);
		ab = a && b ? compare_results(a, b, NULL, NULL) : NULL;
		ac = a && c ? compare_results(a, c, NULL, NULL) : NULL;
		ok(ab && !has_warning(ab, "moved by a median") &&
		   has_warning(ab, "note: the harness baseline cannot be compared between the sides: in 3 "
			       "of 3 probes they measured no batch size in common"),
		   "batches of 9 against batches of 1: no baseline warning, a note that it cannot be given");
		ok(ac && !has_warning(ac, "harness baseline"),
		   "batches of 9 against 1, 9, 9: the rounds of 9 compared alone, no warning");
		ok(ab && !ab->has_speed && ac && ac->has_speed && fabs(ac->speed.pct) < 1e-9,
		   "guest speed: none from batches of 9 against 1; by the rounds of 9 alone, %+.2f%%",
		   ac && ac->has_speed ? ac->speed.pct : 0);
		compare_free(ab);
		compare_free(ac);
		result_free(a);
		result_free(b);
		result_free(c);
		b = shift_file_batches(7200 * 1.05, 21, mixed, 3, 1.1649);
		a = shift_file_batches(7200, 11, nine, 1, 1.1649);
		ab = a && b ? compare_results(a, b, NULL, NULL) : NULL;
		ok(ab && has_warning(ab, "moved by a median +5.00% over 3 probes"),
		   "5%% dearer at equal batch sizes: warned, by the rounds of 9 (+5.00%%)");
		ok(ab && ab->has_speed && fabs(ab->speed.pct - 5) < 1e-9 &&
		   ab->speed.verdict == COMPARE_UNJUDGED && ab->speed.by_interval == COMPARE_SLOWER &&
		   compare_speed_line(ab, line, sizeof(line)) && strstr(line, ": not judged"),
		   "guest speed +5.00%%, one run a side: slower by its interval, not judged (%s)",
		   ab && ab->has_speed ? compare_verdict_names[ab->speed.verdict] : "-");
		compare_free(ab);
		result_free(a);
		result_free(b);
	}
}

static void test_welch_verdicts(void)
{
	const double steady[] = { 2229, 2236, 2234, 2239, 2232 };
	const double shifted[] = { 2242, 2244, 3215, 3651, 3555 };
	const double base[] = { 1000, 1005, 995, 1003, 997 };
	const double up[] = { 1100, 1105.5, 1094.5, 1103.3, 1096.7 };
	const double one_a[] = { 1000 }, one_b[] = { 1010 };
	struct result_file *a[2] = { 0 }, *b[2] = { 0 };
	struct compare_result *cr;
	const struct compare_probe *p;

	/*
	 * A steady run (mean 2234, s^2 = (25 + 4 + 0 + 25 + 4) / 4 = 14.5)
	 * against one whose last 3 of 5 rounds shifted by +40% (mean 14907 / 5
	 * = 2981.4, s^2 = 1922421.2 / 4 = 480605.3). SE^2 = 14.5/5 +
	 * 480605.3/5 = 96123.96, SE = 310.039; df = 4.0002 -> t95(4.0002) =
	 * 2.77636; half = 860.78: CI [-113.4, +1608.2] contains 0, and 860.78
	 * is 38.5% of 2234: too noisy, not slower.
	 */
	a[0] = medians_file(steady, 5);
	b[0] = medians_file(shifted, 5);
	cr = compare_medians(a, 1, b, 1);
	p = cr ? find(cr, "p") : NULL;
	ok(p && p->method == COMPARE_METHOD_ROUNDS && p->d.median_a == 2234 &&
	   fabs(p->d.median_b - 2981.4) < 1e-9, "welch: base, new are the means of the round "
	   "medians (%.1f, %.1f)", p ? p->d.median_a : 0, p ? p->d.median_b : 0);
	ok(p && fabs(p->d.df - 4.0002) < 1e-4 &&
	   fabs(p->d.lo - (747.4 - stats_t95_df(p->d.df) * sqrt(96123.96))) < 1e-6 &&
	   fabs(p->d.hi - (747.4 + stats_t95_df(p->d.df) * sqrt(96123.96))) < 1e-6 &&
	   fabs(p->d.lo + 113.4) < 0.05 && fabs(p->d.hi - 1608.2) < 0.05,
	   "welch: shifted run: CI 747.4 -+ 2.77636 * 310.039 = [%.1f, %.1f]", p ? p->d.lo : 0,
	   p ? p->d.hi : 0);
	ok(p && p->verdict == COMPARE_TOO_NOISY && fabs(p->mde_pct - 38.53) < 0.01,
	   "welch: last 3 of 5 rounds shifted +40%%: too noisy (could detect >= %.2f%%), not slower",
	   p ? p->mde_pct : 0);
	compare_free(cr);
	free_files(a, 1);
	free_files(b, 1);

	/*
	 * A steady 10% change, 0.5% round noise: base mean 1000, s^2 = (0 + 25
	 * + 25 + 9 + 9) / 4 = 17; new = 1.1 x base: mean 1100, s^2 = 20.57.
	 * SE^2 = 3.4 + 4.114 = 7.514; df = 56.46 / ((11.56 + 16.925) / 4) =
	 * 7.93 -> t95(7.93) = 2.3096; half = 2.3096 * 2.7412 = 6.331: CI
	 * [93.7, 106.3], +10%: slower.
	 */
	a[0] = medians_file(base, 5);
	b[0] = medians_file(up, 5);
	cr = compare_medians(a, 1, b, 1);
	p = cr ? find(cr, "p") : NULL;
	ok(p && p->by_interval == COMPARE_SLOWER && fabs(p->pct - 10) < 1e-9 &&
	   fabs(p->d.hi - p->d.diff - 2.3096 * sqrt(7.514)) < 1e-3 && fabs(p->d.df - 7.93) < 0.005,
	   "welch: steady +10%% over 5 rounds at 0.5%% noise: slower (CI [%+.2f%%, %+.2f%%], df %.2f)",
	   p ? p->pct_lo : 0, p ? p->pct_hi : 0, p ? p->d.df : 0);
	compare_free(cr);
	free_files(a, 1);
	free_files(b, 1);

	/* One round a side: no variance, so the samples' bootstrap, with the note. */
	a[0] = medians_file(one_a, 1);
	b[0] = medians_file(one_b, 1);
	cr = compare_medians(a, 1, b, 1);
	p = cr ? find(cr, "p") : NULL;
	ok(p && p->method == COMPARE_METHOD_BATCHES && cr->method_note &&
	   strstr(cr->method_note, "fewer than 2 rounds"),
	   "one round a side: batches method with the note");
	compare_free(cr);
	free_files(a, 1);
	free_files(b, 1);

	/*
	 * Two one-round runs a side: the runs model, run means base {1000,
	 * 1005}, new {1010, 1010}: means 1002.5 and 1010, SE^2 = 12.5/2 + 0 =
	 * 6.25, df = 6.25^2 / (6.25^2 / 1) = 1 -> t95(1) = 12.706: half 31.765.
	 */
	a[0] = medians_file(one_a, 1);
	a[1] = medians_file(base + 1, 1);
	b[0] = medians_file(one_b, 1);
	b[1] = medians_file(one_b, 1);
	cr = compare_medians(a, 2, b, 2);
	p = cr ? find(cr, "p") : NULL;
	ok(p && p->method == COMPARE_METHOD_RUNS && p->rounds_a == 2 && p->rounds_b == 2 &&
	   p->d.median_a == 1002.5 && p->d.median_b == 1010 &&
	   fabs(p->d.hi - p->d.diff - 12.7062047 * 2.5) < 1e-6 && p->verdict == COMPARE_TOO_NOISY,
	   "2 one-round runs a side: the runs model, Welch on the run means, df 1, too noisy");
	compare_free(cr);
	free_files(a, 2);
	free_files(b, 2);
}

/* The round-level method on synthetic runs with drift between rounds. */
static void test_rounds(void)
{
	const char *aa[] = { aa1_path, aa2_path }, *bb[] = { aa3_path, aa4_path };
	const char *up[] = { up_path }, *wa[] = { wild_a_path }, *wb[] = { wild_b_path };
	const char *fa[] = { flat_a_path }, *fb[] = { flat_b_path }, *mixed[] = { aa2_path };
	struct result_file *rf[8] = { 0 };
	struct compare_result *cr;
	const struct compare_probe *p;
	double round_width = 0;
	json_t *doc, *jp;

	/* A/A: two runs of the same setup. */
	cr = compare_paths(aa, 1, aa + 1, 1, rf);
	p = cr ? find(cr, "drifty") : NULL;
	ok(p && p->method == COMPARE_METHOD_ROUNDS && p->rounds_a == ROUNDS && p->rounds_b == ROUNDS,
	   "rounds present: the rounds method over %d rounds a side", ROUNDS);
	ok(p && p->by_interval == COMPARE_SAME, "A/A with drift between rounds: no significant change "
	   "(%+.2f%%, CI [%+.2f%%, %+.2f%%])", p ? p->pct : 0, p ? p->pct_lo : 0, p ? p->pct_hi : 0);
	ok(cr && !cr->method_note && cr->n_by_rounds == 1, "rounds on both sides: no batches note");
	if (p)
		round_width = p->d.hi - p->d.lo;
	compare_free(cr);
	free_files(rf, 2);

	/* The same samples without rounds: the batch bootstrap sees no drift, a narrower CI. */
	cr = compare_paths(fa, 1, fb, 1, rf);
	p = cr ? find(cr, "drifty") : NULL;
	ok(p && p->method == COMPARE_METHOD_BATCHES && cr->method_note &&
	   strstr(cr->method_note, "does not see run-to-run variance"),
	   "no rounds: batches method with the note");
	ok(p && p->d.hi - p->d.lo < round_width, "the batch CI (%.1f) is narrower than the "
	   "round-level one (%.1f) on the same samples", p ? p->d.hi - p->d.lo : 0, round_width);
	doc = cr ? compare_result_json(cr) : NULL;
	jp = doc ? json_array_get(json_object_get(doc, "probes"), 0) : NULL;
	ok(jp && !strcmp(fixture_str(jp, "figure"), "median of the samples") &&
	   fixture_num(jp, "resamples") > 0 && json_is_null(json_object_get(jp, "df")) &&
	   json_is_null(json_object_get(jp, "se_cycles")) &&
	   json_is_null(json_object_get(jp, "floor_df")) &&
	   json_is_null(json_object_get(jp, "floor_sd_rel")) &&
	   json_is_null(json_object_get(jp, "lane_spread_pct")) &&
	   json_is_null(json_object_get(jp, "speed_slope")) &&
	   !strcmp(fixture_str(jp, "run_to_run"), "none"),
	   "--json by batches: the samples' median, resamples; no df, SE, floor, lane spread, slope");
	json_decref(doc);
	compare_free(cr);
	free_files(rf, 2);

	/* One side with rounds, one without: batches for both, marked. */
	cr = compare_paths(fa, 1, mixed, 1, rf);
	p = cr ? find(cr, "drifty") : NULL;
	ok(p && p->method == COMPARE_METHOD_BATCHES && cr->method_note, "rounds on one side only: batches");
	compare_free(cr);
	free_files(rf, 2);

	/* A 10% change with the same drift and noise is found. */
	cr = compare_paths(aa, 1, up, 1, rf);
	p = cr ? find(cr, "drifty") : NULL;
	ok(p && p->by_interval == COMPARE_SLOWER && p->d.lo > 0 && p->pct > 5 && p->pct < 15,
	   "10%% slower with the same noise: slower by its interval (%+.2f%%)", p ? p->pct : 0);
	ok(cr && p && p->verdict == COMPARE_UNJUDGED && !compare_regressed(cr),
	   "one run a side: not judged, so no regression");
	compare_free(cr);
	free_files(rf, 2);

	/* Several runs per side: the runs model, over the rounds of both runs. */
	cr = compare_paths(aa, 2, bb, 2, rf);
	p = cr ? find(cr, "drifty") : NULL;
	ok(p && p->method == COMPARE_METHOD_RUNS && p->r2r == COMPARE_R2R_RUNS &&
	   p->rounds_a == 2 * ROUNDS && p->rounds_b == 2 * ROUNDS && p->runs_a == 2 &&
	   p->runs_b == 2, "2 + 2 runs: the runs model over %zu and %zu rounds", p ? p->rounds_a : 0,
	   p ? p->rounds_b : 0);
	ok(p && p->verdict == COMPARE_SAME, "2 + 2 runs of one setup: no significant change");
	ok(cr && cr->n_files_a == 2 && !strcmp(cr->files_a[1], aa2_path) &&
	   strstr(cr->name_a, " + "), "both base files named");
	compare_free(cr);
	free_files(rf, 4);

	/* Drift of +-40%: a 2% change could not be seen. */
	cr = compare_paths(wa, 1, wb, 1, rf);
	p = cr ? find(cr, "drifty") : NULL;
	ok(p && p->verdict == COMPARE_TOO_NOISY, "CI wider than the threshold: too noisy (half width %.1f%%)",
	   p ? p->mde_pct : 0);
	ok(p && fabs(p->mde_pct - (p->pct_hi - p->pct_lo) / 2) < 1e-9 && p->mde_pct > 2,
	   "smallest detectable change = the CI's half width in %%");
	ok(cr && cr->n_too_noisy == 1 && !compare_regressed(cr), "too noisy is not a regression");
	compare_free(cr);
	free_files(rf, 2);
}


/*
 * Coverage on synthetic data with a known between-run component (the
 * two-level generator of tests/synth.c): each trial draws fresh runs, so
 * the count of intervals that miss the true difference is Binomial(TRIALS,
 * miss rate). A 95% interval misses 5%: over 2000 trials 100 times, and
 * more than 132 (100 + 3.29 sqrt(2000 x 0.05 x 0.95), the upper end of the
 * binomial 99.9% band) only with probability 0.0005. That bound is the
 * claim "covers at least about 95%" and is not fitted to what the code
 * gives: an interval that under-covers lands above it, one that covers
 * lands below it. No lower bound: Welch's t is conservative with few runs
 * (its df is an underestimate), which the power tests below bound instead.
 */
#define TRIALS		2000
#define MISS_BOUND	132

struct trial_runs {
	struct result_file *a[12], *b[12];
	size_t na, nb;
};

/* na runs of mu_a and nb of mu_b, one probe "p", sb between runs, sw per round, 3..8 rounds. */
static int draw_sides(struct trial_runs *t, size_t na, size_t nb, double mu_a, double mu_b,
		      double sb, double sw, uint64_t *st)
{
	const struct synth_probe pa = { "p", mu_a, sb, sw }, pb = { "p", mu_b, sb, sw };
	int rc = 0;

	t->na = na;
	t->nb = nb;
	for (size_t i = 0; i < na; i++)
		rc |= !(t->a[i] = synth_run(&pa, 1, 3, 8, "6.1.0", "Xeon", "0.1.0", st));
	for (size_t i = 0; i < nb; i++)
		rc |= !(t->b[i] = synth_run(&pb, 1, 3, 8, "6.1.0", "Xeon", "0.1.0", st));
	return rc ? -1 : 0;
}

static void free_sides(struct trial_runs *t)
{
	free_files(t->a, t->na);
	free_files(t->b, t->nb);
}

static struct compare_result *compare_sides(const struct trial_runs *t, const struct noise_floor *nf)
{
	struct compare_opts o;

	compare_opts_init(&o);
	o.noise = nf;
	return compare_results_multi((const struct result_file *const *)t->a, t->na,
				     (const struct result_file *const *)t->b, t->nb, &o, NULL);
}

/* The interval before the runs model: Welch on the round medians of all runs of a side pooled. */
static int pooled_interval(const struct trial_runs *t, struct stats_diff *d)
{
	double xa[12 * 8], xb[12 * 8];
	size_t na = 0, nb = 0;

	for (size_t i = 0; i < t->na; i++)
		for (size_t k = 0; k < t->a[i]->probes[0].n_rounds; k++)
			xa[na++] = t->a[i]->probes[0].rounds[k].median;
	for (size_t i = 0; i < t->nb; i++)
		for (size_t k = 0; k < t->b[i]->probes[0].n_rounds; k++)
			xb[nb++] = t->b[i]->probes[0].rounds[k].median;
	return stats_welch_diff(xa, na, xb, nb, d);
}

/*
 * Which one-run-a-side probes are judged (docs/method.md, "Not judged"):
 * Bochs lane runs of a one-vCPU probe, the interval widened by the lanes'
 * spread; not QEMU lanes, not two-vCPU probes, not a floor on an emulated
 * host.
 */
static void test_judging(void)
{
	struct result_file *a = load(slane_a_path), *b = load(slane_b_path);
	struct result_file *na = load(slow_a_path), *nb = load(slow_b_path);
	struct result_file *qa = load(qlane_a_path), *qb = load(qlane_b_path);
	struct compare_result *cr = NULL, *plain = NULL;
	const struct compare_probe *p, *q;
	const double spread = LANE_SPREAD_1VCPU_PCT / 100;
	uint64_t st = 4242;
	json_t *doc;

	if (!a || !b || !na || !nb || !qa || !qb) {
		tap_skip(12, "lane fixtures did not load");
		goto out;
	}
	cr = compare_results(a, b, NULL, NULL);
	plain = compare_results(na, nb, NULL, NULL);
	p = cr ? find(cr, "slow_probe") : NULL;
	q = plain ? find(plain, "slow_probe") : NULL;
	ok(p && q && p->verdict == COMPARE_SLOWER && p->r2r == COMPARE_R2R_LANE &&
	   q->verdict == COMPARE_UNJUDGED && q->by_interval == COMPARE_SLOWER &&
	   q->r2r == COMPARE_R2R_NONE && !compare_regressed(plain) && compare_regressed(cr),
	   "the same samples: slower in Bochs lane runs (r2r lane), not judged as native runs");
	ok(p && q && fabs(p->d.lo - (q->d.lo - spread * p->d.median_b)) < 1e-9 &&
	   fabs(p->d.hi - (q->d.hi + spread * p->d.median_b)) < 1e-9 && p->d.diff == q->d.diff,
	   "lane: each end of the interval moved out by %.2f%% of the larger figure", 100 * spread);
	ok(cr && cr->n_r2r_lane == 1 && cr->r2r_note && strstr(cr->r2r_note, "Bochs lane runs") &&
	   !strstr(cr->r2r_note, "not judged"), "lane: the note says how the interval stands for it");
	ok(plain && plain->n_not_judged == 1 && plain->method_note &&
	   strstr(plain->method_note, "not judged"),
	   "native, one run a side (no rounds): not judged, the batches note says so");
	doc = cr ? compare_result_json(cr) : NULL;
	ok(doc && !strcmp(fixture_str(json_array_get(json_object_get(doc, "probes"), 0), "run_to_run"),
			  "lane") &&
	   fixture_num(json_array_get(json_object_get(doc, "probes"), 0), "lane_spread_pct") ==
	   LANE_SPREAD_1VCPU_PCT && json_integer_value(json_object_get(doc, "schema_version")) == 7,
	   "--json: run_to_run lane, lane_spread_pct, schema version 7");
	json_decref(doc);
	doc = plain ? compare_result_json(plain) : NULL;
	ok(doc && !strcmp(fixture_str(json_array_get(json_object_get(doc, "probes"), 0), "verdict"),
			  "not judged") &&
	   json_integer_value(json_object_get(json_object_get(doc, "summary"), "not_judged")) == 1 &&
	   json_is_false(json_object_get(doc, "regression")),
	   "--json: verdict \"not judged\", summary.not_judged, no regression");
	json_decref(doc);
	compare_free(cr);
	compare_free(plain);

	/* A second vCPU on one side: not the lanes' one-vCPU spread. */
	b->probes[0].cpus[0] = 2;
	b->probes[0].cpus[1] = 3;
	cr = compare_results(a, b, NULL, NULL);
	p = cr ? find(cr, "slow_probe") : NULL;
	ok(p && p->verdict == COMPARE_UNJUDGED && p->r2r == COMPARE_R2R_NONE,
	   "Bochs lane, a two-vCPU probe: not judged");
	compare_free(cr);
	b->probes[0].cpus[0] = b->probes[0].cpus[1] = -1;
	b->probes[0].peer_wait_ms = 0.5;
	cr = compare_results(a, b, NULL, NULL);
	p = cr ? find(cr, "slow_probe") : NULL;
	ok(p && p->verdict == COMPARE_UNJUDGED, "Bochs lane, a probe with peer_wait_ms: not judged");
	compare_free(cr);
	cr = compare_results(qa, qb, NULL, NULL);
	p = cr ? find(cr, "slow_probe") : NULL;
	ok(p && p->verdict == COMPARE_UNJUDGED && p->r2r == COMPARE_R2R_NONE,
	   "QEMU lane runs: not judged");
	compare_free(cr);
	cr = compare_results(a, qb, NULL, NULL);
	p = cr ? find(cr, "slow_probe") : NULL;
	ok(p && p->verdict == COMPARE_UNJUDGED, "a Bochs side against a QEMU side: not judged");
	compare_free(cr);
	cr = NULL;

	/* A floor: judged on a native host, not where a side's guest code was emulated. */
	{
		const struct synth_probe sp = { "p", 1000, 0.015, 0.03 };
		struct result_file *cal[10] = { 0 };
		struct trial_runs tr = { 0 };
		struct noise_floor nf;
		struct compare_result *with = NULL;
		int bad = draw_sides(&tr, 1, 1, 1000, 2000, 0.015, 0.03, &st);

		for (size_t i = 0; i < 10; i++)
			bad |= !(cal[i] = synth_run(&sp, 1, 3, 8, "6.1.0", "Xeon", "0.1.0", &st));
		bad = bad || noise_estimate((const struct result_file *const *)cal, 10, &nf, NULL);
		if (!bad) {
			plain = compare_sides(&tr, &nf);
			tr.b[0]->host.exec_mode = EXEC_EMULATED;
			with = compare_sides(&tr, &nf);
			noise_release(&nf);
		}
		ok(plain && plain->probes[0].r2r == COMPARE_R2R_FLOOR &&
		   plain->probes[0].verdict == COMPARE_SLOWER,
		   "a floor, native, one run a side: judged (%s)",
		   plain ? compare_verdict_names[plain->probes[0].verdict] : "-");
		ok(with && with->probes[0].r2r == COMPARE_R2R_FLOOR &&
		   with->probes[0].verdict == COMPARE_UNJUDGED &&
		   with->probes[0].by_interval == COMPARE_SLOWER && with->n_floor_emulated == 1 &&
		   with->r2r_note &&
		   strstr(with->r2r_note, "docs/benchmark.md") && !strstr(with->r2r_note, "--noise FILE"),
		   "a floor, a side emulated, one run a side: not judged (%s), said in the note",
		   with ? compare_verdict_names[with->probes[0].verdict] : "-");
		compare_free(plain);
		compare_free(with);
		plain = NULL;
		free_files(cal, 10);
		free_sides(&tr);
	}
out:
	result_free(a);
	result_free(b);
	result_free(na);
	result_free(nb);
	result_free(qa);
	result_free(qb);
}

static bool misses(const struct stats_diff *d, double truth)
{
	return !(d->lo <= truth && truth <= d->hi);
}

/* compare's verdict rule (threshold 2%) on an interval. */
static bool called_change(const struct stats_diff *d)
{
	return (d->lo > 0 || d->hi < 0) && fabs(100 * d->diff / d->median_a) >= COMPARE_THRESHOLD_PCT;
}

/*
 * A/A, three runs a side: run offsets sb = 1.5%, round noise sw = 3%, 3..8
 * rounds a run (the adaptive stop; the runs model weighs each run once).
 * The pooled interval takes the rounds of three runs for independent
 * draws: its SE^2 is about (sb^2 + sw^2) / 16.5 against the true sb^2 / 3
 * + sw^2 E[1/R] / 3, so it misses far more than 5%.
 */
static void test_runs_coverage(void)
{
	unsigned old_miss = 0, old_false = 0, new_miss = 0, new_false = 0, runs_model = 0, t;
	uint64_t st = 2020;

	for (t = 0; t < TRIALS; t++) {
		struct trial_runs tr = { 0 };
		struct compare_result *cr;
		struct stats_diff d;

		if (draw_sides(&tr, 3, 3, 1000, 1000, 0.015, 0.03, &st) || !(cr = compare_sides(&tr, NULL)) ||
		    pooled_interval(&tr, &d)) {
			free_sides(&tr);
			break;
		}
		runs_model += cr->probes[0].method == COMPARE_METHOD_RUNS &&
			      cr->probes[0].r2r == COMPARE_R2R_RUNS;
		new_miss += misses(&cr->probes[0].d, 0);
		new_false += cr->n_faster + cr->n_slower;
		old_miss += misses(&d, 0);
		old_false += called_change(&d);
		compare_free(cr);
		free_sides(&tr);
	}
	ok(t == TRIALS && runs_model == TRIALS, "3 runs a side: every probe by the runs model (%u of %u)",
	   runs_model, t);
	ok(old_miss > MISS_BOUND, "A/A, 3 runs a side, sb 1.5%%: the pooled-rounds interval misses 0 in "
	   "%u of %u (%.1f%%; above the bound %u: under-covers), %u false verdicts", old_miss, t,
	   100.0 * old_miss / TRIALS, MISS_BOUND, old_false);
	ok(new_miss <= MISS_BOUND, "A/A, 3 runs a side: the runs-model interval misses 0 in %u of %u "
	   "(%.1f%%, at most %u: covers 95%%)", new_miss, t, 100.0 * new_miss / TRIALS, MISS_BOUND);
	ok(new_false <= MISS_BOUND && new_false < old_false, "A/A, 3 runs a side: %u false verdicts "
	   "(%.1f%%) against %u pooled", new_false, 100.0 * new_false / TRIALS, old_false);
}

/*
 * A real difference found with three runs a side at realistic noise: run
 * offsets sb = 1%, round noise sw = 3%, 3..8 rounds. A run mean then
 * varies by sqrt(1e-4 + 9e-4 x E[1/R]) = 1.68% (E[1/R] = 0.203 for R
 * uniform on 3..8), inside the 0.85-2.2% run-to-run SD measured on the
 * EPYC host (a range of 2.6-6.7% over 10 runs). The difference's
 * SE is 1.68% x sqrt(2/3) = 1.37%, Welch df about 4 (t 2.78): the
 * expected half width is 3.8%. A 10% change is 4.5 SE beyond that and
 * must be found nearly always (bound: 9 in 10); a 5% change is beyond the
 * expected half width, so a majority must be (bound: half).
 */
static void test_runs_power(void)
{
	static const double eff[] = { 0.05, 0.10 }, need[] = { 0.5, 0.9 };
	uint64_t st = 77;

	for (size_t e = 0; e < 2; e++) {
		unsigned slower = 0, faster = 0, t;

		for (t = 0; t < TRIALS / 2; t++) {
			struct trial_runs tr = { 0 };
			struct compare_result *cr;

			if (draw_sides(&tr, 3, 3, 1000, 1000 * (1 + eff[e]), 0.01, 0.03, &st) ||
			    !(cr = compare_sides(&tr, NULL))) {
				free_sides(&tr);
				break;
			}
			slower += cr->n_slower;
			faster += cr->n_faster;
			compare_free(cr);
			free_sides(&tr);
		}
		ok(t == TRIALS / 2 && slower >= need[e] * t && faster == 0, "%.0f%% slower, 3 runs a "
		   "side, sb 1%%, sw 3%%: called slower in %u of %u (%.1f%%, at least %.0f%%), faster in %u",
		   100 * eff[e], slower, t, 100.0 * slower / t, 100 * need[e], faster);
	}
}

/*
 * One run a side with a known between-run SD (sb 1.5%, sw 3%, 3..8 rounds)
 * and, per trial, a floor estimated from K fresh synthetic runs of the same
 * host (noise_estimate): without the floor the interval misses as the
 * pooled one does; with it, it covers. K = 10 and 5 are asserted; K = 3
 * (the least the estimator takes) is reported: its floor has few degrees
 * of freedom and its Satterthwaite df is an approximation there.
 */
static void test_floor_coverage(void)
{
	static const size_t ks[] = { 10, 5, 3 };
	const struct synth_probe sp = { "p", 1000, 0.015, 0.03 };
	uint64_t st = 31337;

	for (size_t ki = 0; ki < 3; ki++) {
		unsigned plain_miss = 0, floor_miss = 0, floored = 0, t;

		for (t = 0; t < TRIALS; t++) {
			struct result_file *cal[10] = { 0 };
			struct trial_runs tr = { 0 };
			struct compare_result *plain = NULL, *with = NULL;
			struct noise_floor nf;
			int bad = draw_sides(&tr, 1, 1, 1000, 1000, 0.015, 0.03, &st);

			for (size_t i = 0; i < ks[ki]; i++)
				bad |= !(cal[i] = synth_run(&sp, 1, 3, 8, "6.1.0", "Xeon", "0.1.0", &st));
			bad = bad || noise_estimate((const struct result_file *const *)cal, ks[ki], &nf, NULL);
			if (!bad) {
				plain = compare_sides(&tr, NULL);
				with = compare_sides(&tr, &nf);
				noise_release(&nf);
			}
			if (plain && with) {
				plain_miss += misses(&plain->probes[0].d, 0);
				floor_miss += misses(&with->probes[0].d, 0);
				floored += with->probes[0].r2r == COMPARE_R2R_FLOOR &&
					   with->probes[0].floor && !with->r2r_note;
			}
			compare_free(plain);
			compare_free(with);
			free_files(cal, ks[ki]);
			free_sides(&tr);
			if (!plain || !with)
				break;
		}
		if (ks[ki] == 10)
			ok(t == TRIALS && plain_miss > MISS_BOUND, "A/A, 1 run a side, sb 1.5%%, no floor: "
			   "misses 0 in %u of %u (%.1f%%; under-covers)", plain_miss, t,
			   100.0 * plain_miss / TRIALS);
		if (ks[ki] == 3) {
			diag("floor of K = 3 runs: misses 0 in %u of %u (%.1f%%)", floor_miss, t,
			     100.0 * floor_miss / TRIALS);
			continue;
		}
		ok(t == TRIALS && floored == TRIALS && floor_miss <= MISS_BOUND, "A/A, 1 run a side, "
		   "floor of K = %zu runs: misses 0 in %u of %u (%.1f%%, at most %u: covers 95%%)",
		   ks[ki], floor_miss, t, 100.0 * floor_miss / TRIALS, MISS_BOUND);
	}
}

/* The within-run SE^2 of the mean of the run means of probe "p" in rf[0..n-1]. */
static double within_se2(struct result_file *const *rf, size_t n)
{
	struct stats_run r[12];
	double x[12][8];
	struct stats_side sd;

	for (size_t i = 0; i < n; i++) {
		r[i].n = rf[i]->probes[0].n_rounds;
		r[i].x = x[i];
		for (size_t k = 0; k < r[i].n; k++)
			x[i][k] = rf[i]->probes[0].rounds[k].median;
	}
	return stats_side_within(r, n, &sd) ? NAN : sd.se2.var;
}

/*
 * A side of one run against a side of three: without a floor the one-run
 * side is estimated by its rounds and the interval says it lacks that
 * side's run-to-run variation; with a floor both sides are (rounds + the
 * floor), and nothing is said.
 */
static void test_mixed_sides(void)
{
	const struct synth_probe sp = { "p", 1000, 0.01, 0.02 };
	struct result_file *cal[5] = { 0 };
	struct trial_runs tr = { 0 };
	struct compare_result *cr = NULL, *cf = NULL;
	struct noise_floor nf;
	uint64_t st = 5;
	int bad = draw_sides(&tr, 1, 3, 1000, 1000, 0.01, 0.02, &st), have_floor = 0;

	for (size_t i = 0; i < 5; i++)
		bad |= !(cal[i] = synth_run(&sp, 1, 3, 8, "6.1.0", "Xeon", "0.1.0", &st));
	if (!bad && !noise_estimate((const struct result_file *const *)cal, 5, &nf, NULL)) {
		have_floor = 1;
		cr = compare_sides(&tr, NULL);
		cf = compare_sides(&tr, &nf);
	}
	ok(cr && cr->probes[0].method == COMPARE_METHOD_ROUNDS &&
	   cr->probes[0].method_a == COMPARE_METHOD_ROUNDS && cr->probes[0].method_b == COMPARE_METHOD_RUNS &&
	   cr->probes[0].r2r == COMPARE_R2R_PARTIAL && cr->probes[0].runs_a == 1 && cr->probes[0].runs_b == 3,
	   "1 run against 3: base by its rounds, new by its run means, run-to-run 'partial'");
	ok(cr && cr->r2r_note && strstr(cr->r2r_note, "the interval of 1 probe (p) lacks the variation "
					"from one run to the next of a side measured by one run"),
	   "1 run against 3: the note names the probe");
	ok(cf && cf->probes[0].method_a == COMPARE_METHOD_ROUNDS &&
	   cf->probes[0].method_b == COMPARE_METHOD_ROUNDS && cf->probes[0].floor &&
	   cf->probes[0].r2r == COMPARE_R2R_FLOOR && !cf->r2r_note && cf->n_floor == 1,
	   "with a floor: both sides by rounds + the floor, no note");
	/*
	 * SE^2 with the floor = each side's within-run part (stats_side_within
	 * on its runs' round medians) + (rel SD x figure)^2 / runs per side.
	 */
	if (cf && cf->probes[0].floor) {
		const struct compare_probe *p = &cf->probes[0];
		double fa = p->floor_sd_rel * p->d.median_a, fb = p->floor_sd_rel * p->d.median_b;
		double want = within_se2(tr.a, 1) + within_se2(tr.b, 3) + fa * fa + fb * fb / 3;

		ok(fabs(p->se * p->se - want) < 1e-9 * want, "SE^2 %.4f = within parts + the floor's "
		   "(%.4f relative) per side / runs: %.4f", p->se * p->se, p->floor_sd_rel, want);
	} else {
		ok(0, "no comparison with the floor");
	}
	if (have_floor)
		noise_release(&nf);
	compare_free(cr);
	compare_free(cf);
	free_files(cal, 5);
	free_sides(&tr);
}

static int has_line(const char *out, const char *a, const char *b)
{
	const char *p = out;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, len);
		int hit = strstr(line, a) && (!b || strstr(line, b));

		free(line);
		if (hit)
			return 1;
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

static int run(struct run_result *r, const char *a1, const char *a2, const char *a3,
	       const char *a4, const char *a5)
{
	const char *argv[] = { getenv("EXITSCOPE"), "compare", a1, a2, a3, a4, a5, NULL };

	return run_cmd(r, argv);
}

/* Is field listed among cr's host differences with these values? */
static bool host_diff(const struct compare_result *cr, const char *field, const char *a, const char *b)
{
	for (size_t i = 0; i < cr->n_host; i++)
		if (!strcmp(cr->host[i].field, field))
			return !strcmp(cr->host[i].a, a) && !strcmp(cr->host[i].b, b);
	return false;
}

/* How each run measured: differences are listed, a different guest XCR0 is a warning. */
static void test_settings(void)
{
	struct result_file *a = load(slow_a_path), *b = load(slow_b_path), *x = load(xcr0_path);
	struct compare_result *cr = NULL, *cx = NULL;
	struct err err;
	bool warned = false;

	if (a && b)
		cr = compare_results(a, b, NULL, &err);
	ok(cr && cr->n_host == 0 && cr->n_warnings == 0, "same settings: nothing to say");
	if (a && x)
		cx = compare_results(a, x, NULL, &err);
	ok(cx && cx->n_host == 3 && host_diff(cx, "settings.samples", "15", "5") &&
	   host_diff(cx, "settings.guest_xcr0", "(unset)", "0x3") &&
	   host_diff(cx, "settings.time_budget_s", "1.5", "(unset)"),
	   "samples 15 -> 5, guest_xcr0 (unset) -> 0x3, time_budget_s 1.5 -> (unset) listed");
	for (size_t i = 0; cx && i < cx->n_warnings; i++)
		warned |= strstr(cx->warnings[i], "different guest XCR0") != NULL;
	ok(warned, "a different guest XCR0 is a warning");
	compare_free(cr);
	compare_free(cx);
	result_free(a);
	result_free(b);
	result_free(x);
}

/* Set a loaded run's pinned CPU (one) and, cmd non-NULL, the command line it records. */
static void pin(struct result_file *rf, long long cpu, const char **cmd, size_t n)
{
	rf->settings.present = 1;
	rf->settings.cpus[0] = cpu;
	rf->settings.n_cpus = 1;
	if (cmd) {
		free(rf->command);
		rf->command = malloc(n * sizeof(*rf->command));
		memcpy(rf->command, cmd, n * sizeof(*rf->command));
		rf->n_command = n;
	}
}

/*
 * The vCPU thread's CPU: picked by exitscope on both sides (no --cpu in the
 * command lines) it is no host difference; asked for on a side it is, and
 * each value says which it was.
 */
static void test_settings_cpus(void)
{
	static const char *run_cmd_plain[] = { "exitscope", "run", "--json", "a.json" };
	static const char *run_cmd_cpu[] = { "exitscope", "run", "--cpu", "2", "--json", "a.json" };
	static const char *run_cmd_eq[] = { "exitscope", "run", "--cpu=3" };
	struct result_file *a = load(slow_a_path), *b = load(slow_b_path);
	struct compare_result *cr;
	struct err err;

	if (!a || !b) {
		tap_skip(5, "files did not load");
		goto out;
	}
	pin(a, 1, run_cmd_plain, 4);
	pin(b, 0, NULL, 0);	/* the fixture's command: exitscope run */
	cr = compare_results(a, b, NULL, &err);
	ok(cr && cr->n_host == 0, "CPUs picked by exitscope on both sides: no host difference");
	ok(cr && has_warning(cr, "note: exitscope picked the vCPU thread's CPU on both sides (1, 0"),
	   "a note says the picks differ and why that is none");
	compare_free(cr);
	pin(a, 2, run_cmd_cpu, 6);
	cr = compare_results(a, b, NULL, &err);
	ok(cr && host_diff(cr, "settings.cpus", "2 (--cpu)", "0 (picked)"),
	   "asked for on the base side, picked on the new: a difference, each side says which");
	compare_free(cr);
	pin(b, 3, run_cmd_eq, 3);
	cr = compare_results(a, b, NULL, &err);
	ok(cr && host_diff(cr, "settings.cpus", "2 (--cpu)", "3 (--cpu)"),
	   "asked for on both sides (--cpu N, --cpu=N): a difference");
	compare_free(cr);
	free(a->command);
	free(b->command);
	a->command = b->command = NULL;
	a->n_command = b->n_command = 0;
	cr = compare_results(a, b, NULL, &err);
	ok(cr && host_diff(cr, "settings.cpus", "2", "3"),
	   "no command line recorded: listed as it is (not known to be a pick)");
	compare_free(cr);
out:
	result_free(a);
	result_free(b);
}

/* Lane runs: the same release under another patch series is a host difference. */
static void test_lanes(void)
{
	struct result_file *a = load(lane_a_path), *b = load(lane_b_path);
	struct compare_result *cr = NULL;
	struct err err;

	if (a && b)
		cr = compare_results(a, b, NULL, &err);
	ok(cr && cr->n_host == 1 && !strcmp(cr->host[0].field, "lane.kernel.patches") &&
	   !strcmp(cr->host[0].a, "(none)") && !strcmp(cr->host[0].b, "s/0001-a.patch s/0002-b.patch"),
	   "lane kernels: the patch series is the one host difference");
	compare_free(cr);
	if (a)
		cr = compare_results(a, a, NULL, &err);
	ok(cr && cr->n_host == 0, "the same lane kernel: no host difference");
	compare_free(cr);
	result_free(a);
	result_free(b);

	/* Another version of the kernel source; then the emulator's patches. */
	a = load(src_a_path);
	b = load(src_b_path);
	cr = a && b ? compare_results(a, b, NULL, &err) : NULL;
	ok(cr && cr->n_host == 1 && !strcmp(cr->host[0].field, "lane.kernel.source") &&
	   !strcmp(cr->host[0].a, "linux-source-7.2 7.2.11-1~bpo13+1 sha256 1111222233334444") &&
	   !strcmp(cr->host[0].b, "linux-source-7.2 7.2.12-1~bpo13+1 sha256 dd8cf7080e709d05"),
	   "lane kernels: a changed source version is the one host difference (%s: %s -> %s)",
	   cr && cr->n_host ? cr->host[0].field : "-", cr && cr->n_host ? cr->host[0].a : "-",
	   cr && cr->n_host ? cr->host[0].b : "-");
	compare_free(cr);
	result_free(a);
	a = load(src_c_path);
	cr = a && b ? compare_results(b, a, NULL, &err) : NULL;
	ok(cr && cr->n_host == 1 && !strcmp(cr->host[0].field, "lane.emulator_patches") &&
	   !strcmp(cr->host[0].a, "(none)") && !strcmp(cr->host[0].b, "0001-x.patch"),
	   "lanes: the emulator's patches are a host difference");
	compare_free(cr);
	result_free(a);
	a = load(src_d_path);
	cr = a && b ? compare_results(b, a, NULL, &err) : NULL;
	ok(cr && cr->n_host == 1 && !strcmp(cr->host[0].field, "lane.emulator") &&
	   !strcmp(cr->host[0].a, "bochs 3.0") && !strcmp(cr->host[0].b, "bochs 3.0 tigerlake"),
	   "lanes: another emulator or CPU model is a host difference (%s)",
	   cr && cr->n_host ? cr->host[0].field : "-");
	compare_free(cr);
	result_free(a);
	result_free(b);
}

static void test_cli(void)
{
	struct run_result r, r2;
	char json_path[4200];
	json_t *doc;

	if (!getenv("EXITSCOPE") || access(getenv("EXITSCOPE"), X_OK)) {
		tap_skip(47, "EXITSCOPE not set (run through make check)");
		return;
	}
	run(&r, "--help", NULL, NULL, NULL, NULL);
	is_int(r.status, 0, "--help exits 0");
	tap_like(r.out, "usage: exitscope compare", "--help prints usage");
	run_free(&r);

	run(&r, base_path, new_path, "--wide", NULL, NULL);
	is_int(r.status, 0, "compare exits 0");
	ok(has_line(r.out, "kernel: 6.1.0 -> 6.18.44", NULL), "host difference line");
	ok(strstr(r.out, "kernel: 6.1.0") < strstr(r.out, "fast_probe"), "host differences come first");
	/* One run a side, no floor: the rows keep their figures, the verdict is "not judged". */
	ok(has_line(r.out, "fast_probe ", "not judged"), "fast_probe: not judged");
	ok(has_line(r.out, "same_probe ", "not judged"), "same_probe: not judged");
	ok(has_line(r.out, "hand_small ", "not judged"), "hand_small: not judged");
	ok(has_line(r.out, "hand_const ", "[-10.0, -10.0]"), "hand_const: CI [-10.0, -10.0]");
	ok(has_line(r.out, "  toggle_cr4_cet: 2.00 -> 0.00 exits/op (now guest-owned)", NULL),
	   "exits/op change on its own line");
	ok(has_line(r.out, "enter_exit: 0.00 -> 1.00 exits/op (now intercepted)", NULL),
	   "now intercepted");
	ok(has_line(r.out, "host: cr4 bit 23 (CET) toggle: intercepted -> owned", NULL), "map change line");
	ok(has_line(r.out, "flaky: ", "skipped (no PIO port)"), "not-compared probe with reason");
	ok(has_line(r.out, "check status changes:", NULL) &&
	   has_line(r.out, "  xstate/b: skip -> pass", NULL), "check status change line");
	ok(has_line(r.out, "only in ", "old_only"), "only in base listed");
	ok(has_line(r.out, "only in ", "new_only"), "only in new listed");
	ok(has_line(r.out, "summary: 0 faster, 0 slower, 0 no significant change, 0 too noisy, 6 not "
		    "judged, 1 not compared", NULL), "summary line");
	run_free(&r);

	run(&r, base_path, new_path, "--seed", "7", NULL);
	run(&r2, "--seed", "7", base_path, new_path, NULL);
	ok(r.status == 0 && strcmp(r.out, r2.out) == 0, "same --seed, same output (options anywhere)");
	run_free(&r);
	run_free(&r2);

	/* Bochs lane runs, one boot a side: judged, the interval widened by the lanes' spread. */
	run(&r, slane_a_path, slane_b_path, NULL, NULL, NULL);
	ok(r.status == 0 && has_line(r.out, "slow_probe ", "slower"), "10%% regression: slower, exit 0");
	run_free(&r);
	run(&r, slane_a_path, slane_b_path, "--fail-on-regression", NULL, NULL);
	is_int(r.status, 1, "--fail-on-regression: exit 1");
	run_free(&r);
	run(&r, slane_a_path, slane_b_path, "--fail-on-regression", "--threshold", "50");
	is_int(r.status, 0, "--threshold 50: 10%% is no regression, exit 0");
	run_free(&r);
	run(&r, slane_b_path, slane_a_path, "--fail-on-regression", NULL, NULL);
	is_int(r.status, 0, "faster is no regression, exit 0");
	run_free(&r);
	/* The same change, one native run a side: not judged, and so no regression. */
	run(&r, slow_a_path, slow_b_path, "--fail-on-regression", NULL, NULL);
	ok(r.status == 0 && has_line(r.out, "slow_probe ", "not judged") &&
	   has_line(r.out, "summary: 0 faster, 0 slower, 0 no significant change, 0 too noisy, 1 not "
		    "judged", NULL), "one native run a side: not judged, --fail-on-regression exits 0");
	run_free(&r);
	/* QEMU lanes do not repeat: not judged either. */
	run(&r, qlane_a_path, qlane_b_path, "--fail-on-regression", NULL, NULL);
	ok(r.status == 0 && has_line(r.out, "slow_probe ", "not judged"),
	   "QEMU lane runs, one a side: not judged, exit 0");
	run_free(&r);

	run(&r, user_a_path, user_b_path, NULL, NULL, NULL);
	ok(r.status == 0 && has_line(r.out, "  pio_to_user: 1.00 -> 0.00 user_io/op", NULL) &&
	   !has_line(r.out, "mmio_to_user:", "user_mmio"), "CLI: user_io/op change line, no drift line");
	run_free(&r);

	run(&r, slow_a_path, emu_path, NULL, NULL, NULL);
	ok(r.status == 0 && has_line(r.out, "WARNING: execution modes differ", NULL),
	   "native vs emulated: loud warning");
	ok(has_line(r.out, "WARNING: CPUs differ", NULL), "different CPUs: loud warning");
	run_free(&r);

	snprintf(json_path, sizeof(json_path), "%s/cmp.json", tmp);
	run(&r, base_path, new_path, "--json", json_path, NULL);
	doc = json_load_file(json_path, 0, NULL);
	ok(r.status == 0 && doc && json_is_false(json_object_get(doc, "regression")) &&
	   json_array_size(json_object_get(doc, "probes")) == 7, "--json writes the comparison");
	{
		json_t *m = json_array_get(json_object_get(doc, "map_changes"), 0);
		json_t *c = json_array_get(json_object_get(doc, "check_changes"), 2);
		json_t *p = json_array_get(json_object_get(doc, "probes"), 2);	/* toggle_cr4_cet */

		ok(m && json_real_value(json_object_get(m, "base_cycles_per_op")) == 2020 &&
		   json_real_value(json_object_get(m, "new_exits_per_op")) == 0,
		   "--json: map change with exits/op and cycles/op of both sides");
		ok(json_is_true(json_object_get(doc, "checks_compared")) &&
		   json_array_size(json_object_get(doc, "check_changes")) == 3 && c &&
		   !strcmp(json_string_value(json_object_get(c, "base")) ?: "", "skip") &&
		   !strcmp(json_string_value(json_object_get(c, "new")) ?: "", "pass"),
		   "--json: check_changes, xstate/b skip -> pass");
		ok(p && !strcmp(json_string_value(json_object_get(p, "name")) ?: "", "toggle_cr4_cet") &&
		   json_real_value(json_object_get(json_object_get(p, "base_per_op"), "exits")) == 2 &&
		   json_real_value(json_object_get(json_object_get(p, "new_per_op"), "exits")) == 0,
		   "--json: per-op counters of both sides per probe");
	}
	json_decref(doc);
	run_free(&r);
	run(&r, base_path, new_path, "--json", "-", NULL);
	doc = json_loads(r.out, 0, NULL);
	ok(r.status == 0 && doc && json_array_size(json_object_get(doc, "only_in_new")) == 1,
	   "--json -: stdout is the JSON document alone");
	json_decref(doc);
	run_free(&r);

	run(&r, base_path, NULL, NULL, NULL, NULL);
	ok(r.status == 2 && strstr(r.err, "exitscope compare: need two result files") == r.err,
	   "one file: exit 2, says what is missing");
	run_free(&r);
	run(&r, base_path, new_path, base_path, NULL, NULL);
	is_int(r.status, 2, "three files: exit 2");
	run_free(&r);
	run(&r, base_path, new_path, "--threshold", "abc", NULL);
	is_int(r.status, 2, "bad --threshold: exit 2");
	run_free(&r);
	run(&r, base_path, new_path, "--bogus", NULL, NULL);
	is_int(r.status, 2, "unknown option: exit 2");
	run_free(&r);

	/* Several runs per side. */
	{
		const char *argv[] = { getenv("EXITSCOPE"), "compare", "--wide", aa1_path, aa2_path, "--",
				       aa3_path, aa4_path, NULL };

		run_cmd(&r, argv);
	}
	ok(r.status == 0 && has_line(r.out, "(2 base runs, 2 new runs)", NULL) &&
	   has_line(r.out, "drifty ", "runs         2/2   no significant change") &&
	   has_line(r.out, "model: runs = a side's variance from the spread of its run means", NULL) &&
	   !has_line(r.out, "note: one run per side", NULL),
	   "A1 A2 -- B1 B2: the runs model, 2/2 runs, no significant change, no one-run note");
	run_free(&r);
	run(&r, slane_a_path, "--", slane_b_path, "--fail-on-regression", NULL);
	is_int(r.status, 1, "options after the '--' still count (--fail-on-regression: exit 1)");
	run_free(&r);
	run(&r, wild_a_path, wild_b_path, "--fail-on-regression", "--wide", NULL);
	ok(r.status == 0 && has_line(r.out, "drifty ", "too noisy (could detect >= ") &&
	   has_line(r.out, "summary: ", "1 too noisy"), "too noisy: says what could be detected, exit 0");
	run_free(&r);
	run(&r, wild_a_path, wild_b_path, "--json", "-", NULL);
	doc = json_loads(r.out, 0, NULL);
	{
		json_t *p = json_array_get(json_object_get(doc, "probes"), 0);

		ok(doc && !strcmp(json_string_value(json_object_get(p, "verdict")) ?: "", "too noisy") &&
		   json_real_value(json_object_get(p, "min_detectable_pct")) > 2 &&
		   !strcmp(json_string_value(json_object_get(p, "method")) ?: "", "rounds") &&
		   !strcmp(json_string_value(json_object_get(p, "base_stop")) ?: "", "budget") &&
		   json_integer_value(json_object_get(json_object_get(doc, "summary"), "too_noisy")) == 1 &&
		   json_is_false(json_object_get(doc, "regression")) &&
		   json_integer_value(json_object_get(doc, "schema_version")) == COMPARE_SCHEMA_VERSION,
		   "--json: verdict 'too noisy', min_detectable_pct, method, stop, summary, no regression");
	}
	json_decref(doc);
	run_free(&r);
	run(&r, flat_a_path, flat_b_path, "--wide", NULL, NULL);
	ok(r.status == 0 && has_line(r.out, "note: fewer than 2 rounds on a side", "run-to-run variance"),
	   "v1 files: the note says run-to-run variance is not seen");
	run_free(&r);
	/* Another run of the same samples (its own start): pooled with the first. */
	doc = json_load_file(base_path, 0, NULL);
	json_object_set_new(doc, "started", json_string("2026-11-30T02:00:00Z"));
	snprintf(json_path, sizeof(json_path), "%s", fixture_write(tmp, "base-again.json", doc));
	json_decref(doc);
	run(&r, base_path, json_path, "--", new_path, "--wide");
	ok(r.status == 0 && has_line(r.out, "hand_const ", "[-10.0, -10.0]"),
	   "v1 files pooled: hand_const still -10 exactly");
	run_free(&r);

	run(&r, aa1_path, aa2_path, aa3_path, NULL, NULL);
	ok(r.status == 2 && strstr(r.err, "exitscope compare: 3 files without '--'") == r.err,
	   "3 files without '--': exit 2, one line");
	run_free(&r);
	run(&r, aa1_path, aa2_path, "--", NULL, NULL);
	ok(r.status == 2 && strstr(r.err, "exitscope compare: no new files after '--'") == r.err,
	   "empty new side: exit 2");
	run_free(&r);
	run(&r, "--", aa1_path, NULL, NULL, NULL);
	ok(r.status == 2 && strstr(r.err, "exitscope compare: no base files before '--'") == r.err,
	   "empty base side: exit 2");
	run_free(&r);
	run(&r, aa1_path, "--", aa2_path, "--", aa3_path);
	ok(r.status == 2 && strstr(r.err, "more than one '--'"), "two '--': exit 2");
	run_free(&r);
	run(&r, aa1_path, "--", aa2_path, "/no/such.json", NULL);
	ok(r.status == 2 && strstr(r.err, "/no/such.json"), "an unreadable file of a side: exit 2, named");
	run_free(&r);
}


/* stderr is exactly one line. */
static bool one_line(const char *err)
{
	const char *nl = strchr(err, '\n');

	return nl && nl[1] == '\0';
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* --noise and the bad input around it, through the binary. */
static void test_cli_noise(void)
{
	char want[8192];
	struct run_result r;
	json_t *doc, *p;

	if (!getenv("EXITSCOPE") || access(getenv("EXITSCOPE"), X_OK) || access(noise_path, R_OK)) {
		tap_skip(17, "EXITSCOPE not set (run through make check) or no floor written");
		return;
	}
	run(&r, nrun_path[0], nrun_path[1], "--noise", noise_path, "--wide");
	snprintf(want, sizeof(want), "noise floor: %s: 5 runs by exitscope 0.1.0 on Xeon (kvm_intel, "
		 "native), kernel 6.1.0, measured 2026-11-30T01:38:25Z to 2026-11-30T01:39:02Z; in the "
		 "interval of 1 of 1 probes compared by rounds", noise_path);
	ok(r.status == 0 && has_line(r.out, want, NULL), "--noise: the floor used: file, runs, version, "
	   "host, kernel, when");
	ok(has_line(r.out, "drifty ", "rounds+floor 1/1") && !strstr(r.out, "note: one run per side") &&
	   has_line(r.out, "+floor = and the noise floor's between-run variance", NULL),
	   "--noise: model rounds+floor, no one-run note");
	run_free(&r);
	run(&r, nrun_path[0], nrun_path[1], "--noise", noise_path, "--json");
	run_free(&r);
	{
		const char *argv[] = { getenv("EXITSCOPE"), "compare", nrun_path[0], nrun_path[1], "--noise",
				       noise_path, "--json", "-", NULL };

		run_cmd(&r, argv);
	}
	doc = json_loads(r.out, 0, NULL);
	p = json_array_get(json_object_get(doc, "probes"), 0);
	ok(doc && json_integer_value(json_object_get(doc, "schema_version")) == COMPARE_SCHEMA_VERSION &&
	   !strcmp(fixture_str(json_object_get(doc, "noise"), "file"), noise_path) &&
	   fixture_num(json_object_get(doc, "noise"), "runs") == 5 &&
	   json_is_null(json_object_get(doc, "run_to_run_note")) &&
	   !strcmp(fixture_str(p, "run_to_run"), "floor") && json_is_true(json_object_get(p, "noise_floor")) &&
	   !strcmp(fixture_str(p, "base_model"), "rounds") && fixture_num(p, "floor_sd_rel") >= 0 &&
	   fixture_num(p, "se_cycles") > 0 && fixture_num(p, "floor_df") >= 0,
	   "--json with --noise: this version, noise.file, run_to_run floor, the floor's SD and df");
	json_decref(doc);
	run_free(&r);

	run(&r, nrun_path[0], nrun_path[1], "--wide", NULL, NULL);
	ok(r.status == 0 && count(r.out, "run-to-run") + count(r.out, "one run per side and no noise "
	   "floor: an interval sees the variation between the rounds of its run, not from one run "
	   "(process, boot) to the next") == 1 && has_line(r.out, "or the host's noise floor (--noise FILE)", NULL),
	   "one run a side, no floor: said once, with how to judge");
	run_free(&r);
	{
		const char *argv[] = { getenv("EXITSCOPE"), "compare", nrun_path[0], nrun_path[1], "--json",
				       "-", NULL };

		run_cmd(&r, argv);
	}
	doc = json_loads(r.out, 0, NULL);
	p = json_array_get(json_object_get(doc, "probes"), 0);
	ok(doc && strstr(fixture_str(doc, "run_to_run_note"), "one run per side and no noise floor") &&
	   json_is_null(json_object_get(doc, "noise")) && !strcmp(fixture_str(p, "run_to_run"), "none") &&
	   json_is_false(json_object_get(p, "noise_floor")) &&
	   json_is_null(json_object_get(p, "floor_df")) &&
	   json_is_null(json_object_get(p, "lane_spread_pct")) && fixture_num(p, "df") > 0 &&
	   fixture_num(p, "se_cycles") > 0,
	   "--json, no floor: run_to_run_note, run_to_run none, no floor df nor lane spread");
	json_decref(doc);
	run_free(&r);

	run(&r, nrun_path[0], nrun_path[1], "--noise", noise_epyc, NULL);
	snprintf(want, sizeof(want), "exitscope compare: %s: a floor of another host than %s (CPU EPYC "
		 "(AuthenticAMD family 25 model 1 stepping 1) vs Xeon (GenuineIntel family 6 model 143 "
		 "stepping 8)): measure this host's floor\n", noise_epyc, nrun_path[0]);
	ok(r.status == 2 && !strcmp(r.err, want) && !*r.out, "a floor of another host: exit 2, one line");
	if (strcmp(r.err, want))
		diag("  got %s", r.err);
	run_free(&r);
	run(&r, nrun_path[0], nrun_path[1], "--noise", noise_old, NULL);
	snprintf(want, sizeof(want), "exitscope compare: %s: measured by exitscope 0.0.9, %s by 0.1.0: "
		 "measure the floor with the exitscope of the runs\n", noise_old, nrun_path[0]);
	ok(r.status == 2 && !strcmp(r.err, want), "a floor of another exitscope: exit 2, one line");
	run_free(&r);
	run(&r, nrun_path[0], nrun_path[1], "--noise", noise_trunc, NULL);
	ok(r.status == 2 && one_line(r.err) && strstr(r.err, "noise-trunc.json: truncated JSON at line "),
	   "a floor that does not parse: exit 2, one line (%.60s)", r.err);
	run_free(&r);
	run(&r, nrun_path[0], nrun_path[1], "--noise", nrun_path[2], NULL);
	ok(r.status == 2 && one_line(r.err) && strstr(r.err, "n3.json: schema: \"exitscope-result\": a "
	   "result file, not a noise floor (\"exitscope-noise\")"), "a result file as the floor: exit 2");
	run_free(&r);
	run(&r, nrun_path[0], nrun_path[1], "--noise", noise_v3, NULL);
	ok(r.status == 2 && one_line(r.err) && strstr(r.err, "noise-v3.json: schema_version: unsupported "
	   "version 3 (this exitscope reads 1 to 2)"), "a floor of another schema version: exit 2");
	run_free(&r);
	run(&r, nrun_path[0], nrun_path[1], "--noise", "/no/such/noise.json", NULL);
	ok(r.status == 2 && one_line(r.err) && strstr(r.err, "/no/such/noise.json: cannot open: "),
	   "a floor that is not there: exit 2");
	run_free(&r);
	run(&r, nrun_path[0], v1_path, "--noise", noise_path, NULL);
	snprintf(want, sizeof(want), "exitscope compare: %s: a floor of method v2 runs, %s is of method "
		 "v1: it does not apply\n", noise_path, v1_path);
	ok(r.status == 2 && !strcmp(r.err, want), "a floor for runs of another method: exit 2, one line");
	run_free(&r);
	run(&r, nrun_path[0], nrun_path[1], "--noise", noise_r8, "--wide");
	snprintf(want, sizeof(want), "!!! WARNING: %s's runs were measured with rounds 8, %s with 30: "
		 "its between-run part is added as it was measured", noise_r8, nrun_path[0]);
	ok(r.status == 0 && has_line(r.out, want, NULL) && count(r.out, "'s runs were measured with") == 1 &&
	   has_line(r.out, "drifty ", "rounds+floor"), "a floor of other rounds: compared, one warning");
	run_free(&r);

	run(&r, nrun_path[0], r16_path, NULL, NULL, NULL);
	ok(r.status == 0 && has_line(r.out, "  settings.rounds: 30 -> 16", NULL) &&
	   !has_line(r.out, "WARNING", NULL), "sides of other rounds: listed, compared, no warning");
	run_free(&r);
	run(&r, nrun_path[0], v1_path, NULL, NULL, NULL);
	ok(r.status == 0 && has_line(r.out, "  settings.method: v2 -> v1", NULL) &&
	   has_line(r.out, "!!! WARNING: the runs were measured by different methods", NULL),
	   "sides of other methods: compared with a warning");
	run_free(&r);
	run(&r, nrun_path[0], v1_path, "--", nrun_path[1], NULL);
	ok(r.status == 0 && has_line(r.out, "WARNING: the base runs differ in method", NULL),
	   "a side whose runs differ in method: a warning");
	run_free(&r);
	run(&r, nrun_path[0], nrun_path[1], "--noise", NULL, NULL);
	ok(r.status == 2 && strstr(r.err, "exitscope compare: unknown or incomplete option '--noise'"),
	   "--noise without a file: usage error");
	run_free(&r);
}

/*
 * One run given twice on a side, a copy of it, or the same run on both
 * sides: refused with one line and exit 2 (pooled, it would count as two
 * runs, or be compared with itself).
 */
static void test_cli_same_run(void)
{
	char copy[4200], pid_a[4200], pid_b[4200];
	struct run_result r;
	json_t *doc;

	if (!getenv("EXITSCOPE") || access(getenv("EXITSCOPE"), X_OK)) {
		tap_skip(6, "EXITSCOPE not set (run through make check)");
		return;
	}
	doc = json_load_file(aa1_path, 0, NULL);
	snprintf(copy, sizeof(copy), "%s", fixture_write(tmp, "aa1-copy.json", doc));
	/* The same run (start, end, process) with another note: still that run. */
	json_object_set_new(doc, "pid", json_integer(4242));
	snprintf(pid_a, sizeof(pid_a), "%s", fixture_write(tmp, "pid-a.json", doc));
	json_array_append_new(json_object_get(doc, "warnings"), json_string("edited"));
	snprintf(pid_b, sizeof(pid_b), "%s", fixture_write(tmp, "pid-b.json", doc));
	json_decref(doc);
	{
		const char *argv[] = { getenv("EXITSCOPE"), "compare", aa1_path, aa1_path, aa1_path,
				       "--", aa2_path, aa2_path, aa2_path, NULL };

		run_cmd(&r, argv);
	}
	ok(r.status == 2 && one_line(r.err) && strstr(r.err, "are the same run on the base side") &&
	   !*r.out, "A A A -- B B B: refused, exit 2, one line (%s)", r.err);
	run_free(&r);
	{
		const char *argv[] = { getenv("EXITSCOPE"), "compare", aa1_path, copy, "--", aa2_path,
				       aa3_path, NULL };

		run_cmd(&r, argv);
	}
	ok(r.status == 2 && one_line(r.err) && strstr(r.err, "aa1-copy.json are the same run"),
	   "a copy of a run under another name: refused (%s)", r.err);
	run_free(&r);
	run(&r, aa1_path, copy, NULL, NULL, NULL);
	ok(r.status == 2 && one_line(r.err) && strstr(r.err, "the same run on both sides"),
	   "the same run on both sides: refused (%s)", r.err);
	run_free(&r);
	{
		const char *argv[] = { getenv("EXITSCOPE"), "compare", aa2_path, "--", pid_a, pid_b,
				       NULL };

		run_cmd(&r, argv);
	}
	ok(r.status == 2 && strstr(r.err, "pid-a.json and ") && strstr(r.err, "pid-b.json are the same "
	   "run on the new side"), "same start, end and process, other content: the same run (%s)",
	   r.err);
	run_free(&r);
	{
		const char *argv[] = { getenv("EXITSCOPE"), "compare", aa1_path, aa2_path, "--", aa3_path,
				       aa4_path, NULL };

		run_cmd(&r, argv);
	}
	ok(r.status == 0, "four different runs: compared");
	run_free(&r);
	{
		const char *argv[] = { getenv("EXITSCOPE"), "compare", aa1_path, aa1_path, aa1_path,
				       "--", aa2_path, aa2_path, aa2_path, "--fail-on-regression", NULL };

		run_cmd(&r, argv);
	}
	ok(r.status == 2, "--fail-on-regression does not turn a refused comparison into a verdict");
	run_free(&r);
}

/* A rounds file of probe drifty (seed) whose every round median is med. */
static const char *absurd_file(const char *name, double med, uint64_t seed, char *dst)
{
	json_t *doc = rounds_file(rounds_probe("drifty", 1000, 0.03, 0.02, seed, 1));
	json_t *rounds = json_object_get(json_array_get(json_object_get(doc, "probes"), 0), "rounds");
	size_t i;
	json_t *r;

	json_array_foreach(rounds, i, r)
		json_object_set_new(r, "median", json_real(med * (1 + 0.01 * (double)i)));
	save(dst, name, doc);
	return dst;
}

/* No "inf", "nan" (any case) in s. */
static bool all_finite_text(const char *s)
{
	return !strcasestr(s, "inf") && !strcasestr(s, "nan");
}

/*
 * Round medians of 1e308 (finite, valid in a file): the probe is not
 * compared ("cannot compare: overflow"), in the text, in --json and in the
 * report; no inf or nan anywhere, no verdict.
 */
static void test_cli_overflow(void)
{
	static char big_a[4096], big_b[4096], big_c[4096], fine[4096];
	char json_path[4200], html[4200];
	struct run_result r;
	json_t *doc, *p;
	char *text;

	if (!getenv("EXITSCOPE") || access(getenv("EXITSCOPE"), X_OK)) {
		tap_skip(8, "EXITSCOPE not set (run through make check)");
		return;
	}
	absurd_file("big_a.json", 1e308, 801, big_a);
	absurd_file("big_b.json", 1e308, 802, big_b);
	absurd_file("big_c.json", 1e308, 803, big_c);
	absurd_file("fine.json", 1000, 804, fine);
	run(&r, big_a, big_b, "--fail-on-regression", NULL, NULL);
	ok(r.status == 0 && has_line(r.out, "drifty: cannot compare: overflow", NULL) &&
	   has_line(r.out, "summary: ", "1 not compared") && all_finite_text(r.out),
	   "1e308 round medians on both sides: cannot compare, no inf/nan, exit 0");
	if (!all_finite_text(r.out))
		diag("%s", r.out);
	run_free(&r);
	run(&r, fine, big_a, "--fail-on-regression", NULL, NULL);
	ok(r.status == 0 && has_line(r.out, "drifty: cannot compare: overflow", NULL) &&
	   all_finite_text(r.out), "1000 -> 1e308: cannot compare either (no verdict, exit 0)");
	run_free(&r);
	{
		const char *argv[] = { getenv("EXITSCOPE"), "compare", big_a, big_b, "--", big_c, fine,
				       NULL };

		run_cmd(&r, argv);
	}
	ok(r.status == 0 && has_line(r.out, "drifty: cannot compare: overflow", NULL) &&
	   all_finite_text(r.out), "pooled runs with 1e308: cannot compare");
	run_free(&r);
	snprintf(json_path, sizeof(json_path), "%s/overflow.json", tmp);
	run(&r, big_a, big_b, "--json", json_path, NULL);
	text = NULL;
	doc = json_load_file(json_path, 0, NULL);
	p = json_array_get(json_object_get(doc, "probes"), 0);
	ok(r.status == 0 && doc && !strcmp(fixture_str(p, "verdict"), "not compared") &&
	   strstr(fixture_str(p, "reason"), "cannot compare: overflow") &&
	   json_integer_value(json_object_get(json_object_get(doc, "summary"), "not_compared")) == 1 &&
	   json_is_false(json_object_get(doc, "regression")),
	   "--json: verdict not compared, the reason, summary, no regression");
	if (doc)
		text = json_dumps(doc, 0);
	ok(text && all_finite_text(text), "--json: every value finite");
	free(text);
	json_decref(doc);
	run_free(&r);
	{
		const char *argv[] = { getenv("EXITSCOPE"), "report", big_a, fine, "-o", NULL, NULL };

		snprintf(html, sizeof(html), "%s/overflow.html", tmp);
		argv[5] = html;
		run_cmd(&r, argv);
	}
	text = NULL;
	{
		FILE *f = fopen(html, "r");

		if (f) {
			size_t len = 0;

			text = calloc(1, 1 << 22);
			if (text)
				len = fread(text, 1, (1 << 22) - 1, f);
			(void)len;
			fclose(f);
		}
	}
	ok(r.status == 0 && text && strstr(text, "cannot compare: overflow"),
	   "report: the comparison says cannot compare (%d)", r.status);
	ok(text && !strstr(text, "nan\"") && !strstr(text, "\"-nan") && !strstr(text, "inf\"") &&
	   !strstr(text, ">inf") && !strstr(text, ">-nan"), "report: no inf or nan in the SVG or tables");
	free(text);
	run_free(&r);
}

/* The widest line of s, in bytes (the output is ASCII). */
static size_t widest(const char *s)
{
	size_t w = 0;

	for (const char *p = s; *p;) {
		size_t n = strcspn(p, "\n");

		w = n > w ? n : w;
		p += n + (p[n] == '\n');
	}
	return w;
}

/* Does every "note:" and "!!! WARNING" line of s occur once? */
static bool notes_once(const char *s)
{
	for (const char *p = s; *p;) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, "note:", 5) || !strncmp(p, "!!! WARNING", 11)) {
			char *line = strndup(p, n);
			size_t k = count(s, line);

			free(line);
			if (k != 1)
				return false;
		}
		p += n + (p[n] == '\n');
	}
	return true;
}

/*
 * By default compare's lines fit 100 columns (the names here are shorter
 * than 27 characters), each note said once; --wide has the full table.
 */
static void test_cli_columns(void)
{
	struct run_result r;

	if (!getenv("EXITSCOPE") || access(getenv("EXITSCOPE"), X_OK)) {
		tap_skip(7, "EXITSCOPE not set (run through make check)");
		return;
	}
	run(&r, base_path, new_path, NULL, NULL, NULL);
	ok(r.status == 0 && widest(r.out) <= COMPARE_COLUMNS && notes_once(r.out),
	   "base -> new: every line at most %d columns (widest %zu), each note once", COMPARE_COLUMNS,
	   widest(r.out));
	ok(has_line(r.out, "hand_const ", "-10.00%  [-10.0%, -10.0%]") &&
	   has_line(r.out, "fast_probe ", "not judged") && has_line(r.out, "  flaky: base ok, new skipped "
	   "(no PIO port)", NULL), "the table: diff%% and its CI in %% of base; why a probe was not compared");
	ok(has_line(r.out, "summary: 0 faster, 0 slower, 0 no significant change, 0 too noisy, 6 not",
		    NULL) && has_line(r.out, "only in base: old_only", NULL),
	   "summary and only-in lines name the sides");
	run_free(&r);
	{
		const char *argv[] = { getenv("EXITSCOPE"), "compare", aa1_path, aa2_path, "--", aa3_path,
				       aa4_path, NULL };

		run_cmd(&r, argv);
	}
	ok(r.status == 0 && widest(r.out) <= COMPARE_COLUMNS && notes_once(r.out) &&
	   has_line(r.out, "model: runs (1 probe) - runs = a side's variance", NULL),
	   "2 runs a side: at most %d columns (widest %zu), the model counted", COMPARE_COLUMNS,
	   widest(r.out));
	run_free(&r);
	run(&r, nrun_path[0], nrun_path[1], NULL, NULL, NULL);
	ok(r.status == 0 && widest(r.out) <= COMPARE_COLUMNS && notes_once(r.out) &&
	   count(r.out, "one run per side and no noise floor") == 1,
	   "one run a side: the run-to-run note once, wrapped (widest %zu)", widest(r.out));
	run_free(&r);
	run(&r, nrun_path[0], nrun_path[1], "--noise", noise_r8, NULL);
	ok(r.status == 0 && widest(r.out) <= COMPARE_COLUMNS && notes_once(r.out),
	   "with a floor of other rounds: at most %d columns (widest %zu)", COMPARE_COLUMNS,
	   widest(r.out));
	run_free(&r);
	run(&r, base_path, new_path, "--wide", NULL, NULL);
	ok(r.status == 0 && has_line(r.out, "hand_const ", "[-10.0, -10.0]") &&
	   has_line(r.out, "probe ", "model") && widest(r.out) > COMPARE_COLUMNS,
	   "--wide: the interval in cycles and the model column");
	run_free(&r);
}

/*
 * Census: one profiled probe "xsave_switch" over CENSUS_OPS operations, in
 * memory (the struct alone): kernel instructions per op, one function that
 * has them all, and the census rows given per op (count = per_op x ops).
 */
#define CENSUS_OPS	256
#define CENSUS_MAX	24

struct census_row {
	const char *insn, *operand;
	double per_op;
};

struct census_run {
	struct result_file rf;
	struct run_probe probe;
	struct exit_path_fn fn;
	struct exit_path_census census[CENSUS_MAX];
};

static const struct result_file *census_run(struct census_run *r, double kernel, const struct census_row *rows,
					    size_t n, int has_census)
{
	struct exit_path *e = &r->probe.exit_path;

	memset(r, 0, sizeof(*r));
	r->rf.name = "census.json";
	r->rf.probes = &r->probe;
	r->rf.n_probes = 1;
	r->probe.name = "xsave_switch";
	r->probe.group = "xstate";
	e->present = 1;
	e->ops = CENSUS_OPS;
	e->kernel_insn = llround(kernel * CENSUS_OPS);
	r->fn = (struct exit_path_fn){ .name = "vmx_vcpu_run", .insn = e->kernel_insn, .calls = CENSUS_OPS };
	e->fns = &r->fn;
	e->n_fns = 1;
	e->has_census = has_census;
	for (size_t i = 0; has_census && i < n && i < CENSUS_MAX; i++)
		r->census[i] = (struct exit_path_census){ rows[i].insn, rows[i].operand,
							  llround(rows[i].per_op * CENSUS_OPS) };
	if (has_census) {
		e->census = r->census;
		e->n_census = n < CENSUS_MAX ? n : CENSUS_MAX;
		r->fn.census = e->census;
		r->fn.n_census = e->n_census;
	}
	return &r->rf;
}

/* The exit-path text of a -- b (malloc'd, "" when empty) and, if json, its JSON. */
static char *census_compare(const struct result_file *const *a, size_t na, const struct result_file *const *b,
			    size_t nb, json_t **json)
{
	struct path_changes pc;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (json)
		*json = NULL;
	if (path_changes_build(a, na, b, nb, &pc))
		return NULL;
	f = open_memstream(&buf, &len);
	if (f) {
		path_changes_print(f, &pc);
		fclose(f);
	}
	if (json)
		*json = path_changes_json(&pc);
	path_changes_free(&pc);
	return buf;
}

/* Is line (without its newline) one of s's lines, exactly? */
static bool line_is(const char *s, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = s; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, line, n) && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* The first changed probe's "census" member of a path_changes_json document. */
static json_t *census_json(json_t *doc)
{
	return json_object_get(json_array_get(json_object_get(doc, "probes"), 0), "census");
}

static bool census_json_is(json_t *doc, json_t *want)
{
	json_t *got = census_json(doc);
	bool r = got && want && json_equal(got, want);

	if (!r) {
		char *g = got ? json_dumps(got, JSON_COMPACT) : NULL;

		diag("  census: %s", g ? g : "(absent)");
		free(g);
	}
	json_decref(want);
	return r;
}

/* Two sides of one run differing by -2 xsetbv XCR0 and -2 wrmsr IA32_XSS per op; equal; absent. */
static void test_census_one_run(void)
{
	static const struct census_row base[] = {
		{ "rdmsr", "IA32_TSC_AUX", 2 }, { "vmread", "0x4826", 1 },
		{ "wrmsr", "IA32_XSS", 4 }, { "xsetbv", "XCR0", 4 },
	};
	static const struct census_row xsave_new[] = {
		{ "rdmsr", "IA32_TSC_AUX", 2 }, { "vmread", "0x4826", 1 },
		{ "wrmsr", "IA32_XSS", 2 }, { "xsetbv", "XCR0", 2 },
	};
	struct census_run ra, rb;
	const struct result_file *a, *b;
	json_t *j, *j_equal = NULL;
	char *out, *out_equal = NULL;

	a = census_run(&ra, 1000, base, ARRAY_SIZE(base), 1);
	b = census_run(&rb, 960, xsave_new, ARRAY_SIZE(xsave_new), 1);
	out = census_compare(&a, 1, &b, 1, &j);
	ok(out && line_is(out, "    census: -2 wrmsr IA32_XSS, -2 xsetbv XCR0 per op") &&
	   count(out, "census") == 1,
	   "-2 wrmsr IA32_XSS, -2 xsetbv XCR0: that census line, once, under the probe");
	if (out && !line_is(out, "    census: -2 wrmsr IA32_XSS, -2 xsetbv XCR0 per op"))
		diag("%s", out);
	ok(out && line_is(out, "  xsave_switch: kernel 1000.0 -> 960.0 insn/op (-40.0)") &&
	   strstr(out, "vmx_vcpu_run") < strstr(out, "    census:"),
	   "the census line follows the probe's functions");
	ok(census_json_is(j, json_pack("[{s:s, s:s, s:[f, f]}, {s:s, s:s, s:[f, f]}]",
				       "insn", "wrmsr", "operand", "IA32_XSS", "per_op", 4.0, 2.0,
				       "insn", "xsetbv", "operand", "XCR0", "per_op", 4.0, 2.0)),
	   "JSON: census [{insn, operand, per_op: [base, new]}], the changed rows only");
	free(out);
	json_decref(j);

	/* Equal censuses (the kernel figure changed): no census line, an empty census list. */
	b = census_run(&rb, 960, base, ARRAY_SIZE(base), 1);
	out_equal = census_compare(&a, 1, &b, 1, &j_equal);
	ok(out_equal && strstr(out_equal, "xsave_switch: kernel") && !strstr(out_equal, "census"),
	   "equal censuses: the probe's change, no census line");
	ok(census_json_is(j_equal, json_array()), "equal censuses: JSON census []");

	/* The new side (then both) without a census: no census line, nothing else changes. */
	b = census_run(&rb, 960, base, ARRAY_SIZE(base), 0);
	out = census_compare(&a, 1, &b, 1, &j);
	ok(out && out_equal && !strcmp(out, out_equal), "no census on the new side: the same text, no census line");
	json_object_del(json_array_get(json_object_get(j_equal, "probes"), 0), "census");
	ok(j && j_equal && !census_json(j) && json_equal(j, j_equal),
	   "no census on the new side: the JSON has no census key, the rest as before");
	free(out);
	json_decref(j);
	a = census_run(&ra, 1000, base, ARRAY_SIZE(base), 0);
	out = census_compare(&a, 1, &b, 1, &j);
	ok(out && out_equal && !strcmp(out, out_equal) && j && !census_json(j),
	   "no census on either side: the same text and no census key");
	free(out);
	free(out_equal);
	json_decref(j);
	json_decref(j_equal);
}

/* A change in the census alone; fractions, a tiny change, a raw operand, none. */
static void test_census_rows(void)
{
	static const struct census_row base[] = {
		{ "hlt", NULL, 1 }, { "rdmsr", "IA32_TSC_AUX", 1 }, { "vmread", "0x4826", 1 },
		{ "wrmsr", "IA32_XSS", 1 },
	};
	static const struct census_row other[] = {
		{ "hlt", NULL, 1 + 85.0 / CENSUS_OPS }, { "rdmsr", "0x1a2", 1 },
		{ "vmread", "0x4826", 0.75 }, { "wrmsr", "IA32_XSS", 1 + 1.0 / CENSUS_OPS },
	};
	struct census_run ra, rb;
	const struct result_file *a, *b;
	char *out;
	json_t *j;

	a = census_run(&ra, 1000, base, ARRAY_SIZE(base), 1);
	b = census_run(&rb, 1000, other, ARRAY_SIZE(other), 1);
	out = census_compare(&a, 1, &b, 1, &j);
	ok(out && strstr(out, "exit paths: 1 of 1 profiled probes changed") &&
	   line_is(out, "    census: +1 rdmsr 0x1a2, -1 rdmsr IA32_TSC_AUX, +0.33 hlt, -0.25 vmread 0x4826,") &&
	   line_is(out, "            +0.0039 wrmsr IA32_XSS per op"),
	   "a census change alone lists the probe: largest change first, 2 decimals, no operand, a raw one, "
	   "wrapped under the first row");
	if (getenv("CENSUS_DEBUG"))
		diag("%s", out);
	ok(j && json_array_size(census_json(j)) == 5 &&
	   json_is_null(json_object_get(json_array_get(census_json(j), 2), "operand")),
	   "JSON: every changed row, a row without operand has operand null");
	free(out);
	json_decref(j);
}

/* Several runs a side: a row changed only when the sides' ranges do not overlap. */
static void test_census_runs(void)
{
	static const struct census_row x4[] = { { "xsetbv", "XCR0", 4 } }, x3[] = { { "xsetbv", "XCR0", 3 } };
	static const struct census_row x2[] = { { "xsetbv", "XCR0", 2 } }, x1[] = { { "xsetbv", "XCR0", 1 } };
	struct census_run r[4];
	const struct result_file *a[2], *b[2];
	char *out;
	json_t *j;

	a[0] = census_run(&r[0], 1000, x4, 1, 1);
	a[1] = census_run(&r[1], 1000, x3, 1, 1);
	b[0] = census_run(&r[2], 1000, x3, 1, 1);
	b[1] = census_run(&r[3], 1000, x2, 1, 1);
	out = census_compare(a, 2, b, 2, NULL);
	ok(out && !strstr(out, "census") && strstr(out, "1 probes profiled on both sides, none changed"),
	   "2 runs a side, 4 3 -> 3 2 per op: the ranges overlap, no change");
	free(out);
	b[0] = census_run(&r[2], 1000, x2, 1, 1);
	out = census_compare(a, 2, b, 2, &j);
	ok(out && line_is(out, "    census: -1.5 xsetbv XCR0 per op"),
	   "4 3 -> 2 2 per op: changed, by the means (-1.5)");
	ok(census_json_is(j, json_pack("[{s:s, s:s, s:[f, f]}]", "insn", "xsetbv", "operand", "XCR0",
				       "per_op", 3.5, 2.0)), "JSON: the sides' means");
	free(out);
	json_decref(j);
	a[1] = census_run(&r[1], 1000, NULL, 0, 1);
	b[0] = census_run(&r[2], 1000, x1, 1, 1);
	b[1] = census_run(&r[3], 1000, x1, 1, 1);
	out = census_compare(a, 2, b, 2, NULL);
	ok(out && !strstr(out, "census"), "a run without the row counts 0 there: 4 0 -> 1 1 overlap");
	free(out);
	b[1] = census_run(&r[3], 990, x1, 1, 0);
	b[0] = census_run(&r[2], 990, x4, 1, 1);
	a[1] = census_run(&r[1], 1000, x4, 1, 1);
	a[0] = census_run(&r[0], 1000, x1, 1, 1);
	out = census_compare(a, 2, b, 2, &j);
	ok(out && !strstr(out, "census") && strstr(out, "kernel 1000.0 -> 990.0") && j &&
	   json_array_get(json_object_get(j, "probes"), 0) && !census_json(j),
	   "one run of a side without a census: the census is not compared, the rest is");
	free(out);
	json_decref(j);
}

/* Many changed rows with long names: wrapped within COMPARE_COLUMNS, the rest counted. */
static void test_census_width(void)
{
	static const char *const names[] = {
		"VM_EXIT_INTR_ERROR_CODE", "SECONDARY_VM_EXEC_CONTROL", "GUEST_INTERRUPTIBILITY_INFO",
		"IA32_XSS", "XCR0", "0x4826", "0x6c20",
		"an_operand_name_far_longer_than_any_real_one_from_a_hostile_file",
	};
	struct census_row base[20], other[20];
	struct census_run ra, rb;
	const struct result_file *a, *b;
	char *out;
	size_t lines = 0;

	for (size_t i = 0; i < ARRAY_SIZE(base); i++) {
		static const char *const insns[] = { "vmwrite", "vmread", "a_mnemonic_that_is_too_long" };

		base[i] = (struct census_row){ insns[i / 8], names[i % 8], (double)(i % 3) };
		other[i] = base[i];
		other[i].per_op = base[i].per_op + 1.0 + (double)i / 4;
	}
	a = census_run(&ra, 1000, base, ARRAY_SIZE(base), 1);
	b = census_run(&rb, 1000, other, ARRAY_SIZE(other), 1);
	out = census_compare(&a, 1, &b, 1, NULL);
	for (const char *p = out; p && (p = strstr(p, "\n            ")); p++)
		lines++;
	ok(out && widest(out) <= COMPARE_COLUMNS && lines >= 2 && strstr(out, " per op\n") &&
	   line_is(out, "    ... 8 more census rows changed (--json has them all)"),
	   "20 changed rows with long names: wrapped (%zu more lines) within %d columns (widest %zu), 12 shown",
	   lines, COMPARE_COLUMNS, out ? widest(out) : 0);
	if (getenv("CENSUS_DEBUG"))
		diag("%s", out);
	free(out);
}

/*
 * A run file of the probe of r (samples around 1000 cycles) with its exit
 * path as JSON; with_census: its census as a profile writes it, a list of
 * {insn, operand, count, per_op} for the path and for each function.
 */
static void census_file(char *dst, const char *name, struct census_run *r, int with_census, uint64_t seed)
{
	const struct exit_path *e = &r->probe.exit_path;
	json_t *probe = noisy_probe("xsave_switch", "xstate", 1000, 10, seed, 1);
	json_t *ep = exit_path_json(e), *doc;

	if (with_census && ep && !json_object_get(ep, "census")) {
		json_t *rows = json_array();

		for (size_t i = 0; i < e->n_census; i++)
			json_array_append_new(rows, json_pack("{s:s, s:s?, s:I, s:f}", "insn", e->census[i].insn,
							      "operand", e->census[i].operand,
							      "count", (json_int_t)e->census[i].count,
							      "per_op", exit_path_per_op(e, e->census[i].count)));
		json_object_set(json_array_get(json_object_get(ep, "functions"), 0), "census", rows);
		json_object_set_new(ep, "census", rows);
	}
	if (!with_census) {
		json_object_del(ep, "census");
		json_object_del(json_array_get(json_object_get(ep, "functions"), 0), "census");
	}
	json_object_set_new(probe, "exit_path", ep);
	doc = fixture_result(fixture_host("6.1.0", "Xeon", "native"), json_pack("[o]", probe));
	json_object_set_new(doc, "schema_version", json_integer(2));
	save(dst, name, doc);
}

/* compare through the binary: the census line within the columns, the JSON; none without a census. */
static void test_census_cli(void)
{
	static const struct census_row base[] = {
		{ "rdmsr", "IA32_TSC_AUX", 2 }, { "vmread", "0x4826", 1 },
		{ "wrmsr", "IA32_XSS", 4 }, { "xsetbv", "XCR0", 4 },
	};
	static const struct census_row xsave_new[] = {
		{ "rdmsr", "IA32_TSC_AUX", 2 }, { "vmread", "0x4826", 1 },
		{ "wrmsr", "IA32_XSS", 2 }, { "xsetbv", "XCR0", 2 },
	};
	char a_path[4096], b_path[4096], a0_path[4096], b0_path[4096];
	struct census_run ra, rb;
	struct result_file *rf;
	struct run_result r;
	int reads_census;

	if (!getenv("EXITSCOPE") || access(getenv("EXITSCOPE"), X_OK)) {
		tap_skip(5, "EXITSCOPE not set (run through make check)");
		return;
	}
	census_run(&ra, 1000, base, ARRAY_SIZE(base), 1);
	census_run(&rb, 960, xsave_new, ARRAY_SIZE(xsave_new), 1);
	census_file(a_path, "census_a.json", &ra, 1, 71);
	census_file(b_path, "census_b.json", &rb, 1, 72);
	census_file(a0_path, "path_a.json", &ra, 0, 71);
	census_file(b0_path, "path_b.json", &rb, 0, 72);

	run(&r, a0_path, b0_path, NULL, NULL, NULL);
	ok(r.status == 0 && has_line(r.out, "  xsave_switch: kernel 1000.0 -> 960.0 insn/op (-40.0)", NULL) &&
	   !strstr(r.out, "census") && widest(r.out) <= COMPARE_COLUMNS,
	   "profiles without a census: the path's change, no census line (widest %zu)", widest(r.out));
	run_free(&r);

	rf = load(a_path);
	reads_census = rf && rf->probes[0].exit_path.has_census;
	result_free(rf);
	if (!reads_census) {
		tap_skip(4, "the result reader does not read exit_path.census (results/exit_path.c)");
		return;
	}
	run(&r, a_path, b_path, NULL, NULL, NULL);
	ok(r.status == 0 && line_is(r.out, "    census: -2 wrmsr IA32_XSS, -2 xsetbv XCR0 per op"),
	   "compare A B: the census line");
	ok(widest(r.out) <= COMPARE_COLUMNS, "compare with a census: every line at most %d columns (widest %zu)",
	   COMPARE_COLUMNS, widest(r.out));
	run_free(&r);
	run(&r, a_path, b_path, "--json", "-", NULL);
	{
		json_t *doc = json_loads(r.out, 0, NULL);

		ok(doc && json_integer_value(json_object_get(doc, "schema_version")) == COMPARE_SCHEMA_VERSION,
		   "--json: schema_version %d", COMPARE_SCHEMA_VERSION);
		ok(census_json_is(json_object_get(doc, "exit_paths"),
				  json_pack("[{s:s, s:s, s:[f, f]}, {s:s, s:s, s:[f, f]}]",
					    "insn", "wrmsr", "operand", "IA32_XSS", "per_op", 4.0, 2.0,
					    "insn", "xsetbv", "operand", "XCR0", "per_op", 4.0, 2.0)),
		   "--json: exit_paths.probes[0].census, the changed rows");
		json_decref(doc);
	}
	run_free(&r);
}

/* The entry points fail with a negative errno (base/err.h): a bad --normalize, no files a side. */
static void test_errno(void)
{
	enum compare_normalize n = COMPARE_NORMALIZE_AUTO;
	const struct result_file *none = NULL;
	struct err err;

	ok(compare_normalize_parse("fast", &n) == -EINVAL && n == COMPARE_NORMALIZE_AUTO &&
	   compare_normalize_parse("speed", &n) == 0 && n == COMPARE_NORMALIZE_SPEED,
	   "compare_normalize_parse: -EINVAL for 'fast', 0 for 'speed'");
	err_init(&err);
	ok(!compare_results_multi(&none, 0, &none, 0, NULL, &err) && err.code == -EINVAL && err.msg[0],
	   "compare_results_multi without files: NULL, -EINVAL and a message");
}

/*
 * compare_results holds the exit-path changes: its text ends with them (as
 * path_changes_print writes them) and its JSON has them as "exit_paths"
 * (as path_changes_json), its last member; without profiles, neither.
 */
static void test_census_in_result(void)
{
	static const struct census_row base[] = { { "wrmsr", "IA32_XSS", 4 }, { "xsetbv", "XCR0", 4 } };
	static const struct census_row fewer[] = { { "wrmsr", "IA32_XSS", 2 }, { "xsetbv", "XCR0", 2 } };
	char a_path[4096], b_path[4096];
	struct census_run ra, rb;
	struct result_file *fa, *fb;
	const struct result_file *a, *b;
	struct compare_result *cr;
	json_t *j = NULL, *doc = NULL;
	char *paths, *text = NULL;
	size_t len = 0, n;
	FILE *f;

	census_run(&ra, 1000, base, ARRAY_SIZE(base), 1);
	census_run(&rb, 960, fewer, ARRAY_SIZE(fewer), 1);
	census_file(a_path, "in_result_a.json", &ra, 1, 81);
	census_file(b_path, "in_result_b.json", &rb, 1, 82);
	fa = load(a_path);
	fb = load(b_path);
	if (!fa || !fb || !fa->probes[0].exit_path.has_census) {
		tap_skip(5, "the fixture files do not read back with their census");
		result_free(fa);
		result_free(fb);
		return;
	}
	a = fa;
	b = fb;
	paths = census_compare(&a, 1, &b, 1, &j);
	cr = compare_results(a, b, NULL, NULL);
	ok(cr && cr->paths.compared == 1 && cr->paths.n == 1 && cr->paths.probes[0].n_census == 2,
	   "compare_results: 1 probe profiled on both sides, changed, 2 census rows");
	f = open_memstream(&text, &len);
	if (f && cr) {
		compare_print(f, cr, 0);
		fclose(f);
	} else if (f) {
		fclose(f);
	}
	n = paths ? strlen(paths) : 0;
	ok(text && paths && n && len > n && !strcmp(text + len - n, paths) &&
	   strstr(text, "summary: ") < text + len - n,
	   "compare_print: the exit-path changes last, after the summary");
	doc = cr ? compare_result_json(cr) : NULL;
	ok(doc && j && json_equal(json_object_get(doc, "exit_paths"), j),
	   "compare_result_json: \"exit_paths\" as path_changes_json writes it");
	ok(doc && !strcmp(json_object_iter_key(json_object_iter_at(doc, "exit_paths")), "exit_paths") &&
	   !json_object_iter_next(doc, json_object_iter_at(doc, "exit_paths")),
	   "compare_result_json: \"exit_paths\" is the last member");
	json_decref(doc);
	compare_free(cr);
	free(text);
	free(paths);
	json_decref(j);

	fa->probes[0].exit_path.present = 0;
	cr = compare_results(a, b, NULL, NULL);
	doc = cr ? compare_result_json(cr) : NULL;
	text = NULL;
	f = open_memstream(&text, &len);
	if (f && cr) {
		compare_print(f, cr, 0);
		fclose(f);
	} else if (f) {
		fclose(f);
	}
	ok(cr && !cr->paths.compared && doc && !json_object_get(doc, "exit_paths") && text &&
	   !strstr(text, "exit path"),
	   "no profile on the base side: no exit paths in the result, the text or the JSON");
	json_decref(doc);
	compare_free(cr);
	free(text);
	result_free(fa);
	result_free(fb);
}

/* An OSC title-set escape and an é: what a hostile or broken file could name things. */
#define EVIL	"\033]0;x\007\303\251"
#define EVIL_SHOWN "\\x1b]0;x\\x07\303\251"

/* A result file whose kernel, probe and exit-path function are named EVIL (kernel: when evil_kernel). */
static void evil_file(char *dst, const char *file, double kernel, uint64_t seed, int evil_kernel)
{
	static const struct census_row rows[] = { { "wrmsr", "IA32_XSS" EVIL, 4 } };
	struct census_run r;
	json_t *probe = noisy_probe("xsave" EVIL, "xstate", 1000, 10, seed, 1), *ep, *doc;

	census_run(&r, kernel, rows, 1, 0);
	r.probe.name = "xsave" EVIL;
	r.fn.name = "vmx" EVIL;
	ep = exit_path_json(&r.probe.exit_path);
	json_object_set_new(probe, "exit_path", ep);
	doc = fixture_result(fixture_host(evil_kernel ? "6.1" EVIL : "6.1.0", "Xeon", "native"),
			     json_pack("[o]", probe));
	json_object_set_new(doc, "schema_version", json_integer(2));
	save(dst, file, doc);
}

/*
 * Strings of the input files reach the terminal escaped: control bytes as
 * \xNN (no raw ESC), valid UTF-8 as it is; in the table, the host lines
 * and the exit paths.
 */
static void test_cli_escape(void)
{
	char a_path[4096], b_path[4096];
	struct run_result r;

	if (!getenv("EXITSCOPE") || access(getenv("EXITSCOPE"), X_OK)) {
		tap_skip(4, "EXITSCOPE not set (run through make check)");
		return;
	}
	evil_file(a_path, "evil_a.json", 1000, 91, 0);
	evil_file(b_path, "evil_b.json", 960, 92, 1);
	run(&r, a_path, b_path, NULL, NULL, NULL);
	ok(r.status == 0 && !strchr(r.out, '\033') && !strchr(r.out, '\007'),
	   "compare: no raw ESC or BEL in the text (status %d)", r.status);
	ok(has_line(r.out, "kernel: 6.1.0 -> 6.1" EVIL_SHOWN, NULL), "the kernel release escaped, é kept");
	ok(has_line(r.out, "  xsave" EVIL_SHOWN " ", "%") &&
	   has_line(r.out, "  xsave" EVIL_SHOWN ": kernel 1000.0 -> 960.0", NULL),
	   "the probe name escaped in the table and the exit paths");
	ok(has_line(r.out, "    vmx" EVIL_SHOWN " ", "insn/op"), "the function name escaped");
	if (strchr(r.out, '\033') || !has_line(r.out, "vmx" EVIL_SHOWN, NULL))
		diag("%s", r.out);
	run_free(&r);
}

/*
 * Differences below the figures' resolution are no verdict: a base of 0
 * against 5e-324 (no significant change), 1e6 against 1e6 + 1e-6 even at
 * --threshold 0; a real change from a base of 0 is not compared (zero
 * base); --fail-on-regression fires on none of them.
 */
static void test_cli_zero_base(void)
{
	const double z[] = { 0, 0, 0, 0, 0 }, d[] = { 5e-324, 5e-324, 5e-324, 5e-324, 5e-324 };
	const double t[] = { 3, 3, 3, 3, 3 }, m[] = { 1e6, 1e6, 1e6, 1e6, 1e6 };
	const double m1[] = { 1e6 + 1e-6, 1e6 + 1e-6, 1e6 + 1e-6, 1e6 + 1e-6, 1e6 + 1e-6 };
	char a_path[4096], b_path[4096];
	struct run_result r;
	json_t *doc;

	if (!getenv("EXITSCOPE") || access(getenv("EXITSCOPE"), X_OK)) {
		tap_skip(5, "EXITSCOPE not set (run through make check)");
		return;
	}
	save(a_path, "zero_a.json", fixture_result(fixture_host("6.1.0", "Xeon", "native"),
		json_pack("[o, o, o]", const_probe("zero_tiny", z, 5), const_probe("zero_up", z, 5),
			  const_probe("mega_tiny", m, 5))));
	save(b_path, "zero_b.json", fixture_result(fixture_host("6.1.0", "Xeon", "native"),
		json_pack("[o, o, o]", const_probe("zero_tiny", d, 5), const_probe("zero_up", t, 5),
			  const_probe("mega_tiny", m1, 5))));
	run(&r, a_path, b_path, "--fail-on-regression", "--threshold", "0");
	ok(r.status == 0, "zero base, 5e-324 and 1e-6 of 1e6: --fail-on-regression does not fire (%d)",
	   r.status);
	ok(has_line(r.out, "zero_tiny ", "no significant change") &&
	   has_line(r.out, "mega_tiny ", "no significant change"),
	   "a difference below the resolution: no significant change, even at --threshold 0");
	ok(has_line(r.out, "  zero_up: cannot compare: zero base", NULL) &&
	   !has_line(r.out, "_tiny ", "slower") && !has_line(r.out, "_tiny ", "faster") &&
	   has_line(r.out, "summary: 0 faster, 0 slower", NULL),
	   "0 -> 3 cycles/op: not compared (zero base), no faster or slower anywhere");
	if (r.status || has_line(r.out, "_tiny ", "slower"))
		diag("%s", r.out);
	run_free(&r);
	run(&r, a_path, b_path, "--json", "-", NULL);
	doc = json_loads(r.out, 0, NULL);
	ok(doc && json_is_false(json_object_get(doc, "regression")) &&
	   !strcmp(fixture_str(fixture_probe_json(doc, "zero_tiny"), "verdict"), "no significant change") &&
	   !strcmp(fixture_str(fixture_probe_json(doc, "zero_up"), "verdict"), "not compared"),
	   "--json: no regression, the same verdicts");
	ok(doc && strstr(fixture_str(fixture_probe_json(doc, "zero_up"), "reason"), "zero base"),
	   "--json: the reason names the zero base");
	json_decref(doc);
	run_free(&r);
}

/*
 * A change of +123950% (4.0 -> 4962.0 cycles/op) and of 1e12 cycles/op
 * from 1.0: every row within COMPARE_COLUMNS, the percentages compact
 * (+124k%), also beside a name of 27 characters.
 */
static void test_cli_huge_pct(void)
{
	const double a4[] = { 4, 4, 4, 4, 4 }, b4[] = { 4962, 4962, 4962, 4962, 4962 };
	const double a1[] = { 1, 1, 1, 1, 1 }, b1[] = { 1e12, 1e12, 1e12, 1e12, 1e12 };
	char a_path[4096], b_path[4096];
	struct run_result r;

	if (!getenv("EXITSCOPE") || access(getenv("EXITSCOPE"), X_OK)) {
		tap_skip(3, "EXITSCOPE not set (run through make check)");
		return;
	}
	save(a_path, "huge_a.json", fixture_result(fixture_host("6.1.0", "Xeon", "native"),
		json_pack("[o, o]", const_probe("toggle_cr0_wp", a4, 5),
			  const_probe("a_name_of_27_characters_xx", a1, 5))));
	save(b_path, "huge_b.json", fixture_result(fixture_host("6.1.0", "Xeon", "native"),
		json_pack("[o, o]", const_probe("toggle_cr0_wp", b4, 5),
			  const_probe("a_name_of_27_characters_xx", b1, 5))));
	run(&r, a_path, b_path, NULL, NULL, NULL);
	ok(r.status == 0 && widest(r.out) <= COMPARE_COLUMNS,
	   "+123950%% and +1e14%%: every line at most %d columns (widest %zu)", COMPARE_COLUMNS,
	   widest(r.out));
	ok(has_line(r.out, "  toggle_cr0_wp ", "4.0    4962.0 +123950%  [+124k%, +124k%] not judged") &&
	   has_line(r.out, "  a_name_of_27_characters_xx ", "+100T%  [+100T%, +100T%] not judged"),
	   "the rows: +123950%% whole, its interval +124k%%; +1e14%% as +100T%%");
	ok(has_line(r.out, "  a_name_of_27_characters_xx       1.0     1e+12 ", NULL),
	   "1e12 cycles/op fits its column (1e+12)");
	if (widest(r.out) > COMPARE_COLUMNS || !has_line(r.out, "toggle_cr0_wp ", "+124k%  [+124k%"))
		diag("%s", r.out);
	run_free(&r);
}

/*
 * SIGTERM while compare is blocked writing --json into a FIFO nobody reads
 * (the program's own state, /proc/PID/wchan, says when): one line
 * "stopped by SIGTERM", exit 143.
 */
static void test_cli_sigterm(void)
{
	char a_path[4096], b_path[4096], fifo[4200];
	json_t *pa = json_array(), *pb = json_array();
	struct run_result r;
	int blocked;

	if (!getenv("EXITSCOPE") || access(getenv("EXITSCOPE"), X_OK)) {
		tap_skip(2, "EXITSCOPE not set (run through make check)");
		json_decref(pa);
		json_decref(pb);
		return;
	}
	/* 300 probes: a --json document far beyond a pipe's 64 KiB */
	for (int i = 0; i < 300; i++) {
		char name[32];

		snprintf(name, sizeof(name), "probe_%03d", i);
		json_array_append_new(pa, noisy_probe(name, "many", 1000, 10, 1000 + (uint64_t)i, 1));
		json_array_append_new(pb, noisy_probe(name, "many", 1010, 10, 2000 + (uint64_t)i, 1));
	}
	save(a_path, "many_a.json", fixture_result(fixture_host("6.1.0", "Xeon", "native"), pa));
	save(b_path, "many_b.json", fixture_result(fixture_host("6.1.0", "Xeon", "native"), pb));
	snprintf(fifo, sizeof(fifo), "%s/compare.fifo", tmp);
	blocked = run_stop_on_fifo(&r, (const char *const[]){ getenv("EXITSCOPE"), "compare", a_path, b_path,
							     "--json", fifo, NULL }, fifo, SIGTERM);
	if (!fifo_stop_blocked(blocked, &r, "compare", 2))
		return;
	ok(r.status == 128 + SIGTERM && !r.signal,
	   "SIGTERM while writing --json to a full FIFO: exit 143, not killed (%d, signal %d)", r.status,
	   r.signal);
	ok(one_line(r.err) && strstr(r.err, "exitscope compare: stopped by SIGTERM"),
	   "one line: stopped by SIGTERM (%s)", r.err);
	run_free(&r);
}

int main(void)
{
	tmp = fixture_tmpdir();
	if (!tmp)
		return tap_skip_all("cannot make a temp dir");
	make_files();
	make_noise_files();
	test_library();
	test_user_counters();
	test_counters();
	test_settings();
	test_settings_cpus();
	test_lanes();
	test_counter_counts();
	test_judging();
	test_rounds();
	test_welch_verdicts();
	test_aa_pairs();
	test_baseline_shift();
	test_runs_coverage();
	test_runs_power();
	test_floor_coverage();
	test_mixed_sides();
	test_cli();
	test_cli_noise();
	test_cli_same_run();
	test_cli_overflow();
	test_cli_columns();
	test_census_one_run();
	test_census_in_result();
	test_errno();
	test_census_rows();
	test_census_runs();
	test_census_width();
	test_census_cli();
	test_cli_escape();
	test_cli_zero_base();
	test_cli_huge_pct();
	test_cli_sigterm();
	fixture_rmdir(tmp);
	return done_testing();
}
