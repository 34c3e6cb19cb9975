// SPDX-License-Identifier: GPL-2.0-only
/*
 * expect_judge.c - expectations judged against a lane's results directory
 * (expect/expect.h): every block loaded once through the query engine and
 * validated as `exitscope query` validates it, every figure read with a
 * query path and compared as text, as the query command prints it.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/array_size.h"
#include "base/text.h"
#include "compare/compare.h"
#include "expect/expect.h"
#include "expect/expect_map.h"
#include "expect/judge.h"
#include "results/file_read.h"
#include "results/query_text.h"
#include "results/walk_model.h"

#define SIDE_FILE_MAX	(1u << 20)	/* bytes of NAME.rc, NAME.stderr, absent */
#define MEASURED_MAX	300		/* bytes of the values quoted in a line */
#define SOMEOF_MAX	600		/* bytes of a suite's checks quoted */


/* Strings that live until the line is judged */

char *ej_keep(struct judge *j, char *s)
{
	if (!s) {
		j->oom = true;
		return "";
	}
	if (j->ntmp == j->captmp) {
		size_t cap = j->captmp ? 2 * j->captmp : 64;
		char **n = realloc(j->tmp, cap * sizeof(*n));

		if (!n) {
			free(s);
			j->oom = true;
			return "";
		}
		j->tmp = n;
		j->captmp = cap;
	}
	j->tmp[j->ntmp++] = s;
	return s;
}

__attribute__((format(printf, 2, 3)))
char *ej_fmt(struct judge *j, const char *f, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, f);
	n = vasprintf(&s, f, ap);
	va_end(ap);
	return ej_keep(j, n < 0 ? NULL : s);
}

void ej_tmp_free(struct judge *j)
{
	while (j->ntmp)
		free(j->tmp[--j->ntmp]);
}

/* s without its trailing newlines, as a shell's $(...) gives it. */
char *ej_chomp(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '\n')
		s[--n] = 0;
	return s;
}

char *ej_first_line(struct judge *j, const char *s)
{
	return ej_keep(j, strndup(s, strcspn(s, "\n")));
}

/* s with every newline made sep. */
static char *joined(struct judge *j, const char *s, const char *sep)
{
	size_t n = 0, i;
	const char *p;
	char *r;

	for (p = s; *p; p++)
		n += *p == '\n' ? strlen(sep) : 1;
	r = ej_keep(j, malloc(n + 1));
	if (j->oom)
		return "";
	for (p = s, i = 0; *p; p++) {
		if (*p == '\n') {
			memcpy(r + i, sep, strlen(sep));
			i += strlen(sep);
		} else {
			r[i++] = *p;
		}
	}
	r[i] = 0;
	return r;
}

/* At most max bytes of s. */
static char *cut(struct judge *j, const char *s, size_t max)
{
	return ej_keep(j, strndup(s, max));
}

/* Where the last n lines of s start (as tail -n prints them). */
static const char *tail_lines(const char *s, unsigned n)
{
	const char *p = s + strlen(s);

	if (p > s && p[-1] == '\n')
		p--;
	while (p > s) {
		if (p[-1] == '\n' && !--n)
			break;
		p--;
	}
	return p;
}

/* A side file of the results (NAME.rc, NAME.stderr, absent): its text, "" when unreadable. */
static char *side_file(struct judge *j, const char *name)
{
	char *buf;
	size_t len;

	if (file_read_all(ej_fmt(j, "%s/%s", j->dir, name), SIDE_FILE_MAX, &buf, &len, NULL))
		return "";
	return ej_keep(j, buf);
}

/* The first max bytes of the file at path, "" when unreadable. */
static char *file_head(struct judge *j, const char *path, size_t max)
{
	char *buf = ej_keep(j, calloc(1, max + 1));
	FILE *f = fopen(path, "r");

	if (f && !j->oom)
		buf[fread(buf, 1, max, f)] = 0;
	if (f)
		fclose(f);
	return j->oom ? "" : buf;
}

/* Reporting */

/*
 * Text with names from the files in it, line by line: each line escaped
 * (base/text.h: a control byte is \xNN), so an escape sequence in a probe
 * or function name is shown, not obeyed.
 */
static void put_lines(FILE *f, const char *s)
{
	for (size_t n; *s; s += n + (s[n] == '\n')) {
		n = strcspn(s, "\n");
		text_put(f, s, n);
		if (s[n] == '\n')
			fputc('\n', f);
	}
}

/* One line: its mark, in an A/B the pair it is about, then the text (escaped). */
static void say(struct judge *j, const char *mark, const char *f, va_list ap)
{
	char *text = NULL;

	fputs(mark, j->o->out);
	if (j->ab) {
		text_put(j->o->out, j->base, strlen(j->base));
		fputs("->", j->o->out);
		text_put(j->o->out, j->new, strlen(j->new));
		fputs(": ", j->o->out);
	}
	if (vasprintf(&text, f, ap) < 0) {
		j->oom = true;
		fputs("(out of memory)", j->o->out);
	} else {
		put_lines(j->o->out, text);
		free(text);
	}
	fputc('\n', j->o->out);
}

