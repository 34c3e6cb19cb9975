// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_merge.c - `exitscope merge` (results/result_merge.h) on the lane
 * samples: a side's blocks as one file (the run block whole, the other
 * blocks' probes as NAME@BLOCK, the first map, the first checks), nothing
 * lost (every member and number of the base as read, every probe of every
 * block), --rename and --rounds, and what it refuses with one line and exit
 * status 2, writing nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "results/result_merge.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define S	"lanes/samples/cet/"

static const char *exe;
static char *tmp;
static char out[4096];
static char tsc_path[4096];	/* another run block: the SVM sample's run as tmp/tsc.json */

static json_t *load(const char *path)
{
	json_t *doc = json_load_file(path, 0, NULL);

	if (!doc)
		diag("%s: not JSON", path);
	return doc;
}

/* run_cmd, the last newline of stderr cut (the messages quote it). */
/* The merge into out, made afresh. */
static int run(struct run_result *r, const char *const argv[])
{
	remove(out);
	return run_cmd_trim(r, argv);
}

static json_t *probe_named(json_t *doc, const char *name)
{
	json_t *p;
	size_t i;

	json_array_foreach(json_object_get(doc, "probes"), i, p)
		if (!strcmp(fixture_str(p, "name"), name))
			return p;
	return NULL;
}

/* Every member of base but skip is in got, equal (numbers by value, exactly). */
static int same_but(json_t *base, json_t *got, const char *const *skip, size_t n)
{
	const char *k;
	json_t *v;

	json_object_foreach(base, k, v) {
		size_t i;

		for (i = 0; i < n && strcmp(skip[i], k); i++)
			;
		if (i == n && !json_equal(v, json_object_get(got, k))) {
			diag("member %s differs", k);
			return 0;
		}
	}
	return json_object_size(base) <= json_object_size(got);
}

static void test_blocks(void)
{
	static const char *const skip[] = { "probes", "map", "checks" };
	json_t *run_doc = load(S "run.json"), *tsc = load(tsc_path), *map = load(S "map.json");
	json_t *check = load(S "check.json"), *got, *p;
	struct run_result r;
	size_t i, n_run, n_tsc, lost = 0;
	char name[256];
	const char *argv[] = { exe, "merge", "-o", out, S "map.json", S "run.json", tsc_path,
			       S "check.json", NULL };

	run(&r, argv);
	ok(r.status == 0 && !*r.out && !*r.err, "merge: four blocks, exit 0, nothing printed (%d: %s)",
	   r.status, r.err);
	run_free(&r);
	got = load(out);
	if (!got || !run_doc || !tsc || !map || !check) {
		ok(0, "merge: the files read");
		return;
	}
	tap_is_str(fixture_str(got, "kind"), "run", "merge: the run block is the base, though map came first");
	ok(same_but(run_doc, got, skip, 3), "merge: every other member of the run block kept, exactly");
	n_run = json_array_size(json_object_get(run_doc, "probes"));
	n_tsc = json_array_size(json_object_get(tsc, "probes"));
	is_int((long long)json_array_size(json_object_get(got, "probes")), (long long)(n_run + n_tsc),
	       "merge: the probes of run and tsc, none lost");
	json_array_foreach(json_object_get(run_doc, "probes"), i, p)
		lost += !json_equal(p, json_array_get(json_object_get(got, "probes"), i));
	ok(!lost, "merge: the run block's probes first, whole and unrenamed (%zu differ)", lost);
	lost = 0;
	json_array_foreach(json_object_get(tsc, "probes"), i, p) {
		json_t *q = json_array_get(json_object_get(got, "probes"), n_run + i), *c = json_deep_copy(p);

		snprintf(name, sizeof(name), "%s@tsc", fixture_str(p, "name"));
		json_object_set_new(c, "name", json_string(name));
		lost += !json_equal(c, q);
		json_decref(c);
	}
	ok(!lost, "merge: tsc's probes next as NAME@tsc, otherwise whole (%zu differ)", lost);
	ok(json_equal(json_object_get(got, "map"), json_object_get(map, "map")), "merge: the map block's map");
	ok(json_equal(json_object_get(got, "checks"), json_object_get(check, "checks")),
	   "merge: the check block's checks");
	json_decref(got);

	{
		const char *argv1[] = { exe, "merge", S "run.json", NULL };

		run(&r, argv1);
		got = json_loads(r.out, 0, NULL);
		ok(r.status == 0 && got && json_equal(got, run_doc), "merge: one file to stdout is that file, equal");
		json_decref(got);
		run_free(&r);
	}
	{
		struct result_merge m = { .rename_from = "cpuid", .rename_to = "invd" };
		const char *paths[] = { S "run.json" };
		struct result_merged *rm;
		struct err err;

		rm = result_merge_read(paths, 1, &m, &err);
		ok(rm && result_merged_probes(rm) == n_run - 1, "result_merge_read --rename: one probe fewer (%s)",
		   rm ? "" : err.msg);
		ok(rm && result_merged_write(rm, out, &err) == 0, "result_merged_write");
		result_merged_free(rm);
		got = load(out);
		p = got ? probe_named(got, "invd") : NULL;
		ok(p && json_equal(json_object_get(p, "cycles"), json_object_get(probe_named(run_doc, "cpuid"),
										  "cycles")) &&
		   !probe_named(got, "cpuid"), "--rename cpuid=invd: cpuid's figures under invd, no cpuid left");
		json_decref(got);
	}
	json_decref(run_doc);
	json_decref(tsc);
	json_decref(map);
	json_decref(check);
}

