// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_query.c - `exitscope query` and the path walker under it
 * (results/query.h): every selector form ([ID] per array, [*] on arrays
 * and objects, [F=V], [F!=V], [F~RE], chained, '#'), the output of each
 * JSON type, absent (exit 1, nothing printed) against invalid (exit 2,
 * one line; a path that does not parse adds the hint to --help), and each file type: the recorded result files of every kind,
 * a noise floor, a compare document, --plain JSON and stdin; an exit
 * path's census rows by INSN/OPERAND (INSN alone where the operand is null);
 * the edges: regexes refused unbounded (back-references, counted repeats),
 * the step limit, \[ and \] in selectors, spaces refused, numbers inside
 * objects, paths and FILE names of 5000 bytes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "results/query.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *exe;
static char *dir;

#define RUN	"lanes/samples/vmx/run.json"
#define MAP	"lanes/samples/vmx/map.json"
#define CHECK	"lanes/samples/vmx/check.json"
#define INFO	"lanes/samples/svm/info.json"
#define NOISE	"fuzz/corpus-noise/valid-noise-v2.json"

/* `exitscope query ARGS...` (NULL-terminated); r to run_free. */
static int query(struct run_result *r, ...)
{
	const char *argv[32] = { exe, "query" };
	size_t n = 2;
	va_list ap;

	va_start(ap, r);
	while (n < 31 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return run_cmd(r, argv);
}

/* The query prints exactly want and exits status. */
static void is_query(const char *want, int status, const char *file, const char *path, const char *what)
{
	struct run_result r;

	query(&r, file, path, NULL);
	if (!ok(r.status == status && !strcmp(r.out, want) && (status == 2 || !*r.err),
		"%s: %s", path, what))
		diag("exit %d, out '%s', err '%s'", r.status, r.out, r.err);
	run_free(&r);
}

/* One line on stderr, "exitscope query: ...", naming needle. */
static void refused(const char *file, const char *path, const char *needle, const char *what)
{
	struct run_result r;
	size_t n;

	query(&r, file, path, NULL);
	n = strlen(r.err);
	/* A usage error (a path) adds the hint to --help. */
	if (strstr(r.err, "\nTry 'exitscope query --help'.\n"))
		n = strstr(r.err, "\nTry") - r.err + 1;
	if (!ok(r.status == 2 && !*r.out && !strncmp(r.err, "exitscope query: ", 17) &&
		strchr(r.err, '\n') == r.err + n - 1 && strstr(r.err, needle), "%s", what))
		diag("exit %d, out '%s', err '%s'", r.status, r.out, r.err);
	run_free(&r);
}

static void test_library(void)
{
	struct err err;
	const char *bad[] = { "", "#", "a..b", "a[", "a[]", "a]b", "[x]", "a.", "a[x]b", "a[f~(]" };
	json_t *root = json_loads("{\"a\": [{\"name\": \"x\", \"v\": 1}, {\"name\": \"y\", \"v\": 2.5},"
				  " {\"name\": \"z\"}], \"o\": {\"p\": 1, \"q\": \"s\"}, \"n\": null,"
				  " \"t\": true, \"l\": [\"u\", \"w\"]}", 0, NULL);
	json_t *out = json_array();
	struct query_path *p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		p = query_path_parse(bad[i], &err);
		ok(!p && err.code < 0 && *err.msg, "'%s' does not parse (%s)", bad[i], err.msg);
		query_path_free(p);
	}
	static const struct {
		const char *path;
		long n;
	} sel[] = {
		{ ".", 1 }, { "a", 1 }, { "a[*]", 3 }, { "a[x]", 1 }, { "a[nope]", 0 },
		{ "a[v=1]", 1 }, { "a[v=1.0]", 1 }, { "a[v!=1]", 2 }, { "a[v=null]", 1 },
		{ "a[name~^[xy]$]", 2 }, { "a[name~^[xy]$][v!=2.5]", 1 }, { "a[*].v", 2 },
		{ "o[*]", 2 }, { "o[p=1]", 1 }, { "o[p=2]", 0 }, { "n", 1 }, { "missing", 0 },
		{ "o.p.deeper", 0 }, { "l[w]", 1 }, { "l[*]#", 2 }, { "t[*]", 0 },
		{ "l[~^[uw]$]", 2 }, { "l[~^u]", 1 }, { "l[!=u]", 1 }, { "l[=w]", 1 }, { "l[~x]", 0 },
	};
	for (i = 0; i < ARRAY_SIZE(sel); i++) {
		p = query_path_parse(sel[i].path, &err);
		json_array_clear(out);
		is_int(p ? query_select(root, p, out) : -2, sel[i].n, sel[i].path);
		query_path_free(p);
	}
	p = query_path_parse("a[*].v#", &err);
	ok(p && query_path_counts(p), "a final # counts");
	query_path_free(p);
	ok(!strcmp(query_identity("probes"), "name") && !strcmp(query_identity("exits"), "reason") &&
	   !strcmp(query_identity("checks"), "suite/name") &&
	   !strcmp(query_identity("entries"), "reg/name/op"), "identities of the arrays");
	{
		static const struct { double d; const char *want; } num[] = {
			{ 700.0, "700" }, { 2290.0, "2290" }, { 0.0, "0" }, { 0.1, "0.1" },
			{ 1198.25, "1198.25" }, { 1e-7, "1e-07" }, { 1e20, "1e+20" },
		};
		for (i = 0; i < ARRAY_SIZE(num); i++) {
			json_t *v = json_real(num[i].d);
			char *t = query_value_text(v);

			ok(t && !strcmp(t, num[i].want), "%g prints as %s (got %s)", num[i].d, num[i].want,
			   t ? t : "(null)");
			free(t);
			json_decref(v);
		}
	}
	json_decref(out);
	json_decref(root);
}