void ej_ok(struct judge *j, const char *f, ...)
{
	va_list ap;

	j->pass++;
	va_start(ap, f);
	say(j, "  ok    ", f, ap);
	va_end(ap);
}

void ej_bad(struct judge *j, const char *f, ...)
{
	va_list ap;

	j->fail++;
	va_start(ap, f);
	say(j, "  FAIL  ", f, ap);
	va_end(ap);
}

void ej_skip(struct judge *j, const char *f, ...)
{
	va_list ap;

	j->skip++;
	va_start(ap, f);
	say(j, "  skip  ", f, ap);
	va_end(ap);
}

/* Numbers */

/* A number as awk's print writes it: an integer whole, else %.6g. */
static char *awk_print(struct judge *j, double d)
{
	if (fabs(d) < 9e18 && d == (double)(long long)d)
		return ej_fmt(j, "%lld", (long long)d);
	return ej_fmt(j, "%.6g", d);
}

/* x (text, as query prints it) satisfies the NUM spec, within the judge's tolerance. */
bool ej_num_holds(const struct judge *j, const char *x, const char *spec)
{
	if (!*x || !strcmp(x, "null"))
		return false;
	return expect_num_holds(spec, ej_awk_num(x), j->o->tol);
}

/* A number as written in JSON text: -?D+(.D+)?([eE][-+]?D+)? */
bool ej_is_number(const char *s)
{
	regex_t re;
	bool r;

	if (regcomp(&re, "^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$", REG_EXTENDED | REG_NOSUB))
		return false;
	r = !regexec(&re, s, 0, NULL, 0);
	regfree(&re);
	return r;
}

/* a OP b: numbers by value, else strings (= and != only); ~: b an extended regex a matches. */
static bool exact(const char *a, const char *op, const char *b)
{
	if (!strcmp(op, "~")) {
		regex_t re;
		bool r;

		if (regcomp(&re, b, REG_EXTENDED | REG_NOSUB))
			return false;
		r = !regexec(&re, a, 0, NULL, 0);
		regfree(&re);
		return r;
	}
	if (ej_is_number(a) && ej_is_number(b)) {
		double x = strtod(a, NULL), y = strtod(b, NULL);

		if (!strcmp(op, "="))
			return x == y;
		if (!strcmp(op, "!="))
			return x != y;
		if (!strcmp(op, ">="))
			return x >= y;
		if (!strcmp(op, "<="))
			return x <= y;
		if (!strcmp(op, ">"))
			return x > y;
		return !strcmp(op, "<") && x < y;
	}
	if (!strcmp(op, "="))
		return !strcmp(a, b);
	return !strcmp(op, "!=") && strcmp(a, b);
}

/* "|st|" is in "|alts|": st is one of the '|'-separated alternatives. */
bool ej_one_of(struct judge *j, const char *st, const char *alts)
{
	return strstr(ej_fmt(j, "|%s|", alts), ej_fmt(j, "|%s|", st)) != NULL;
}

/* Blocks */

struct block *ej_block_find(const struct judge *j, const char *name)
{
	size_t i;

	for (i = 0; i < j->nblocks; i++)
		if (!strcmp(j->blocks[i].name, name))
			return &j->blocks[i];
	return NULL;
}

const struct query_envelope ej_envelopes[] = {
	{ COMPARE_SCHEMA, 1, COMPARE_SCHEMA_VERSION },
	{ WALK_STEPS_SCHEMA, 1, WALK_STEPS_SCHEMA_VERSION },
};
const size_t ej_nenvelopes = ARRAY_SIZE(ej_envelopes);

/* A new block named name (qf NULL), or NULL when out of memory. */
static struct block *block_add(struct judge *j, const char *name)
{
	struct block *b;

	if (j->nblocks == j->capblocks) {
		size_t cap = j->capblocks ? 2 * j->capblocks : 16;

		b = realloc(j->blocks, cap * sizeof(*b));
		if (!b)
			return NULL;
		j->blocks = b;
		j->capblocks = cap;
	}
	b = &j->blocks[j->nblocks];
	b->qf = NULL;
	b->name = strdup(name);
	if (!b->name)
		return NULL;
	j->nblocks++;
	return b;
}

struct block *ej_block(struct judge *j, const char *name)
{
	struct block *b = ej_block_find(j, name);
	struct stat st;
	struct err e;