static void test_rounds(void)
{
	json_t *run_doc = load(S "run.json"), *got, *p;
	struct run_result r;
	size_t i, wrong = 0, cut = 0;
	const char *argv[] = { exe, "merge", "--rounds", "2", "-o", out, S "run.json", NULL };

	run(&r, argv);
	ok(r.status == 0, "merge --rounds 2: exit 0 (%s)", r.err);
	run_free(&r);
	got = load(out);
	if (!got || !run_doc)
		return;
	json_array_foreach(json_object_get(run_doc, "probes"), i, p) {
		json_t *q = json_array_get(json_object_get(got, "probes"), i);
		json_t *ra = json_object_get(p, "rounds"), *rb = json_object_get(q, "rounds");
		json_t *c = json_deep_copy(p);

		if (ra) {
			size_t n = json_array_size(ra) < 2 ? json_array_size(ra) : 2;

			cut += json_array_size(ra) > 2;
			while (json_array_size(json_object_get(c, "rounds")) > n)
				json_array_remove(json_object_get(c, "rounds"), n);
			wrong += json_array_size(rb) != n;
		}
		wrong += !json_equal(c, q);
		json_decref(c);
	}
	ok(cut > 0 && !wrong, "merge --rounds 2: %zu probes cut to their first 2 rounds, the rest as it was", cut);
	json_decref(got);
	json_decref(run_doc);
}

struct bad {
	const char *args[6], *needle, *what;
};

static void test_refusals(void)
{
	static const struct bad bad[] = {
		{ { NULL }, "need a result FILE", "no file" },
		{ { S "wrong.txt" }, "wrong.txt: invalid JSON", "a file that is no JSON" },
		{ { S "run.json", "/nonexistent/a.json" }, "/nonexistent/a.json: cannot open", "a missing file" },
		{ { S "run.json", S "run.json" }, "two blocks named run", "two files of one block" },
		{ { "--rename", "nosuch=invd", S "run.json" }, "no probe \"nosuch\" in " S "run.json",
		  "--rename of no probe" },
		{ { "--rename", "invd", S "run.json" }, "want OLD=NEW", "--rename without =" },
		{ { "--rename", "=invd", S "run.json" }, "want OLD=NEW", "--rename without OLD" },
		{ { "--rename", "invd=invd", S "run.json" }, "into itself", "--rename into itself" },
		{ { "--rounds", "x", S "run.json" }, "--rounds", "--rounds not a number" },
	};
	struct run_result r;
	json_t *doc;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *argv[12] = { exe, "merge", "-o", out };
		size_t k = 4;

		for (size_t j = 0; bad[i].args[j]; j++)
			argv[k++] = bad[i].args[j];
		run(&r, argv);
		ok(r.status == 2 && strstr(r.err, "exitscope merge: ") && strstr(r.err, bad[i].needle) &&
		   !strchr(r.err, '\n') == !strstr(r.err, "Try"),
		   "merge refuses %s: exit 2, its line (%d: %.*s)", bad[i].what, r.status,
		   (int)strcspn(r.err, "\n"), r.err);
		run_free(&r);
		doc = json_load_file(out, 0, NULL);
		ok(!doc, "merge refuses %s: nothing written", bad[i].what);
		json_decref(doc);
	}
	{
		const char *argv[] = { exe, "merge", "-o", S "run.json", S "run.json", NULL };

		ok(run(&r, argv) == 2 && strstr(r.err, "same file"), "merge: -o over an input refused");
		run_free(&r);
	}
}

int main(void)
{
	exe = getenv("EXITSCOPE");
	if (!exe)
		return tap_skip_all("EXITSCOPE not set (run through make check)");
	tmp = fixture_tmpdir();
	if (!tmp)
		return tap_skip_all("no temporary directory");
	snprintf(out, sizeof(out), "%s/out.json", tmp);
	{
		size_t len;
		char *text = run_read_file("lanes/samples/svm/run.json", &len);
		const char *p = text ? fixture_write_raw(tmp, "tsc.json", text, len) : NULL;

		snprintf(tsc_path, sizeof(tsc_path), "%s", p ? p : "");
		free(text);
	}
	test_blocks();
	test_rounds();
	test_refusals();
	fixture_rmdir(tmp);
	return done_testing();
}
