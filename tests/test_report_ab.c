// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_report_ab.c - report's A/B forms: pooled sides (A1 A2 -- B1 B2),
 * --noise, a compare --json document drawn from its files (and refused when
 * a file is missing or changed), and what each comparison's interval is.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report_int.h"
#include "results/noise.h"
#include "stats/stats.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define ROUNDS	12
#define PER	8

static char *tmp;
static const char *exe;
static char a_path[2][4096], b_path[2][4096], flat_path[2][4096], noise_path[4096];
static char noise_other[4096], n_path[5][4096];

/* A method-v2 probe: ROUNDS rounds of PER samples around center, drift +-2% between rounds. */
static json_t *rounds_probe(const char *name, double center, uint64_t seed, int with_rounds)
{
	double all[ROUNDS * PER], lvl[ROUNDS];
	json_t *probe, *rounds = json_array();
	uint64_t st = seed;

	fixture_samples(lvl, ROUNDS, center, center * 0.02, seed ^ 0x5eed);
	for (size_t r = 0; r < ROUNDS; r++) {
		double *x = all + r * PER;
		json_t *xs = json_array();

		fixture_samples(x, PER, lvl[r], lvl[r] * 0.01, stats_splitmix64(&st));
		for (size_t k = 0; k < PER; k++)
			json_array_append_new(xs, json_real(x[k]));
		json_array_append_new(rounds, json_pack("{s:i, s:o, s:f, s:f, s:f}", "batch", 64,
			"samples", xs, "median", stats_median(x, PER), "baseline_median", 1000.0,
			"raw_median", 1000.0 + stats_median(x, PER)));
	}
	probe = fixture_probe(name, "insn", all, ROUNDS * PER, 1);
	if (with_rounds)
		json_object_set_new(probe, "rounds", rounds);
	else
		json_decref(rounds);
	return probe;
}

/* A run of two probes, with v2 settings (a floor needs them). */
static json_t *run_file(double center, uint64_t seed, int with_rounds)
{
	json_t *doc = fixture_result(fixture_host("6.1.0", "Xeon", "native"),
		json_pack("[o, o]", rounds_probe("cpuid", center, seed, with_rounds),
			  rounds_probe("vmcall", center / 2, seed + 7, with_rounds)));

	json_object_set_new(doc, "settings", fixture_settings(with_rounds ? "v2" : "v1", ROUNDS));
	return doc;
}

static void save(char *dst, const char *name, json_t *doc)
{
	const char *p = fixture_write(tmp, name, doc);

	snprintf(dst, 4096, "%s", p ? p : "?");
	json_decref(doc);
}

static void make_files(void)
{
	struct result_file *rf[5] = { 0 };
	struct noise_floor nf;
	struct err err;
	char name[32];
	json_t *doc;
	int loaded = 1;

	for (int i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "a%d.json", i + 1);
		save(a_path[i], name, run_file(1000, 10 + i, 1));
		snprintf(name, sizeof(name), "b%d.json", i + 1);
		save(b_path[i], name, run_file(1300, 20 + i, 1));
		snprintf(name, sizeof(name), "flat%d.json", i + 1);
		save(flat_path[i], name, run_file(1000 + 300 * i, 30 + i, 0));
	}
	for (int i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "n%d.json", i + 1);
		save(n_path[i], name, run_file(1000, 40 + i, 1));
		loaded &= (rf[i] = result_read_file(n_path[i], &err)) != NULL;
	}
	snprintf(noise_path, sizeof(noise_path), "%s/noise.json", tmp);
	if (!loaded || noise_estimate((const struct result_file *const *)rf, 5, &nf, &err) ||
	    noise_write(&nf, noise_path, &err))
		diag("no noise floor: %s", loaded ? err.msg : "runs did not load");
	else
		noise_release(&nf);
	for (int i = 0; i < 5; i++)
		result_free(rf[i]);
	doc = json_load_file(noise_path, 0, NULL);
	if (doc) {
		json_object_set_new(json_object_get(doc, "host"), "cpu",
				    json_pack("{s:s, s:i, s:i, s:i, s:s}", "vendor", "AuthenticAMD",
					      "family", 25, "model", 1, "stepping", 1, "name", "EPYC"));
		save(noise_other, "noise-epyc.json", doc);
	}
}

/* report ARGS... -o -: its result (the caller frees it). */
static void report(struct run_result *r, const char *const *args, size_t n)
{
	const char *argv[16] = { exe, "report" };
	size_t k = 2;

	for (size_t i = 0; i < n && k < 13; i++)
		argv[k++] = args[i];
	argv[k++] = "-o";
	argv[k++] = "-";
	argv[k] = NULL;
	run_cmd(r, argv);
}

static int one_line(const char *s)
{
	return *s && strchr(s, '\n') == s + strlen(s) - 1;
}