	if (b || !(j->ab || j->files))
		return b;
	b = block_add(j, name);
	if (!b) {
		j->oom = true;
		return NULL;
	}
	err_init(&e);
	if (!stat(name, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		b->qf = query_load_path(name, ej_envelopes, ej_nenvelopes, 0, &e);
		if (!b->qf && e.code == -ENOMEM)
			j->oom = true;
	}
	return b;
}

/* lanes/lane-helper.c's blocks: plain JSON, no schema. */
static bool plain_block(const char *name)
{
	return !strcmp(name, "kvm") || !strcmp(name, "tsc");
}

static bool have(const struct judge *j, const char *name)
{
	const struct block *b = ej_block_find(j, name);

	return b && b->qf;
}

/*
 * What `exitscope query BLOCK.json PATH` prints, without its trailing
 * newlines; *rc its status (0 values, 1 none, 2 an error, said in *qerr).
 */
char *ej_q(struct judge *j, const char *block, const char *path, int *rc, const char **qerr)
{
	const struct block *b = ej_block(j, block);
	struct err err;
	char *out;
	int r;

	*rc = 2;
	if (qerr)
		*qerr = "";
	if (!b || !b->qf) {
		if (qerr)
			*qerr = ej_fmt(j, "exitscope query: %s/%s.json: not a valid block", j->dir,
				       block);
		return "";
	}
	err_init(&err);
	r = query_text(b->qf, path, &out, &err);
	if (r < 0) {
		if (r == -ENOMEM)
			j->oom = true;
		if (qerr)
			*qerr = ej_fmt(j, "exitscope query: %s", err.msg);
		return "";
	}
	*rc = r;
	return ej_chomp(ej_keep(j, out));
}

char *ej_qs(struct judge *j, const char *block, const char *path)
{
	int rc;

	return ej_q(j, block, path, &rc, NULL);
}

/* PATH's values, one line each; "null" when it selects nothing. */
char *ej_qv(struct judge *j, const char *block, const char *path)
{
	char *s = ej_qs(j, block, path);

	return *s ? s : "null";
}

/* The lines of s as a shell's mapfile <<< "$s" reads them (at least one). */
char **ej_lines_of(struct judge *j, char *s, size_t *n)
{
	size_t k = 1, i = 0;
	char *p, **v;

	for (p = s; *p; p++)
		k += *p == '\n';
	s = ej_keep(j, strdup(s));
	v = (char **)ej_keep(j, malloc(k * sizeof(*v)));
	if (j->oom) {
		*n = 0;
		return NULL;
	}
	for (p = s;; p++) {
		char *e = strchr(p, '\n');

		v[i++] = p;
		if (!e)
			break;
		*e = 0;
		p = e;
	}
	*n = i;
	return v;
}

/* The values PATH selects; rc as ej_q()'s. */
static char **values(struct judge *j, const char *block, const char *path, size_t *n, int *rc,
		     const char **qerr)
{
	char *s = ej_q(j, block, path, rc, qerr);

	*n = 0;
	return *rc ? NULL : ej_lines_of(j, s, n);
}

/* v[] joined by ", ", at most MEASURED_MAX bytes. */
static char *list(struct judge *j, char **v, size_t n)
{
	char *s = "";
	size_t i;

	for (i = 0; i < n; i++)
		s = ej_fmt(j, "%s%s%s", s, i ? ", " : "", v[i]);
	return cut(j, s, MEASURED_MAX);
}

/* The command of the first "BLOCK COMMAND" line of dir/absent about key, NULL when none. */
static char *absent_cmd(struct judge *j, const char *key)
{
	char **v;
	size_t n, i;

	v = ej_lines_of(j, j->absent, &n);
	for (i = 0; i < n; i++) {
		char *w1 = v[i] + strspn(v[i], " \t"), *e = w1 + strcspn(w1, " \t");
		char *w2 = e + strspn(e, " \t");

		if ((size_t)(e - w1) != strlen(key) || strncmp(w1, key, e - w1) || !*w1)
			continue;
		w2 = ej_keep(j, strndup(w2, strcspn(w2, " \t")));
		return *w2 ? w2 : NULL;
	}
	return NULL;
}

/* The block a line reads. */
static const char *line_block(const struct expect_line *l)
{
	switch (l->kind) {
	case EXPECT_RC:
	case EXPECT_VALUE:
	case EXPECT_COUNT:
	case EXPECT_SUM:
	case EXPECT_FIELD:
		return l->w[0];
	case EXPECT_MODE:
		return "info";
	case EXPECT_MAP:
	case EXPECT_MAPTRACE:
		return "map";
	case EXPECT_PROBE:
	case EXPECT_TRACE:
		return "run";
	default:
		return "check";
	}
}

/* What the line is about is missing: skipped when the binary lacked it or the line is optional. */
static void missing(struct judge *j, const char *why)
{
	const struct expect_line *l = j->l;
	const char *blk = line_block(l);
	char *cmd = absent_cmd(j, blk), *tcmd = absent_cmd(j, ej_fmt(j, "%s.trace", blk));

	if (cmd)
		ej_skip(j, "%s (exitscope has no '%s' command)", l->text, cmd);
	else if (tcmd && (l->kind == EXPECT_TRACE || l->kind == EXPECT_MAPTRACE))
		ej_skip(j, "%s (exitscope %s has no --trace)", l->text, tcmd);
	else if (l->optional)
		ej_skip(j, "%s (%s)", l->text, why);
	else
		ej_bad(j, "%s: %s", l->text, why);
}

/* The kinds */

static void judge_rc(struct judge *j, char **w)
{
	char *got = ej_chomp(side_file(j, ej_fmt(j, "%s.rc", w[0])));
	char *err = side_file(j, ej_fmt(j, "%s.stderr", w[0]));

	if (!*got)
		missing(j, ej_fmt(j, "no block '%s'", w[0]));
	else if (!strcmp(got, w[1]))
		ej_ok(j, "%s exited %s", w[0], got);
	else
		ej_bad(j, "%s exited %s, expected %s%s", w[0], got, w[1],
		    *err ? ej_fmt(j, "; stderr: %s", joined(j, tail_lines(err, 3), " ")) :
			   "");
}

static void judge_value(struct judge *j, char **w, size_t nw)
{
	const char *b = w[0], *path = w[1], *op = w[2], *want = w[3], *qerr;
	const char *what = ej_fmt(j, "%s: %s", b, nw > 4 && *w[4] ? w[4] :
					      ej_fmt(j, "%s %s %s", path, op, want));
	char **got, **wants, *measured;
	size_t ng, nwant, i;
	int rc;

	if (!have(j, b))
		return missing(j, ej_fmt(j, "no block '%s'", b));
	got = values(j, b, path, &ng, &rc, &qerr);
	if (rc == 1)
		return missing(j, ej_fmt(j, "%s selects nothing", path));
	if (rc)
		return ej_bad(j, "%s: %s", j->l->text, qerr);
	if (want[0] == '@') {
		wants = values(j, b, want + 1, &nwant, &rc, &qerr);
		if (rc == 1)
			return missing(j, ej_fmt(j, "%s selects nothing", want + 1));
		if (rc)
			return ej_bad(j, "%s: %s", j->l->text, qerr);
	} else {
		wants = (char **)ej_keep(j, malloc((ng + 1) * sizeof(*wants)));
		if (j->oom)
			return;
		for (i = 0; i < ng; i++)
			wants[i] = (char *)want;
		nwant = ng;
	}
	measured = ej_fmt(j, "%s: %s", path, list(j, got, ng));
	if (want[0] == '@')
		measured = ej_fmt(j, "%s; %s: %s", measured, want + 1, list(j, wants, nwant));
	if (ng != nwant)
		return ej_bad(j, "%s does not hold: %zu values against %zu (%s)", what, ng, nwant,
			   measured);
	for (i = 0; i < ng; i++)
		if (!exact(got[i], op, wants[i]))
			return ej_bad(j, "%s does not hold (measured %s)", what, measured);
	ej_ok(j, "%s (%s)", what, measured);
}

static void judge_count(struct judge *j, char **w, size_t nw)
{
	const char *b = w[0], *op = w[2], *want = w[3], *qerr;
	char *path = ej_keep(j, strdup(w[1])), **v;
	const char *what, *n;
	size_t nv;
	int rc;

	if (*path && path[strlen(path) - 1] == '#')
		path[strlen(path) - 1] = 0;
	what = ej_fmt(j, "%s: %s", b,
		      nw > 4 && *w[4] ? w[4] : ej_fmt(j, "%s# %s %s", path, op, want));
	if (!have(j, b))
		return missing(j, ej_fmt(j, "no block '%s'", b));
	v = values(j, b, ej_fmt(j, "%s#", path), &nv, &rc, &qerr);
	if (rc == 2)
		return ej_bad(j, "%s: %s", j->l->text, qerr);
	n = nv && *v[0] ? v[0] : "0";
	if (want[0] == '@') {
		v = values(j, b, ej_fmt(j, "%s#", want + 1), &nv, &rc, &qerr);
		if (rc == 2)
			return ej_bad(j, "%s: %s", j->l->text, qerr);
		want = nv && *v[0] ? v[0] : "0";
		path = ej_fmt(j, "%s against %s: %s", path, w[3] + 1, want);
	}
	if (exact(n, op, want))
		ej_ok(j, "%s (%s: %s)", what, path, n);
	else
		ej_bad(j, "%s does not hold (%s selects %s, expected %s %s)", what, path, n, op,
		       want);
}

/* The sum of what the '+'-separated paths select (%.17g); NULL when one selects nothing. */
static char *sum_of(struct judge *j, const char *b, const char *paths)
{
	char *all = ej_keep(j, strdup(paths)), *p, *next, **v;
	double s = 0;
	size_t n, i;
	int rc;

	if (j->oom)
		return NULL;
	for (p = all; p; p = next) {
		next = strchr(p, '+');
		if (next)
			*next++ = 0;
		if (!next && !*p && p != all)
			break;
		v = values(j, b, p, &n, &rc, NULL);
		if (rc)
			return NULL;
		for (i = 0; i < n; i++) {
			const char *f = v[i] + strspn(v[i], " \t");

			s += ej_awk_num(ej_keep(j, strndup(f, strcspn(f, " \t"))));
		}
	}
	return ej_fmt(j, "%.17g", s);
}

static void judge_sum(struct judge *j, char **w, size_t nw)
{
	const char *b = w[0], *paths = w[1], *op = w[2], *want = w[3];
	const char *what = ej_fmt(j, "%s: %s", b, nw > 4 && *w[4] ? w[4] :
					      ej_fmt(j, "%s %s %s", paths, op, want));
	char *got;

	if (!have(j, b))
		return missing(j, ej_fmt(j, "no block '%s'", b));
	got = sum_of(j, b, paths);
	if (!got)
		return missing(j, ej_fmt(j, "%s selects nothing", paths));
	if (want[0] == '@') {
		want = sum_of(j, b, want + 1);
		if (!want)
			return missing(j, ej_fmt(j, "%s selects nothing", w[3] + 1));
	}
	if (exact(got, op, want))
		ej_ok(j, "%s (%s: %s; %s: %s)", what, paths, got, w[3], want);
	else
		ej_bad(j, "%s does not hold (%s: %s, expected %s %s: %s)", what, paths, got, op,
		    w[3], want);
}

static void judge_field(struct judge *j, char **w)
{
	char *words = ej_keep(j, strdup(w[1])), *p, *got = "";
	const char *sep = "";

	if (!have(j, w[0]))
		return missing(j, ej_fmt(j, "no block '%s'", w[0]));
	if (j->oom)
		return;
	for (p = strtok(words, " \t\n"); p; p = strtok(NULL, " \t\n")) {
		const char *label = "", *eq = strchr(p, '=');

		if (eq && eq > p && strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_") ==
				    (size_t)(eq - p)) {
			label = ej_fmt(j, "%.*s", (int)(eq - p + 1), p);
			p += eq - p + 1;
		}
		if (strlen(p) > 1 && p[0] == '.')
			p++;
		got = ej_fmt(j, "%s%s%s%s", got, sep, label, joined(j, ej_qv(j, w[0], p), " "));
		sep = " ";
	}
	got = cut(j, got, MEASURED_MAX);
	if (ej_one_of(j, got, w[2]))
		ej_ok(j, "%s %s = %s", w[0], w[1], got);
	else
		ej_bad(j, "%s %s: expected %s, measured %s", w[0], w[1], w[2], got);
}

static void judge_mode(struct judge *j, char **w)
{
	char *m, *got;

	if (!have(j, "info"))
		return missing(j, "no block 'info'");
	m = ej_qv(j, "info", "host.execution.mode");
	got = ej_fmt(j, "%s (loop_insns %s, exits %s, insn_emulation %s)", m,
		  ej_qv(j, "info", "host.execution.loop_insns"),
		  ej_qv(j, "info", "host.execution.exits"),
		  ej_qv(j, "info", "host.execution.insn_emulation"));
	if (!strcmp(m, w[0]))
		ej_ok(j, "execution mode %s", got);
	else
		ej_bad(j, "execution mode: expected %s, measured %s", w[0], got);
}

/* The map profile the map lines read: "host", or the first. */
static char *map_profile(struct judge *j)
{
	char *first;

	if (j->profile && strcmp(j->profile, "*"))
		return ej_fmt(j, "map.profiles[%s]", j->profile);
	if (strcmp(ej_qs(j, "map", "map.profiles[host]#"), "0"))
		return "map.profiles[host]";
	first = ej_first_line(j, ej_qs(j, "map", "map.profiles[*].name"));
	return ej_fmt(j, "map.profiles[%s]", *first ? first : "(none)");
}

/* The entries of REG with OP a map line's NAME names (expect_map_names), one a line; "" none. */
static char *map_names(struct judge *j, const char *prof, const char *reg, const char *name,
		       const char *op)
{
	char *all = ej_qs(j, "map", ej_fmt(j, "%s.entries[reg=%s][op=%s].name", prof, reg, op));
	char **v, *names = "";
	size_t n, i;

	if (!*all)
		return "";
	v = ej_lines_of(j, all, &n);
	for (i = 0; i < n; i++) {
		const char *bit = ej_qs(j, "map", ej_fmt(j, "%s.entries[%s/%s/%s].bit", prof, reg,
						       v[i], op));

		if (expect_map_names(name, v[i], *bit ? atoll(bit) : -1, op))
			names = ej_fmt(j, "%s%s%s", names, *names ? "\n" : "", v[i]);
	}
	return names;
}

/* The sum of OBJ.REASON over the '|'-separated reasons (absent: 0), as awk adds and prints it. */
static char *trace_sum(struct judge *j, const char *b, const char *obj, const char *reasons)
{
	char *all = ej_keep(j, strdup(reasons)), *r, *next, *sum = "0", *v;

	if (j->oom)
		return "0";
	for (r = all; r; r = next) {
		next = strchr(r, '|');
		if (next)
			*next++ = 0;
		if (!next && !*r && r != all)
			break;
		v = ej_first_line(j, ej_qs(j, b, ej_fmt(j, "%s.%s", obj, r)));
		if (*v && strcmp(v, "null"))
			sum = awk_print(j, ej_awk_num(sum) + ej_awk_num(v));
	}
	return sum;
}

/* Map lines in one profile: prof its path, label its name when a profile line chose it. */
static void judge_map_in(struct judge *j, char **w, size_t nw, const char *prof, const char *label)
{
	const char *reg = w[0], *name = w[1], *op = w[2], *want = w[3];
	const char *num = nw > 4 ? w[4] : "", *in = label ? ej_fmt(j, "%s ", label) : "";
	char *names = map_names(j, prof, reg, name, op), **v;
	unsigned mask = 0;
	size_t n, i;

	if (!*names)
		return missing(j, ej_fmt(j, "no map entry %s%s %s %s", in, reg, name, op));
	expect_map_statuses(want, &mask);	/* the parser checked them */
	v = ej_lines_of(j, names, &n);
	for (i = 0; i < n; i++) {
		char *e = ej_fmt(j, "%s.entries[%s/%s/%s]", prof, reg, v[i], op);
		char *st = ej_qv(j, "map", ej_fmt(j, "%s.status", e));
		char *ex = ej_qv(j, "map", ej_fmt(j, "%s.exits_per_op", e));
		char *cy = ej_qv(j, "map", ej_fmt(j, "%s.cycles_per_op", e));
		char *det = ej_qs(j, "map", ej_fmt(j, "%s.detail", e));
		char *what = ej_fmt(j, "map %s%s.%s %s: status %s, %s exits/op, %s cycles/op", in,
				 reg, v[i], op, st, ex, cy);
		int sti = schema_enum_find(map_status_names, MAP_STATUS_N, st);
		double x = ej_is_number(ex) ? ej_awk_num(ex) : -1;

		switch (expect_map_verdict(mask, num, j->o->tol, sti, x, false)) {
		case EXPECT_MAP_MET:
			ej_ok(j, "%s", what);
			break;
		case EXPECT_MAP_BAD_NUM:
			ej_bad(j, "%s; expected %s exits/op", what, num);
			break;
		default:
			ej_bad(j, "%s; expected status %s%s%s", what, want,
			    *num ? ej_fmt(j, " with %s exits/op", num) : "",
			    *det ? ej_fmt(j, " (detail: %s)", det) : "");
			break;
		}
	}
}

static void judge_maptrace_in(struct judge *j, char **w, const char *prof, const char *label)
{
	const char *reg = w[0], *name = w[1], *op = w[2], *reasons = w[3], *num = w[4];
	const char *in = label ? ej_fmt(j, "%s ", label) : "";
	char *e, *tr, *v, *n;

	n = ej_first_line(j, map_names(j, prof, reg, name, op));
	e = ej_fmt(j, "%s.entries[%s/%s/%s]", prof, reg, *n ? n : name, op);
	tr = ej_first_line(j, ej_qs(j, "map", ej_fmt(j, "%s.trace", e)));
	if (!*tr)
		return missing(j,
			       ej_fmt(j, "no trace for map entry %s%s %s %s", in, reg, name, op));
	v = trace_sum(j, "map", ej_fmt(j, "%s.trace", e), reasons);
	if (ej_num_holds(j, v, num))
		ej_ok(j, "map %s%s.%s %s: %s %s exits/op (trace %s)", in, reg, name, op, v, reasons,
		      tr);
	else
		ej_bad(j, "map %s%s.%s %s: %s %s exits/op, expected %s (trace %s)", in, reg, name,
		    op, v, reasons, num, tr);
}

/* A map or maptrace line: in the profile chosen, or in each of them after "profile *". */
static void judge_map(struct judge *j, char **w, size_t nw)
{
	char **v, *names;
	size_t n, i;

	if (!have(j, "map"))
		return missing(j, "no block 'map'");
	if (!j->profile || strcmp(j->profile, "*")) {
		if (j->l->kind == EXPECT_MAP)
			judge_map_in(j, w, nw, map_profile(j), j->profile);
		else
			judge_maptrace_in(j, w, map_profile(j), j->profile);
		return;
	}
	names = ej_qs(j, "map", "map.profiles[*].name");
	if (!*names)
		return missing(j, "no map profile");
	v = ej_lines_of(j, names, &n);
	for (i = 0; i < n; i++) {
		const char *prof = ej_fmt(j, "map.profiles[%s]", v[i]);

		if (j->l->kind == EXPECT_MAP)
			judge_map_in(j, w, nw, prof, v[i]);
		else
			judge_maptrace_in(j, w, prof, v[i]);
	}
}

static void judge_probe(struct judge *j, char **w)
{
	const char *pname = w[0], *field = w[1], *num = w[2];
	char *st, *v;

	if (!have(j, "run"))
		return missing(j, "no block 'run'");
	st = ej_first_line(j, ej_qs(j, "run", ej_fmt(j, "probes[%s].status", pname)));
	if (!*st)
		return missing(j, ej_fmt(j, "no probe %s", pname));
	v = ej_first_line(j, ej_qv(j, "run", ej_fmt(j, "probes[%s].per_op.%s", pname, field)));
	if (strcmp(st, "ok"))
		ej_bad(j, "probe %s: status %s (%s), expected ok", pname, st,
		    ej_first_line(j, ej_qs(j, "run", ej_fmt(j, "probes[%s].reason", pname))));
	else if (ej_num_holds(j, v, num))
		ej_ok(j, "probe %s: %s %s/op", pname, v, field);
	else
		ej_bad(j, "probe %s: %s %s/op, expected %s (per_op %s)", pname, v, field, num,
		    ej_first_line(j, ej_qv(j, "run", ej_fmt(j, "probes[%s].per_op", pname))));
}

static void judge_trace(struct judge *j, char **w)
{
	const char *pname = w[0], *reasons = w[1], *num = w[2];
	char *tr, *v;

	if (!have(j, "run"))
		return missing(j, "no block 'run'");
	tr = ej_first_line(j, ej_qs(j, "run", ej_fmt(j, "probes[%s].trace", pname)));
	if (!*tr)
		return missing(j, ej_fmt(j, "no trace for probe %s", pname));
	v = trace_sum(j, "run", ej_fmt(j, "probes[%s].trace", pname), reasons);
	if (ej_num_holds(j, v, num))
		ej_ok(j, "probe %s: %s %s exits/op (trace %s)", pname, v, reasons, tr);
	else
		ej_bad(j, "probe %s: %s %s exits/op, expected %s (trace %s)", pname, v, reasons,
		    num, tr);
}

/* NAME matches the check pattern: "*", "!A,B" (all but those) or the name itself. */
static bool check_matches(struct judge *j, const char *pat, const char *n)
{
	if (!strcmp(pat, "*"))
		return true;
	if (pat[0] == '!')
		return !strstr(ej_fmt(j, ",%s,", pat + 1), ej_fmt(j, ",%s,", n));
	return !strcmp(pat, n);
}

static void judge_check(struct judge *j, char **w, size_t nw)
{
	const char *suite = w[0], *name = w[1], *want = w[2], *text = nw > 3 ? w[3] : "";
	char *all, **v, *names = "";
	size_t n, i;

	if (!have(j, "check"))
		return missing(j, "no block 'check'");
	all = ej_qs(j, "check", ej_fmt(j, "checks[suite=%s].name", suite));
	v = ej_lines_of(j, all, &n);
	for (i = 0; *all && i < n; i++)
		if (check_matches(j, name, v[i]))
			names = ej_fmt(j, "%s%s\n", names, v[i]);
	ej_chomp(names);
	if (!*names)
		return missing(j, ej_fmt(j, "no %s check %s", suite, name));
	v = ej_lines_of(j, names, &n);
	for (i = 0; i < n; i++) {
		char *st = ej_first_line(j, ej_qs(j, "check",
						  ej_fmt(j, "checks[%s/%s].status", suite, v[i])));
		char *det = ej_first_line(j, ej_qs(j, "check",
						   ej_fmt(j, "checks[%s/%s].detail", suite, v[i])));
		char *what = ej_fmt(j, "check %s/%s: %s (%s)", suite, v[i], st, det);

		if (!ej_one_of(j, st, want))
			ej_bad(j, "%s; expected %s", what, want);
		else if (*text && !strstr(det, text))
			ej_bad(j, "%s; expected detail containing '%s'", what, text);
		else
			ej_ok(j, "%s", what);
	}
}

static void judge_someof(struct judge *j, char **w, size_t nw)
{
	const char *suite = w[0], *want = w[1], *text = nw > 2 ? w[2] : "";
	char *sel, *n, *esc, *p;
	size_t k = 0;

	if (!have(j, "check"))
		return missing(j, "no block 'check'");
	sel = ej_fmt(j, "checks[suite=%s][status=%s]", suite, want);
	if (*text) {
		/* The detail contains TEXT: TEXT as a regex with every special character escaped. */
		esc = ej_keep(j, malloc(2 * strlen(text) + 1));
		if (j->oom)
			return;
		for (p = (char *)text; *p; p++) {
			if (strchr("][\\.*^$+?(){}|", *p))
				esc[k++] = '\\';
			esc[k++] = *p;
		}
		esc[k] = 0;
		sel = ej_fmt(j, "%s[detail~%s]", sel, esc);
	}
	n = ej_qs(j, "check", ej_fmt(j, "%s#", sel));
	if (ej_awk_num(n) > 0 && ej_is_number(n))
		ej_ok(j, "%s %s checks %s%s", n, suite, want,
		   *text ? ej_fmt(j, " with '%s'", text) : "");
	else
		ej_bad(j, "no %s check has status %s%s (%s)", suite, want,
		    *text ? ej_fmt(j, " with detail containing '%s'", text) : "",
		    cut(j, joined(j, ej_qs(j, "check", ej_fmt(j, "checks[suite=%s]", suite)), " "),
			SOMEOF_MAX));
}

static void judge_line(struct judge *j, const struct expect_line *l)
{
	j->l = l;
	switch (l->kind) {
	case EXPECT_RC:
		return judge_rc(j, l->w);
	case EXPECT_VALUE:
		return judge_value(j, l->w, l->nw);
	case EXPECT_COUNT:
		return judge_count(j, l->w, l->nw);
	case EXPECT_SUM:
		return judge_sum(j, l->w, l->nw);
	case EXPECT_FIELD:
		return judge_field(j, l->w);
	case EXPECT_MODE:
		return judge_mode(j, l->w);
	case EXPECT_MAP:
		return judge_map(j, l->w, l->nw);
	case EXPECT_MAPTRACE:
		return judge_map(j, l->w, l->nw);
	case EXPECT_PROBE:
		return judge_probe(j, l->w);
	case EXPECT_TRACE:
		return judge_trace(j, l->w);
	case EXPECT_CHECK:
		return judge_check(j, l->w, l->nw);
	case EXPECT_SOMEOF:
		return judge_someof(j, l->w, l->nw);
	case EXPECT_PROFILE:
		j->profile = l->w[0];
		return;
	default:	/* an A/B kind: only in an A/B file (expect_ab.c) */
		return ej_bad(j, "%s: an A/B line", l->text);
	}
}

/* Loading the blocks */

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct block *)a)->name, ((const struct block *)b)->name);
}

