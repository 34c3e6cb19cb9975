// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_walk.c - `exitscope walk`, `report WALK.json` and `query` on a walk:
 * walks of five commits built from the VMX lane sample run (a +5% step at
 * commit 3, +0.1% within the spread at commit 4, a skip at commit 5, a probe
 * missing at commit 2, a two-vCPU probe that moves), the steps found, the
 * text, the JSON, the HTML; exit paths on both sides of a step, with a
 * census; and what the reader refuses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/walk_steps.h"
#include "results/exit_path.h"
#include "results/walk_model.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define SAMPLE	"lanes/samples/vmx/run.json"
#define NC	5
#define EVIL	"<script>alert(1)</script> & 'q'"

static const char *exe;
static char *tmp;
static char revs[NC][WALK_REV_LEN + 1];
static const double invd[NC] = { 1000, 1000, 1050, 1051.05, 0 };	/* +5%, +0.1%, skip */

static json_t *probe_of(json_t *run, const char *name)
{
	json_t *p = fixture_probe_json(run, name);

	if (!p) {
		diag("%s has no probe %s", SAMPLE, name);
		exit(1);
	}
	return p;
}

static void set_median(json_t *run, const char *name, double v)
{
	json_object_set_new(json_object_get(probe_of(run, name), "cycles"), "median", json_real(v));
}

/* A probe record that ran on two vCPUs: a copy of cpuid with its two host CPUs. */
static void add_two_vcpu_probe(json_t *run, double cycles)
{
	json_t *p = json_deep_copy(probe_of(run, "cpuid"));

	json_object_set_new(p, "name", json_string("ipi"));
	json_object_set_new(p, "cpus", json_pack("[i, i]", 0, 1));
	json_object_set_new(json_object_get(p, "cycles"), "median", json_real(cycles));
	json_array_append_new(json_object_get(run, "probes"), p);
}

/* One function's counts over ops operations. */
struct fn_counts {
	const char *name;
	long long insn, calls;
};

/* An exit path of kernel instructions over 256 ops, through the result model's writer. */
static json_t *exit_path_doc(const struct fn_counts *fns, size_t n)
{
	struct exit_path_fn f[8] = { 0 };
	struct exit_path e = { .present = 1, .ops = 256 };
	json_t *o;

	for (size_t i = 0; i < n; i++) {
		f[i] = (struct exit_path_fn){ .name = fns[i].name, .insn = fns[i].insn, .calls = fns[i].calls };
		e.kernel_insn += fns[i].insn;
	}
	e.fns = f;
	e.n_fns = n;
	o = exit_path_json(&e);
	if (!o) {
		diag("exit_path_json failed");
		exit(1);
	}
	return o;
}

/* dir/NAME: the sample run with invd at cycles (and the other changes of commit i). */
static void write_run(const char *dir, size_t i, json_t *base, int profiled)
{
	json_t *run = json_deep_copy(base);
	char name[128];

	set_median(run, "invd", invd[i]);
	/* xsetbv: not measured at commit 2, then 6% more: no step judged across the gap. */
	if (i == 1) {
		json_t *x = probe_of(run, "xsetbv");

		json_t *skipped = json_pack("{s:s, s:s, s:s, s:s}", "name", "xsetbv", "group", "xsave",
					    "status", "skipped", "reason", "not here");

		json_object_clear(x);
		json_object_update(x, skipped);
		json_decref(skipped);
	} else if (i >= 2) {
		set_median(run, "xsetbv", 1300);
	}
	add_two_vcpu_probe(run, i >= 2 ? 25000 : 20000);	/* +25%: not judged */
	if (profiled) {
		const struct fn_counts before[] = {
			{ "vmx_vcpu_run", 256 * 168, 256 }, { "kvm_emulate_invd", 256 * 20, 256 },
			{ "vmx_handle_exit", 256 * 300, 256 },
		};
		const struct fn_counts after[] = {
			{ "vmx_vcpu_run", 256 * 168, 256 }, { "kvm_emulate_invd", 256 * 70, 512 },
			{ "vmx_handle_exit", 256 * 300, 256 },
		};

		json_object_set_new(run, "schema_version", json_integer(2));
		json_object_set_new(probe_of(run, "invd"), "exit_path",
				    i >= 2 ? exit_path_doc(after, 3) : exit_path_doc(before, 3));
	}
	snprintf(name, sizeof(name), "%s/run%zu.json", dir, i);
	if (!fixture_write(tmp, name, run)) {
		diag("cannot write %s", name);
		exit(1);
	}
	json_decref(run);
}

