// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_install.c - `make install` and `make uninstall` for real, into a
 * temporary DESTDIR with a PREFIX of its own: exactly the binary under test,
 * one gzip -9n man page per command (plus exitscope.1), the bash
 * completion and the documents (README.md, the .md and .json files of
 * docs/, byte for byte, under share/doc/exitscope) land there, with their
 * modes; the installed binary runs; the installed completion, sourced
 * into a real bash, completes commands, options and their file or
 * directory arguments (from the binary's option listing), probe names and
 * suite names (with and without the bash-completion package's helpers
 * loaded); uninstall leaves no file behind.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define PREFIX_REL	"opt/exitscope-test"	/* PREFIX without its leading slash */
#define PREFIX		"/" PREFIX_REL
#define MAX_FILES	96
#define DOCDIR_REL	PREFIX_REL "/share/doc/exitscope"
#define BASH_COMPLETION	"/usr/share/bash-completion/bash_completion"

struct files {
	char path[MAX_FILES][256];	/* relative to the DESTDIR */
	mode_t mode[MAX_FILES];
	size_t n;
	bool overflow;
};

/* Every non-directory under root/rel, recursively, into f. */
static void list_files(const char *root, const char *rel, struct files *f)
{
	char dir[1024];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s%s%s", root, *rel ? "/" : "", rel);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char sub[512], full[1536];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		snprintf(full, sizeof(full), "%s/%s", root, sub);
		if (lstat(full, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			list_files(root, sub, f);
			continue;
		}
		if (f->n == MAX_FILES) {
			f->overflow = true;
			continue;
		}
		snprintf(f->path[f->n], sizeof(f->path[0]), "%s", sub);
		f->mode[f->n++] = st.st_mode;
	}
	closedir(d);
}

static int find_file(const struct files *f, const char *path)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->path[i], path))
			return (int)i;
	return -1;
}

/* The names listed under "commands:" in the top-level --help. */
/* The two files have the same bytes. */
static bool same_bytes(const char *a, const char *b)
{
	size_t la = 0, lb = 0;
	char *x = run_read_file(a, &la), *y = run_read_file(b, &lb);
	bool same = x && y && la == lb && !memcmp(x, y, la);

	free(x);
	free(y);
	return same;
}

/* README.md and the .md and .json files of docs/ as they land under the doc directory; how many. */
static size_t doc_files(char want[][256], size_t *nwant)
{
	size_t n = 0;
	struct dirent *de;
	DIR *d = opendir("docs");

	if (*nwant < MAX_FILES) {
		snprintf(want[(*nwant)++], 256, "%s", DOCDIR_REL "/README.md");
		n++;
	}
	while (d && (de = readdir(d)) && *nwant < MAX_FILES) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || !((len > 3 && !strcmp(de->d_name + len - 3, ".md")) ||
					      (len > 5 && !strcmp(de->d_name + len - 5, ".json"))))
			continue;
		snprintf(want[(*nwant)++], 256, DOCDIR_REL "/docs/%s", de->d_name);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* `make -s TARGET DESTDIR=dest PREFIX=...` for the binary and pages under test. */
static int make_target(const char *target, const char *dest, const char *exe, const char *build,
		       struct run_result *r)
{
	char d[1100], e[600], b[600], o[600];

	snprintf(d, sizeof(d), "DESTDIR=%s", dest);
	snprintf(e, sizeof(e), "EXE=%s", exe);
	snprintf(b, sizeof(b), "BUILD=%s", build);
	snprintf(o, sizeof(o), "--old-file=%s", exe);	/* install it as built, never relink */
	return run_cmd(r, (const char *const[]){ "make", "-s", "--no-print-directory", o, target,
						 d, "PREFIX=" PREFIX, e, b, NULL });
}

/*
 * Complete the words (the last is the one being completed) in bash with the
 * installed completion and binary; the replies, space-separated, or NULL.
 */
static char *complete(const char *dest, bool with_bash_completion, const char *words)
{
	char script[2048], path[1400];
	struct run_result r;
	char *out;

	snprintf(path, sizeof(path), "PATH=%s" PREFIX "/bin:/usr/bin:/bin", dest);
	snprintf(script, sizeof(script),
		 "%s source '%s" PREFIX "/share/bash-completion/completions/exitscope' || exit 9; "
		 "COMP_WORDS=(%s); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
		 "COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}; "
		 "_exitscope exitscope \"${COMP_WORDS[COMP_CWORD]}\" \"${COMP_WORDS[COMP_CWORD - 1]}\"; "
		 "echo \"${COMPREPLY[*]}\"",
		 with_bash_completion ? "source " BASH_COMPLETION " || exit 8;" : "", dest, words);
	run_cmd(&r, (const char *const[]){ "env", path, "bash", "--norc", "--noprofile", "-c",
					   script, NULL });
	if (r.status != 0) {
		diag("bash: status %d: %s", r.status, r.err);
		run_free(&r);
		return NULL;
	}
	out = strdup(r.out);
	out[strcspn(out, "\n")] = 0;
	run_free(&r);
	return out;
}

