// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_expect_ab.c - `exitscope expect --ab` (expect/expect_ab.c): each
 * A/B kind holding and failing on a made-up A/B output directory (two
 * sides' results, B edited from A, and `exitscope compare`'s documents of
 * each block), with the lines scripts/lane-ab reads ("  ok    a->b: ...",
 * FAIL, skip, the summary) and the exit status; and the A/B parse errors,
 * one line naming FILE:LINE, exit 2.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/array_size.h"
#include "tests/expect_run.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *exe;
static char *dir;

/* A probe of doc by name. */
static json_t *probe(json_t *doc, const char *name)
{
	json_t *p;
	size_t i;

	json_array_foreach(json_object_get(doc, "probes"), i, p)
		if (!strcmp(json_string_value(json_object_get(p, "name")), name))
			return p;
	return NULL;
}

/* Add d to every number of the array a. */
static void shift(json_t *a, double d)
{
	json_t *v;
	size_t i;

	json_array_foreach(a, i, v)
		json_array_set_new(a, i, json_real(json_number_value(v) + d));
}

/* B's cpuid 3000 cycles dearer with 2 exits an op, as the lane-ab self-test edits it. */
static void dearer(json_t *p)
{
	json_t *r;
	size_t i;

	shift(json_object_get(p, "samples"), 3000);
	json_array_foreach(json_object_get(p, "rounds"), i, r) {
		shift(json_object_get(r, "samples"), 3000);
		json_object_set_new(r, "median", json_real(fixture_num(r, "median") + 3000));
		json_object_set_new(r, "raw_median", json_real(fixture_num(r, "raw_median") + 3000));
	}
	json_object_set_new(json_object_get(p, "per_op"), "exits", json_real(2));
}

/* Drop the function name from an exit path (and its instructions from the kernel's). */
static void gone(json_t *ep, const char *name)
{
	json_t *fns = json_object_get(ep, "functions"), *f;
	size_t i;

	json_array_foreach(fns, i, f) {
		if (strcmp(json_string_value(json_object_get(f, "name")), name))
			continue;
		json_object_set_new(ep, "kernel_insn", json_integer(fixture_num(ep, "kernel_insn") -
								   fixture_num(f, "insn")));
		json_object_set_new(ep, "kernel_insn_per_op",
				    json_real(fixture_num(ep, "kernel_insn_per_op") -
					      fixture_num(f, "insn_per_op")));
		json_array_remove(fns, i);
		return;
	}
}

/* One census row, wrmsr xss once an op, on the exit path and in its function name. */
static void census(json_t *ep, const char *name)
{
	json_t *f;
	size_t i;

	json_object_set_new(ep, "census", json_pack("[{s:s, s:s, s:i, s:f}]", "insn", "wrmsr",
						    "operand", "xss", "count", 800, "per_op", 1.0));
	json_array_foreach(json_object_get(ep, "functions"), i, f)
		if (!strcmp(json_string_value(json_object_get(f, "name")), name))
			json_object_set(f, "census", json_object_get(ep, "census"));
}

/* dir/side/results/name.json */
static bool side_write(const char *side, const char *name, json_t *doc)
{
	char path[4096], file[256];

	snprintf(path, sizeof(path), "%s/%s", dir, side);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s/results", dir, side);
	mkdir(path, 0700);
	snprintf(file, sizeof(file), "%s.json", name);
	return fixture_write(path, file, doc) != NULL;
}

/* A side's map and check blocks: cr4 PGE owned on A, intercepted on B; xstate b skip -> pass. */
static json_t *side_doc(bool b)
{
	json_t *doc = fixture_result(fixture_host("6.1.0", "Xeon", "native"), json_array());

	json_object_set_new(doc, "map", fixture_map(0, "host", json_pack("[o, o]",
		fixture_map_entry("cr4", 7, "PGE", "toggle", b ? "intercepted" : "owned", b ? 1 : 0),
		fixture_map_entry("cr4", 23, "CET", "toggle", "intercepted", 2))));
	json_object_set_new(doc, "checks", json_pack("[o, o]",
		fixture_check("xstate", "a", "pass", "same state"),
		fixture_check("xstate", "b", b ? "pass" : "skip", "made up")));
	if (b)
		json_object_set_new(doc, "started", json_string("2027-11-30T01:38:25Z"));
	return doc;
}

