// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_expect.c - `exitscope expect` (expect/): each line kind of the
 * expectation language holding and failing on made-up lane results (a
 * results directory of fixture documents), with the output lines the lane
 * scripts read ("  ok    ", "  FAIL  ", "  skip  ", the summary) and the
 * exit status; optional lines, a block the binary lacked ("absent"), a
 * required line that stops the rest, an invalid block, includes, --tol;
 * and every parse error: one line naming FILE:LINE, exit 2, nothing judged.
 */
#include <glob.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array_size.h"
#include "tests/expect_run.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define ARRAY_LEN(a)	ARRAY_SIZE(a)

static const char *exe;
static char *dir, *res;

/* The made-up results: run/map/check/info (one result document), kvm (plain JSON), rc files. */
static int results_make(void)
{
	json_t *probes, *doc, *cpuid, *map;
	double s[5] = { 100, 101, 102, 103, 104 };
	char path[4096];

	snprintf(path, sizeof(path), "%s/res", dir);
	res = strdup(path);
	if (!res || mkdir(res, 0700))
		return -1;
	cpuid = fixture_probe("cpuid", "insn", s, 5, 1.02);
	json_object_set_new(cpuid, "trace", json_pack("{s:f, s:f}", "CPUID", 1.0, "EPT_VIOLATION", 0.5));
	probes = json_pack("[o, o]", cpuid,
			   fixture_probe_status("hlt", "insn", "failed", "the vCPU did not halt"));
	doc = fixture_result(fixture_host("6.1.0", "Xeon", "native"), probes);
	map = fixture_map(0, "host", json_pack("[o, o]",
		fixture_map_entry("cr4", 7, "PGE", "toggle", "owned", 0),
		fixture_map_entry("cr4", 23, "CET", "toggle", "intercepted", 2)));
	json_object_set_new(json_array_get(json_object_get(json_array_get(json_object_get(map,
		"profiles"), 0), "entries"), 0), "trace", json_pack("{s:f}", "CR_ACCESS", 0.0));
	json_object_set_new(doc, "map", map);
	json_object_set_new(doc, "checks", json_pack("[o, o, o]",
		fixture_check("xstate", "a", "pass", "same state"),
		fixture_check("xstate", "b", "skip", "no XSAVE here (1.5)"),
		fixture_check("cet", "c", "fail", "gone")));
	if (!fixture_write(res, "run.json", doc) || !fixture_write(res, "map.json", doc) ||
	    !fixture_write(res, "check.json", doc) || !fixture_write(res, "info.json", doc))
		return -1;
	json_decref(doc);
	doc = json_pack("{s:i, s:[i, i]}", "api_version", 12, "caps", 3, 4);
	if (!fixture_write(res, "kvm.json", doc))
		return -1;
	json_decref(doc);
	if (!fixture_write_raw(res, "run.rc", "0\n", 2) || !fixture_write_raw(res, "map.rc", "3\n", 2) ||
	    !fixture_write_raw(res, "map.stderr", "one\ntwo\n", 8) ||
	    !fixture_write_raw(res, "absent", "prof profile\nrun.trace run\n", 27))
		return -1;
	return 0;
}

/* `exitscope expect [--tol tol] FILE RES` with text as FILE (dir/e.txt); r to run_free. */
static void expect_text(struct run_result *r, const char *text, const char *tol)
{
	expect_run(r, dir, text, (const char *const[]){ exe, "expect", "--tol", tol,
							EXPECT_RUN_FILE, res, NULL });
}

/* text exits status and prints a line starting with want (and, when given, the summary sum). */
static void is_expect(const char *text, int status, const char *want, const char *sum,
		      const char *what)
{
	struct run_result r;

	expect_text(&r, text, "0.1");
	ok(expect_run_shows(&r, status, want, sum), "%s", what);
	run_free(&r);
}

