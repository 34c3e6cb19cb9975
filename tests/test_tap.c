// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tap.c - `exitscope check --tap` and `exitscope map --tap --expect`
 * as prove (TAP::Harness) sees them: a wrapper script in a temporary
 * directory runs the binary, prove runs the wrapper, and its verdict is
 * asserted (PASS for the checks and a true expectations file, FAIL for a
 * wrong one). The TAP itself is checked line by line: version, plan equal
 * to the test lines, tests numbered in order, skip reasons not empty, YAML
 * blocks closed, and the counts agree with the JSON result. Plus the
 * usage errors of --expect files and the TAP writer's escaping.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/tap_out.c"	/* the writer's pure parts, tested directly */
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *exe;
static char dir[] = "/tmp/exitscope-test-tap-XXXXXX";

/* What a TAP stream holds. */
struct tap_stats {
	bool version;		/* first line "TAP version 13" */
	long plan;		/* -1: none */
	unsigned tests, not_ok, skips, skips_empty, yaml_open, yaml_closed;
	bool in_order;		/* test numbers 1, 2, 3, ... */
	bool skip_all;		/* "1..0 # SKIP reason" */
};

static void tap_scan(const char *s, struct tap_stats *st)
{
	char line[4096];

	memset(st, 0, sizeof(*st));
	st->plan = -1;
	st->in_order = true;
	for (unsigned ln = 0; *s; ln++) {
		size_t n = strcspn(s, "\n");
		unsigned num;
		int off = 0;

		snprintf(line, sizeof(line), "%.*s", (int)n, s);
		s += n + (s[n] == '\n');
		if (ln == 0)
			st->version = !strcmp(line, "TAP version 13");
		if (!strncmp(line, "1..", 3)) {
			st->plan = atol(line + 3);
			st->skip_all = strstr(line, "# SKIP ") && strlen(strstr(line, "# SKIP ")) > 7;
			continue;
		}
		if (!strcmp(line, "  ---"))
			st->yaml_open++;
		if (!strcmp(line, "  ..."))
			st->yaml_closed++;
		if (sscanf(line, "ok %u%n", &num, &off) == 1 ||
		    (sscanf(line, "not ok %u%n", &num, &off) == 1 && ++st->not_ok)) {
			const char *sk = strstr(line, " # SKIP");

			st->tests++;
			if (num != st->tests)
				st->in_order = false;
			if (sk) {
				st->skips++;
				if (strlen(sk) <= strlen(" # SKIP "))
					st->skips_empty++;
			}
		}
	}
}

static unsigned count_lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static bool write_file(const char *path, const char *text, bool exec)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return false;
	fputs(text, f);
	if (fclose(f))
		return false;
	return !exec || !chmod(path, 0755);
}

/* A wrapper script NAME in dir that runs exitscope ARGS; its path into out. */
static bool wrapper(char *out, size_t len, const char *name, const char *args)
{
	char text[2048];

	snprintf(out, len, "%s/%s", dir, name);
	snprintf(text, sizeof(text), "#!/bin/sh\nexec '%s' %s 2>/dev/null\n", exe, args);
	return write_file(out, text, true);
}

/* prove on the wrapper: its exit status, output in r. */
static int prove(struct run_result *r, const char *script)
{
	return run_cmd(r, (const char *const[]){ "prove", "-v", "--exec", "/bin/sh", script, NULL });
}

static void test_writer(void)
{
	char q[64], buf[512];
	struct tap_out t;
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	tap_yaml_quote(q, sizeof(q), "a \"b\" \\c\n");
	tap_is_str(q, "\"a \\\"b\\\" \\\\c\\x0a\"", "YAML: quotes, backslashes and newlines escaped");
	if (!f) {
		tap_skip(2, "fmemopen failed");
		return;
	}
	tap_out_begin(&t, f, 2);
	tap_out_test(&t, true, "cet/guest_cr4_cet_gp: #GP");
	tap_out_yaml(&t, "detail", "x");
	tap_out_yaml(&t, "expected", "");
	tap_out_skip(&t, "a/b", "");
	fclose(f);
	tap_is_str(buf, "TAP version 13\n1..2\nok 1 - cet/guest_cr4_cet_gp: \\#GP\n  ---\n  detail: \"x\"\n"
		   "  ...\nok 2 - a/b # SKIP no reason given\n",
		   "'#' escaped in a description, empty YAML values left out, a skip always has a reason");
	ok(t.n == 2, "the writer counted 2 tests");
}