/* A walk of NC commits in tmp/dir (commit NC-1 skipped); returns its path (static). */
static const char *make_walk(const char *dir, int profiled)
{
	static char path[4096];
	json_t *base = json_load_file(SAMPLE, 0, NULL), *commits = json_array(), *walk;
	char sub[4096], run[256];

	if (!base) {
		diag("cannot read %s", SAMPLE);
		exit(1);
	}
	snprintf(sub, sizeof(sub), "%s/%s", tmp, dir);
	mkdir(sub, 0755);
	for (size_t i = 0; i < NC; i++) {
		char subject[256];

		snprintf(subject, sizeof(subject), "KVM: x86: change number %zu %s", i + 1,
			 i == 2 ? EVIL " and a subject long enough to be cut in the terminal, where it "
				  "must stay within one hundred columns" : "");
		if (i == NC - 1) {
			json_array_append_new(commits, json_pack("{s:s, s:s, s:s, s:s, s:s, s:n}", "rev",
								 revs[i], "subject", subject, "lane", "vmx",
								 "status", "skip", "reason",
								 "build: make exited 2 " EVIL, "run"));
			continue;
		}
		write_run(dir, i, base, profiled);
		snprintf(run, sizeof(run), "run%zu.json", i);
		json_array_append_new(commits, json_pack("{s:s, s:s, s:s, s:s, s:n, s:s}", "rev", revs[i],
							 "subject", subject, "lane", "vmx", "status",
							 "ok", "reason", "run", run));
	}
	walk = json_pack("{s:s, s:i, s:{s:s, s:s}, s:s, s:s, s:b, s:i, s:[s], s:b, s:s, s:o}",
			 "schema", WALK_SCHEMA, "schema_version", WALK_SCHEMA_VERSION, "tool", "name",
			 "exitscope-lanes", "version", "unknown", "repository", "/src/linux", "range",
			 "v6.1..mybranch", "first_parent", 1, "every", 1, "lanes", "vmx", "profile",
			 profiled, "commands", "commands.list", "commits", commits);
	snprintf(sub, sizeof(sub), "%s/walk.json", dir);
	snprintf(path, sizeof(path), "%s", fixture_write(tmp, sub, walk));
	json_decref(walk);
	json_decref(base);
	return path;
}

static int max_width(const char *s)
{
	int w = 0, cur = 0;

	for (; *s; s++) {
		if (*s == '\n') {
			cur = 0;
			continue;
		}
		if (((unsigned char)*s & 0xc0) != 0x80 && ++cur > w)
			w = cur;
	}
	return w;
}

static int count(const char *s, const char *needle)
{
	int n = 0;

	for (; (s = strstr(s, needle)); s++)
		n++;
	return n;
}

