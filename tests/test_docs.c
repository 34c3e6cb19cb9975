// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_docs.c - the user's documents cannot rot:
 *
 * - every relative link of README.md and the .md pages in docs (a markdown [x](path),
 *   [x](path#anchor) or [x](#anchor), and a file name such as method.md or
 *   docs/lanes.md#anchor named in the text) points to a file that exists,
 *   and an #anchor into a .md file to one of its headings, by GitHub's rule
 *   (lower-case, spaces to '-', punctuation other than '-' and '_' dropped,
 *   a repeated heading gets -1, -2, ...); file names in the man pages too;
 * - no README.md, docs page or man page (man, .scd) refers to an issue by number
 *   ("issue 12", "issues #3") or to a ../shared path;
 * - every command that `exitscope --help` lists has a row in README.md's
 *   command table and a man page, man/exitscope-CMD.1.scd.
 *
 * Every check is also run on made-up input that must fail it. Run from the
 * top of the tree (as `make check` does), with EXITSCOPE set.
 */
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define MAX_ANCHORS	1024
#define ANCHOR_LEN	160
#define MAX_CMDS	32

/* A line that opens or closes a fenced code block: up to 3 spaces, ``` or ~~~. */
static bool is_fence(const char *l)
{
	for (int i = 0; i < 3 && *l == ' '; i++)
		l++;
	return !strncmp(l, "```", 3) || !strncmp(l, "~~~", 3);
}

/* A copy of a markdown text with its fenced code blocks blanked (newlines kept). */
static char *blank_fences(const char *text)
{
	char *out = strdup(text);
	bool fence = false;

	for (char *l = out; *l;) {
		char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		bool f = is_fence(l);

		if (f || fence)
			memset(l, ' ', len);
		if (f)
			fence = !fence;
		l += len + (e != NULL);
	}
	return out;
}

/*
 * A copy with the inline code spans blanked too: a run of n backticks
 * opens a span that the next run of exactly n closes, within the paragraph
 * (no blank line between); a run with no closer is literal text.
 */
static char *blank_code(const char *text)
{
	char *out = strdup(text);

	for (char *p = out; *p;) {
		size_t n = 0;
		char *q;

		if (*p != '`') {
			p++;
			continue;
		}
		while (p[n] == '`')
			n++;
		for (q = p + n; *q; q++) {
			size_t m = 0;

			if (q[0] == '\n' && (q[1] == '\n' || (q[1] == ' ' && strspn(q + 1, " ") ==
							      strcspn(q + 1, "\n")))) {
				q = NULL;	/* a blank line ends the paragraph */
				break;
			}
			if (*q != '`')
				continue;
			while (q[m] == '`')
				m++;
			if (m == n)
				break;
			q += m - 1;
		}
		if (!q || !*q) {
			p += n;
			continue;
		}
		for (char *c = p; c < q + n; c++)
			if (*c != '\n')
				*c = ' ';
		p = q + n;
	}
	return out;
}

/* GitHub's anchor of a heading's text (after the #s): its id without the -N of a repeat. */
static void anchor_of(const char *h, size_t len, char *out, size_t outlen)
{
	size_t o = 0;

	while (len && (h[len - 1] == ' ' || h[len - 1] == '\r'))
		len--;
	for (size_t i = 0; i < len && o + 1 < outlen; i++) {
		unsigned char c = (unsigned char)h[i];

		if (c == ']' && i + 1 < len && h[i + 1] == '(') {	/* [text](target): the text only */
			while (i < len && h[i] != ')')
				i++;
			continue;
		}
		if (isalnum(c) || c >= 0x80)
			out[o++] = (char)tolower(c);
		else if (c == ' ')
			out[o++] = '-';
		else if (c == '-' || c == '_')
			out[o++] = (char)c;
	}
	out[o] = 0;
}

/* The anchors of a markdown text's headings, repeats numbered as GitHub does; their count. */
static size_t anchors(const char *text, char out[][ANCHOR_LEN], size_t max)
{
	char *t = blank_fences(text);
	size_t n = 0;

	for (char *l = t; *l && n < max;) {
		char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) : strlen(l);
		size_t hashes = strspn(l, "#");

		if (hashes >= 1 && hashes <= 6 && hashes < len && l[hashes] == ' ') {
			char base[ANCHOR_LEN];
			int seen = 0;

			anchor_of(l + hashes + 1, len - hashes - 1, base, sizeof(base));
			for (size_t i = 0; i < n; i++) {
				char rep[ANCHOR_LEN + 16];

				snprintf(rep, sizeof(rep), "%s-%d", base, seen);
				if (!strcmp(out[i], seen ? rep : base))
					seen++;
			}
			if (seen)
				snprintf(out[n], ANCHOR_LEN, "%.*s-%d", ANCHOR_LEN - 12, base, seen);
			else
				snprintf(out[n], ANCHOR_LEN, "%s", base);
			n++;
		}
		l += len + (e != NULL);
	}
	free(t);
	return n;
}

/* Whether the markdown file at path has a heading whose anchor is anchor. */
static bool has_anchor(const char *path, const char *anchor)
{
	static char a[MAX_ANCHORS][ANCHOR_LEN];
	char *text = run_read_file(path, NULL);
	size_t n;
	bool found = false;

	if (!text)
		return false;
	n = anchors(text, a, MAX_ANCHORS);
	for (size_t i = 0; i < n && !found; i++)
		found = !strcmp(a[i], anchor);
	free(text);
	return found;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/*
 * One link target (path, path#anchor or #anchor) of the file doc: whether
 * it resolves, from doc's directory or (tree_too: a file name in the text)
 * from the top of the tree, top. Prints why not.
 */
static bool link_ok(const char *doc, const char *top, const char *target, bool tree_too)
{
	char path[1024], dir[512], file[512];
	const char *hash = strchr(target, '#'), *slash = strrchr(doc, '/');
	bool found;

	snprintf(file, sizeof(file), "%.*s", (int)(hash ? (size_t)(hash - target) : strlen(target)), target);
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - doc) : 1, slash ? doc : ".");
	if (!*file)
		snprintf(path, sizeof(path), "%s", doc);
	else
		snprintf(path, sizeof(path), "%s/%s", dir, file);
	found = access(path, F_OK) == 0;
	if (!found && tree_too && *file) {
		snprintf(path, sizeof(path), "%s/%s", top, file);
		found = access(path, F_OK) == 0;
	}
	if (!found) {
		diag("%s: '%s': no such file", doc, target);
		return false;
	}
	if (hash && ends_with(path, ".md") && !has_anchor(path, hash + 1)) {
		diag("%s: '%s': %s has no heading with the anchor '%s'", doc, target, path, hash + 1);
		return false;
	}
	return true;
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '/' || c == '-';
}

