// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_walk_list.c - `exitscope walk --from LIST --write WALK.json`: the walk
 * file of a walk list (results/walk_list.h) as lane-walk keeps it, every
 * field and subject byte kept (tabs, quotes, UTF-8), an empty walk, and
 * what it refuses, each with one line and exit status 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "results/walk_list.h"
#include "results/walk_model.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define RA "0123456789abcdef0123456789abcdef01234567"
#define RB "fedcba9876543210fedcba9876543210fedcba98"

static const char *exe;
static char *tmp;

static const char full[] =
	"# a walk list\n"
	"tool\texitscope-lanes\tv1.2-3-gabc\n"
	"repository\t/src/linux\n"
	"range\tv6.1..v6.2 \"x\"\n"
	"first_parent\ttrue\n"
	"every\t3\n"
	"lanes\tvmx,svm\n"
	"profile\tfalse\n"
	"commands\tcommands.list\n"
	"subject\t" RA "\tKVM: x86: a\ttab, \"quotes\", \\ and \xc3\xa9\n"
	"commit\t" RA "\tvmx\tok\tvmx/" RA "/results/run.json\n"
	"commit\t" RA "\tsvm\tok\tsvm/" RA "/results/run.json\n"
	"\n"
	"subject\t" RB "\t\n"
	"commit\t" RB "\tvmx\tskip\t\tbuild: make failed\tat line 3\n"
	"commit\t" RB "\tsvm\tskip\t\tboot: no run block\n";

/* Write text as tmp/name and run walk --from on it into tmp/out.json; the exit status. */
static int from_list(struct run_result *r, const char *name, const char *text)
{
	const char *list = fixture_write_raw(tmp, name, text, strlen(text));
	char lpath[4096], out[4096];

	snprintf(lpath, sizeof(lpath), "%s", list ? list : "");
	snprintf(out, sizeof(out), "%s/out.json", tmp);
	remove(out);
	const char *argv[] = { exe, "walk", "--from", lpath, "--write", out, NULL };
	return run_cmd_trim(r, argv);
}

static json_t *out_doc(void)
{
	char out[4096];

	snprintf(out, sizeof(out), "%s/out.json", tmp);
	return json_load_file(out, 0, NULL);
}

static json_t *commit_at(json_t *doc, size_t i)
{
	return json_array_get(json_object_get(doc, "commits"), i);
}

static void test_full(void)
{
	struct run_result r;
	json_t *doc, *c, *want;
	struct walk_file *w;
	struct err err;
	char out[4096];

	from_list(&r, "full.tsv", full);
	ok(r.status == 0 && !*r.out && !*r.err,
	   "walk --from: exit 0, nothing printed (%d: %s)", r.status, r.err);
	run_free(&r);
	doc = out_doc();
	ok(doc != NULL, "walk --from: --write FILE is JSON");
	if (!doc)
		return;
	tap_is_str(fixture_str(doc, "schema"), WALK_SCHEMA, "walk --from: the walk schema");
	is_int((long long)json_integer_value(json_object_get(doc, "schema_version")), WALK_SCHEMA_VERSION,
	       "walk --from: its version");
	tap_is_str(fixture_str(json_object_get(doc, "tool"), "name"), "exitscope-lanes", "walk --from: tool.name");
	tap_is_str(fixture_str(json_object_get(doc, "tool"), "version"), "v1.2-3-gabc",
		   "walk --from: tool.version");
	tap_is_str(fixture_str(doc, "repository"), "/src/linux", "walk --from: repository");
	tap_is_str(fixture_str(doc, "range"), "v6.1..v6.2 \"x\"", "walk --from: range, its quotes kept");
	ok(json_is_true(json_object_get(doc, "first_parent")), "walk --from: first_parent true");
	is_int((long long)json_integer_value(json_object_get(doc, "every")), 3, "walk --from: every");
	ok(json_is_false(json_object_get(doc, "profile")), "walk --from: profile false");
	tap_is_str(fixture_str(doc, "commands"), "commands.list", "walk --from: commands");
	want = json_pack("[s, s]", "vmx", "svm");
	ok(json_equal(json_object_get(doc, "lanes"), want), "walk --from: lanes in the list's order");
	json_decref(want);
	is_int((long long)json_array_size(json_object_get(doc, "commits")), 4, "walk --from: four commits");
	c = commit_at(doc, 0);
	want = json_pack("{s:s, s:s, s:s, s:s, s:n, s:s}", "rev", RA, "subject",
			 "KVM: x86: a\ttab, \"quotes\", \\ and \xc3\xa9", "lane", "vmx", "status", "ok",
			 "reason", "run", "vmx/" RA "/results/run.json");
	ok(json_equal(c, want), "walk --from: an ok commit, its subject byte for byte (tab, UTF-8)");
	json_decref(want);
	c = commit_at(doc, 2);
	want = json_pack("{s:s, s:s, s:s, s:s, s:s, s:n}", "rev", RB, "subject", "", "lane", "vmx",
			 "status", "skip", "reason", "build: make failed\tat line 3", "run");
	ok(json_equal(c, want), "walk --from: a skip, its reason with its tab, no run");
	json_decref(want);
	tap_is_str(fixture_str(commit_at(doc, 1), "lane"), "svm", "walk --from: commits in the list's order");
	json_decref(doc);

	/* What it wrote reads back as a walk file, and the library reader agrees. */
	snprintf(out, sizeof(out), "%s/out.json", tmp);
	w = walk_read_file(out, &err);
	ok(w && w->n_commits == 4 && w->n_lanes == 2 && w->every == 3 && w->first_parent == 1,
	   "walk --from: the walk file reads back (%s)", w ? "" : err.msg);
	walk_free(w);
	snprintf(out, sizeof(out), "%s/full.tsv", tmp);
	w = walk_list_read(out, &err);
	ok(w && w->n_commits == 4 && w->commits[3].status == WALK_SKIP && !w->commits[3].run,
	   "walk_list_read: the list (%s)", w ? "" : err.msg);
	walk_free(w);
}