static void test_steps(const char *walk)
{
	const char *argv[] = { exe, "walk", walk, NULL };
	char json_path[4096], line[256];
	struct run_result r;
	json_t *doc, *lane, *p, *steps, *st;
	size_t i, nsteps = 0;

	run_cmd(&r, argv);
	is_int(r.status, 0, "walk: exit 0");
	snprintf(line, sizeof(line), "  %.12s KVM: x86: change number 3 ", revs[2]);
	tap_like(r.out, line, "walk: the step's commit line (short rev, subject)");
	tap_like(r.out, "    invd ", "walk: the step names the probe");
	tap_like(r.out, "1000 -> 1050 lane cycles    +5.00%", "walk: before -> after and the change");
	is_int(count(r.out, " -> "), 1, "walk: exactly one step printed");
	snprintf(line, sizeof(line), "  skipped: %.12s build: make exited 2 ", revs[4]);
	is_int(count(r.out, line), 1, "walk: the skipped commit listed once, with its reason");
	snprintf(line, sizeof(line), "  xsetbv not measured at %.12s: no step judged across", revs[1]);
	tap_like(r.out, line, "walk: a probe missing at a commit is named, no step across it");
	tap_like(r.out, "not judged (two vCPUs move more between boots): ipi",
		 "walk: the two-vCPU probe (its record has two CPUs) is not judged");
	tap_like(r.out, "vmx: 5 commits, 4 measured, 1 skipped;", "walk: the lane's counts");
	ok(max_width(r.out) <= 100, "walk: output within 100 columns (widest %d)", max_width(r.out));
	ok(!strstr(r.out, "0 -> 1051 "), "walk: +0.1%% at commit 4 is within the spread: no step");
	if (r.status)
		diag("stderr: %s", r.err);
	run_free(&r);

	snprintf(json_path, sizeof(json_path), "%s/steps.json", tmp);
	{
		const char *jargv[] = { exe, "walk", "--json", json_path, walk, NULL };

		run_cmd(&r, jargv);
	}
	is_int(r.status, 0, "walk --json FILE: exit 0");
	run_free(&r);
	doc = json_load_file(json_path, 0, NULL);
	tap_is_str(fixture_str(doc, "schema"), WALK_STEPS_SCHEMA, "walk --json: schema");
	is_int((long long)fixture_num(doc, "schema_version"), 1, "walk --json: schema_version 1");
	is_num(fixture_num(doc, "spread_pct"), LANE_SPREAD_1VCPU_PCT, 0, "walk --json: spread_pct");
	lane = json_array_get(json_object_get(doc, "lanes"), 0);
	tap_is_str(fixture_str(lane, "lane"), "vmx", "walk --json: lanes[0] is vmx");
	p = NULL;
	json_array_foreach(json_object_get(lane, "probes"), i, st) {
		nsteps += json_array_size(json_object_get(st, "steps"));
		if (!strcmp(fixture_str(st, "name"), "invd"))
			p = st;
	}
	is_int((long long)nsteps, 1, "walk --json: one step in all");
	steps = json_object_get(p, "steps");
	st = json_array_get(steps, 0);
	tap_is_str(fixture_str(st, "rev"), revs[2], "walk --json: the step is commit 3");
	tap_is_str(fixture_str(st, "from_rev"), revs[1], "walk --json: against commit 2");
	is_num(fixture_num(st, "before"), 1000, 0, "walk --json: before 1000");
	is_num(fixture_num(st, "after"), 1050, 0, "walk --json: after 1050");
	is_num(fixture_num(st, "change_pct"), 5, 1e-9, "walk --json: change_pct 5");
	is_int((long long)json_array_size(json_object_get(p, "figures")), 4,
	       "walk --json: invd's figures at the 4 ok commits");
	tap_is_str(fixture_str(json_array_get(json_object_get(lane, "skipped"), 0), "rev"), revs[4],
		   "walk --json: skipped[0] is commit 5");
	tap_is_str(json_string_value(json_array_get(json_object_get(lane, "not_judged_two_vcpus"), 0)),
		   "ipi", "walk --json: ipi not judged");
	ok(!json_object_get(st, "functions"), "walk --json: no functions without exit paths");
	json_decref(doc);

	{
		const char *qargv[] = { exe, "query", walk, "commits[*].status", NULL };

		run_cmd(&r, qargv);
		is_int(r.status, 0, "query walk.json: exit 0");
		tap_is_str(r.out, "ok\nok\nok\nok\nskip\n", "query 'commits[*].status'");
		run_free(&r);
	}
	{
		char sel[128];
		const char *qargv[] = { exe, "query", json_path, sel, NULL };

		snprintf(sel, sizeof(sel), "lanes[vmx].probes[invd].steps[%s].after", revs[2]);
		run_cmd(&r, qargv);
		tap_is_str(r.out, "1050\n", "query steps.json: a step by its commit's rev");
		run_free(&r);
	}
}