/* A path that does not parse: NULL, and why names needle. */
static void bad_path(const char *path, const char *needle, const char *what)
{
	struct err err;
	struct query_path *p = query_path_parse(path, &err);

	if (!ok(!p && err.code == -EINVAL && strstr(err.msg, needle) && !strchr(err.msg, '\n'),
		"%s: refused, naming '%s'", what, needle))
		diag("%s", p ? "parsed" : err.msg);
	query_path_free(p);
}

/* path selects n values in the document json. */
static void selects(const char *json, const char *path, long n, const char *what)
{
	json_t *root = json_loads(json, 0, NULL), *out = json_array();
	struct err err;
	struct query_path *p = query_path_parse(path, &err);
	char name[512];

	snprintf(name, sizeof(name), "%.60s: %s", path, what);
	if (!is_int(p ? query_select(root, p, out) : -2, n, name) && !p)
		diag("%s", err.msg);
	query_path_free(p);
	json_decref(out);
	json_decref(root);
}

/*
 * Regexes that would backtrack or expand without bound are refused when the
 * path is parsed (nothing is matched, so nothing here is timed); bounded
 * ones still work.
 */
static void test_regex_bounds(void)
{
	char re[QUERY_RE_MAX + 32];
	char path[sizeof(re) + 32];

	bad_path("notes[~(a*)*\\1\\1\\1\\1$]", "back-reference", "a back-reference \\1");
	bad_path("a[name~^(x)\\9]", "back-reference", "a back-reference \\9");
	bad_path("a[name~((a{1,100}){1,100}){1,100}]", "nested counted repeats", "nested counted repeats");
	bad_path("a[name~(a{2}){3}]", "nested counted repeats", "{n} on a group holding {n}");
	bad_path("a[name~((b|a{2})*)+{3}]", "nested counted repeats", "{n} on a group holding {n}, deeper");
	bad_path("a[name~a{2}{3}]", "nested counted repeats", "{n} on {n}");
	bad_path("a[name~a{256}]", "above 255", "a count above 255");
	bad_path("a[name~a{1,256}]", "above 255", "a bound above 255");
	bad_path("a[name~a{99999999999999999999}]", "above 255", "a count that overflows");
	memset(re, 'a', QUERY_RE_MAX + 1);
	re[QUERY_RE_MAX + 1] = 0;
	snprintf(path, sizeof(path), "a[name~%s]", re);
	bad_path(path, "longer than 256 bytes", "a regex over the length limit");
	re[QUERY_RE_MAX] = 0;
	snprintf(path, sizeof(path), "a[name~%s]", re);
	selects("{\"a\": [{\"name\": \"x\"}]}", path, 0, "a regex at the length limit");
	selects("{\"l\": [\"\\\\1\", \"1\"]}", "l[~\\\\1]", 1, "an escaped backslash and a digit");
	selects("{\"l\": [\"{{{\", \"aaa\"]}", "l[~^[{]{3}$]", 1, "a brace in a bracket expression");
	selects("{\"l\": [\"abab\", \"aaaa\"]}", "l[~^(ab){2}$]", 1, "a counted repeat of a group");
	selects("{\"l\": [\"abb\", \"aaaa\"]}", "l[~^(ab{2})*$]", 1, "* on a group holding {2}");
}