static void test_empty(void)
{
	struct run_result r;
	json_t *doc;

	from_list(&r, "empty.tsv", "lanes\tsvm\n");
	ok(r.status == 0, "walk --from: a list with lanes only (%s)", r.err);
	run_free(&r);
	doc = out_doc();
	ok(doc && json_array_size(json_object_get(doc, "commits")) == 0 && !json_object_get(doc, "every") &&
	   !json_object_get(doc, "tool"), "walk --from: no commits yet, no optional fields made up");
	json_decref(doc);
}

struct bad {
	const char *text, *needle, *what;
};

static void test_refusals(void)
{
	static const struct bad bad[] = {
		{ "", "no lanes line", "an empty list" },
		{ "lanes\tvmx\ncommitted\t" RA "\n", ":2: \"committed\" is no walk list line", "an unknown line" },
		{ "lanes\tvmx\nlanes\tsvm\n", ":2: a second lanes line", "a header twice" },
		{ "lanes\tkvm\n", ":1: lane \"kvm\" is not vmx or svm", "an unknown lane" },
		{ "lanes\tvmx\nevery\t0\n", ":2: every \"0\" is not a positive number", "every 0" },
		{ "lanes\tvmx\nprofile\tyes\n", ":2: profile \"yes\" is not true or false", "a bad bool" },
		{ "lanes\tvmx\ntool\tx\n", ":2: tool wants 2 fields after it, got 1", "a field missing" },
		{ "lanes\tvmx\nevery\t1\t2\n", ":2: every wants 1 field after it, got more", "a field more" },
		{ "lanes\tvmx\ncommit\t" RA "\tvmx\tdone\tr.json\n", ":2: status \"done\" is not ok or skip",
		  "an unknown status" },
		{ "lanes\tvmx\ncommit\tabc\tvmx\tok\tr.json\n", "commits[0].rev: \"abc\" is not 40 hexadecimal",
		  "a short rev" },
		{ "lanes\tvmx\ncommit\t" RA "\tsvm\tok\tr.json\n", "is not one of the walk's \"lanes\"",
		  "a lane the walk has not" },
		{ "lanes\tvmx\ncommit\t" RA "\tvmx\tskip\t\n", "status \"skip\" needs a \"reason\"",
		  "a skip without reason" },
		{ "lanes\tvmx\ncommit\t" RA "\tvmx\tok\t\n", "status \"ok\" needs a \"run\"", "an ok without run" },
		{ "lanes\tvmx\ncommit\t" RA "\tvmx\tok\ta\ncommit\t" RA "\tvmx\tok\tb\n", "is already commits[0]",
		  "a commit twice in a lane" },
		{ "lanes\tvmx\nsubject\t" RA "\ta\nsubject\t" RA "\tb\n", ":3: a second subject of", "two subjects" },
	};
	struct run_result r;
	json_t *doc;
	int nl;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		from_list(&r, "bad.tsv", bad[i].text);
		nl = 0;
		for (const char *s = r.err; *s; s++)
			nl += *s == '\n';
		ok(r.status == 2 && nl == 0 && *r.err && strstr(r.err, "exitscope walk: ") && strstr(r.err, "bad.tsv") &&
		   strstr(r.err, bad[i].needle), "walk --from refuses %s: exit 2, one line (%d: %s)", bad[i].what,
		   r.status, r.err);
		run_free(&r);
		doc = out_doc();
		ok(!doc, "walk --from refuses %s: no file written", bad[i].what);
		json_decref(doc);
	}
	{
		const char *argv[] = { exe, "walk", "--from", "x.tsv", NULL };

		ok(run_cmd_trim(&r, argv) == 2 && strstr(r.err, "give --write"), "walk --from without --write: usage");
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "walk", "--write", "x.json", "w.json", NULL };

		ok(run_cmd_trim(&r, argv) == 2 && strstr(r.err, "--from LIST"), "walk --write without --from: usage");
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "walk", "--from", "x.tsv", "--write", "x.json", "--json", "s.json",
				       NULL };

		ok(run_cmd_trim(&r, argv) == 2 && strstr(r.err, "no --json"), "walk --from with --json: usage");
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "walk", "--from", "/nonexistent/x.tsv", "--write", "-", NULL };

		ok(run_cmd_trim(&r, argv) == 2 && strstr(r.err, "/nonexistent/x.tsv"),
		   "walk --from a missing file: exit 2 naming it");
		run_free(&r);
	}
	{
		char list[4096];
		const char *argv[] = { exe, "walk", "--from", list, "--write", list, NULL };

		snprintf(list, sizeof(list), "%s/full.tsv", tmp);
		ok(run_cmd_trim(&r, argv) == 2 && strstr(r.err, "input"), "walk --from: --write over the list refused");
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
	test_full();
	test_empty();
	test_refusals();
	fixture_rmdir(tmp);
	return done_testing();
}