static void test_report(const char *walk)
{
	char html_path[4096], row[256];
	const char *argv[] = { exe, "report", walk, "-o", html_path, NULL };
	struct run_result r;
	char *html;

	snprintf(html_path, sizeof(html_path), "%s/walk.html", tmp);
	run_cmd(&r, argv);
	is_int(r.status, 0, "report WALK.json: exit 0");
	tap_like(r.out, "(walk: 5 commits, 1 step)", "report: the terminal line says what it drew");
	ok(max_width(r.out) <= 100 || strlen(html_path) > 60, "report: its line within 100 columns");
	run_free(&r);
	html = run_read_file(html_path, NULL);
	tap_like(html, "<svg class=\"chart walk\"", "report: a lane cycles chart");
	tap_like(html, "aria-label=\"lane cycles of invd over the commits\"", "report: invd's chart");
	snprintf(row, sizeof(row), "<tr class=\"wstep\"><td class=\"name\">%.12s</td>", revs[2]);
	tap_like(html, row, "report: the step's row");
	tap_like(html, "1000 \u2192 1050", "report: its before -> after");
	tap_like(html, "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;q&#39;", "report: subjects escaped");
	ok(html && !strstr(html, "<script"), "report: no script element");
	tap_like(html, "class=\"wskip\"", "report: the skipped commit marked on the chart");
	ok(html && !strstr(html, "http://") && !strstr(html, "https://"), "report: nothing fetched");
	free(html);
	{
		const char *argv2[] = { exe, "report", walk, SAMPLE, "-o", html_path, NULL };

		run_cmd(&r, argv2);
		is_int(r.status, 2, "report: a walk with result files is refused, exit 2");
		tap_like(r.err, "a walk file is reported alone", "report: ... saying why");
		run_free(&r);
	}
}

static void test_profiled(const char *walk)
{
	const char *argv[] = { exe, "walk", walk, NULL };
	struct run_result r;

	run_cmd(&r, argv);
	is_int(r.status, 0, "profiled walk: exit 0");
	tap_like(r.out, "      exit path: kernel 488.0 -> 538.0 insn/op (+50.0)",
		 "profiled walk: the kernel's instructions per op on both sides");
	tap_like(r.out, "        kvm_emulate_invd", "profiled walk: the function that changed");
	tap_like(r.out, "+50.0 insn/op   +1.00 calls/op", "profiled walk: by how much");
	ok(!strstr(r.out, "vmx_vcpu_run"), "profiled walk: an unchanged function is not listed");
	ok(max_width(r.out) <= 100, "profiled walk: within 100 columns");
	run_free(&r);
	{
		const char *jargv[] = { exe, "walk", "--json", "-", walk, NULL };
		json_t *doc, *fns;

		run_cmd(&r, jargv);
		doc = json_loads(r.out, 0, NULL);
		fns = NULL;
		if (doc) {
			json_t *lane = json_array_get(json_object_get(doc, "lanes"), 0), *p;
			size_t i;

			json_array_foreach(json_object_get(lane, "probes"), i, p)
				if (!strcmp(fixture_str(p, "name"), "invd"))
					fns = json_object_get(json_array_get(json_object_get(p, "steps"), 0),
							      "functions");
		}
		ok(doc != NULL, "walk --json -: stdout is the JSON alone");
		is_int((long long)json_array_size(fns), 1, "walk --json: one function changed");
		tap_is_str(fixture_str(json_array_get(fns, 0), "name"), "kvm_emulate_invd",
			   "walk --json: its name");
		json_decref(doc);
		run_free(&r);
	}
}