/* word is one of the space-separated replies. */
static bool has_word(const char *replies, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = replies ? strstr(replies, word) : NULL; p; p = strstr(p + 1, word))
		if ((p == replies || p[-1] == ' ') && (!p[len] || p[len] == ' '))
			return true;
	return false;
}

static void check_completion(const char *dest, bool with_bc, const char *probe)
{
	const char *how = with_bc ? "with bash-completion" : "plain bash";
	char words[128], pfx[64];
	char *c;

	c = complete(dest, with_bc, "exitscope ru");
	tap_is_str(c, "run", "%s: 'exitscope ru' completes to run", how);
	free(c);
	c = complete(dest, with_bc, "exitscope ''");
	ok(has_word(c, "info") && has_word(c, "run") && has_word(c, "map") && has_word(c, "check") &&
	   has_word(c, "compare") && has_word(c, "report"), "%s: every command offered: %s", how,
	   c ? c : "(null)");
	free(c);
	c = complete(dest, with_bc, "exitscope run --");
	ok(has_word(c, "--list") && has_word(c, "--json") && has_word(c, "--time-budget") &&
	   has_word(c, "--guest-xcr0") && has_word(c, "--kvm-dev") && !has_word(c, "--verbose"),
	   "%s: the options of run, only run's: %s", how, c ? c : "(null)");
	free(c);
	snprintf(pfx, sizeof(pfx), "%.*s", (int)strlen(probe) - 1, probe);
	snprintf(words, sizeof(words), "exitscope run %s", pfx);
	c = complete(dest, with_bc, words);
	ok(has_word(c, probe), "%s: 'exitscope run %s' offers the probe %s: %s", how, pfx, probe,
	   c ? c : "(null)");
	free(c);
	/* An option's value is what its METAVAR in --help says, never a probe. */
	snprintf(words, sizeof(words), "exitscope run --run-limit %s", pfx);
	c = complete(dest, with_bc, words);
	tap_is_str(c, "", "%s: 'exitscope run --run-limit %s' offers nothing (S: seconds)", how, pfx);
	free(c);
	c = complete(dest, with_bc, "exitscope calibrate --keep ''");
	ok(has_word(c, "docs") && has_word(c, "tests") && !has_word(c, "Makefile"),
	   "%s: 'exitscope calibrate --keep' offers directories only: %s", how, c ? c : "(null)");
	free(c);
	c = complete(dest, with_bc, "exitscope calibrate -o ''");
	ok(has_word(c, "Makefile"), "%s: 'exitscope calibrate -o' offers files", how);
	free(c);
	c = complete(dest, with_bc, "exitscope info --json ''");
	ok(has_word(c, "Makefile"), "%s: 'exitscope info --json' offers files (its FILE is optional)", how);
	free(c);
	c = complete(dest, with_bc, "exitscope check mi");
	tap_is_str(c, "migrate", "%s: 'exitscope check mi' completes the suite migrate", how);
	free(c);
}

