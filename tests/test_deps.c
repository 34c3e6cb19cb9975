// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_deps.c - scripts/install-deps against a fake dpkg-query, apt-get,
 * apt-cache and id on PATH (nothing is installed): the default is the build
 * group only, which holds what `make run` needs and nothing of the test or
 * lane groups; --test holds the tools the tests run; each option adds its
 * groups; only what is missing is asked for; root runs apt-get update and
 * one apt-get install of exactly that, after a line per group saying what
 * it is for; not root runs nothing and says what to run. And `make` without
 * jansson stops at once, pointing to install-deps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array_size.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define SCRIPT	"scripts/install-deps"

static char *dir, bin[600], log_path[700], path_env[4096], log_env[800];

/* The fakes: dpkg-query says "installed" for the words of $FAKE_INSTALLED. */
static const struct { const char *name, *body; } fakes[] = {
	{ "dpkg-query", "for p; do :; done\n"
			"case \" $FAKE_INSTALLED \" in *\" $p \"*) printf 'install ok installed' ;; *) exit 1 ;; esac\n" },
	{ "apt-get", "echo \"apt-get $*\" >> \"$FAKE_LOG\"\n" },
	{ "apt-cache", "case \"$1 $2\" in\n"
		       "'policy clang') echo '  Candidate: 1:14.0-55.7~deb12u1' ;;\n"
		       "'show libclang-rt-14-dev') [ -z \"$FAKE_NO_RT\" ] ;;\n"
		       "*) exit 1 ;;\nesac\n" },
	{ "id", "[ \"$1\" = -u ] && echo \"${FAKE_UID:-0}\"\n" },
};

static int write_fakes(void)
{
	char p[700];

	snprintf(bin, sizeof(bin), "%s/bin", dir);
	if (mkdir(bin, 0755))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(fakes); i++) {
		FILE *f;

		snprintf(p, sizeof(p), "%s/%s", bin, fakes[i].name);
		f = fopen(p, "w");
		if (!f)
			return -1;
		fprintf(f, "#!/bin/sh\n%s", fakes[i].body);
		if (fclose(f) || chmod(p, 0755))
			return -1;
	}
	snprintf(path_env, sizeof(path_env), "PATH=%s:%s", bin, getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	snprintf(log_path, sizeof(log_path), "%s/apt.log", dir);
	snprintf(log_env, sizeof(log_env), "FAKE_LOG=%s", log_path);
	return 0;
}

/* install-deps with args, installed (FAKE_INSTALLED) and uid; the apt-get log is emptied first. */
static int deps(struct run_result *r, const char *installed, const char *uid, const char *no_rt,
		const char *a1, const char *a2)
{
	char inst[4096], u[32], rt[32];

	unlink(log_path);
	snprintf(inst, sizeof(inst), "FAKE_INSTALLED=%s", installed);
	snprintf(u, sizeof(u), "FAKE_UID=%s", uid);
	snprintf(rt, sizeof(rt), "FAKE_NO_RT=%s", no_rt);
	return run_cmd(r, (const char *const[]){ "env", path_env, log_env, inst, u, rt, SCRIPT, a1, a2, NULL });
}

/* The rest of the line of s that starts with prefix (malloc'd), or NULL. */
static char *line_after(const char *s, const char *prefix)
{
	for (const char *l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, prefix, strlen(prefix))) {
			l += strlen(prefix);
			return strndup(l, strcspn(l, "\n"));
		}
	return NULL;
}

/* Is word one of the words of list? */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* No word of a is a word of b. */
static bool disjoint(const char *a, const char *b)
{
	char *c = strdup(a), *save = NULL;
	bool ok = c != NULL;

	for (char *w = strtok_r(c, " ", &save); ok && w; w = strtok_r(NULL, " ", &save))
		ok = !has_word(b, w);
	free(c);
	return ok;
}

/* a, then the words of b that a lacks: a package two groups need is asked for once. */
static char *join(const char *a, const char *b)
{
	char *s = strdup(a), *words = strdup(b), *save = NULL;

	if (!s || !words) {
		free(s);
		free(words);
		return NULL;
	}
	for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *t = NULL;

		if (has_word(s, w))
			continue;
		if (asprintf(&t, "%s %s", s, w) < 0) {
			free(s);
			free(words);
			return NULL;
		}
		free(s);
		s = t;
	}
	free(words);
	return s;
}

/* "install-deps: missing: ..." of a --check run: exit 1 and exactly want. */
static void check_missing(const char *args, const char *a1, const char *a2, const char *want)
{
	struct run_result r;
	char *got;

	deps(&r, "", "0", "", a1, a2);
	got = line_after(r.out, "install-deps: missing: ");
	ok(r.status == 1 && got && want && !strcmp(got, want), "%s --check, nothing installed: exit 1, "
	   "missing exactly its groups' packages", args);
	if (!got || !want || strcmp(got, want))
		diag("  got '%s' (exit %d), want '%s'", got ? got : "(none)", r.status, want ? want : "?");
	free(got);
	run_free(&r);
}