/* The steps document's step of invd at commit 3 (st): every key, in order. */
static void step_json_is(const struct walk_steps *s, const struct walk_step *st)
{
	json_t *doc = walk_steps_json(s), *probes, *p, *step = NULL;
	char *text, want[1024];
	size_t i;

	probes = json_object_get(json_array_get(json_object_get(doc, "lanes"), 0), "probes");
	json_array_foreach(probes, i, p)
		if (!strcmp(fixture_str(p, "name"), "invd"))
			step = json_array_get(json_object_get(p, "steps"), 0);
	text = step ? json_dumps(step, JSON_COMPACT | JSON_REAL_PRECISION(10)) : NULL;
	snprintf(want, sizeof(want), "{\"rev\":\"%s\",\"subject\":\"KVM: x86: change number 3 ",
		 revs[2]);
	ok(st && text && !strncmp(text, want, strlen(want)), "census: the step's JSON opens with "
	   "its commit's rev and subject");
	snprintf(want, sizeof(want), "\"from_rev\":\"%s\",\"before\":1000.0,\"after\":1050.0,"
		 "\"change_pct\":5.0,\"kernel_insn_per_op\":[488.0,538.0],\"functions\":"
		 "[{\"name\":\"kvm_emulate_invd\",\"insn_per_op\":[20.0,70.0],"
		 "\"calls_per_op\":[1.0,2.0]}],\"census\":[{\"insn\":\"wrmsr\","
		 "\"operand\":\"IA32_XSS\",\"per_op\":[0.0,1.0]}]}", revs[1]);
	tap_is_str(text ? strstr(text, "\"from_rev\"") : NULL, want,
		   "census: the step's JSON, its pairs [before, after] and census");
	free(text);
	json_decref(doc);
}

/* The census of both sides of the step, set in memory: the rows that changed per op. */
static void test_census(const char *walk)
{
	static struct exit_path_census before[] = { { "xsetbv", "XCR0", 512 } };
	static struct exit_path_census after[] = { { "wrmsr", "IA32_XSS", 256 }, { "xsetbv", "XCR0", 512 } };
	const struct walk_step *st = NULL;
	struct exit_path *e[2] = { NULL, NULL };
	struct walk_steps s;
	struct walk_file *w;
	struct err err;
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	w = walk_read_file(walk, &err);
	if (!w || walk_read_runs(w, &err)) {
		ok(0, "census: the profiled walk read (%s)", err.msg);
		walk_free(w);
		return;
	}
	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < w->commits[1 + side].rf->n_probes; i++)
			if (!strcmp(w->commits[1 + side].rf->probes[i].name, "invd"))
				e[side] = &w->commits[1 + side].rf->probes[i].exit_path;
	if (!e[0] || !e[1] || !e[0]->present || !e[1]->present) {
		ok(0, "census: invd has exit paths at commits 2 and 3");
		walk_free(w);
		return;
	}
	e[0]->has_census = e[1]->has_census = 1;
	e[0]->census = before;
	e[0]->n_census = 1;
	e[1]->census = after;
	e[1]->n_census = 2;
	ok(walk_steps_build(w, &s) == 0, "census: walk_steps_build");
	for (size_t j = 0; j < s.lanes[0].n_probes; j++)
		if (!strcmp(s.lanes[0].probes[j].name, "invd") && s.lanes[0].probes[j].n_steps)
			st = &s.lanes[0].probes[j].steps[0];
	ok(st && st->has_census && st->n_census == 1, "census: one row changed (%zu)", st ? st->n_census : 0);
	ok(st && st->n_census && !strcmp(st->census[0].insn, "wrmsr") && st->census[0].per_op[0] == 0 &&
	   st->census[0].per_op[1] == 1, "census: wrmsr IA32_XSS 0 -> 1 per op (absent before: 0)");
	step_json_is(&s, st);
	m = open_memstream(&text, &len);
	walk_steps_print(m, &s);
	fclose(m);
	tap_like(text, "      census per op: +1.00 wrmsr IA32_XSS\n", "census: the step's census line");
	ok(text && !strstr(text, "xsetbv XCR0"), "census: an unchanged row is not printed");
	free(text);
	walk_steps_free(&s);
	/* The rows are this test's: the runs' reader did not allocate them. */
	for (int side = 0; side < 2; side++) {
		e[side]->census = NULL;
		e[side]->n_census = 0;
		e[side]->has_census = 0;
	}
	walk_free(w);
}