/* 32 steps, no more, and the error says the limit. */
static void test_step_limit(void)
{
	char path[2 * QUERY_MAX_STEPS + 8] = "a";
	struct query_path *p;
	struct err err;

	for (int i = 1; i < QUERY_MAX_STEPS; i++)
		strcat(path, ".a");
	p = query_path_parse(path, &err);
	ok(p != NULL, "a path of %d steps parses", QUERY_MAX_STEPS);
	query_path_free(p);
	strcat(path, ".a");
	bad_path(path, "more than 32 steps (a path's limit)", "33 steps: the error says the limit");
}

/* "\[" and "\]" in a selector: brackets in a regex, a value or an ID. */
static void test_escaped_brackets(void)
{
	const char *doc = "{\"notes\": [\"[x] first\", \"x\", \"a]b\", \"a\\\\\"],"
			  " \"a\": [{\"name\": \"[x]\", \"v\": 1}, {\"name\": \"y\", \"v\": 2}]}";

	selects(doc, "notes[~\\[x\\]]", 1, "\\[ and \\] in a regex are the brackets");
	selects(doc, "notes[~^\\[]", 1, "a lone \\[ in a regex");
	selects(doc, "notes[~\\]]", 2, "a lone \\] in a regex");
	selects(doc, "notes[~^[x]$]", 1, "a bracket expression still nests");
	selects(doc, "notes[=a\\]b]", 1, "\\] in a VALUE is ]");
	selects(doc, "notes[=a\\\\]", 1, "\\\\ in a VALUE is \\");
	selects(doc, "a[\\[x\\]].v", 1, "\\[ and \\] in an ID");
	selects(doc, "a[name=\\[x\\]]", 1, "[FIELD=VALUE] with brackets");
	bad_path("notes[~x\\]", "no closing", "an escaped ] does not close the selector");
}

/* Spaces next to FIELD or VALUE are refused, wherever they are (a REGEX's are its own); none is trimmed. */
static void test_selector_spaces(void)
{
	const char *doc = "{\"runs\": [{\"batch\": 7}, {\"batch\": 8}], \"l\": [\"a b\", \"c\"]}";
	const char *spaced[] = { "runs[batch=7 ]", "runs[batch= 7]", "runs[batch =7]", "runs[ batch=7]",
				 "runs[batch!= 7]", "runs[batch \t~7]", "runs[batch\t=7]", "l[ c]", "l[c ]" };

	for (size_t i = 0; i < ARRAY_SIZE(spaced); i++)
		bad_path(spaced[i], "a space around FIELD or VALUE", spaced[i]);
	selects(doc, "runs[batch=7]", 1, "the same selector without spaces");
	selects(doc, "l[=a b]", 1, "a space inside a VALUE is the VALUE's");
	selects(doc, "l[~^a b$]", 1, "a space inside a REGEX is the REGEX's");
	selects(doc, "l[~^a ]", 1, "a REGEX's trailing space is the REGEX's: ^a  matches \"a b\"");
	selects(doc, "l[~ b$]", 1, "a REGEX's leading space is the REGEX's");
	selects(doc, "l[~^c ]", 0, "and it counts: ^c  does not match \"c\"");
}

/* Objects and arrays print their numbers as a number alone prints. */
static void test_object_numbers(void)
{
	json_t *v = json_loads("{\"a\": 0.1, \"b\": [0.1, 1e-7, 700.0, 1198.25, 3, -2.5],"
			       " \"c\": {\"s\": \"q\\\"\\n\", \"t\": true, \"n\": null}}", 0, NULL);
	char *t = query_value_text(v);
	const char *want = "{\"a\":0.1,\"b\":[0.1,1e-07,700,1198.25,3,-2.5],"
			   "\"c\":{\"s\":\"q\\\"\\n\",\"t\":true,\"n\":null}}";

	if (!ok(t && !strcmp(t, want), "an object prints 0.1 as 0.1, as a number alone prints"))
		diag("got %s", t ? t : "(null)");
	free(t);
	t = query_value_text(json_object_get(v, "b"));
	ok(t && !strcmp(t, "[0.1,1e-07,700,1198.25,3,-2.5]"), "an array likewise (%s)", t ? t : "(null)");
	free(t);
	json_decref(v);
}