/* The A/B: a/ and b/ results, compare-a-b-{run,map,check}.json. */
static int ab_make(void)
{
	static const char *const blocks[] = { "run", "map", "check" };
	json_error_t je;
	json_t *a, *b, *ca, *cb;
	size_t i;

	a = json_load_file("lanes/ab/example-profile/run.json", 0, &je);
	if (!a)
		return -1;
	json_object_set_new(json_object_get(probe(a, "cpuid"), "per_op"), "exits", json_real(1));
	census(json_object_get(probe(a, "invd"), "exit_path"), "kvm_load_guest_xsave_state");
	b = json_deep_copy(a);
	json_object_set_new(b, "started", json_string("2027-12-04T12:40:31Z"));
	dearer(probe(b, "cpuid"));
	gone(json_object_get(probe(b, "invd"), "exit_path"), "kvm_load_guest_xsave_state");
	json_object_set_new(json_object_get(probe(b, "invd"), "exit_path"), "census", json_array());
	ca = side_doc(false);
	cb = side_doc(true);
	if (!side_write("a", "run", a) || !side_write("b", "run", b) || !side_write("a", "map", ca) ||
	    !side_write("b", "map", cb) || !side_write("a", "check", ca) ||
	    !side_write("b", "check", cb))
		return -1;
	json_decref(a);
	json_decref(b);
	json_decref(ca);
	json_decref(cb);
	for (i = 0; i < 3; i++) {
		char pa[4096], pb[4096], pc[4096];
		const char *argv[] = { exe, "compare", pa, pb, "--json", pc, NULL };
		struct run_result r;
		int st;

		snprintf(pa, sizeof(pa), "%s/a/results/%s.json", dir, blocks[i]);
		snprintf(pb, sizeof(pb), "%s/b/results/%s.json", dir, blocks[i]);
		snprintf(pc, sizeof(pc), "%s/compare-a-b-%s.json", dir, blocks[i]);
		run_cmd(&r, argv);
		st = r.status;
		if (st > 1)
			diag("compare %s: exit %d: %s", blocks[i], st, r.err);
		run_free(&r);
		if (st > 1)
			return -1;
	}
	return 0;
}

/* `exitscope expect --ab dir --pairs a:b e.txt` with text as e.txt; r to run_free. */
static void expect_ab(struct run_result *r, const char *text)
{
	expect_run(r, dir, text, (const char *const[]){ exe, "expect", "--ab", dir, "--pairs", "a:b",
							EXPECT_RUN_FILE, NULL });
}

/* text exits status and prints a line starting with want (and, when given, the summary sum). */
static void is_ab(const char *text, int status, const char *want, const char *sum, const char *what)
{
	struct run_result r;

	expect_ab(&r, text);
	ok(expect_run_shows(&r, status, want, sum), "%s", what);
	run_free(&r);
}