/* Copies of the refused documents that docs/walk-schema.json must refuse too. */
#define MAX_BAD 8
static char bad_copies[MAX_BAD][4096];
static size_t n_bad;

/* Write a walk document with commit 0 changed by edit, run walk on it: exit 2 and the message. */
static void refused(const char *what, const char *key, json_t *value, const char *msg, int schema_says)
{
	char path[4096], src[4096];
	json_t *walk, *c0;
	struct run_result r;
	const char *argv[] = { exe, "walk", path, NULL };

	snprintf(src, sizeof(src), "%s/plain/walk.json", tmp);
	walk = json_load_file(src, 0, NULL);
	c0 = json_array_get(json_object_get(walk, "commits"), 0);
	if (value)
		json_object_set_new(c0, key, value);
	else
		json_object_del(c0, key);
	snprintf(path, sizeof(path), "%s/plain/bad.json", tmp);
	json_dump_file(walk, path, 0);
	if (schema_says && n_bad < MAX_BAD) {
		snprintf(bad_copies[n_bad], sizeof(bad_copies[n_bad]), "%s/plain/bad%zu.json", tmp, n_bad);
		json_dump_file(walk, bad_copies[n_bad++], 0);
	}
	json_decref(walk);
	run_cmd(&r, argv);
	is_int(r.status, 2, what);
	tap_like(r.err, msg, "... says so");
	ok(count(r.err, "\n") == 1, "... in one line");
	run_free(&r);
}

static void test_refusals(void)
{
	char path[4096], msg[512];
	struct run_result r;
	const char *argv[] = { exe, "walk", path, NULL };

	refused("bad rev: exit 2", "rev", json_string("abc123"),
		"bad.json: commits[0].rev: \"abc123\" is not 40 hexadecimal digits", 1);
	refused("ok without run: exit 2", "run", json_null(),
		"bad.json: commits[0]: status \"ok\" needs a \"run\"", 1);
	refused("unknown status: exit 2", "status", json_string("done"),
		"bad.json: commits[0].status: \"done\" is not one of ok, skip", 1);
	refused("skip without reason: exit 2", "status", json_string("skip"),
		"bad.json: commits[0]: status \"skip\" needs a \"reason\"", 1);
	refused("a lane not in lanes: exit 2", "lane", json_string("svm"),
		"bad.json: commits[0].lane: \"svm\" is not one of the walk's \"lanes\"", 0);
	refused("no subject: exit 2", "subject", NULL,
		"bad.json: commits[0]: missing required field \"subject\"", 1);
	snprintf(msg, sizeof(msg), "bad.json: commits[1]: %.12s in lane vmx is already commits[0]", revs[1]);
	refused("a commit twice in a lane: exit 2", "rev", json_string(revs[1]), msg, 0);
	refused("missing run file: exit 2", "run", json_string("gone/run.json"),
		"cannot open: No such file or directory", 0);
	snprintf(msg, sizeof(msg), "bad.json: commits[0] (%.12s vmx): %s/plain/gone/run.json: cannot open: "
		 "No such file or directory", revs[0], tmp);
	snprintf(path, sizeof(path), "%s/plain/bad.json", tmp);
	run_cmd(&r, argv);
	tap_like(r.err, msg, "missing run file: names the commit and the file");
	run_free(&r);

	/* A result file is not a walk. */
	snprintf(path, sizeof(path), "%s", SAMPLE);
	run_cmd(&r, argv);
	is_int(r.status, 2, "a run file given as a walk: exit 2");
	tap_like(r.err, "schema: \"exitscope-result\" is not \"exitscope-walk\"", "... says so");
	run_free(&r);
}