/* A path or FILE of 5000 bytes: one line, the reason kept, the path cut. */
static void test_long_paths(void)
{
	char *path = malloc(5001), *file = malloc(5020);
	struct run_result r;

	for (int i = 0; i < 5000; i++)
		path[i] = i % 2 ? '.' : 'a';
	path[4999] = 'a';
	path[5000] = 0;
	refused(RUN, path, "more than 32 steps", "a 5000-byte path: the reason is kept");
	refused(RUN, path, "(path cut: 5000 bytes)", "a 5000-byte path: the path is cut");
	memset(path, 'a', 4999);
	path[4999] = '[';
	refused(RUN, path, "has no closing ']' in 'aaa", "a 5000-byte key with an open [: the reason first");
	query(&r, RUN, path, NULL);
	ok(strlen(r.err) < 400, "the line is short (%zu bytes)", strlen(r.err));
	run_free(&r);
	memset(file, 'a', 5000);
	memcpy(file, "/tmp/", 5);
	file[5000] = 0;
	refused(file, "kind", "(path cut: 5000 bytes): cannot open", "a FILE name of 5000 bytes: the reason is kept");
	free(path);
	free(file);
}

static void test_result_files(void)
{
	is_query("run\n", 0, RUN, "kind", "a string prints raw");
	is_query("1198\n", 0, RUN, "probes[cpuid].cycles.median", "a number by [ID]");
	is_query("intercepted\n", 0, MAP, "map.profiles[host].entries[cr0/MP/toggle].status",
		 "map entries by REG/NAME/OP");
	is_query("{\"CR_ACCESS\":1,\"IO_INSTRUCTION\":0}\n", 0, MAP,
		 "map.profiles[host].entries[cr0/MP/toggle].trace", "an object as compact JSON");
	is_query("pass\n", 0, CHECK, "checks[xstate/xcr0_subset_host].status", "checks by SUITE/NAME");
	is_query("0\n", 0, CHECK, "checks[status=fail]#", "# counts: 0 is an answer");
	is_query("", 1, CHECK, "checks[status=fail].name", "no element matched: exit 1, nothing printed");
	is_query("", 1, RUN, "probes[no_such_probe]", "no such probe: exit 1");
	is_query("", 1, RUN, "host.no_such_key", "an absent key: exit 1");
	is_query("svm\n", 0, INFO, "host.lane.name", "an info file");
	is_query("4\n", 0, RUN, "probes[status=skipped]#", "[FIELD=VALUE] counted");
	is_query("cpuid\n", 0, RUN, "probes[name~^cpu].name", "[FIELD~REGEX]");
	is_query("true\n", 0, INFO, "host.cpuid.xsave", "true prints true");
	refused(RUN, "probes[", "no closing", "a path that does not parse: exit 2, one line");
	refused("lanes/samples/vmx/nonexistent.json", "kind", "nonexistent.json: cannot open",
		"a missing file: exit 2");
	refused("fuzz/corpus/broken-nan.json", "kind", "broken-nan.json", "an invalid result file: exit 2");
	refused(NOISE, "", "empty path", "an empty path: exit 2");

	struct run_result r;
	query(&r, RUN, "kind", "probes[nope]", "probes[cpuid].name", NULL);
	ok(r.status == 1 && !strcmp(r.out, "run\ncpuid\n"), "several paths: the values of each, exit 1 when one selects nothing");
	run_free(&r);
	query(&r, RUN, NULL);
	ok(r.status == 2 && strstr(r.err, "PATH"), "no PATH: usage error");
	run_free(&r);
	query(&r, "--plain", NULL);
	ok(r.status == 2, "no FILE: usage error");
	run_free(&r);
	query(&r, "--help", NULL);
	ok(r.status == 0 && strstr(r.out, "--plain"), "--help");
	run_free(&r);
	const char *sh[] = { "sh", "-c", "exec \"$0\" query - 'probes[*]#' < " RUN, exe, NULL };
	run_cmd(&r, sh);
	ok(r.status == 0 && atoi(r.out) > 10, "FILE - is stdin (%s)", r.out);
	run_free(&r);
}