/* A test's name (a static buffer: used before the next call). */
__attribute__((format(printf, 1, 2)))
static const char *tmp_what(const char *fmt, ...)
{
	static char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

/* Each kind holding, and failing with the measured figures. */
static void test_kinds(void)
{
	static const struct {
		const char *text, *held, *failed;
		const char *out_held, *out_failed;
	} k[] = {
		{ "rc run 0\n", NULL, "rc map 0\n", "  ok    run exited 0",
		  "  FAIL  map exited 3, expected 0; stderr: one two \n" },
		{ "value run probes[cpuid].per_op.exits = 1.02\n", NULL,
		  "value run probes[cpuid].per_op.exits '>' 2 \"more than two\"\n",
		  "  ok    run: probes[cpuid].per_op.exits = 1.02 (probes[cpuid].per_op.exits: 1.02)",
		  "  FAIL  run: more than two does not hold (measured probes[cpuid].per_op.exits: 1.02)" },
		{ "value run 'probes[*].status' '~' '^(ok|failed)$'\n", NULL,
		  "value run 'probes[*].status' = @probes[cpuid].status\n",
		  "  ok    run: probes[*].status ~ ^(ok|failed)$ (probes[*].status: ok, failed)",
		  "  FAIL  run: probes[*].status = @probes[cpuid].status does not hold: 2 values "
		  "against 1" },
		{ "count run 'probes[status=ok]' = 1\n", NULL, "count run 'probes[*]' '>' @checks[*]\n",
		  "  ok    run: probes[status=ok]# = 1 (probes[status=ok]: 1)",
		  "  FAIL  run: probes[*]# > @checks[*] does not hold (probes[*] against checks[*]: 3 "
		  "selects 2, expected > 3)" },
		{ "sum run 'probes[cpuid].trace.CPUID+probes[cpuid].trace.EPT_VIOLATION' = 1.5\n", NULL,
		  "sum run 'probes[cpuid].trace.*' = 1\n",
		  "  ok    run: probes[cpuid].trace.CPUID+probes[cpuid].trace.EPT_VIOLATION = 1.5 (",
		  "  FAIL  sum run 'probes[cpuid].trace.*' = 1: probes[cpuid].trace.* selects nothing" },
		{ "field kvm 'api=.api_version caps[*]' 'x|api=12 3 4'\n",
		  "field kvm 'api=api_version caps[*]' 'api=12 3 4'\n",
		  "field info host.backend.module kvm_amd\n",
		  "  ok    kvm api=.api_version caps[*] = api=12 3 4",
		  "  FAIL  info host.backend.module: expected kvm_amd, measured kvm_intel" },
		{ "mode native\n", NULL, "mode emulated\n", "  ok    execution mode native (",
		  "  FAIL  execution mode: expected emulated, measured native (" },
		{ "map cr4 * toggle owned|intercepted\n", "map cr4 PGE toggle owned 0\n",
		  "map cr4 CET toggle intercepted <1\n",
		  "  ok    map cr4.PGE toggle: status owned, 0 exits/op, 20 cycles/op",
		  "  FAIL  map cr4.CET toggle: status intercepted, 2 exits/op, 2020 cycles/op; expected "
		  "<1 exits/op" },
		{ "maptrace cr4 PGE toggle CR_ACCESS|NONE 0\n", NULL,
		  "maptrace cr4 PGE toggle CR_ACCESS '>=1'\n",
		  "  ok    map cr4.PGE toggle: 0 CR_ACCESS|NONE exits/op (trace {\"CR_ACCESS\":0})",
		  "  FAIL  map cr4.PGE toggle: 0 CR_ACCESS exits/op, expected >=1 (trace" },
		{ "probe cpuid exits 1\n", NULL, "probe hlt exits 1\n", "  ok    probe cpuid: 1.02 exits/op",
		  "  FAIL  probe hlt: status failed (the vCPU did not halt), expected ok" },
		{ "trace cpuid CPUID|EPT_VIOLATION 1.5\n", NULL, "trace cpuid EPT_VIOLATION <0.5\n",
		  "  ok    probe cpuid: 1.5 CPUID|EPT_VIOLATION exits/op (trace {",
		  "  FAIL  probe cpuid: 0.5 EPT_VIOLATION exits/op, expected <0.5 (trace {" },
		{ "check xstate !b pass\n", "check xstate * pass|skip\n", "check xstate b skip XSAVE2\n",
		  "  ok    check xstate/a: pass (same state)",
		  "  FAIL  check xstate/b: skip (no XSAVE here (1.5)); expected detail containing "
		  "'XSAVE2'" },
		{ "someof xstate skip 'here (1.5)'\n", NULL, "someof cet pass\n",
		  "  ok    1 xstate checks skip with 'here (1.5)'",
		  "  FAIL  no cet check has status pass ({" },
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(k); i++) {
		const char *kind = k[i].text;
		int n = (int)strcspn(kind, " ");

		is_expect(k[i].text, 0, k[i].out_held, " passed, 0 failed, 0 skipped\n",
			  tmp_what("%.*s holds", n, kind));
		if (k[i].held)
			is_expect(k[i].held, 0, "  ok    ", " passed, 0 failed, 0 skipped\n",
				  tmp_what("%.*s: its other form holds", n, kind));
		is_expect(k[i].failed, 1, k[i].out_failed, "lane-assert: 0 passed, 1 failed",
			  tmp_what("%.*s: a wrong one fails with the measured figures", n, kind));
	}
}

/* Optional lines, absent blocks, require, invalid blocks, includes, --tol. */
static void test_lines(void)
{
	struct run_result r;
	char inc[4096];

	is_expect("probe nosuch exits 1?\nrc run 0\n", 0, "  skip  probe nosuch exits 1 (no probe nosuch)",
		  "lane-assert: 1 passed, 0 failed, 1 skipped",
		  "an optional line about a missing probe is skipped");
	is_expect("probe nosuch exits 1\n", 1, "  FAIL  probe nosuch exits 1: no probe nosuch",
		  "lane-assert: 0 passed, 1 failed, 0 skipped", "a line about a missing probe fails");
	is_expect("probe nosuch exits 1?\n", 1, "  skip  ", "lane-assert: 0 passed, 0 failed, 1 skipped",
		  "nothing passed: exit 1");
	is_expect("rc prof 0\nrc run 0\n", 0, "  skip  rc prof 0 (exitscope has no 'profile' command)",
		  "1 passed, 0 failed, 1 skipped", "a block listed in absent is skipped");
	is_expect("trace hlt CPUID 1\nrc run 0\n", 0,
		  "  skip  trace hlt CPUID 1 (exitscope run has no --trace)",
		  "1 passed, 0 failed, 1 skipped", "a trace line where the binary had no --trace is skipped");
	is_expect("require probe cpuid exits 5\nrc run 7\nrc run 0\n", 1,
		  "lane-assert: a required expectation failed: the rest of e.txt is not checked",
		  "lane-assert: 0 passed, 1 failed, 0 skipped", "a failing require line stops the rest");
	is_expect("require probe cpuid exits 1\nrc run 7\n", 1, "  FAIL  run exited 0, expected 7",
		  "lane-assert: 1 passed, 1 failed", "a passing require line lets the rest be checked");
	is_expect("probe cpuid exits 1.05\n", 0, "  ok    probe cpuid: 1.02 exits/op", NULL,
		  "within the default tolerance");
	expect_text(&r, "probe cpuid exits 1.05\n", "0.01");
	if (!ok(r.status == 1 && strstr(r.out, "  FAIL  probe cpuid: 1.02 exits/op, expected 1.05"),
		"outside --tol 0.01"))
		diag("exit %d, out '%s', err '%s'", r.status, r.out, r.err);
	run_free(&r);

	snprintf(inc, sizeof(inc), "include inc.txt # shared\nmode native\n");
	if (!fixture_write_raw(dir, "inc.txt", "rc run 0\n", 9))
		ok(0, "cannot write inc.txt");
	is_expect(inc, 0, "  ok    run exited 0", "lane-assert: 2 passed, 0 failed",
		  "an included file's lines are judged");

	if (!fixture_write_raw(res, "bad.json", "{\"x\":", 5))
		ok(0, "cannot write bad.json");
	is_expect("rc run 0\n", 1, "  FAIL  block bad is not valid (rc ): exitscope query: ",
		  "lane-assert: 1 passed, 1 failed", "an invalid block fails");
	remove(tmp_what("%s/bad.json", res));
	if (!fixture_write_raw(res, "bad.json", "", 0))
		ok(0, "cannot write bad.json");
	is_expect("rc run 0\n", 1, "  FAIL  block bad is not valid (rc ): empty: ",
		  "lane-assert: 1 passed, 1 failed", "an empty block fails");
	remove(tmp_what("%s/bad.json", res));
}

/* A file that does not parse: exit 2, "exitscope expect: FILE:LINE: why", nothing judged. */
static void parse_error(const char *text, const char *where, const char *why, const char *what)
{
	struct run_result r;

	expect_text(&r, text, "0.1");
	ok(expect_run_refused(&r, dir, where, why), "%s", what);
	run_free(&r);
}

static void test_parse_errors(void)
{
	struct run_result r;
	char want[4096];

	parse_error("rc run 0\nprobes cpuid exits 1\n", "2", "unknown line kind 'probes'",
		    "an unknown kind");
	parse_error("probe cpuid exits\n", "1", "too few words after 'probe' (probe NAME FIELD NUM)",
		    "too few words");
	parse_error("\n\nrc run 0 1\n", "3", "too many words after 'rc' (rc BLOCK N)", "too many words");
	parse_error("value run x =~ 1\n", "1", "unknown operator '=~'", "an unknown operator");
	parse_error("count run x ~ 1\n", "1", "unknown operator '~'", "count has no regex operator");
	/* A regex keeps the bounds of a query's: no back-reference, no counted repeat on another. */
	parse_error("value run kind ~ '(a*)*\\1\\1$'\n", "1", "a back-reference \\1 in a regex",
		    "a regex with a back-reference");
	parse_error("value run kind ~ '((a{1,100}){1,100}){1,100}'\n", "1", "nested counted repeats",
		    "nested counted repeats");
	parse_error("probe cpuid exits about1\n", "1", "'about1' is not N, >=N, <=N, >N or <N",
		    "a NUM that is not one");
	parse_error("map cr4 PGE toggle owned =1\n", "1", "'=1' is not N, >=N", "a map NUM");
	parse_error("map cr4 PGE toggle owned|own\n", "1", "unknown status 'owned|own' (owned, "
		    "intercepted, rejected, emulated, skipped", "a map STATUS that is not one");
	parse_error("map cr4 PGE toggle stopped\n", "1", "unknown status 'stopped'",
		    "stopped is no map STATUS to expect");
	parse_error("value run 'x = 1\n", "1", "unmatched single quote", "an unmatched quote");
	parse_error("require ?\n", "1", "no expectation", "a line with nothing but its marks");

	/* An include that includes itself: too deep, nothing judged. */
	expect_text(&r, "include e.txt\n", "0.1");
	snprintf(want, sizeof(want), "include nested too deep");
	if (!ok(r.status == 2 && !*r.out && strstr(r.err, want), "an include loop: exit 2"))
		diag("exit %d, out '%s', err '%s'", r.status, r.out, r.err);
	run_free(&r);
	expect_text(&r, "include nosuch.txt\n", "0.1");
	if (!ok(r.status == 2 && !*r.out && strstr(r.err, "cannot read expectations file ") &&
		strstr(r.err, "nosuch.txt"), "a missing include: exit 2, naming it"))
		diag("exit %d, out '%s', err '%s'", r.status, r.out, r.err);
	run_free(&r);
}

/* Profile lines, entry names by bit or in any case: the map's own forms, judged on a lane's map. */
static void test_map_forms(void)
{
	is_expect("profile host\nmap cr4 pge toggle owned 0\n", 0,
		  "  ok    map host cr4.PGE toggle: status owned, 0 exits/op, 20 cycles/op", NULL,
		  "a profile line and a name in any case");
	is_expect("map cr4 23 toggle intercepted 2\n", 0,
		  "  ok    map cr4.CET toggle: status intercepted, 2 exits/op", NULL, "a bit number");
	is_expect("profile *\nmaptrace cr4 PGE toggle CR_ACCESS 0\n", 0,
		  "  ok    map host cr4.PGE toggle: 0 CR_ACCESS exits/op", NULL, "profile * (one profile)");
	is_expect("profile minimal\nmap cr4 PGE toggle owned\n", 1,
		  "  FAIL  map cr4 PGE toggle owned: no map entry minimal cr4 PGE toggle", NULL,
		  "a profile the map does not have");
}

/* A lane file has a map line (its own or an included file's, one level down). */
static bool has_map_line(const char *path)
{
	char line[1024], inc[2048];
	bool any = false;
	FILE *f = fopen(path, "r");

	while (f && !any && fgets(line, sizeof(line), f)) {
		any = !strncmp(line, "map ", 4) || !strncmp(line, "require map ", 12);
		if (sscanf(line, "include %1000s", line) == 1) {
			snprintf(inc, sizeof(inc), "%.*s/%s", (int)(strrchr(path, '/') - path), path, line);
			any = has_map_line(inc);
		}
	}
	if (f)
		fclose(f);
	return any;
}

/*
 * Every lane expectations file parses (against a directory with no blocks:
 * exit 1, every line failed or skipped, never 2), and map --tap --expect
 * takes it (exit 4: read, then no KVM) when it has a map line, else says
 * it has none (exit 2). expect-across.txt is the family between kernels
 * (expect --across), which tests/test_expect_across.c parses.
 */
static void test_lane_files(void)
{
	const char *empty = tmp_what("%s/empty", dir);
	char e[4096];
	glob_t g;
	size_t i;

	if (mkdir(empty, 0700)) {
		ok(0, "cannot make %s", empty);
		return;
	}
	snprintf(e, sizeof(e), "%s", empty);
	if (glob("lanes/expect-*.txt", 0, NULL, &g) ||
	    glob("lanes/kernels/expect-*.txt", GLOB_APPEND, NULL, &g)) {
		skip("no lanes/expect-*.txt here (run from the tree)");
		return;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		const char *f = g.gl_pathv[i];
		struct run_result r;
		bool map = has_map_line(f);

		if (strstr(f, "expect-across.txt"))
			continue;
		run_cmd(&r, (const char *const[]){ exe, "expect", f, e, NULL });
		if (!ok(r.status == 1 && strstr(r.out, "lane-assert: 0 passed, "), "%s parses", f))
			diag("exit %d, err '%s'", r.status, r.err);
		run_free(&r);
		run_cmd(&r, (const char *const[]){ exe, "map", "--tap", "--expect", f, "--kvm-dev",
						   "/nonexistent", NULL });
		if (!ok(map ? r.status == 4 : r.status == 2 && strstr(r.err, "has no 'map' line"),
			"map --tap --expect %s: %s", f, map ? "taken" : "no map line, exit 2"))
			diag("exit %d, err '%s'", r.status, r.err);
		run_free(&r);
	}
	globfree(&g);
}

/* On KVM: map --tap --expect reports a line of another kind as skipped, with the reason. */
static void test_map_skips(void)
{
	const char *text = "map cr4 * read owned|intercepted|emulated|skipped\n"
			   "value run x = 1 # a lane's\n";
	char file[4096], want[4200];
	struct run_result r;

	snprintf(file, sizeof(file), "%s/m.txt", dir);
	if (!fixture_write_raw(dir, "m.txt", text, strlen(text))) {
		ok(0, "cannot write m.txt");
		return;
	}
	run_cmd(&r, (const char *const[]){ exe, "map", "--tap", "--expect", file, "--ops", "20",
					   "--rounds", "1", NULL });
	if (r.status == 4) {
		run_free(&r);
		skip("KVM is not available here: map --tap skips");
		return;
	}
	snprintf(want, sizeof(want), "\n# skip %s:2: value run x = 1 (block run of a lane: ", file);
	if (!ok(r.status == 0 && strstr(r.out, want) && strstr(r.out, "\n# 1 lines of "),
		"map --tap --expect: a line of another kind is a skip comment with its reason"))
		diag("exit %d, out '%.600s', err '%s'", r.status, r.out, r.err);
	run_free(&r);
}

/*
 * What the command line makes of its edges: a name with control bytes in
 * it is printed escaped (\xNN), a write error on stdout is exit 1 as in
 * every command, and a RESULTS_DIR that is no directory one usage line.
 */
static void test_cli_edges(void)
{
	char file[4096], missing[4096], full_path[] = "/dev/full";
	const char *argv[] = { exe, "expect", file, res, NULL };
	struct run_opts full = { .stdout_path = full_path };
	struct run_result r;

	snprintf(file, sizeof(file), "%s/e.txt", dir);
	expect_text(&r, "probe \033]0;evil\007 exits 1\n", "0.1");
	ok(r.status == 1 && !strchr(r.out, '\033') && !strchr(r.out, '\007') &&
	   strstr(r.out, "probe \\x1b]0;evil\\x07 exits 1"),
	   "a probe name with an escape sequence: printed as \\xNN, not sent to the terminal");
	if (strchr(r.out, '\033'))
		diag("out '%s'", r.out);
	run_free(&r);
	expect_text(&r, "value run probes[cpuid].cycles.median \"\033[2J\"\n", "0.1");
	ok(!strchr(r.out, '\033') && !strchr(r.err, '\033'), "a quoted figure with an escape: escaped");
	run_free(&r);

	expect_text(&r, "probe cpuid exits 1\n", "0.1");
	run_free(&r);
	if (access(full_path, W_OK) == 0) {
		run_cmd_opts(&r, argv, &full);
		is_int(r.status, 1, "stdout is /dev/full: exit 1 (the output could not be written)");
		ok(strstr(r.err, "cannot write to stdout") != NULL, "... and one line says so");
		run_free(&r);
	} else {
		skip("no writable /dev/full here");
		skip("no writable /dev/full here");
	}

	snprintf(missing, sizeof(missing), "%s/no-such-dir", dir);
	argv[3] = missing;
	run_cmd(&r, argv);
	ok(r.status == 2 && !strstr(r.out, "FAIL") && strstr(r.err, "no-such-dir") &&
	   !strchr(strchr(r.err, '\n') + 1, '\n'),
	   "a RESULTS_DIR that does not exist: one line, exit 2, nothing judged");
	run_free(&r);
	argv[3] = file;
	run_cmd(&r, argv);
	ok(r.status == 2 && !strstr(r.out, "FAIL") && strstr(r.err, "Not a directory"),
	   "a RESULTS_DIR that is a file: exit 2, not a directory");
	run_free(&r);
}

int main(void)
{
	exe = getenv("EXITSCOPE");
	if (!exe)
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	dir = fixture_tmpdir();
	if (!dir || results_make())
		return tap_skip_all("cannot write the made-up results");
	test_kinds();
	test_lines();
	test_parse_errors();
	test_map_forms();
	test_lane_files();
	test_map_skips();
	test_cli_edges();
	fixture_rmdir(dir);
	free(res);
	return done_testing();
}