/* docs/walk-schema.json takes the walk and refuses what the reader refuses by shape. */
static void test_json_schema(const char *walk)
{
	static const char py[] =
		"import json, sys\n"
		"from jsonschema import Draft202012Validator as V\n"
		"s = json.load(open(sys.argv[1])); V.check_schema(s); v = V(s)\n"
		"for f in sys.argv[2:]:\n"
		"    print(('INVALID ' if list(v.iter_errors(json.load(open(f)))) else 'VALID ') + f)\n";
	const char *argv[6 + MAX_BAD] = { "/usr/bin/python3", "-c", py, "docs/walk-schema.json", walk };
	char line[4200];
	struct run_result r;
	int invalid = 0;

	if (!run_works((const char *const[]){ "/usr/bin/python3", "-c",
					      "from jsonschema import Draft202012Validator", NULL })) {
		tap_skip(2, "python3 has no jsonschema with draft 2020-12 (Debian python3-jsonschema)");
		return;
	}
	for (size_t i = 0; i < n_bad; i++)
		argv[5 + i] = bad_copies[i];
	run_cmd(&r, argv);
	snprintf(line, sizeof(line), "VALID %s\n", walk);
	tap_like(r.out, line, "walk-schema.json: the walk is valid");
	for (size_t i = 0; i < n_bad; i++) {
		snprintf(line, sizeof(line), "INVALID %s\n", bad_copies[i]);
		invalid += r.out && strstr(r.out, line) != NULL;
	}
	ok(n_bad == 5 && invalid == (int)n_bad, "walk-schema.json: refuses the %zu broken walks (%d)", n_bad,
	   invalid);
	if (r.status)
		diag("%s", r.err);
	run_free(&r);
}

/* Two lanes in one walk: each lane's steps against its own commits (the runs of the plain walk). */
static void test_two_lanes(void)
{
	static const int vmx_run[] = { 0, 1, 2, 3 }, svm_run[] = { 0, 2, 2, 3 };
	json_t *commits = json_array(), *walk;
	char path[4096], steps[4096], run[32], want[256];
	const char *argv[] = { exe, "walk", "--json", steps, path, NULL };
	const char *q[] = { exe, "query", steps, "lanes[vmx].probes[invd].steps[*].rev",
			    "lanes[svm].probes[invd].steps[*].rev", NULL };
	struct run_result r;

	for (size_t i = 0; i < 4; i++)
		for (int l = 0; l < 2; l++) {
			snprintf(run, sizeof(run), "run%d.json", l ? svm_run[i] : vmx_run[i]);
			json_array_append_new(commits, json_pack("{s:s, s:s, s:s, s:s, s:n, s:s}", "rev",
								 revs[i], "subject", "KVM: a change",
								 "lane", l ? "svm" : "vmx", "status", "ok",
								 "reason", "run", run));
		}
	walk = json_pack("{s:s, s:i, s:[s, s], s:o}", "schema", WALK_SCHEMA, "schema_version", 1, "lanes",
			 "vmx", "svm", "commits", commits);
	snprintf(path, sizeof(path), "%s", fixture_write(tmp, "plain/two.json", walk));
	json_decref(walk);
	snprintf(steps, sizeof(steps), "%s/two-steps.json", tmp);
	run_cmd(&r, argv);
	is_int(r.status, 0, "two lanes: exit 0");
	tap_like(r.out, ": 4 commits in 2 lanes\n", "two lanes: a commit's two entries count once");
	tap_like(r.out, "\nsvm: 4 commits, 4 measured, 0 skipped;", "two lanes: the svm lane's own line");
	run_free(&r);
	run_cmd(&r, q);
	snprintf(want, sizeof(want), "%s\n%s\n", revs[2], revs[1]);
	tap_is_str(r.out, want, "two lanes: vmx steps at commit 3, svm at commit 2");
	run_free(&r);
}