/* Every NAME.json of dir, in name order; each loaded, or reported as not valid. */
static int blocks_load(struct judge *j)
{
	DIR *d = opendir(j->dir);
	struct dirent *de;
	size_t i;

	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		char *name;

		if (de->d_name[0] == '.' || n < 6 || strcmp(de->d_name + n - 5, ".json"))
			continue;
		name = strndup(de->d_name, n - 5);
		if (!name || !block_add(j, name)) {
			free(name);
			goto nomem;
		}
		free(name);
	}
	if (d)
		closedir(d);
	if (j->nblocks)
		qsort(j->blocks, j->nblocks, sizeof(*j->blocks), by_name);
	for (i = 0; i < j->nblocks; i++) {
		struct block *b = &j->blocks[i];
		char *path = ej_fmt(j, "%s/%s.json", j->dir, b->name), *why = "", *err;
		struct stat st;
		struct err e;

		err_init(&e);
		if (!stat(path, &st) && st.st_size > 0) {
			b->qf = query_load_path(path, ej_envelopes, ej_nenvelopes,
						plain_block(b->name) ? QUERY_LOAD_PLAIN : 0, &e);
			why = ej_fmt(j, "exitscope query: %s", e.msg);
		}
		if (!b->qf) {
			ej_bad(j, "block %s is not valid (rc %s): %s: %s", b->name,
			    ej_chomp(side_file(j, ej_fmt(j, "%s.rc", b->name))),
			    *why ? why : "empty", ej_chomp(file_head(j, path, MEASURED_MAX)));
			err = side_file(j, ej_fmt(j, "%s.stderr", b->name));
			if (*err)
			{
				fputs("        stderr: ", j->o->out);
				put_lines(j->o->out, ej_chomp(ej_keep(j, strdup(tail_lines(err, 5)))));
				fputc('\n', j->o->out);
			}
		}
		ej_tmp_free(j);
	}
	return 0;
