// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_man.c - the man pages cannot drift from the program: every command
 * in `exitscope --help` has its page in $BUILD/man (and no page lacks its
 * command), every option of a command's table (`exitscope help --options
 * CMD`) appears in the rendered page, a long one with its argument as the
 * table writes it ("--json FILE", "--json [FILE]"), every option token of
 * the top-level --help is in exitscope(1), exitscope(1) names every
 * command's page, and `mandoc -Tlint` has nothing at all to say about any
 * page. Debian's man renders with groff: every page, 60 columns wide, gives
 * groff -ww no warning, has no hyphen groff inserted, and shows each
 * command of its EXAMPLES (the indented lines) whole on one line. The
 * checker is shown to fail on an option a page lacks, on one without its
 * argument, on a page mandoc warns about, on one groff warns about (scdoc's
 * bullet with its distance escaped), on a hyphenated word and on a filled
 * example.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define MAX_CMDS	32
#define MAX_TOKENS	128

/* The names listed under "commands:" in the top-level --help. */
static bool opt_char(char c)
{
	return isalnum((unsigned char)c) || c == '-';
}

/* Option tokens of a --help text: --long and -x (a lone letter after a dash). */
static size_t help_options(const char *help, char toks[][48], size_t max)
{
	size_t n = 0;

	for (const char *p = help; *p && n < max; p++) {
		int len = 0;

		if (*p != '-' || (p > help && opt_char(p[-1])))
			continue;
		if (p[1] == '-' && islower((unsigned char)p[2])) {
			len = 2;
			while (opt_char(p[len]))
				len++;
			while (p[len - 1] == '-')	/* "--foo-" at a line end */
				len--;
		} else if (isalpha((unsigned char)p[1]) && !opt_char(p[2])) {
			len = 2;
		}
		if (!len)
			continue;
		snprintf(toks[n], 48, "%.*s", len, p);
		for (size_t i = 0; i < n; i++)
			if (!strcmp(toks[i], toks[n])) {
				n--;
				break;
			}
		n++;
		p += len - 1;
	}
	return n;
}

/* tok appears in text as a whole option (not as part of a longer one). */
static bool has_option(const char *text, const char *tok)
{
	size_t len = strlen(tok);

	for (const char *p = strstr(text, tok); p; p = strstr(p + 1, tok))
		if ((p == text || !opt_char(p[-1])) && !opt_char(p[len]))
			return true;
	return false;
}

/* "--name ARG" (or "--name=ARG") appears in text, the option whole. */
static bool has_option_arg(const char *text, const char *opt, const char *arg)
{
	size_t len = strlen(opt), alen = strlen(arg);

	for (const char *p = strstr(text, opt); p; p = strstr(p + 1, opt))
		if ((p == text || !opt_char(p[-1])) && (p[len] == ' ' || p[len] == '=') &&
		    !strncmp(p + len + 1, arg, alen))
			return true;
	return false;
}

/* The page as mandoc renders it, overstrike (bold/underline) removed; NULL if it fails. */
static char *render(const char *page)
{
	const char *argv[] = { "mandoc", "-Tascii", "-Owidth=250", page, NULL };
	struct run_result r;
	char *text, *o;

	if (run_cmd(&r, argv) != 0) {
		run_free(&r);
		return NULL;
	}
	text = strdup(r.out);
	o = text;
	for (const char *p = r.out; *p; p++) {
		if (*p == '\b') {
			if (o > text)
				o--;
			continue;
		}
		*o++ = *p;
	}
	*o = 0;
	run_free(&r);
	return text;
}

/* mandoc -Tlint on page: true when it exits 0 and says nothing. */
static bool lint_clean(const char *page, char *why, size_t len)
{
	const char *argv[] = { "mandoc", "-Tlint", page, NULL };
	struct run_result r;
	bool clean;

	run_cmd(&r, argv);
	clean = r.status == 0 && !*r.out && !*r.err;
	snprintf(why, len, "status %d: %s%s", r.status, r.out, r.err);
	run_free(&r);
	return clean;
}

#define GROFF_WIDTH	"-rLL=60n"	/* narrow: long lines must wrap somewhere */
#define HYPHEN_UTF8	"\xe2\x80\x90"	/* U+2010: what groff inserts when it hyphenates */

/*
 * A line of man(7) text as it shows: the escapes scdoc and tidy.awk write
 * (\& \- \fB \fI \fR \(aq \e) resolved. Into buf.
 */
static void roff_plain(const char *l, char *buf, size_t len)
{
	size_t o = 0;

	for (; *l && o + 1 < len; l++) {
		if (*l != '\\') {
			buf[o++] = *l;
			continue;
		}
		if (l[1] == '&') {
			l++;
		} else if (l[1] == '-' || l[1] == 'e') {
			buf[o++] = l[1] == '-' ? '-' : '\\';
			l++;
		} else if (l[1] == 'f' && l[2]) {
			l += 2;
		} else if (!strncmp(l + 1, "(aq", 3)) {
			buf[o++] = '\'';
			l += 3;
		} else {
			buf[o++] = *l;
		}
	}
	buf[o] = 0;
}

/* text has a line that is want after its indent. */
static bool has_line(const char *text, const char *want)
{
	size_t len = strlen(want);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *q = p + strspn(p, " ");

		if (!strncmp(q, want, len) && (q[len] == '\n' || !q[len]))
			return true;
	}
	return false;
}

/*
 * groff as man renders the page (-ww: every warning), 60 columns wide: no
 * warning, no hyphen groff inserted, and each text line of an indented
 * block under EXAMPLES (a command) shown whole on one line. The number of
 * such commands into *ncmd; false with why.
 */
static bool groff_clean(const char *page, size_t *ncmd, char *why, size_t len)
{
	const char *argv[] = { "groff", "-man", "-Tutf8", "-ww", "-P-cbou", GROFF_WIDTH, page, NULL };
	struct run_result r;
	size_t plen = 0;
	char *src = run_read_file(page, &plen), *save = NULL;
	bool clean, examples = false;
	int depth = 0;

	*ncmd = 0;
	run_cmd(&r, argv);
	clean = r.status == 0 && !*r.err && src;
	snprintf(why, len, "groff status %d: %s", r.status, r.err);
	if (clean && strstr(r.out, HYPHEN_UTF8)) {
		const char *h = strstr(r.out, HYPHEN_UTF8), *b = h;

		while (b > r.out && b[-1] != '\n')
			b--;
		snprintf(why, len, "groff hyphenated: %.*s", (int)(strcspn(b, "\n")), b);
		clean = false;
	}
	for (char *l = clean ? strtok_r(src, "\n", &save) : NULL; l && clean;
	     l = strtok_r(NULL, "\n", &save)) {
		char want[1024];

		if (!strncmp(l, ".SH ", 4))
			examples = !strcmp(l, ".SH EXAMPLES");
		else if (!strncmp(l, ".RS", 3))
			depth++;
		else if (!strncmp(l, ".RE", 3) && depth)
			depth--;
		if (!examples || !depth || l[0] == '.' || l[0] == '\'')
			continue;
		roff_plain(l, want, sizeof(want));
		(*ncmd)++;
		if (!has_line(r.out, want)) {
			snprintf(why, len, "the command \"%s\" is not one line of the rendered page", want);
			clean = false;
		}
	}
	free(src);
	run_free(&r);
	return clean;
}

/* The top-level --help (cmd NULL), or a command's option listing (help --options). */
static char *help_of(const char *exe, const char *cmd)
{
	struct run_result r;
	char *s;

	if (cmd)
		run_cmd(&r, (const char *const[]){ exe, "help", "--options", cmd, NULL });
	else
		run_cmd(&r, (const char *const[]){ exe, "--help", NULL });
	s = r.status == 0 ? strdup(r.out) : NULL;
	run_free(&r);
	return s;
}

/*
 * A command's options missing from its rendered page: each spelling of its
 * listing ("--name ARG" a line), a long one with its argument. The number
 * of spellings into *n.
 */
static size_t missing_options(const char *cmd, const char *list, const char *text, size_t *n)
{
	char line[128];
	size_t missing = 0;

	*n = 0;
	for (const char *s = list, *e; *s; s = *e ? e + 1 : e) {
		char *sp;

		e = strchr(s, '\n');
		if (!e)
			e = s + strlen(s);
		snprintf(line, sizeof(line), "%.*s", (int)(e - s), s);
		sp = strchr(line, ' ');
		if (sp)
			*sp++ = 0;
		(*n)++;
		if (!has_option(text, line) || (sp && line[1] == '-' && !has_option_arg(text, line, sp))) {
			diag("%s's option table has %s%s%s, its page does not", cmd, line, sp ? " " : "",
			     sp ? sp : "");
			missing++;
		}
	}
	return missing;
}

/* One page against its command: exists, lints clean, names every option. */
static bool have_groff;

static void check_page(const char *exe, const char *build, const char *cmd,
		       char cmds[][32], size_t ncmds)
{
	char page[512], why[2048], name[64], toks[MAX_TOKENS][48];
	char *help, *text;
	size_t ntok, ncmd = 0, missing = 0;

	snprintf(name, sizeof(name), "exitscope%s%s", cmd ? "-" : "", cmd ? cmd : "");
	snprintf(page, sizeof(page), "%s/man/%s.1", build, name);
	if (!ok(access(page, R_OK) == 0, "%s(1) is built: %s", name, page)) {
		skip("no page to lint");
		skip("no page to render with groff");
		skip("no page to read");
		return;
	}
	if (!ok(lint_clean(page, why, sizeof(why)), "%s(1): mandoc -Tlint says nothing", name))
		diag("%s", why);
	if (!have_groff) {
		skip("groff is not installed (Debian groff-base, which man needs)");
	} else {
		bool clean = groff_clean(page, &ncmd, why, sizeof(why));

		if (!ok(clean, "%s(1): groff -ww says nothing, hyphenates nothing, shows its %zu example "
			"commands whole", name, ncmd))
			diag("%s", why);
	}
	help = help_of(exe, cmd);
	text = render(page);
	if (!help || !text) {
		ok(false, "%s(1): --help and the rendered page (help %s, page %s)", name,
		   help ? "ok" : "failed", text ? "ok" : "failed");
		free(help);
		free(text);
		return;
	}
	if (cmd) {
		missing = missing_options(cmd, help, text, &ntok);
		ok(ntok > 0 && !missing, "%s(1) has all %zu options of its table, with their arguments",
		   name, ntok);
	} else {
		ntok = help_options(help, toks, MAX_TOKENS);
		for (size_t i = 0; i < ntok; i++)
			if (!has_option(text, toks[i])) {
				diag("exitscope --help has %s, its page does not", toks[i]);
				missing++;
			}
		ok(ntok > 0 && !missing, "%s(1) has all %zu options of its --help", name, ntok);
	}
	if (!cmd)
		for (size_t i = 0; i < ncmds; i++) {
			char ref[64];

			snprintf(ref, sizeof(ref), "exitscope-%s(1)", cmds[i]);
			ok(strstr(text, ref) != NULL, "exitscope(1) refers to %s", ref);
		}
	free(help);
	free(text);
}

/* The groff check fails on a warning, a hyphenated word and a filled example. */
static void groff_selftest(const char *tmp)
{
	static const char bullet[] = ".TH \"B\" \"1\" \"2026-01-01\"\n.SH NAME\nb \\- a page\n"
		".SH D\n.RS 4\n\\h'\\-04'\\(bu\\h'+03'\\citem\n.RE\n";
	static const char hyph[] = ".TH \"H\" \"1\" \"2026-01-01\"\n.SH NAME\nh \\- a page\n"
		".SH D\nthe measurements internationalization incomprehensibilities characterization "
		"counterrevolutionaries\n";
	static const char filled[] = ".TH \"F\" \"1\" \"2026-01-01\"\n.SH NAME\nf \\- a page\n.nh\n"
		".SH EXAMPLES\n.RS 4\nexitscope info\nexitscope run \\-\\-list\n.RE\n";
	const char *pages[] = { bullet, hyph, filled }, *names[] = { "b.1", "h.1", "f.1" };
	const size_t lens[] = { sizeof(bullet) - 1, sizeof(hyph) - 1, sizeof(filled) - 1 };
	const char *what[] = { "a warning (scdoc's bullet, its distance escaped)", "a hyphenated word",
			       "an example filled into the next line" };
	char why[2048];
	size_t ncmd;

	for (size_t i = 0; i < ARRAY_SIZE(pages); i++) {
		const char *path = fixture_write_raw(tmp, names[i], pages[i], lens[i]);

		if (!have_groff) {
			skip("groff is not installed");
			continue;
		}
		bool clean = !path || groff_clean(path, &ncmd, why, sizeof(why));

		ok(path && !clean, "the groff check fails on %s: %s", what[i], why);
	}
}

int main(void)
{
	const char *exe = getenv("EXITSCOPE"), *build = getenv("BUILD");
	char cmds[MAX_CMDS][32], toks[MAX_TOKENS][48], dir[512], why[2048];
	char *help, *tmp;
	size_t ncmds, ntok;
	struct dirent *de;
	DIR *d;

	if (!exe || !build)
		return tap_skip_all("EXITSCOPE or BUILD is not set (run through make check)");
	if (access("/usr/bin/mandoc", X_OK))
		return tap_skip_all("mandoc is not installed (Debian mandoc: scripts/install-deps --test)");
	have_groff = !access("/usr/bin/groff", X_OK);

	/* The parsers themselves, on a known text. */
	ntok = help_options("  -o, --output FILE  x (-shstk,-ibt) --a-b\n  --json [FILE]\n",
			    toks, MAX_TOKENS);
	ok(ntok == 4 && !strcmp(toks[0], "-o") && !strcmp(toks[1], "--output") &&
	   !strcmp(toks[2], "--a-b") && !strcmp(toks[3], "--json"),
	   "option tokens: -o --output --a-b --json, not -shstk/-ibt (got %zu)", ntok);
	ok(has_option("x --json FILE", "--json") && !has_option("x --json-lines", "--json") &&
	   !has_option("x --jsonx", "--json"), "an option is matched whole");
	ok(has_option_arg("x --json FILE y", "--json", "FILE") && has_option_arg("--json=FILE", "--json", "FILE") &&
	   has_option_arg("x --json [FILE]", "--json", "[FILE]") && !has_option_arg("x --json DIR", "--json", "FILE") &&
	   !has_option_arg("x --json-out FILE", "--json", "FILE") && !has_option_arg("x --json\n", "--json", "FILE"),
	   "an option is matched with its argument");
	{
		size_t n, miss = missing_options("demo", "--json FILE\n-o FILE\n--output FILE\n",
						 "-o, --output FILE\n--json\n", &n);

		ok(n == 3 && miss == 1, "the check fails on a page that has an option but not its argument "
		   "(%zu of %zu missing)", miss, n);
	}

	help = help_of(exe, NULL);
	ncmds = help ? run_help_commands(help, cmds, MAX_CMDS) : 0;
	free(help);
	ok(ncmds >= 6, "exitscope --help lists the commands (%zu)", ncmds);

	check_page(exe, build, NULL, cmds, ncmds);
	for (size_t i = 0; i < ncmds; i++)
		check_page(exe, build, cmds[i], cmds, ncmds);

	/* No page without its command. */
	snprintf(dir, sizeof(dir), "%s/man", build);
	d = opendir(dir);
	ok(d != NULL, "%s can be listed", dir);
	while (d && (de = readdir(d))) {
		bool known = !strcmp(de->d_name, "exitscope.1");

		if (de->d_name[0] == '.')
			continue;
		for (size_t i = 0; i < ncmds && !known; i++) {
			char want[64];

			snprintf(want, sizeof(want), "exitscope-%s.1", cmds[i]);
			known = !strcmp(de->d_name, want);
		}
		ok(known, "%s/%s belongs to a command", dir, de->d_name);
	}
	if (d)
		closedir(d);

	/* The checks can fail: a page without the option, a page mandoc warns about. */
	tmp = fixture_tmpdir();
	if (tmp) {
		static const char bad[] = ".TH \"BAD\" \"1\"\n.SH NAME\n.PP\nbad \\- a page\n";
		const char *path = fixture_write_raw(tmp, "bad.1", bad, sizeof(bad) - 1);
		char *text = path ? render(path) : NULL;

		ok(path && !lint_clean(path, why, sizeof(why)) && strstr(why, "WARNING"),
		   "the lint check fails on a page mandoc warns about");
		ok(text && strstr(text, "bad - a page") && !has_option(text, "--json"),
		   "the option check fails on a page without the option");
		free(text);
		groff_selftest(tmp);
		fixture_rmdir(tmp);
	} else {
		tap_skip(5, "no temp dir");
	}
	return done_testing();
}