static void test_sides(void)
{
	struct run_result r;

	report(&r, (const char *[]){ a_path[0], a_path[1], "--", b_path[0], b_path[1] }, 5);
	ok(r.status == 0, "report A1 A2 -- B1 B2: exit 0 (%d: %s)", r.status, r.err);
	tap_like(r.out, "<h3>A+B \u2192 C+D: ", "one comparison of the pooled sides, A+B against C+D");
	ok(!strstr(r.out, "id=\"compare-B\"") && !strstr(r.out, "id=\"compare-C\""),
	   "no comparison of single files");
	tap_like(r.out, "Welch's t interval on the run means",
		 "the interval is said to be on the run means");
	tap_like(r.out, "from the spread of the run means</span> (2 probes)",
		 "... with the run-to-run variation from their spread, for both probes");
	tap_like(r.out, "<td class=\"model\" title=\"run to run: runs\">runs</td>",
		 "each probe's model in the table");
	tap_like(r.out, "<th>C+D cycles/op</th>", "the table's columns name the sides");
	tap_like(r.out, "svg .dbar.v-na{fill:", "a bar of any other verdict (class na) has a colour");
	run_free(&r);

	report(&r, (const char *[]){ a_path[0], "--", b_path[0], "--", b_path[1] }, 5);
	ok(r.status == 2 && strstr(r.err, "more than one '--'"), "two '--': exit 2 (%s)", r.err);
	run_free(&r);
	report(&r, (const char *[]){ a_path[0], a_path[1], "--" }, 3);
	ok(r.status == 2 && strstr(r.err, "no new files after '--'"), "nothing after '--': exit 2 (%s)",
	   r.err);
	run_free(&r);
	report(&r, (const char *[]){ a_path[0], "--", a_path[0] }, 3);
	ok(r.status == 2 && one_line(r.err) && strstr(r.err, "same run"),
	   "one run on both sides: exit 2, as compare (%s)", r.err);
	run_free(&r);
	/* Without '--' every file is compared with the first: the first again is a run with itself. */
	report(&r, (const char *[]){ a_path[0], b_path[0], a_path[0] }, 3);
	ok(r.status == 2 && one_line(r.err) && strstr(r.err, "cannot be compared with itself"),
	   "the first file again, without '--': exit 2, as compare (%s)", r.err);
	run_free(&r);

	/* The plain form keeps comparing every file against the first. */
	report(&r, (const char *[]){ a_path[0], b_path[0], b_path[1] }, 3);
	ok(r.status == 0 && strstr(r.out, "<h3>A \u2192 B: ") && strstr(r.out, "<h3>A \u2192 C: "),
	   "report A B C: A -> B and A -> C, as before");
	tap_like(r.out, "Welch's t interval on the round medians",
		 "one run a side: the interval is on the round medians");
	tap_like(r.out, "without the variation from one run to the next</span>",
		 "... and said to lack the run-to-run variation");
	run_free(&r);

	report(&r, (const char *[]){ flat_path[0], flat_path[1] }, 2);
	tap_like(r.out, "a bootstrap over the raw samples, cycles/op their medians, ",
		 "files without rounds: the interval is a bootstrap over the samples");
	tap_like(r.out, ">batches</td>", "... model batches in the table");
	ok(!strstr(r.out, "round medians"), "... and no round medians named");
	run_free(&r);
}

static void test_noise(void)
{
	struct run_result r;

	if (access(noise_path, R_OK) || access(noise_other, R_OK)) {
		tap_skip(4, "no noise floor was written");
		return;
	}
	report(&r, (const char *[]){ "--noise", noise_path, a_path[0], b_path[0] }, 4);
	ok(r.status == 0, "report --noise FLOOR A B: exit 0 (%d: %s)", r.status, r.err);
	tap_like(r.out, "<p class=\"note\">noise floor: ", "the floor is named");
	tap_like(r.out, "the noise floor's</span> (2 probes)",
		 "the intervals are said to hold the floor's run-to-run variation");
	run_free(&r);
	report(&r, (const char *[]){ "--noise", noise_other, a_path[0], b_path[0] }, 4);
	ok(r.status == 2 && one_line(r.err) && strstr(r.err, "another host"),
	   "a floor of another host: exit 2, one line, as compare (%s)", r.err);
	run_free(&r);
}