static void test_other_files(void)
{
	const char *plain, *cmp, *a, *b;
	json_t *doc;

	is_query("5\n", 0, NOISE, "runs", "a noise floor");
	is_query("a\n", 0, NOISE, "probes[a].name", "a noise floor's probe by name");
	refused("fuzz/corpus-noise/broken-noise-version.json", "runs", "broken-noise-version.json",
		"an invalid noise floor: exit 2");

	doc = json_loads("{\"api_version\": 12, \"vcpu_mmap_size\": 12288}", 0, NULL);
	plain = fixture_write(dir, "kvm.json", doc);
	json_decref(doc);
	char kvm[600];
	snprintf(kvm, sizeof(kvm), "%s", plain);
	refused(kvm, "api_version", "not an exitscope file", "plain JSON without --plain: exit 2");
	struct run_result r;
	query(&r, "--plain", kvm, "api_version", ".", NULL);
	ok(r.status == 0 && !strcmp(r.out, "12\n{\"api_version\":12,\"vcpu_mmap_size\":12288}\n"),
	   "--plain reads any JSON; '.' is the document");
	run_free(&r);
	a = fixture_write_raw(dir, "bad.json", "{\"a\": 1,", 8);
	char bad[600];
	snprintf(bad, sizeof(bad), "%s", a);
	query(&r, "--plain", bad, "a", NULL);
	ok(r.status == 2 && strstr(r.err, "truncated JSON"), "--plain still refuses what is not JSON");
	run_free(&r);

	/* A real comparison: the run against a copy started a day later. */
	doc = json_load_file(RUN, 0, NULL);
	json_object_set_new(doc, "started", json_string("2099-01-01T00:00:00Z"));
	b = fixture_write(dir, "b.json", doc);
	json_decref(doc);
	char bpath[600], cpath[600];
	snprintf(bpath, sizeof(bpath), "%s", b);
	snprintf(cpath, sizeof(cpath), "%s/cmp.json", dir);
	const char *c[] = { exe, "compare", "--json", cpath, RUN, bpath, NULL };
	run_cmd(&r, c);
	run_free(&r);
	is_query("exitscope-compare\n", 0, cpath, "schema", "a compare document");
	is_query("1\n", 0, cpath, "probes[cpuid]#", "a comparison's probe by name");
	doc = json_pack("{s:s, s:i}", "schema", "exitscope-compare", "schema_version", 999);
	cmp = fixture_write(dir, "cmp999.json", doc);
	json_decref(doc);
	refused(cmp, "schema", "schema_version", "a compare document of an unknown version: exit 2");
}

/* An exit path's census rows by INSN/OPERAND, or INSN where the operand is null. */
static void test_census_identity(void)
{
	struct err err;
	json_t *root = json_loads("{\"census\": [{\"insn\": \"cpuid\", \"operand\": null, \"count\": 4},"
				  " {\"insn\": \"wrmsr\", \"count\": 1},"
				  " {\"insn\": \"xsetbv\", \"operand\": \"XCR0\", \"count\": 8},"
				  " {\"insn\": \"xsetbv\", \"operand\": \"XCR1\", \"count\": 2}]}", 0, NULL);
	json_t *out = json_array();
	static const struct {
		const char *path;
		long n;
	} sel[] = {
		{ "census[xsetbv/XCR0]", 1 }, { "census[xsetbv/XCR1]", 1 }, { "census[cpuid]", 1 },
		{ "census[wrmsr]", 1 }, { "census[xsetbv]", 0 }, { "census[cpuid/null]", 0 },
		{ "census[xsetbv/XCR0/x]", 0 }, { "census[xsetbv/]", 0 }, { "census[xsetbv/XCR]", 0 },
	};

	ok(!strcmp(query_identity("census"), "insn/operand?"), "the identity of a census row: insn/operand?");
	for (size_t i = 0; i < ARRAY_SIZE(sel); i++) {
		struct query_path *p = query_path_parse(sel[i].path, &err);

		json_array_clear(out);
		is_int(p ? query_select(root, p, out) : -2, sel[i].n, sel[i].path);
		query_path_free(p);
	}
	json_decref(out);
	json_decref(root);
}