nomem:
	if (d)
		closedir(d);
	return -ENOMEM;
}

/* dir/absent (malloc'd; "" when there is none), NULL when out of memory. */
static char *absent_read(struct judge *j)
{
	char *buf;
	size_t len;

	if (file_read_all(ej_fmt(j, "%s/absent", j->dir), SIDE_FILE_MAX, &buf, &len, NULL))
		buf = strdup("");
	ej_tmp_free(j);
	return buf;
}

void ej_release(struct judge *j)
{
	ej_tmp_free(j);
	free(j->absent);
	free(j->tmp);
	for (size_t i = 0; i < j->nblocks; i++) {
		query_file_free(j->blocks[i].qf);
		free(j->blocks[i].name);
	}
	free(j->blocks);
}

static void lane_line(void *ctx, const struct expect_line *l)
{
	judge_line(ctx, l);
}

int ej_run(struct judge *j, const struct expect_file *ef, const char *who, const char *what,
	   void (*line)(void *ctx, const struct expect_line *l), void *ctx)
{
	const char *name = strrchr(ef->path, '/') ? strrchr(ef->path, '/') + 1 : ef->path;

	for (size_t i = 0; i < ef->n && !j->oom; i++) {
		unsigned before = j->fail;

		line(ctx, &ef->lines[i]);
		ej_tmp_free(j);
		if (ef->lines[i].require && j->fail > before) {
			fprintf(j->o->out, "%s: a required expectation failed: "
				"the rest of %s is not checked\n", who, name);
			break;
		}
	}
	if (j->oom)
		return -ENOMEM;
	fprintf(j->o->out, "%s: %s%s%u passed, %u failed, %u skipped\n", who, what ?: "",
		what ? ": " : "", j->pass, j->fail, j->skip);
	return j->fail == 0 && j->pass > 0 ? 0 : 1;
}

int expect_judge(const struct expect_file *ef, const char *dir, const struct expect_opts *o)
{
	struct judge j = { .o = o, .dir = dir };
	int rc;

	rc = blocks_load(&j);
	if (rc)
		goto out;
	j.absent = absent_read(&j);
	if (!j.absent) {
		rc = -ENOMEM;
		goto out;
	}
	rc = ej_run(&j, ef, "lane-assert", NULL, lane_line, &j);
out:
	ej_release(&j);
	return rc;
}