/* The library alone: the reader keeps the order given and resolves runs beside the walk. */
static void test_reader(const char *walk)
{
	struct walk_file *w;
	struct walk_steps s;
	struct err err;
	char buf[4096], want[4096];

	w = walk_read_file(walk, &err);
	ok(w && w->n_commits == NC, "walk_read_file: %zu commits", w ? w->n_commits : 0);
	if (!w) {
		diag("%s", err.msg);
		return;
	}
	tap_is_str(w->commits[0].rev, revs[0], "walk_read_file: commits in the order given");
	ok(w->commits[NC - 1].status == WALK_SKIP && !w->commits[NC - 1].run, "walk_read_file: skip");
	snprintf(want, sizeof(want), "%s/plain/run1.json", tmp);
	tap_is_str(walk_run_path(w, &w->commits[1], buf, sizeof(buf)), want,
		   "walk_run_path: relative to the walk file's directory");
	ok(walk_read_runs(w, &err) == 0 && w->commits[1].rf, "walk_read_runs: the runs read");
	ok(walk_steps_build(w, &s) == 0 && s.n_lanes == 1, "walk_steps_build");
	walk_steps_free(&s);
	{
		json_t *doc = walk_json(w);
		char *text = json_dumps(doc, 0);
		struct walk_file *back = text ? walk_read_buffer("again", text, strlen(text), &err) : NULL;

		ok(back && back->n_commits == NC && !strcmp(back->commits[2].subject, w->commits[2].subject),
		   "walk_json: reads back the same");
		walk_free(back);
		free(text);
		json_decref(doc);
	}
	walk_free(w);
	{
		char cut[64];

		tap_is_str(walk_subject_cut("abcdefghij", 8, cut, sizeof(cut)), "abcde...",
			   "walk_subject_cut: cut with ...");
		tap_is_str(walk_subject_cut("ab\033[2Jc", 20, cut, sizeof(cut)), "ab\\x1b[2Jc",
			   "walk_subject_cut: a control byte escaped as \\xNN (base/text.h)");
		tap_is_str(walk_subject_cut("a\xff\x7f\xc3\xa9" "b", 20, cut, sizeof(cut)),
			   "a\\xff\\x7f\xc3\xa9" "b",
			   "walk_subject_cut: no UTF-8 and DEL escaped, valid UTF-8 kept");
		tap_is_str(walk_subject_cut("abc\001defgh", 8, cut, sizeof(cut)), "abc...",
			   "walk_subject_cut: an escape is never cut, its four columns counted");
		tap_is_str(walk_subject_cut("ab\001", 6, cut, sizeof(cut)), "ab\\x01",
			   "walk_subject_cut: an escape that fits the width is whole");
	}
}

int main(void)
{
	const char *plain, *profiled;

	exe = getenv("EXITSCOPE");
	if (!exe)
		return tap_skip_all("EXITSCOPE not set (run through make check)");
	tmp = fixture_tmpdir();
	if (!tmp)
		return tap_skip_all("no temporary directory");
	for (size_t i = 0; i < NC; i++)
		for (size_t j = 0; j < WALK_REV_LEN; j++)
			revs[i][j] = "0123456789abcdef"[(i * 7 + j * 3 + (j * j) % 5) % 16];
	plain = make_walk("plain", 0);
	test_steps(plain);
	test_report(plain);
	test_reader(plain);
	test_refusals();
	test_json_schema(plain);
	test_two_lanes();
	profiled = make_walk("profiled", 1);
	test_profiled(profiled);
	test_census(profiled);
	fixture_rmdir(tmp);
	return done_testing();
}