/* A run whose invd probe has an exit path with a census, written as the profile writes it. */
static void test_census_file(void)
{
	json_t *doc = json_load_file(RUN, 0, NULL), *probes = json_object_get(doc, "probes"), *p, *ep;
	char path[600];
	size_t i;

	ep = json_loads(
		"{\"ops\": 256, \"interrupted_pairs\": 0, \"interrupts\": \"excluded\","
		" \"kernel_insn\": 2560, \"kernel_insn_per_op\": 10, \"guest_insn\": 256,"
		" \"guest_insn_per_op\": 1, \"user_insn\": 0, \"user_insn_per_op\": 0,"
		" \"functions\": ["
		"  {\"name\": \"kvm_load_xfeatures\", \"insn\": 1024, \"insn_per_op\": 4, \"calls\": 512,"
		"   \"calls_per_op\": 2, \"census\": ["
		"    {\"insn\": \"rdmsr\", \"operand\": \"IA32_XSS\", \"count\": 256, \"per_op\": 1},"
		"    {\"insn\": \"xsetbv\", \"operand\": \"XCR0\", \"count\": 512, \"per_op\": 2}]},"
		"  {\"name\": \"vmx_vcpu_run\", \"insn\": 1536, \"insn_per_op\": 6, \"calls\": 256,"
		"   \"calls_per_op\": 1, \"census\": ["
		"    {\"insn\": \"vmresume\", \"operand\": null, \"count\": 256, \"per_op\": 1}]}],"
		" \"exits\": [{\"reason\": \"INVD\", \"exits\": 256, \"exits_per_op\": 1}],"
		" \"census\": ["
		"  {\"insn\": \"rdmsr\", \"operand\": \"IA32_XSS\", \"count\": 256, \"per_op\": 1},"
		"  {\"insn\": \"vmresume\", \"operand\": null, \"count\": 256, \"per_op\": 1},"
		"  {\"insn\": \"xsetbv\", \"operand\": \"XCR0\", \"count\": 512, \"per_op\": 2}]}", 0, NULL);
	json_array_foreach(probes, i, p)
		if (!strcmp(json_string_value(json_object_get(p, "name")), "invd"))
			json_object_set(p, "exit_path", ep);
	json_object_set_new(doc, "schema_version", json_integer(3));
	snprintf(path, sizeof(path), "%s", fixture_write(dir, "census.json", doc));
	json_decref(ep);
	json_decref(doc);

	is_query("2\n", 0, path, "probes[invd].exit_path.census[xsetbv/XCR0].per_op",
		 "a path census row by INSN/OPERAND");
	is_query("256\n", 0, path, "probes[invd].exit_path.census[vmresume].count",
		 "a census row without an operand by INSN alone");
	is_query("null\n", 0, path, "probes[invd].exit_path.census[vmresume].operand", "its operand is null");
	is_query("rdmsr\nxsetbv\n", 0, path, "probes[invd].exit_path.functions[kvm_load_xfeatures].census[*].insn",
		 "a function's census rows, in order");
	is_query("", 1, path, "probes[invd].exit_path.census[xsetbv/XCR1]", "no such row: exit 1");
	is_query("", 1, path, "probes[invd].exit_path.census[xsetbv]", "an operand row is not found by INSN alone");
}

/* A failure is 2, never 1 (an answer): also --help onto a full device. */
static void test_stdout_full(void)
{
	const struct run_opts full = { .stdout_path = "/dev/full" };
	struct run_result r;

	if (access("/dev/full", W_OK)) {
		tap_skip(1, "no /dev/full");
		return;
	}
	run_cmd_opts(&r, (const char *const[]){ exe, "query", "--help", NULL }, &full);
	ok(r.status == 2 && !strcmp(r.err, "exitscope query: cannot write to stdout: No space left on device\n"),
	   "query --help > /dev/full: exit 2 (%d), one line with the errno: %s", r.status, r.err);
	run_free(&r);
}

int main(void)
{
	test_library();
	test_census_identity();
	test_regex_bounds();
	test_step_limit();
	test_escaped_brackets();
	test_selector_spaces();
	test_object_numbers();
	exe = getenv("EXITSCOPE");
	if (!exe) {
		skip("EXITSCOPE is not set (run through make check)");
		return done_testing();
	}
	dir = fixture_tmpdir();
	if (!dir)
		return tap_skip_all("no temp dir");
	test_result_files();
	test_long_paths();
	refused(RUN, "probes[cpuid].notes[~(a*)*\\1\\1\\1\\1$]", "back-reference",
		"a back-reference: exit 2, one line");
	refused(RUN, "probes[name~((a{1,255}){1,255}){1,255}]", "nested counted repeats",
		"nested counted repeats: exit 2, one line");
	refused(RUN, "probes[batch=7 ]", "a space around FIELD or VALUE", "[batch=7 ]: exit 2, one line");
	refused(RUN, "probes[batch= 7]", "a space around FIELD or VALUE", "[batch= 7]: exit 2, one line");
	test_other_files();
	test_census_file();
	test_stdout_full();
	fixture_rmdir(dir);
	return done_testing();
}