static void test_doc(void)
{
	char doc[4200], moved[4200], copy[4200], changed[4200];
	struct run_result r;
	size_t len;
	char *text;

	snprintf(doc, sizeof(doc), "%s/cmp.json", tmp);
	{
		const char *argv[] = { exe, "compare", "--threshold", "5", "--seed", "7", a_path[0],
				       a_path[1], "--", b_path[0], b_path[1], "--json", doc, NULL };

		run_cmd(&r, argv);
		run_free(&r);
	}
	if (access(doc, R_OK)) {
		tap_skip(6, "compare --json wrote no document");
		return;
	}
	report(&r, (const char *[]){ doc }, 1);
	ok(r.status == 0, "report COMPARE.json: exit 0 (%d: %s)", r.status, r.err);
	tap_like(r.out, "made again from its files with its options",
		 "the page says it was made from the document's files");
	tap_like(r.out, "<h3>A+B \u2192 C+D: ", "the document's sides, pooled as it pooled them");
	tap_like(r.out, "below the threshold</title>", "a threshold band is drawn");
	ok(strstr(r.out, "\u00b15.0%: below the threshold") != NULL,
	   "the document's threshold (5%%), not the default");
	run_free(&r);

	report(&r, (const char *[]){ "--threshold", "3", doc }, 3);
	ok(r.status == 2 && strstr(r.err, "brings its own options"), "options with a document: exit 2 (%s)",
	   r.err);
	run_free(&r);
	{
		const char *argv[] = { exe, "report", doc, "-o", b_path[0], NULL };

		run_cmd(&r, argv);
		ok(r.status == 2 && strstr(r.err, "-o") && strstr(r.err, b_path[0]),
		   "-o naming a file of the document: exit 2, refused (%s)", r.err);
		run_free(&r);
	}
	report(&r, (const char *[]){ a_path[0], doc }, 2);
	ok(r.status == 2 && strstr(r.err, "reported alone"), "a document with other files: exit 2 (%s)",
	   r.err);
	run_free(&r);

	/* A file the document names changed: its figures are not the document's. */
	snprintf(copy, sizeof(copy), "%s.orig", b_path[1]);
	snprintf(changed, sizeof(changed), "%s", b_path[1]);
	text = run_read_file(b_path[1], &len);
	if (!text || rename(b_path[1], copy)) {
		tap_skip(2, "cannot move a file aside");
		free(text);
		return;
	}
	{
		json_t *d = run_file(1500, 99, 1);

		json_dump_file(d, changed, JSON_INDENT(1));
		json_decref(d);
	}
	report(&r, (const char *[]){ doc }, 1);
	ok(r.status == 2 && one_line(r.err) && strstr(r.err, "changed since the comparison"),
	   "a file changed since the comparison: exit 2, one line (%s)", r.err);
	run_free(&r);
	unlink(changed);
	snprintf(moved, sizeof(moved), "%s", b_path[1]);
	report(&r, (const char *[]){ doc }, 1);
	ok(r.status == 2 && one_line(r.err) && strstr(r.err, moved) && strstr(r.err, "its file"),
	   "a file the document names is missing: exit 2, one line naming it (%s)", r.err);
	run_free(&r);
	rename(copy, b_path[1]);
	free(text);
}

/* A document made with --noise: report reads the floor it names and puts it in the intervals. */
static void test_doc_noise(void)
{
	char doc[4200];
	struct run_result r;

	if (access(noise_path, R_OK)) {
		tap_skip(2, "no noise floor was written");
		return;
	}
	snprintf(doc, sizeof(doc), "%s/cmp-noise.json", tmp);
	{
		const char *argv[] = { exe, "compare", "--noise", noise_path, a_path[0], b_path[0],
				       "--json", doc, NULL };

		run_cmd(&r, argv);
		run_free(&r);
	}
	report(&r, (const char *[]){ doc }, 1);
	ok(r.status == 0, "report of a document made with --noise: exit 0 (%d: %s)", r.status, r.err);
	tap_like(r.out, "the noise floor's</span> (2 probes)", "... its floor is in the intervals again");
	run_free(&r);
}

/* A verdict or kind compare.h may add later still gets a name and a class. */
static void test_unknown(void)
{
	tap_is_str(report_verdict_class((enum compare_verdict)(COMPARE_VERDICT_N + 3)), "na",
	       "an unknown verdict's class is na");
	tap_is_str(report_verdict_name((enum compare_verdict)(COMPARE_VERDICT_N + 3)), "?",
	       "an unknown verdict's name is ?");
	tap_is_str(report_verdict_class(COMPARE_TOO_NOISY), "noisy", "too noisy keeps its class");
	tap_is_str(report_verdict_name(COMPARE_SLOWER), compare_verdict_names[COMPARE_SLOWER],
	       "a known verdict's name is compare's");
}

int main(void)
{
	exe = getenv("EXITSCOPE");
	tmp = fixture_tmpdir();
	if (!tmp)
		return tap_skip_all("cannot make a temp dir");
	test_unknown();
	if (!exe || access(exe, X_OK)) {
		tap_skip(1, "EXITSCOPE not set (run through make check)");
	} else {
		make_files();
		test_sides();
		test_noise();
		test_doc();
		test_doc_noise();
	}
	fixture_rmdir(tmp);
	return done_testing();
}
