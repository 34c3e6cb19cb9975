// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_expect_across.c - `exitscope expect --across` (expect/expect_across.c):
 * each kind between kernels holding and failing on made-up runs and maps
 * of two lanes on two kernel sources (DIR/LANE-SOURCE/results/), with the
 * lines scripts/lane-kernels keeps in across.log ("  ok    ...", FAIL,
 * skip, the summary) and the exit status; a line about a lane or source
 * not run skipped; the lanes and sources found in DIR; and the parse
 * errors, one line naming FILE:LINE, exit 2.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/array_size.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *exe;
static char *dir;

/* A probe whose every sample, and so its median, is cycles. */
static json_t *probe(const char *name, double cycles)
{
	const double s[3] = { cycles, cycles, cycles };

	return fixture_probe(name, "basic", s, ARRAY_SIZE(s), 1);
}

/* dir/lane-source/results/block.json */
static bool result_write(const char *lane, const char *source, const char *block, json_t *doc)
{
	char path[4096], file[64];
	const char *w;

	snprintf(path, sizeof(path), "%s/%s-%s", dir, lane, source);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s-%s/results", dir, lane, source);
	mkdir(path, 0700);
	snprintf(file, sizeof(file), "%s.json", block);
	w = fixture_write(path, file, doc);
	json_decref(doc);
	return w != NULL;
}

/* A map of cr4 PGE (status pge) and CET, profile "host". */
static json_t *map_doc(const char *pge)
{
	json_t *doc = fixture_result(fixture_host("6.1.0", "Xeon", "native"), json_array());

	json_object_set_new(doc, "map", fixture_map(0, "host", json_pack("[o, o]",
		fixture_map_entry("cr4", 7, "PGE", "toggle", pge, !strcmp(pge, "owned") ? 0 : 1),
		fixture_map_entry("cr4", 23, "CET", "toggle", "rejected", 0))));
	return doc;
}

/*
 * vmx and svm, each on 6.12 and 7.2: invd 1000 -> 900 cycles, wbinvd
 * 1005 and 1004, hlt skipped on 7.2; vmx's map the same on both, svm's
 * cr4.PGE owned on 6.12 and intercepted on 7.2.
 */
static int across_make(void)
{
	static const char *const lanes[] = { "vmx", "svm" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lanes); i++) {
		const char *l = lanes[i];

		if (!result_write(l, "6.12", "run", fixture_result(fixture_host("6.12.0", "Xeon",
			"native"), json_pack("[o, o, o]", probe("invd", 1000),
					     probe("wbinvd", 1005), probe("hlt", 3000)))) ||
		    !result_write(l, "7.2", "run", fixture_result(fixture_host("7.2.0", "Xeon",
			"native"), json_pack("[o, o, o]", probe("invd", 900), probe("wbinvd", 1004),
					     fixture_probe_status("hlt", "basic", "skipped",
								  "made up")))) ||
		    !result_write(l, "6.12", "map", map_doc("owned")) ||
		    !result_write(l, "7.2", "map", map_doc(i ? "intercepted" : "owned")))
			return -1;
	}
	return 0;
}

/* `exitscope expect --across dir [more] e.txt` with text as e.txt; r to run_free. */
static void expect_across(struct run_result *r, const char *text, const char *const *more)
{
	const char *argv[16] = { exe, "expect", "--across", dir };
	char file[4096];
	size_t n = 4;

	snprintf(file, sizeof(file), "%s/e.txt", dir);
	while (more && *more && n < ARRAY_SIZE(argv) - 2)
		argv[n++] = *more++;
	argv[n++] = file;
	argv[n] = NULL;
	if (!fixture_write_raw(dir, "e.txt", text, strlen(text))) {
		r->status = -1;
		r->out = strdup("");
		r->err = strdup("cannot write e.txt");
		return;
	}
	run_cmd(r, argv);
}

/* text exits status and prints a line starting with want (and, when given, the summary sum). */
static void is_across(const char *text, const char *const *more, int status, const char *want,
		      const char *sum, const char *what)
{
	struct run_result r;
	char *line;

	expect_across(&r, text, more);
	line = strstr(r.out, want);
	if (!ok(r.status == status && line && (line == r.out || line[-1] == '\n') &&
		(!sum || strstr(r.out, sum)), "%s", what))
		diag("exit %d, want '%s', out '%s', err '%s'", r.status, want, r.out, r.err);
	run_free(&r);
}