static void test_kinds(void)
{
	static const struct {
		const char *held, *failed, *out_held, *out_failed;
	} k[] = {
		{ "verdict cpuid slower|faster\n", "verdict cpuid faster\n",
		  "  ok    a->b: cpuid@run slower: base 1198, new 4198 cycles/op, diff 3000 (",
		  "  FAIL  a->b: cpuid@run: expected faster, measured slower: base 1198," },
		{ "exits cpuid 1 -> 2\n", "exits cpuid 1 -> 1\n",
		  "  ok    a->b: cpuid@run: 1.00 -> 2.00 exits/op",
		  "  FAIL  a->b: cpuid@run: expected 1 -> 1 exits/op, measured 1.00 -> 2.00 (base" },
		{ "perop cpuid exits >=1 -> >1.5\n", "perop cpuid exits 1 -> <2\n",
		  "  ok    a->b: cpuid@run: 1.00 -> 2.00 exits/op",
		  "  FAIL  a->b: cpuid@run: expected 1 -> <2 exits/op, measured 1.00 -> 2.00" },
		{ "within invd 0.5%\n", "within cpuid 10%\n",
		  "  ok    a->b: invd@run |diff| <= 0.5%: base ",
		  "  FAIL  a->b: cpuid@run: expected |diff| <= 10%, measured base 1198, new 4198" },
		{ "pct cpuid >100\n", "pct cpuid <0\n", "  ok    a->b: cpuid@run diff% >100: base 1198",
		  "  FAIL  a->b: cpuid@run: expected diff% <0, measured base 1198" },
		{ "map cr4 PGE toggle owned -> intercepted 0 -> 1\n",
		  "map cr4 PGE toggle owned -> intercepted 0 -> 2\n",
		  "  ok    a->b: map cr4.PGE toggle: owned -> intercepted, exits/op 0 -> 1",
		  "  FAIL  a->b: map cr4.PGE toggle: expected exits/op 0 -> 2, measured 0 -> 1" },
		{ "map cr4 CET toggle intercepted -> intercepted\n",
		  "map cr4 CET toggle intercepted -> owned\n",
		  "  ok    a->b: map cr4.CET toggle: intercepted -> intercepted, exits/op 2 -> 2",
		  "  FAIL  a->b: map cr4.CET toggle: expected intercepted -> owned, measured "
		  "intercepted -> intercepted" },
		{ "mapchanges 1\n", "mapchanges 0\n",
		  "  ok    a->b: 1 map changes: cr4.PGE toggle owned -> intercepted",
		  "  FAIL  a->b: expected 0 map changes, measured 1: cr4.PGE toggle owned -> intercepted" },
		{ "check xstate b skip -> pass\n", "check xstate a pass -> fail|skip\n",
		  "  ok    a->b: check xstate/b: skip -> pass",
		  "  FAIL  a->b: check xstate/a: expected pass -> fail|skip, measured pass -> pass" },
		{ "path invd kvm_load_guest_xsave_state calls 1 -> 0\n",
		  "path invd kvm_load_guest_xsave_state calls 1 -> 1\n",
		  "  ok    a->b: invd@run kvm_load_guest_xsave_state: 1 -> 0 calls/op (insn/op 14 -> 0, "
		  "gone)",
		  "  FAIL  a->b: invd@run kvm_load_guest_xsave_state: expected calls/op 1 -> 1, "
		  "measured 1 -> 0" },
		{ "census invd wrmsr xss 1 -> 0\n", "census invd wrmsr xss 1 -> 1\n",
		  "  ok    a->b: invd@run census wrmsr/xss: 1 -> 0 per op",
		  "  FAIL  a->b: invd@run census wrmsr/xss: expected 1 -> 1 per op, measured 1 -> 0" },
		{ "about new:cpuid = base:cpuid + 3000 within 1%\n",
		  "about new:cpuid = base:cpuid within 10%\n",
		  "  ok    a->b: about: 4198.00 vs 4198.00 within 1% (new:cpuid=4198.00 = "
		  "base:cpuid=1198.00 + 3000=3000.00)",
		  "  FAIL  a->b: expected new:cpuid=4198.00 to be within 10% of base:cpuid=1198.00, "
		  "measured 4198.00 vs 1198.00" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(k); i++) {
		char what[256];

		snprintf(what, sizeof(what), "%.*s holds", (int)strcspn(k[i].held, "\n"), k[i].held);
		is_ab(k[i].held, 0, k[i].out_held, "lane-ab: expectations: 1 passed, 0 failed, 0 skipped",
		      what);
		snprintf(what, sizeof(what), "%.*s fails", (int)strcspn(k[i].failed, "\n"),
			 k[i].failed);
		is_ab(k[i].failed, 1, k[i].out_failed,
		      "lane-ab: expectations: 0 passed, 1 failed, 0 skipped", what);
	}
}

/* Pairs, optional lines, missing blocks and probes. */
static void test_lines(void)
{
	is_ab("pair a c\nverdict cpuid slower\n", 1,
	      "  FAIL  a->c: pair a c is not one of the compared pairs (a:b)",
	      "lane-ab: expectations: 0 passed, 2 failed", "a pair not compared fails");
	is_ab("verdict cpuid slower\npair a c\nverdict cpuid slower\n", 1,
	      "  FAIL  a->c: verdict cpuid slower: no comparison of block 'run' (missing results: ",
	      "1 passed, 2 failed", "after a pair line, the lines are about that pair");
	is_ab("verdict nosuch faster ?\nverdict cpuid slower\n", 0,
	      "  skip  a->b: verdict nosuch faster (probe nosuch@run on neither side)",
	      "lane-ab: expectations: 1 passed, 0 failed, 1 skipped",
	      "an optional line about a missing probe is skipped");
	is_ab("verdict nosuch faster\n", 1,
	      "  FAIL  a->b: verdict nosuch faster: probe nosuch@run: on neither side", NULL,
	      "a line about a missing probe fails");
	is_ab("verdict cpuid@xcr0 slower\n", 1,
	      "  FAIL  a->b: verdict cpuid@xcr0 slower: no comparison of block 'xcr0'", NULL,
	      "a line about a block not compared fails");
	is_ab("verdict cpuid@xcr0 slower?\n", 1, "  skip  a->b: verdict cpuid@xcr0 slower (no "
	      "comparison of block 'xcr0')", "0 passed, 0 failed, 1 skipped",
	      "optional: skipped; nothing passed: exit 1");
	is_ab("require verdict cpuid faster\nverdict cpuid slower\n", 1,
	      "lane-ab: a required expectation failed: the rest of e.txt is not checked",
	      "0 passed, 1 failed", "a failing require line stops the rest");
	is_ab("map cr4 NOSUCH toggle owned -> owned ?\n", 1, "  skip  a->b: map cr4 NOSUCH toggle "
	      "owned -> owned (no map entry cr4.NOSUCH toggle)\n", NULL,
	      "the text of an optional line has no blank before its '?'");
}

/* `exitscope expect --ab dir --pairs pairs e.txt` with text as e.txt: status and its stderr. */
static void pairs_refused(const char *pairs, const char *why, const char *what)
{
	struct run_result r;
	char want[512];

	expect_run(&r, dir, "verdict cpuid slower\n", (const char *const[]){ exe, "expect", "--ab",
			dir, "--pairs", pairs, EXPECT_RUN_FILE, NULL });
	snprintf(want, sizeof(want), "exitscope expect: --pairs: %s\n"
		 "Try 'exitscope expect --help'.\n", why);
	ok(r.status == 2 && !*r.out && !strcmp(r.err, want), "%s", what);
	if (r.status != 2 || *r.out || strcmp(r.err, want))
		diag("exit %d, out '%s', err '%s', want '%s'", r.status, r.out, r.err, want);
	run_free(&r);
}

/* --pairs: blank-separated BASE:NEW words (space, tab, newline), each once, at most 64. */
static void test_pairs(void)
{
	char many[1024];
	struct run_result r;
	size_t i, n = 0;

	expect_run(&r, dir, "pair a c\n", (const char *const[]){ exe, "expect", "--ab", dir,
			"--pairs", " a:b\tb:c\na:b ", EXPECT_RUN_FILE, NULL });
	ok(expect_run_shows(&r, 1, "  FAIL  a->c: pair a c is not one of the compared pairs (a:b b:c)",
			    "lane-ab: expectations: 0 passed, 1 failed"),
	   "--pairs split at blanks, tabs and newlines, a pair given twice listed once");
	run_free(&r);
	pairs_refused("a:b ab", "'ab' is not BASE:NEW (at most 64 pairs)", "--pairs: a word without ':'");
	pairs_refused(" \t\n", "no BASE:NEW pair", "--pairs: only blanks");
	for (i = 0; i <= 64; i++)
		n += snprintf(many + n, sizeof(many) - n, "%sa:b%zu", i ? " " : "", i);
	pairs_refused(many, "'a:b64' is not BASE:NEW (at most 64 pairs)", "--pairs: 65 pairs");
}

/* A file that does not parse: exit 2, "exitscope expect: FILE:LINE: why", nothing judged. */
static void parse_error(const char *text, const char *where, const char *why, const char *what)
{
	struct run_result r;

	expect_ab(&r, text);
	ok(expect_run_refused(&r, dir, where, why), "%s", what);
	run_free(&r);
}

static void test_parse_errors(void)
{
	parse_error("verdict cpuid slower\nrc run 0\n", "2", "unknown A/B line kind 'rc'",
		    "a lane kind in an A/B file");
	parse_error("verdict cpuid\n", "1", "too few words after 'verdict'", "too few words");
	parse_error("\nexits cpuid 1 2 3\n", "2", "want: exits PROBE[@BLOCK] A -> B", "no arrow");
	parse_error("map cr4 PGE toggle owned -> x 0 => 1\n", "1", "want: map REG NAME OP A -> B",
		    "map's second arrow");
	parse_error("map cr4 PGE toggle owned -> x 0 -> y\n", "1", "'y' is not N, >=N",
		    "map's exits not a NUM");
	parse_error("within cpuid x%\n", "1", "'x%' is not PCT%", "within without a number");
	parse_error("pct cpuid lots\n", "1", "'lots' is not N", "pct without a NUM");
	parse_error("path invd kernel calls 1 -> 1\n", "1", "kernel has instructions, not calls",
		    "kernel calls");
	parse_error("path invd f cycles 1 -> 1\n", "1", "want: path PROBE[@BLOCK] FUNCTION calls|insn",
		    "path's unit");
	parse_error("about base:cpuid within 5%\n", "1", "want: about TERM", "about without '='");
	parse_error("census invd wrmsr xss 1 -> many\n", "1", "'many' is not N", "census NUM");
}

int main(void)
{
	exe = getenv("EXITSCOPE");
	if (!exe)
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	dir = fixture_tmpdir();
	if (!dir || ab_make())
		return tap_skip_all("cannot make the made-up A/B");
	test_kinds();
	test_lines();
	test_pairs();
	test_parse_errors();
	fixture_rmdir(dir);
	return done_testing();
}