/* check --tap: the stream, the JSON beside it, and prove's verdict. */
static void test_check(void)
{
	char json[512], script[512];
	struct run_result r, pr;
	struct tap_stats st;
	json_t *root, *checks;
	size_t nskip = 0, nfail = 0;

	run_cmd(&r, (const char *const[]){ exe, "check", "--tap", "--kvm-dev", "/nonexistent/kvm", NULL });
	tap_scan(r.out, &st);
	ok(r.status == 4 && st.version && st.plan == 0 && st.skip_all && st.tests == 0,
	   "no KVM: exit 4, KSFT_SKIP (%d), and a valid stream '1..0 # SKIP reason'", r.status);
	run_free(&r);
	run_cmd(&r, (const char *const[]){ "env", "EXITSCOPE_KVM_DEV=/nonexistent", exe, "check", "--tap", NULL });
	tap_scan(r.out, &st);
	ok(r.status == 4 && st.skip_all && count_lines(r.err) == 1,
	   "no KVM through EXITSCOPE_KVM_DEV: exit 4 (%d), the reason in one line on stderr", r.status);
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "check", "--kvm-dev", "/nonexistent", NULL });
	ok(r.status == 3, "no KVM without --tap: exit 3 (%d)", r.status);
	run_free(&r);
	snprintf(json, sizeof(json), "%s/check.json", dir);
	run_cmd(&r, (const char *const[]){ exe, "check", "--tap", "--json", json, NULL });
	if (r.status == 4) {
		tap_scan(r.out, &st);
		ok(st.version && st.plan == 0 && st.skip_all, "no KVM: '1..0 # SKIP reason' (exit 4)");
		run_free(&r);
		tap_skip(11, "KVM is not available here");
		return;
	}
	tap_scan(r.out, &st);
	ok(st.version, "check --tap: first line 'TAP version 13'");
	ok(st.plan > 0 && st.plan == (long)st.tests, "the plan (%ld) equals the test lines (%u)", st.plan,
	   st.tests);
	ok(st.in_order, "tests are numbered 1, 2, 3, ...");
	ok(st.skips_empty == 0, "every SKIP has a reason (%u skips)", st.skips);
	ok(st.yaml_open > 0 && st.yaml_open == st.yaml_closed,
	   "YAML blocks: %u opened, %u closed", st.yaml_open, st.yaml_closed);
	root = json_load_file(json, 0, NULL);
	checks = root ? json_object_get(root, "checks") : NULL;
	for (size_t i = 0; checks && i < json_array_size(checks); i++) {
		const char *s = json_string_value(json_object_get(json_array_get(checks, i), "status"));

		nskip += s && !strcmp(s, "skip");
		nfail += s && (!strcmp(s, "fail") || !strcmp(s, "stopped"));
	}
	ok(checks && json_array_size(checks) == st.tests && nskip == st.skips && nfail == st.not_ok,
	   "one test per check of the JSON (%zu checks, %zu skipped, %zu failed/stopped)",
	   json_array_size(checks), nskip, nfail);
	ok((r.status == 0) == (st.not_ok == 0) && (r.status == 0 || r.status == 1),
	   "exit status %d agrees with %u 'not ok'", r.status, st.not_ok);
	json_decref(root);
	run_free(&r);

	if (!wrapper(script, sizeof(script), "check.sh", "check --tap")) {
		tap_skip(2, "cannot write the wrapper script");
		return;
	}
	prove(&pr, script);
	ok((pr.status == 0) == (st.not_ok == 0), "prove's verdict (exit %d) follows the checks", pr.status);
	tap_like(pr.out, st.not_ok ? "Result: FAIL" : "Result: PASS", "prove says so");
	ok(!strstr(pr.out, "Parse errors") && !strstr(pr.err, "YAML"),
	   "prove parses the stream and its YAML blocks without complaint");
	run_free(&pr);

	/* One suite only: only its checks. */
	run_cmd(&r, (const char *const[]){ exe, "check", "--tap", "migrate", NULL });
	tap_scan(r.out, &st);
	ok(st.tests > 0 && !strstr(r.out, " - xstate/") && !strstr(r.out, " - cet/") &&
	   strstr(r.out, " - migrate/"), "check --tap migrate: only the migrate checks (%u)", st.tests);
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "check", "--tap", "--json", "-", NULL });
	ok(r.status == 2 && strstr(r.err, "both want stdout"), "--tap with --json -: usage error (exit %d)",
	   r.status);
	run_free(&r);
}