int main(void)
{
	const char *exe = getenv("EXITSCOPE"), *build = getenv("BUILD");
	char cmds[32][32], dest[600], want[MAX_FILES][256], path[1200], probe[64] = "";
	struct files got = { 0 }, left = { 0 };
	struct run_result r;
	size_t ncmds, nwant = 0, ndocs, missing = 0;
	char *tmp;

	if (!exe || !build)
		return tap_skip_all("EXITSCOPE or BUILD is not set (run through make check)");
	if (access("Makefile", R_OK) || access("completion/exitscope.bash", R_OK))
		return tap_skip_all("not run from the top of the source tree");
	tmp = fixture_tmpdir();
	if (!tmp)
		return tap_skip_all("no temp dir");
	snprintf(dest, sizeof(dest), "%s/dest", tmp);

	run_cmd(&r, (const char *const[]){ exe, "--help", NULL });
	ncmds = run_help_commands(r.out, cmds, 32);
	run_free(&r);
	ok(ncmds >= 6, "the commands of exitscope --help (%zu)", ncmds);
	run_cmd(&r, (const char *const[]){ exe, "run", "--list", NULL });
	/* The last probe listed (a name with underscores, not the nop baseline). */
	for (char *l = strchr(r.out, '\n'); l && l[1]; l = strchr(l + 1, '\n'))
		if (l[1] != ' ')	/* not a description's continuation */
			sscanf(l + 1, "%63s", probe);
	run_free(&r);
	ok(*probe && strcmp(probe, "probe"), "a probe name from run --list: %s", probe);

	snprintf(want[nwant++], 256, "%s", PREFIX_REL "/bin/exitscope");
	snprintf(want[nwant++], 256, "%s", PREFIX_REL "/share/bash-completion/completions/exitscope");
	snprintf(want[nwant++], 256, "%s", PREFIX_REL "/share/man/man1/exitscope.1.gz");
	for (size_t i = 0; i < ncmds && nwant < MAX_FILES; i++)
		snprintf(want[nwant++], 256, PREFIX_REL "/share/man/man1/exitscope-%s.1.gz", cmds[i]);
	ndocs = doc_files(want, &nwant);
	ok(ndocs > 10, "the documents to install: README.md, the .md and .json files of docs/ (%zu)",
	   ndocs);

	make_target("install", dest, exe, build, &r);
	if (!is_int(r.status, 0, "make install DESTDIR=... PREFIX=" PREFIX))
		diag("%s%s", r.out, r.err);
	run_free(&r);

	list_files(dest, "", &got);
	for (size_t i = 0; i < nwant; i++)
		if (find_file(&got, want[i]) < 0) {
			diag("not installed: %s", want[i]);
			missing++;
		}
	for (size_t i = 0; i < got.n; i++) {
		bool wanted = false;

		for (size_t k = 0; k < nwant; k++)
			wanted |= !strcmp(got.path[i], want[k]);
		if (!wanted)
			diag("installed but not expected: %s", got.path[i]);
	}
	ok(!missing && got.n == nwant && !got.overflow,
	   "exactly the %zu expected files landed under DESTDIR" PREFIX " (got %zu)", nwant, got.n);

	for (size_t i = 0; i < got.n; i++) {
		mode_t want_mode = strstr(got.path[i], "/bin/") ? 0755 : 0644;

		if (!ok(S_ISREG(got.mode[i]) && (got.mode[i] & 07777) == want_mode,
			"%s: a regular file, mode %o", got.path[i], want_mode))
			diag("  mode %o", got.mode[i] & 07777);
	}

	snprintf(path, sizeof(path), "%s" PREFIX "/bin/exitscope", dest);
	ok(same_bytes(path, exe), "the installed binary is the one under test");
	run_cmd(&r, (const char *const[]){ path, "--help", NULL });
	ok(r.status == 0 && strstr(r.out, "usage: exitscope <command>"),
	   "the installed exitscope --help runs (exit %d)", r.status);
	run_free(&r);

	/* The documents: the tree's own bytes. */
	for (size_t i = 0; i < got.n; i++) {
		const char *rel = got.path[i] + strlen(DOCDIR_REL "/");

		if (strncmp(got.path[i], DOCDIR_REL "/", strlen(DOCDIR_REL "/")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dest, got.path[i]);
		ok(same_bytes(path, rel), "%s: is the tree's %s", got.path[i], rel);
	}

	/* Man pages: gzip without name or time stamp (-n), the built page inside. */
	for (size_t i = 0; i < got.n; i++) {
		char built[1024], *page, *gz;
		size_t len = 0, glen = 0;

		if (!strstr(got.path[i], "/man1/"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dest, got.path[i]);
		snprintf(built, sizeof(built), "%s/man/%.*s", build,
			 (int)(strlen(strrchr(got.path[i], '/') + 1) - 3), strrchr(got.path[i], '/') + 1);
		gz = run_read_file(path, &glen);
		ok(gz && glen > 10 && (unsigned char)gz[0] == 0x1f && (unsigned char)gz[1] == 0x8b &&
		   !(gz[3] & 0x08) && !gz[4] && !gz[5] && !gz[6] && !gz[7],
		   "%s: gzip with no file name and no time stamp", got.path[i]);
		free(gz);
		run_cmd(&r, (const char *const[]){ "gzip", "-dc", path, NULL });
		page = run_read_file(built, &len);
		ok(r.status == 0 && page && strlen(r.out) == len && !memcmp(r.out, page, len),
		   "%s: is %s", got.path[i], built);
		free(page);
		run_free(&r);
	}

	/* The installed completion in a real bash, with the installed binary on PATH. */
	check_completion(dest, false, probe);
	if (access(BASH_COMPLETION, R_OK))
		tap_skip(9, BASH_COMPLETION " is not installed (Debian bash-completion: scripts/install-deps --test)");
	else
		check_completion(dest, true, probe);

	make_target("uninstall", dest, exe, build, &r);
	if (!is_int(r.status, 0, "make uninstall DESTDIR=... PREFIX=" PREFIX))
		diag("%s%s", r.out, r.err);
	run_free(&r);
	list_files(dest, "", &left);
	for (size_t i = 0; i < left.n; i++)
		diag("left after uninstall: %s", left.path[i]);
	ok(got.n && !left.n && !left.overflow, "make uninstall removed every installed file");

	fixture_rmdir(tmp);
	return done_testing();
}