int main(void)
{
	/* What `make run` needs on a fresh Debian 12, and what the tests run for real. */
	static const char *const for_run[] = { "gcc", "libc6-dev", "binutils", "make", "pkg-config",
					       "libjansson-dev" };
	static const char *const for_tests[] = { "perl", "scdoc", "mandoc", "strace", "tmux", "prometheus",
						 "python3-jsonschema", "chromium", "bash-completion", "systemd",
						 "clang", "libclang-rt-14-dev", "debhelper", "dpkg-dev",
						 "lintian", "man-db", "git" };
	char *build = NULL, *test = NULL, *lanes = NULL, *all = NULL, *s, *got;
	struct run_result r;
	size_t bad = 0;

	if (access(SCRIPT, X_OK))
		return tap_skip_all("not run from the top of the source tree");
	dir = fixture_tmpdir();
	if (!dir || write_fakes())
		return tap_skip_all("cannot write the fake dpkg-query and apt-get");

	deps(&r, "", "0", "", "--list", NULL);
	build = line_after(r.out, "build: ");
	test = line_after(r.out, "test: ");
	lanes = line_after(r.out, "lanes: ");
	ok(r.status == 0 && build && test && lanes, "--list: the build, test and lanes groups");
	run_free(&r);
	if (!build || !test || !lanes) {
		fixture_rmdir(dir);
		return done_testing();
	}
	for (size_t i = 0; i < ARRAY_SIZE(for_run); i++)
		bad += !has_word(build, for_run[i]);
	ok(!bad, "build holds what `make run` needs: compiler, libc headers, ld/nm, make, pkg-config, jansson");
	ok(disjoint(build, test) && disjoint(build, lanes), "build holds no test or lane package (%s)", build);
	bad = 0;
	for (size_t i = 0; i < ARRAY_SIZE(for_tests); i++)
		if (!has_word(test, for_tests[i])) {
			diag("  %s is not in the test group", for_tests[i]);
			bad++;
		}
	ok(!bad, "test holds prove, scdoc and every tool a test runs or skips without");

	deps(&r, "", "0", "", "--check", NULL);
	got = line_after(r.out, "install-deps: missing: ");
	ok(r.status == 1 && got && !strcmp(got, build), "no option: the build group only (%s)", got ? got : "");
	ok(strstr(r.out, "install-deps: build: ") && !strstr(r.out, "install-deps: test: ") &&
	   !strstr(r.out, "install-deps: lanes: "), "no option: one line says what the build group is for");
	free(got);
	run_free(&r);
	check_missing("--build", "--build", "--check", build);
	check_missing("--test", "--test", "--check", s = join(build, test));
	free(s);
	check_missing("--lanes", "--lanes", "--check", s = join(build, lanes));
	free(s);
	s = join(build, test);
	all = s ? join(s, lanes) : NULL;
	free(s);
	check_missing("--all", "--all", "--check", all);

	deps(&r, all ? all : "", "0", "", "--all", "--check");
	ok(r.status == 0 && strstr(r.out, "install-deps: all dependencies present"),
	   "--all, everything installed: exit 0, all present");
	run_free(&r);
	deps(&r, "make gcc", "0", "", "--check", NULL);
	got = line_after(r.out, "install-deps: missing: ");
	ok(got && !has_word(got, "make") && !has_word(got, "gcc") && has_word(got, "libjansson-dev"),
	   "only what is missing is asked for (%s)", got ? got : "");
	free(got);
	run_free(&r);
	deps(&r, "", "0", "1", "--test", "--check");
	got = line_after(r.out, "install-deps: missing: ");
	ok(got && has_word(got, "clang") && !has_word(got, "libclang-rt-14-dev"),
	   "apt knows clang but no libclang-rt-14-dev (Ubuntu 22.04): not asked for");
	free(got);
	run_free(&r);

	/* Root: apt-get update, then one install of exactly the missing build packages. */
	deps(&r, "", "0", "", NULL, NULL);
	s = run_read_file(log_path, NULL);
	got = s ? line_after(s, "apt-get install -y --no-install-recommends ") : NULL;
	ok(r.status == 0 && s && !strncmp(s, "apt-get update\n", 15) && got && !strcmp(got, build),
	   "root, no option: apt-get update, then apt-get install -y --no-install-recommends of the build group");
	if (r.status || !got || strcmp(got, build))
		diag("  exit %d, apt-get log: %s", r.status, s ? s : "(none)");
	ok(strstr(r.out, "install-deps: build: ") && strstr(r.out, "install-deps: build: ") <
	   strstr(r.out, "install-deps: installing: "), "it says what the build group is for before installing");
	free(got);
	free(s);
	run_free(&r);

	/* Not root: nothing run, the missing packages and the command to run as root. */
	deps(&r, "", "1000", "", "--test", NULL);
	ok(r.status == 1 && access(log_path, F_OK) && strstr(r.err, "run it as root: sudo " SCRIPT " --test") &&
	   strstr(r.err, "install-deps: missing: "), "not root: exit 1, no apt-get run, says what to run as root");
	run_free(&r);

	deps(&r, "", "0", "", "--help", NULL);
	bad = 0;
	for (const char *const *o = (const char *const[]){ "--build", "--test", "--lanes", "--all", "--check",
							    "--list", NULL }; *o; o++)
		bad += !strstr(r.out, *o);
	ok(r.status == 0 && !bad && strstr(r.out, "make run") && strstr(r.out, "make check"),
	   "--help: exit 0, every option and the job it is for");
	run_free(&r);
	deps(&r, "", "0", "", "--bogus", NULL);
	ok(r.status == 2 && strstr(r.err, "unknown option '--bogus' (try --help)"), "an unknown option: exit 2, says so");
	run_free(&r);

	/* Building without jansson (no pkg-config file, no header on the include path). */
	run_cmd(&r, (const char *const[]){ "env", "PKG_CONFIG_LIBDIR=/nonexistent", "make", "-n", "CC=gcc -nostdinc",
					   "all", NULL });
	ok(r.status == 2 && strstr(r.err, "jansson is not installed (Debian libjansson-dev): run scripts/install-deps"),
	   "make without jansson: stops before compiling, saying what to install and how");
	if (r.status != 2)
		diag("  exit %d: %s", r.status, r.err);
	run_free(&r);

	free(build);
	free(test);
	free(lanes);
	free(all);
	fixture_rmdir(dir);
	return done_testing();
}