/* Ctrl-C as check starts: the checks not run are "not ok" with the reason; exit 130. */
static void test_check_stopped(void)
{
	struct run_result r;
	struct run_proc pr;
	struct tap_stats st;
	unsigned stopped = 0;
	bool caught;

	if (run_start(&pr, (const char *const[]){ exe, "check", "--tap", NULL }, NULL)) {
		tap_skip(4, "cannot start exitscope");
		return;
	}
	caught = run_wait_caught(&pr, SIGINT, RUN_WAIT_MS);
	kill(pr.pid, SIGINT);
	run_finish(&pr, &r);
	if (r.status == 4) {
		tap_skip(4, "KVM is not available here");
		run_free(&r);
		return;
	}
	ok(caught, "check installed its Ctrl-C handler (sent once it had)");
	tap_scan(r.out, &st);
	for (const char *s = r.out; (s = strstr(s, "\nnot ok ")); s++)
		stopped += strstr(s, " (stopped: stopped by request") < strchr(s + 1, '\n') &&
			   strstr(s, " (stopped: stopped by request") != NULL;
	is_int(r.status, 130, "check --tap, Ctrl-C: exit 130");
	ok(st.plan == (long)st.tests && st.tests > 0, "the plan (%ld) still equals the tests (%u)", st.plan,
	   st.tests);
	ok(st.not_ok > 0 && stopped == st.not_ok,
	   "the stopped checks are 'not ok' with the reason (%u of %u not ok)", stopped, st.not_ok);
	run_free(&r);
}

static const char good_expect[] =
	"# the map as this host shows it: true whatever the backend\n"
	"map cr4 * read owned|intercepted|emulated|skipped\n"  /* * : every cr4 read (one) */
	"profile *\n"
	"map cr0 WP toggle owned|intercepted|emulated|skipped\n"
	"rc info 0          # a lane line: ignored\n";

/* The toggle of CR4.VME is accepted (never rejected), and no count is below 0. */
static const char wrong_expect[] =
	"map cr4 VME toggle rejected\n"
	"map cr4 TSD toggle owned|intercepted|emulated <0\n";