/*
 * The broken links of the file doc: markdown links (md: a .md file) outside
 * code, and file names ending in .md anywhere but in fenced code blocks.
 * *nlinks counts what was checked.
 */
static int broken_links(const char *doc, const char *top, bool md, int *nlinks)
{
	char *text = run_read_file(doc, NULL), *prose, *plain;
	int broken = 0;

	*nlinks = 0;
	if (!text) {
		diag("%s: cannot be read", doc);
		return 1;
	}
	prose = md ? blank_fences(text) : strdup(text);
	plain = md ? blank_code(prose) : strdup(prose);

	/* [text](target) */
	for (const char *p = md ? strstr(plain, "](") : NULL; p; p = strstr(p + 1, "](")) {
		const char *t = p + 2;
		size_t len;
		char target[512];

		while (*t == ' ' || *t == '<')
			t++;
		len = strcspn(t, " )>\n");
		snprintf(target, sizeof(target), "%.*s", (int)len, t);
		if (!*target || strstr(target, "://") || !strncmp(target, "mailto:", 7))
			continue;
		(*nlinks)++;
		broken += !link_ok(doc, top, target, false);
	}

	/* A file name ending in .md (and its #anchor), not the target of a link above. */
	for (const char *p = strstr(prose, ".md"); p; p = strstr(p + 1, ".md")) {
		const char *s = p, *e = p + 3;
		char target[512];

		if (isalnum((unsigned char)*e) || *e == '_')
			continue;	/* .mdx, .md_foo */
		while (s > prose && name_char(s[-1]))
			s--;
		while (*s == '_')	/* scdoc's _underline_ */
			s++;
		if (s >= p || (s - prose >= 2 && s[-1] == '(' && s[-2] == ']') ||
		    (s > prose && (s[-1] == ':' || s[-1] == '/')) || !strncmp(s, "build", 5))
			continue;	/* no name, a link's target, a URL, a generated file */
		if (*e == '#')
			for (e++; isalnum((unsigned char)*e) || *e == '-' || *e == '_'; e++)
				;
		snprintf(target, sizeof(target), "%.*s", (int)(e - s), s);
		(*nlinks)++;
		broken += !link_ok(doc, top, target, true);
	}
	free(plain);
	free(prose);
	free(text);
	return broken;
}