/* Each kind holding, and failing with the measured figures. */
static void test_kinds(void)
{
	static const struct {
		const char *held, *failed, *out_held, *out_failed;
	} k[] = {
		{ "faster vmx invd 7.2 6.12 5\n", "faster vmx invd 7.2 6.12 15\n",
		  "  ok    vmx invd: 7.2 900 < 6.12 1000 cycles (-10.0%)\n",
		  "  FAIL  faster vmx invd 7.2 6.12: measured 7.2 900, 6.12 1000 cycles (-10.0%, "
		  "needed below -15%)\n" },
		{ "near svm 6.12 invd wbinvd 1\n", "near svm 7.2 invd wbinvd 1\n",
		  "  ok    svm 6.12: invd 1000 within 1% of wbinvd 1005 cycles\n",
		  "  FAIL  near svm 7.2 invd wbinvd 1: measured invd 900, wbinvd 1004 cycles "
		  "(-10.4%)\n" },
		{ "below vmx 7.2 invd wbinvd 10\n", "below vmx 6.12 invd wbinvd 1\n",
		  "  ok    vmx 7.2: invd 900 below wbinvd 1004 cycles (-10.4%)\n",
		  "  FAIL  below vmx 6.12 invd wbinvd 1: measured invd 1000, wbinvd 1005 cycles "
		  "(-0.5%, needed below -1%)\n" },
		{ "same-ownership vmx\n", "same-ownership svm\n",
		  "  ok    vmx: every map entry has the same status on 6.12 7.2\n",
		  "  FAIL  same-ownership svm (6.12 7.2): cr4.PGE toggle: owned intercepted\n" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(k); i++) {
		char what[256];

		snprintf(what, sizeof(what), "%.*s holds", (int)strcspn(k[i].held, "\n"),
			 k[i].held);
		is_across(k[i].held, NULL, 0, k[i].out_held,
			  "lane-kernels: across: 1 passed, 0 failed, 0 skipped", what);
		snprintf(what, sizeof(what), "%.*s fails", (int)strcspn(k[i].failed, "\n"),
			 k[i].failed);
		is_across(k[i].failed, NULL, 1, k[i].out_failed,
			  "lane-kernels: across: 0 passed, 1 failed, 0 skipped", what);
	}
}

/* Lanes and sources not run, measurements missing, maps missing. */
static void test_lines(void)
{
	static const char *const vmx_6_12[] = { "--lanes", "vmx", "--sources", "6.12", NULL };
	static const char *const three[] = { "--sources", "6.1 6.12 7.2", NULL };
	static const char *const later[] = { "--sources", "6.12 7.2 8.0", NULL };

	is_across("faster svm-qemu invd 7.2 6.12 1\nsame-ownership vmx\n", NULL, 0,
		  "  skip  faster svm-qemu invd 7.2 6.12 1 (lane svm-qemu not run)\n",
		  "lane-kernels: across: 1 passed, 0 failed, 1 skipped", "a lane not run: skipped");
	is_across("faster vmx invd 7.2 6.12 1\nnear vmx 6.12 invd wbinvd 1\n", vmx_6_12, 0,
		  "  skip  faster vmx invd 7.2 6.12 1 (source 7.2 not run)\n",
		  "lane-kernels: across: 1 passed, 0 failed, 1 skipped",
		  "--sources: a source not listed is not run, its lines skipped");
	is_across("same-ownership svm\n", vmx_6_12, 1,
		  "  skip  same-ownership svm (lane svm not run)\n",
		  "lane-kernels: across: 0 passed, 0 failed, 1 skipped",
		  "--lanes: a lane not listed is skipped; nothing passed: exit 1");
	is_across("same-ownership vmx\n", vmx_6_12, 0,
		  "  ok    vmx: every map entry has the same status on 6.12\n", NULL,
		  "same-ownership on the sources listed only");
	is_across("faster vmx hlt 7.2 6.12 1\n", NULL, 1,
		  "  FAIL  faster vmx hlt 7.2 6.12: no ok measurement (none vs 3000)\n", NULL,
		  "a probe that was not ok: no measurement, FAIL");
	is_across("near vmx 6.12 nosuch invd 1 ?\nsame-ownership vmx\n", NULL, 0,
		  "  skip  near vmx 6.12 nosuch invd 1 (no ok measurement: none, 1000)\n",
		  "lane-kernels: across: 1 passed, 0 failed, 1 skipped",
		  "an optional line without a measurement is skipped");
	is_across("faster vmx invd 6.1 6.12 1\n", three, 1,
		  "  FAIL  faster vmx invd 6.1 6.12: no ok measurement (none vs 1000)\n", NULL,
		  "a source listed whose run is missing: FAIL");
	is_across("same-ownership vmx\n", later, 1, "  FAIL  same-ownership vmx (6.12 7.2 8.0): ",
		  "/vmx-8.0/results/map.json: no map profile in it;cr4.PGE toggle: owned owned;"
		  "cr4.CET toggle: rejected rejected\n",
		  "a map missing on a source: FAIL, named, and every entry it lacks");
	is_across("same-ownership vmx\n", three, 1, "  FAIL  same-ownership vmx (6.1 6.12 7.2): ",
		  "/vmx-6.1/results/map.json: no map profile in it\n",
		  "the first source's map missing: nothing to compare with, FAIL");
	is_across("require faster vmx invd 7.2 6.12 50\nsame-ownership vmx\n", NULL, 1,
		  "lane-kernels: a required expectation failed: the rest of e.txt is not checked\n",
		  "lane-kernels: across: 0 passed, 1 failed, 0 skipped",
		  "a failing require line stops the rest");
}

/*
 * A file with one line that does not parse: exit 2, nothing judged, one line
 * "exitscope expect: FILE:LINE: why", then the count of such lines.
 */
static void parse_error(const char *text, const char *where, const char *why, const char *what)
{
	struct run_result r;
	char want[4096], count[4096];
	const char *nl;

	expect_across(&r, text, NULL);
	snprintf(want, sizeof(want), "exitscope expect: %s/e.txt:%s: ", dir, where);
	snprintf(count, sizeof(count), "exitscope expect: %s/e.txt: 1 line that does not parse\n",
		 dir);
	nl = strchr(r.err, '\n');
	if (!ok(r.status == 2 && !*r.out && !strncmp(r.err, want, strlen(want)) && nl &&
		memmem(r.err, nl - r.err, why, strlen(why)) && !strcmp(nl + 1, count), "%s", what))
		diag("exit %d, want '%s' ... '%s', out '%s', err '%s'", r.status, want, why, r.out,
		     r.err);
	run_free(&r);
}

static void test_parse_errors(void)
{
	struct run_result r;
	char file[4096];

	parse_error("same-ownership vmx\nslower vmx invd 7.2 6.12 1\n", "2",
		    "unknown across line kind 'slower'", "an unknown kind");
	parse_error("rc run 0\n", "1", "unknown across line kind 'rc'", "a lane kind");
	parse_error("faster vmx invd 7.2 6.12\n", "1",
		    "too few words after 'faster' (faster LANE PROBE NEW OLD PCT)",
		    "too few words");
	parse_error("near vmx 6.12 invd wbinvd lots\n", "1", "'lots' is not PCT",
		    "PCT not a number");
	parse_error("same-ownership vmx svm\n", "1", "too many words after 'same-ownership'",
		    "too many words");

	/* The operands and options. */
	run_cmd(&r, (const char *const[]){ exe, "expect", "--lanes", "vmx", "x.txt", dir, NULL });
	ok(r.status == 2 && strstr(r.err, "--lanes and --sources go with --across"),
	   "--lanes without --across: usage error");
	run_free(&r);
	snprintf(file, sizeof(file), "%s/e.txt", dir);
	run_cmd(&r, (const char *const[]){ exe, "expect", "--across", dir, file, dir, NULL });
	ok(r.status == 2 && strstr(r.err, "--across: too many operands"),
	   "--across takes EXPECT_FILE only");
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "expect", "--across", file,
					   "lanes/kernels/expect-across.txt", NULL });
	ok(r.status == 2 && strstr(r.err, "--across DIR") && strstr(r.err, "Not a directory"),
	   "--across DIR not a directory: exit 2");
	run_free(&r);
}

/* The lanes' own file parses, and is judged (here: nothing it names ran, or failed). */
static void test_lane_file(void)
{
	struct run_result r;

	run_cmd(&r, (const char *const[]){ exe, "expect", "--across", dir,
					   "lanes/kernels/expect-across.txt", NULL });
	if (!ok(r.status == 1 && strstr(r.out, "\nlane-kernels: across: ") &&
		strstr(r.out, "  skip  same-ownership svm-qemu (lane svm-qemu not run)\n"),
		"lanes/kernels/expect-across.txt parses and is judged"))
		diag("exit %d, out '%s', err '%s'", r.status, r.out, r.err);
	run_free(&r);
}

int main(void)
{
	exe = getenv("EXITSCOPE");
	if (!exe)
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	dir = fixture_tmpdir();
	if (!dir || across_make())
		return tap_skip_all("cannot make the made-up runs");
	test_kinds();
	test_lines();
	test_parse_errors();
	test_lane_file();
	fixture_rmdir(dir);
	return done_testing();
}