static void test_map(void)
{
	char good[512], wrong[512], bad[512], script[700], args[1200];
	struct run_result r, pr;
	struct tap_stats st;

	snprintf(good, sizeof(good), "%s/good.expect", dir);
	snprintf(wrong, sizeof(wrong), "%s/wrong.expect", dir);
	snprintf(bad, sizeof(bad), "%s/bad.expect", dir);
	if (!write_file(good, good_expect, false) || !write_file(wrong, wrong_expect, false)) {
		tap_skip(15, "cannot write the expectations files");
		return;
	}

	/* Errors in the file: one line naming it, exit 2, before anything runs. */
	write_file(bad, "# fine\nmap cr4 NOSUCH toggle owned\n", false);
	run_cmd(&r, (const char *const[]){ exe, "map", "--tap", "--expect", bad, "--kvm-dev", "/nonexistent", NULL });
	snprintf(args, sizeof(args), "exitscope map: %s:2: no map entry 'cr4 NOSUCH toggle' (cr4 toggle entries: VME", bad);
	ok(r.status == 2 && !strncmp(r.err, args, strlen(args)) && count_lines(r.err) == 2,
	   "unknown bit: exit 2 (%d), the line named: %.120s", r.status, r.err);
	run_free(&r);
	write_file(bad, "profile minimal,+x2apic\nmap cr4 TSD toggle owned\n", false);
	run_cmd(&r, (const char *const[]){ exe, "map", "--tap", "--expect", bad, "--kvm-dev", "/nonexistent", NULL });
	ok(r.status == 2 && strstr(r.err, ":1: profile 'minimal,+x2apic' is not mapped (mapped: host, minimal;"),
	   "unknown profile: exit 2 (%d): %.120s", r.status, r.err);
	run_free(&r);
	write_file(bad, "map cr4 TSD toggle own\n", false);
	run_cmd(&r, (const char *const[]){ exe, "map", "--tap", "--expect", bad, NULL });
	ok(r.status == 2 && strstr(r.err, ":1: unknown status 'own'"), "unknown status: exit 2 (%d)", r.status);
	run_free(&r);
	write_file(bad, "map cr4 TSD toggle owned 1x\n", false);
	run_cmd(&r, (const char *const[]){ exe, "map", "--tap", "--expect", bad, NULL });
	ok(r.status == 2 && strstr(r.err, ":1: '1x' is not N"), "bad exits/op: exit 2 (%d)", r.status);
	run_free(&r);
	write_file(bad, "mapp cr4 TSD toggle owned\n", false);
	run_cmd(&r, (const char *const[]){ exe, "map", "--tap", "--expect", bad, NULL });
	ok(r.status == 2 && strstr(r.err, ":1: unknown line kind 'mapp'"), "unknown kind: exit 2 (%d)", r.status);
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "map", "--tap", NULL });
	ok(r.status == 2 && strstr(r.err, "go together"), "--tap without --expect: exit 2 (%d)", r.status);
	run_free(&r);
	write_file(bad, "map cr4 TSD toggle owned\n", false);
	run_cmd(&r, (const char *const[]){ exe, "map", "--tap", "--expect", bad, "--kvm-dev", "/nonexistent", NULL });
	tap_scan(r.out, &st);
	ok(r.status == 4 && st.version && st.plan == 0 && st.skip_all && count_lines(r.err) == 1,
	   "map --tap without KVM: exit 4, KSFT_SKIP (%d), and '1..0 # SKIP reason'", r.status);
	run_free(&r);

	/* A true file: every test passes or skips with a reason; prove passes. */
	run_cmd(&r, (const char *const[]){ exe, "map", "--tap", "--expect", good, "--ops", "20", "--rounds", "1", NULL });
	if (r.status == 4) {
		run_free(&r);
		tap_skip(8, "KVM is not available here");
		return;
	}
	tap_scan(r.out, &st);
	/* The CR4 read on "host" + WP on each of the 2 default profiles. */
	ok(st.version && st.plan == 3 && st.tests == 3 && st.in_order,
	   "map --tap: plan %ld, %u tests (the CR4 read of host, WP of 2 profiles)", st.plan, st.tests);
	ok(r.status == 0 && st.not_ok == 0 && st.skips_empty == 0,
	   "a true file: exit %d, %u not ok, every skip with a reason", r.status, st.not_ok);
	ok(strstr(r.out, "\n# profile host: 31 entries without an expectation, not tested: cr0.MP") &&
	   strstr(r.out, "\n# 1 lines of ") && strstr(r.out, "ok 1 - host cr4.read: "),
	   "entries without an expectation and the lane line are comments, not tests");
	run_free(&r);
	snprintf(args, sizeof(args), "map --tap --expect '%s' --ops 20 --rounds 1", good);
	if (wrapper(script, sizeof(script), "map-good.sh", args) && prove(&pr, script) == 0 &&
	    strstr(pr.out, "Result: PASS"))
		ok(1, "prove: a true expectations file passes");
	else
		ok(0, "prove: a true expectations file passes (exit %d)", pr.status);
	run_free(&pr);

	/* A wrong file: "not ok" with the evidence, exit 1, prove fails. */
	run_cmd(&r, (const char *const[]){ exe, "map", "--tap", "--expect", wrong, "--ops", "20", "--rounds", "1",
					   "--cpuid-profile", "host", NULL });
	tap_scan(r.out, &st);
	if (strstr(r.out, "# SKIP")) {
		run_free(&r);
		tap_skip(4, "the map entries were skipped here (no stats fd)");
		return;
	}
	ok(st.plan == 2 && st.not_ok == 2, "a wrong file: 2 tests, both 'not ok' (%u)", st.not_ok);
	ok(r.status == 1, "exit 1 when an expectation is not met (%d)", r.status);
	ok(strstr(r.out, "not ok 1 - host cr4.VME: rejected\n  ---\n  expected: \"map cr4 VME toggle rejected\"\n"
			 "  observed_status: \"") && strstr(r.out, "not ok 2 - host cr4.TSD: owned|intercepted|emulated <0 exits/op"),
	   "the evidence is in YAML: the line and what was observed");
	run_free(&r);
	snprintf(args, sizeof(args), "map --tap --expect '%s' --ops 20 --rounds 1 --cpuid-profile host", wrong);
	if (wrapper(script, sizeof(script), "map-wrong.sh", args) && prove(&pr, script) != 0 &&
	    strstr(pr.out, "Result: FAIL") && strstr(pr.out, "Failed 2/2 subtests"))
		ok(1, "prove: a wrong expectations file fails (2/2 subtests)");
	else
		ok(0, "prove: a wrong expectations file fails (exit %d): %.300s", pr.status, pr.out);
	run_free(&pr);
}

int main(void)
{
	char cmd[128];

	exe = getenv("EXITSCOPE");
	if (!exe)
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	if (!run_works((const char *const[]){ "prove", "--version", NULL }))
		return tap_skip_all("prove is not installed (Debian perl: scripts/install-deps --test)");
	if (!mkdtemp(dir))
		return tap_skip_all("cannot create a temporary directory");
	test_writer();
	test_check();
	test_check_stopped();
	test_map();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
	return done_testing();
}