/*
 * Where text refers to an issue by number (\bissues? #?[0-9]+, any case)
 * or to a ../shared path: the offending words, else NULL (static buffer).
 */
static const char *issue_ref(const char *text)
{
	static char what[64];

	for (const char *p = text; *p; p++) {
		const char *q = p + 5;

		if (strncasecmp(p, "issue", 5) || (p > text && isalnum((unsigned char)p[-1])))
			continue;
		if (*q == 's' || *q == 'S')
			q++;
		if (*q != ' ' && *q != '\n')
			continue;
		while (*q == ' ' || *q == '\n')
			q++;
		if (*q == '#')
			q++;
		if (isdigit((unsigned char)*q)) {
			snprintf(what, sizeof(what), "%.*s", (int)(q - p + strspn(q, "0123456789")), p);
			return what;
		}
	}
	if (strstr(text, "../shared"))
		return "../shared";
	return NULL;
}

/* Whether readme has a command-table row for cmd: a line "| `exitscope CMD" (then ` or a space). */
static bool has_row(const char *readme, const char *cmd)
{
	char row[64];
	size_t len;

	len = (size_t)snprintf(row, sizeof(row), "\n| `exitscope %s", cmd);
	for (const char *p = strstr(readme, row); p; p = strstr(p + 1, row))
		if (p[len] == '`' || p[len] == ' ')
			return true;
	return false;
}

/* The made-up input each check must fail on. */
static void self_test(void)
{
	static char a[8][ANCHOR_LEN];
	static const char doc_a[] =
		"# A\n\n[fine](b.md#a-heading-with-code-and-a-link) [fine](#a) [web](https://x.org/y.md)\n"
		"[gone](missing.md) [bad anchor](b.md#no-such-heading) `[in code](nowhere.md)`\n"
		"```\n[in a block](nowhere-either.md)\n# not a heading\n```\n"
		"Named in the text: b.md, b.md#repeat-1, gone.md and b.md#repeat-2.\n";
	static const char doc_b[] =
		"# A heading, with `code` and [a link](a.md)!\n## Repeat\n## Repeat\n";
	char *tmp = fixture_tmpdir(), pa[600];
	int nlinks = 0, broken = -1;
	size_t n;

	n = anchors(doc_b, a, 8);
	ok(n == 3 && !strcmp(a[0], "a-heading-with-code-and-a-link") && !strcmp(a[1], "repeat") &&
	   !strcmp(a[2], "repeat-1"), "anchors by GitHub's rule: %s, %s, %s", n > 0 ? a[0] : "-",
	   n > 1 ? a[1] : "-", n > 2 ? a[2] : "-");
	if (tmp && fixture_write_raw(tmp, "b.md", doc_b, sizeof(doc_b) - 1) &&
	    fixture_write_raw(tmp, "a.md", doc_a, sizeof(doc_a) - 1)) {
		snprintf(pa, sizeof(pa), "%s/a.md", tmp);
		diag("the link check on a made-up page (4 broken links expected):");
		broken = broken_links(pa, tmp, true, &nlinks);
	}
	ok(broken == 4 && nlinks == 8,
	   "the link check fails on a missing file, a missing anchor and a name of neither "
	   "(%d broken of %d, want 4 of 8)", broken, nlinks);
	fixture_rmdir(tmp);

	ok(issue_ref("as Issue 12 says") && issue_ref("see issues #3 and 4") &&
	   issue_ref("the\nissue\n7") && issue_ref("in ../shared/notes"),
	   "the issue check finds 'Issue 12', 'issues #3', 'issue 7' across lines, '../shared'");
	ok(!issue_ref("an issue 's fix; tissue 3; the issue's figures; 12 issues"),
	   "and nothing in text without one");
	ok(has_row("x\n| `exitscope run [PROBE]` | y |\n| `exitscope map` | z |\n", "map") &&
	   !has_row("x\n| `exitscope run [PROBE]` | y |\n| `exitscope mapx` | z |\n", "map") &&
	   !has_row("x\n`exitscope map` in a sentence\n", "map"),
	   "the command-table check finds a row and only a row");
}

int main(void)
{
	const char *exe = getenv("EXITSCOPE");
	char cmds[MAX_CMDS][32], *readme;
	size_t ncmds;
	glob_t g = { 0 };
	struct run_result r;

	self_test();

	/* Links in README.md and the docs pages; file names in the man pages. */
	if (glob("docs/*.md", 0, NULL, &g) || !g.gl_pathc) {
		ok(false, "docs/*.md found (run from the top of the tree)");
		return done_testing();
	}
	{
		const char *readme_path = "README.md";
		int nlinks, broken = broken_links(readme_path, ".", true, &nlinks);

		ok(!broken && nlinks > 10, "README.md: all %d links resolve (%d broken)", nlinks, broken);
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		int nlinks, broken = broken_links(g.gl_pathv[i], ".", true, &nlinks);

		ok(!broken, "%s: all %d links resolve (%d broken)", g.gl_pathv[i], nlinks, broken);
	}
	globfree(&g);
	if (!glob("man/*.scd", 0, NULL, &g))
		for (size_t i = 0; i < g.gl_pathc; i++) {
			int nlinks, broken = broken_links(g.gl_pathv[i], ".", false, &nlinks);

			ok(!broken, "%s: all %d document names resolve (%d broken)", g.gl_pathv[i],
			   nlinks, broken);
		}
	globfree(&g);

	/* No issue numbers, no ../shared. */
	glob("README.md", 0, NULL, &g);
	glob("docs/*.md", GLOB_APPEND, NULL, &g);
	glob("man/*.scd", GLOB_APPEND, NULL, &g);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char *text = run_read_file(g.gl_pathv[i], NULL);
		const char *what = text ? issue_ref(text) : "unreadable";

		ok(!what, "%s refers to no issue number and no ../shared%s%s%s", g.gl_pathv[i],
		   what ? " (found '" : "", what ? what : "", what ? "')" : "");
		free(text);
	}
	globfree(&g);

	/* Every command: a row in README's table and a man page. */
	if (!exe) {
		skip("EXITSCOPE is not set (run through make check)");
		return done_testing();
	}
	run_cmd(&r, (const char *const[]){ exe, "--help", NULL });
	ncmds = r.status == 0 ? run_help_commands(r.out, cmds, MAX_CMDS) : 0;
	run_free(&r);
	ok(ncmds >= 6, "exitscope --help lists the commands (%zu)", ncmds);
	readme = run_read_file("README.md", NULL);
	for (size_t i = 0; i < ncmds; i++) {
		char page[128];

		snprintf(page, sizeof(page), "man/exitscope-%s.1.scd", cmds[i]);
		ok(readme && has_row(readme, cmds[i]), "README.md's command table has a row for %s",
		   cmds[i]);
		ok(access(page, R_OK) == 0, "%s has its man page, %s", cmds[i], page);
	}
	free(readme);
	return done_testing();
}
