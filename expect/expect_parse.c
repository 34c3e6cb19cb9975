// SPDX-License-Identifier: GPL-2.0-only
/*
 * expect_parse.c - an expectations file read into lines (expect/expect.h):
 * includes expanded, comments and the "require " and "?" marks taken off,
 * words split as the shell splits them (quotes, no expansion), each line
 * checked for its kind, its number of words, its operator and its NUMs.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "base/text.h"
#include "expect/expect.h"
#include "expect/expect_map.h"
#include "results/file_read.h"
#include "results/query.h"

/* The files a kind is of: a lane's, an A/B (expect --ab), between kernels (--across). */
enum family { F_LANE, F_AB, F_ACROSS };

struct kind_info {
	const char *name;
	unsigned min, max;	/* words after the kind */
	const char *usage;
	enum family family;
};

static const struct kind_info kinds[] = {
	[EXPECT_RC] = { "rc", 2, 2, "BLOCK N", F_LANE },
	[EXPECT_VALUE] = { "value", 4, 5, "BLOCK PATH OP VALUE [TEXT]", F_LANE },
	[EXPECT_COUNT] = { "count", 4, 5, "BLOCK PATH OP N [TEXT]", F_LANE },
	[EXPECT_SUM] = { "sum", 4, 5, "BLOCK PATH+PATH.. OP VALUE [TEXT]", F_LANE },
	[EXPECT_FIELD] = { "field", 3, 3, "BLOCK 'PATH..' VALUE[|..]", F_LANE },
	[EXPECT_MODE] = { "mode", 1, 1, "MODE", F_LANE },
	[EXPECT_MAP] = { "map", 4, 5, "REG NAME|* OP STATUS[|..] [NUM]", F_LANE },
	[EXPECT_MAPTRACE] = { "maptrace", 5, 5, "REG NAME OP REASON[|..] NUM", F_LANE },
	[EXPECT_PROBE] = { "probe", 3, 3, "NAME FIELD NUM", F_LANE },
	[EXPECT_TRACE] = { "trace", 3, 3, "NAME REASON[|..] NUM", F_LANE },
	[EXPECT_CHECK] = { "check", 3, 4, "SUITE NAME|*|!NAME,.. STATUS[|..] [DETAIL-SUBSTRING]",
			   F_LANE },
	[EXPECT_SOMEOF] = { "someof", 2, 3, "SUITE STATUS [TEXT]", F_LANE },
	[EXPECT_PROFILE] = { "profile", 1, 1, "NAME|*", F_LANE },
	[EXPECT_PAIR] = { "pair", 2, 2, "BASE NEW", F_AB },
	[EXPECT_VERDICT] = { "verdict", 2, 2, "PROBE[@BLOCK] VERDICT[|..]", F_AB },
	[EXPECT_EXITS] = { "exits", 4, 4, "PROBE[@BLOCK] A -> B", F_AB },
	[EXPECT_PEROP] = { "perop", 5, 5, "PROBE[@BLOCK] COUNTER A -> B", F_AB },
	[EXPECT_WITHIN] = { "within", 2, 2, "PROBE[@BLOCK] PCT%", F_AB },
	[EXPECT_PCT] = { "pct", 2, 2, "PROBE[@BLOCK] NUM", F_AB },
	[EXPECT_AB_MAP] = { "map", 6, 9, "REG NAME OP A -> B [EXITS_A -> EXITS_B]", F_AB },
	[EXPECT_MAPCHANGES] = { "mapchanges", 1, 1, "NUM", F_AB },
	[EXPECT_AB_CHECK] = { "check", 5, 5, "SUITE NAME A -> B", F_AB },
	[EXPECT_PATH] = { "path", 6, 6, "PROBE[@BLOCK] FUNCTION calls|insn A -> B", F_AB },
	[EXPECT_CENSUS] = { "census", 6, 6, "PROBE[@BLOCK] INSN OPERAND|- A -> B", F_AB },
	[EXPECT_ABOUT] = { "about", 3, 1000,
			   "TERM [+|- TERM].. = TERM [+|- TERM].. within PCT%", F_AB },
	[EXPECT_FASTER] = { "faster", 5, 5, "LANE PROBE NEW OLD PCT", F_ACROSS },
	[EXPECT_NEAR] = { "near", 5, 5, "LANE SOURCE PROBE OTHER PCT", F_ACROSS },
	[EXPECT_BELOW] = { "below", 5, 5, "LANE SOURCE PROBE OTHER PCT", F_ACROSS },
	[EXPECT_SAME_OWNERSHIP] = { "same-ownership", 1, 1, "LANE", F_ACROSS },
};

const char *expect_kind_name(enum expect_kind k)
{
	return kinds[k].name;
}

struct parser {
	struct expect_file *ef;
	const struct expect_opts *o;
	unsigned bad;
	size_t cap;
	struct err *err;	/* without o->errs: the first parse error */
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

__attribute__((format(printf, 4, 5)))
static void parse_bad(struct parser *p, const char *file, unsigned lineno, const char *fmt, ...)
{
	char why[512], name[512];
	va_list ap;

	if (!p->o->errs) {
		if (!p->bad++) {
			va_start(ap, fmt);
			vsnprintf(why, sizeof(why), fmt, ap);
			va_end(ap);
			err_set(p->err, -EINVAL, "%s:%u: %s", file, lineno, why);
		}
		return;
	}
	p->bad++;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	/* The line may quote the file: escaped, as every printed name (base/text.h). */
	fprintf(p->o->errs, "%s: %s:%u: ", p->o->who, text_esc(name, sizeof(name), file), lineno);
	text_put(p->o->errs, why, strlen(why));
	fputc('\n', p->o->errs);
}

/* NUM: "N", ">=N", "<=N", ">N" or "<N", N a decimal number. */
static bool is_num_spec(const char *s)
{
	char *end;

	if (!strncmp(s, ">=", 2) || !strncmp(s, "<=", 2))
		s += 2;
	else if (*s == '>' || *s == '<')
		s++;
	if (!*s || !(*s == '.' || (*s >= '0' && *s <= '9')) || s[strspn(s, "0123456789.eE+-")])
		return false;
	strtod(s, &end);
	return *end == 0 && end != s;
}

static bool is_op(const char *s, bool re)
{
	static const char *const ops[] = { "=", "!=", ">=", "<=", ">", "<" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(s, ops[i]))
			return true;
	return re && !strcmp(s, "~");
}

/*
 * Split s into words as xargs does: blanks separate, '...' and "..."
 * quote (no escape inside), a backslash outside quotes takes the next
 * character as it is. NULL with *why on an unmatched quote or no memory.
 */
static char **split_words(const char *s, size_t *n, const char **why)
{
	size_t len = strlen(s), nw = 0;
	char **w = calloc(len / 2 + 2, sizeof(*w));
	char *cur = malloc(len + 1);
	size_t k = 0;
	bool in = false;
	char q = 0;

	*why = "out of memory";
	if (!w || !cur)
		goto fail;
	for (;; s++) {
		if (q) {
			if (!*s) {
				*why = q == '\'' ? "unmatched single quote"
						  : "unmatched double quote";
				goto fail;
			}
			if (*s == q)
				q = 0;
			else
				cur[k++] = *s;
			continue;
		}
		if (!*s || blank(*s)) {
			if (in) {
				w[nw] = strndup(cur, k);
				if (!w[nw++])
					goto fail;
				k = 0;
				in = false;
			}
			if (!*s)
				break;
			continue;
		}
		in = true;
		if (*s == '\'' || *s == '"')
			q = *s;
		else if (*s == '\\' && s[1])
			cur[k++] = *++s;
		else
			cur[k++] = *s;
	}
	free(cur);
	*n = nw;
	return w;
fail:
	while (w && nw)
		free(w[--nw]);
	free(w);
	free(cur);
	return NULL;
}

/* Check the words of l against its kind; false (reported) when they do not fit. */
/* The words w[at], w[at + 3], ...: "->" each (the arrows of an A/B line). */
static bool arrows(const struct expect_line *l, size_t at)
{
	for (; at < l->nw; at += 3)
		if (strcmp(l->w[at], "->"))
			return false;
	return true;
}

/* The NUMs of an A/B line: w[at] and w[at + 2] (A -> B) and so on. */
static const char *ab_bad_num(const struct expect_line *l, size_t at)
{
	for (; at < l->nw; at += 3) {
		if (!is_num_spec(l->w[at - 1]))
			return l->w[at - 1];
		if (!is_num_spec(l->w[at + 1]))
			return l->w[at + 1];
	}
	return NULL;
}

/* "PCT%" (or PCT), PCT a decimal number: true when it is. */
static bool is_pct(const char *s)
{
	char *n = strndup(s, strlen(s) - (*s && s[strlen(s) - 1] == '%'));
	bool r = n && is_num_spec(n) && n[0] != '>' && n[0] != '<';

	free(n);
	return r;
}

/* The A/B kinds' words: arrows, NUMs, the about line's '=' and "within". */
static bool ab_check(struct parser *p, const struct expect_line *l)
{
	const struct kind_info *k = &kinds[l->kind];
	size_t arrow = 0, i, eq = 0, wi = 0;
	const char *num;

	switch (l->kind) {
	case EXPECT_EXITS:
		arrow = 2;
		break;
	case EXPECT_PEROP:
		arrow = 3;
		break;
	case EXPECT_AB_MAP:
		if (l->nw != 6 && l->nw != 9)
			goto usage;
		if (!arrows(l, 4))
			goto usage;
		if (l->nw == 9 && (num = ab_bad_num(l, 7)))
			goto nan;
		return true;
	case EXPECT_AB_CHECK:
		if (!arrows(l, 3))
			goto usage;
		return true;
	case EXPECT_PATH:
		if (strcmp(l->w[2], "calls") && strcmp(l->w[2], "insn"))
			goto usage;
		if (!strcmp(l->w[1], "kernel") && !strcmp(l->w[2], "calls")) {
			parse_bad(p, l->file, l->lineno, "kernel has instructions, not calls "
				  "(path PROBE kernel insn A -> B)");
			return false;
		}
		arrow = 4;
		break;
	case EXPECT_CENSUS:
		arrow = 4;
		break;
	case EXPECT_PCT:
	case EXPECT_MAPCHANGES:
		num = l->w[l->nw - 1];
		if (!is_num_spec(num))
			goto nan;
		return true;
	case EXPECT_WITHIN:
		if (!is_pct(l->w[1]))
			goto pct;
		return true;
	case EXPECT_ABOUT:
		for (i = 0; i < l->nw; i++) {
			if (!strcmp(l->w[i], "="))
				eq = i;
			if (!strcmp(l->w[i], "within"))
				wi = i;
		}
		if (eq < 1 || wi != l->nw - 2 || wi <= eq + 1)
			goto usage;
		if (!is_pct(l->w[l->nw - 1]))
			goto pct;
		return true;
	default:
		return true;
	}
	if (!arrows(l, arrow))
		goto usage;
	num = ab_bad_num(l, arrow);
	if (num)
		goto nan;
	return true;
usage:
	parse_bad(p, l->file, l->lineno, "want: %s %s", k->name, k->usage);
	return false;
nan:
	parse_bad(p, l->file, l->lineno, "'%s' is not N, >=N, <=N, >N or <N (N a decimal number)",
		  num);
	return false;
pct:
	parse_bad(p, l->file, l->lineno, "'%s' is not PCT%% (a decimal number)", l->w[l->nw - 1]);
	return false;
}

/* The across kinds' words: PCT, a decimal number (with or without '%'). */
static bool across_check(struct parser *p, const struct expect_line *l)
{
	if (l->kind == EXPECT_SAME_OWNERSHIP || is_pct(l->w[4]))
		return true;
	parse_bad(p, l->file, l->lineno, "'%s' is not PCT (a decimal number)", l->w[4]);
	return false;
}

static bool line_check(struct parser *p, const struct expect_line *l)
{
	const struct kind_info *k = &kinds[l->kind];
	const char *op = NULL, *num = NULL;
	unsigned mask;
	char why[160];

	if (l->nw < k->min || l->nw > k->max) {
		parse_bad(p, l->file, l->lineno, "%s words after '%s' (%s %s)",
			  l->nw < k->min ? "too few" : "too many", k->name, k->name, k->usage);
		return false;
	}
	if (k->family == F_AB)
		return ab_check(p, l);
	if (k->family == F_ACROSS)
		return across_check(p, l);
	switch (l->kind) {
	case EXPECT_VALUE:
	case EXPECT_COUNT:
	case EXPECT_SUM:
		op = l->w[2];
		if (!is_op(op, l->kind == EXPECT_VALUE)) {
			parse_bad(p, l->file, l->lineno, "unknown operator '%s' (%s)", op,
				  l->kind == EXPECT_VALUE ? "= != >= <= > < ~" : "= != >= <= > <");
			return false;
		}
		if (!strcmp(op, "~") && query_regex_check(l->w[3], why, sizeof(why))) {
			parse_bad(p, l->file, l->lineno, "%s", why);
			return false;
		}
		break;
	case EXPECT_MAP:
		if (expect_map_statuses(l->w[3], &mask)) {
			parse_bad(p, l->file, l->lineno, "unknown status '%s' (owned, intercepted, "
				  "rejected, emulated, skipped; '|' between alternatives)",
				  l->w[3]);
			return false;
		}
		num = l->nw > 4 && *l->w[4] ? l->w[4] : NULL;
		break;
	case EXPECT_MAPTRACE:
		num = l->w[4];
		break;
	case EXPECT_PROBE:
	case EXPECT_TRACE:
		num = l->w[2];
		break;
	default:
		break;
	}
	if (num && !is_num_spec(num)) {
		parse_bad(p, l->file, l->lineno,
			  "'%s' is not N, >=N, <=N, >N or <N (N a decimal number)", num);
		return false;
	}
	return true;
}

static int add_line(struct parser *p, const char *file, unsigned lineno, char *s)
{
	struct expect_file *ef = p->ef;
	struct expect_line l = { .file = file, .lineno = lineno };
	enum family family = p->o->across ? F_ACROSS : p->o->ab ? F_AB : F_LANE;
	const char *why;
	char **w, *e;
	size_t n, i;

	e = strchr(s, '#');
	if (e)
		*e = 0;
	e = s + strlen(s);
	while (e > s && blank(e[-1]))
		*--e = 0;
	if (!*s)
		return 0;
	if (!strncmp(s, "require ", 8)) {
		l.require = true;
		s += 8;
	}
	if (*s && s[strlen(s) - 1] == '?') {
		l.optional = true;
		s[strlen(s) - 1] = 0;
		/* an A/B (or across) line's text without the blank before its "?" */
		if ((p->o->ab || p->o->across) && *s && s[strlen(s) - 1] == ' ')
			s[strlen(s) - 1] = 0;
	}
	w = split_words(s, &n, &why);
	if (!w) {
		if (!strcmp(why, "out of memory"))
			return -ENOMEM;
		parse_bad(p, file, lineno, "%s", why);
		return 0;
	}
	if (!n) {
		parse_bad(p, file, lineno, "no expectation after the marks");
		goto drop;
	}
	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(w[0], kinds[i].name) && kinds[i].family == family)
			break;
	if (i == ARRAY_SIZE(kinds)) {
		parse_bad(p, file, lineno, "unknown %s kind '%s' (the kinds: man exitscope-expect)",
			  p->o->across ? "across line" : p->o->ab ? "A/B line" : "line", w[0]);
		goto drop;
	}
	l.kind = i;
	l.text = strdup(s);
	l.w = w + 1;
	l.nw = n - 1;
	if (!l.text)
		goto nomem;
	if (!line_check(p, &l)) {
		free(l.text);
		goto drop;
	}
	if (ef->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		struct expect_line *nl = realloc(ef->lines, cap * sizeof(*nl));

		if (!nl) {
			free(l.text);
			goto nomem;
		}
		ef->lines = nl;
		p->cap = cap;
	}
	free(w[0]);
	memmove(w, w + 1, (n - 1) * sizeof(*w));
	l.w = w;
	ef->lines[ef->n++] = l;
	return 0;
drop:
	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
	return 0;
nomem:
	for (i = 0; i < n; i++)
		free(w[i]);
	free(w);
	return -ENOMEM;
}

/* "include FILE" at the start of a line: FILE (up to a blank or '#'), else NULL. */
static char *include_target(const char *s)
{
	size_t n;

	if (strncmp(s, "include", 7) || !blank(s[7]) || s[7] == '\n')
		return NULL;
	s += 7;
	while (blank(*s))
		s++;
	n = strcspn(s, " \t\r\v\f#");
	return n ? strndup(s, n) : NULL;
}

static int parse_file(struct parser *p, const char *path, unsigned depth, struct err *err)
{
	struct expect_file *ef = p->ef;
	char *buf, *s, *nl, *inc, *name, **nf;
	unsigned lineno = 0;
	size_t len;
	int rc = 0;

	if (depth > EXPECT_INCLUDE_DEPTH)
		return err_set(err, -ELOOP, "%s: include nested too deep", path);
	if (file_read_all(path, EXPECT_FILE_MAX, &buf, &len, err))
		return err_prefix(err, "cannot read expectations file %s", path);
	s = memchr(buf, 0, len);
	if (s) {
		rc = err_set(err, -EINVAL,
			     "expectations file %s: contains a NUL byte at offset %zu (not a "
			     "text file)", path, (size_t)(s - buf));
		free(buf);
		return rc;
	}
	nf = realloc(ef->files, (ef->nfiles + 1) * sizeof(*nf));
	name = strdup(path);
	if (!nf || !name) {
		if (nf)
			ef->files = nf;
		free(name);
		free(buf);
		return err_set(err, -ENOMEM, "out of memory");
	}
	ef->files = nf;
	ef->files[ef->nfiles++] = name;
	for (s = buf; rc == 0 && s < buf + len; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			nl = buf + len;
		*nl = 0;
		lineno++;
		inc = include_target(s);
		if (!inc) {
			rc = add_line(p, name, lineno, s);
			if (rc)
				err_set(err, rc, "out of memory");
			continue;
		}
		if (inc[0] != '/') {
			const char *slash = strrchr(path, '/');
			char *full;

			if (asprintf(&full, "%.*s%s", slash ? (int)(slash - path) + 1 : 2,
				     slash ? path : "./", inc) < 0) {
				free(inc);
				rc = err_set(err, -ENOMEM, "out of memory");
				break;
			}
			free(inc);
			inc = full;
		}
		rc = parse_file(p, inc, depth + 1, err);
		free(inc);
	}
	free(buf);
	return rc;
}

int expect_parse(const char *path, struct expect_file *ef, const struct expect_opts *o,
		 struct err *err)
{
	struct parser p = { .ef = ef, .o = o, .err = err };
	int rc;

	memset(ef, 0, sizeof(*ef));
	ef->path = strdup(path);
	if (!ef->path)
		return err_set(err, -ENOMEM, "out of memory");
	rc = parse_file(&p, path, 0, err);
	if (rc)
		return rc;
	if (p.bad && !o->errs)
		return -EINVAL;
	if (p.bad)
		return err_set(err, -EINVAL, "%s: %u line%s that do%s not parse", path, p.bad,
			       p.bad == 1 ? "" : "s", p.bad == 1 ? "es" : "");
	return 0;
}

void expect_file_free(struct expect_file *ef)
{
	size_t i, k;

	for (i = 0; i < ef->n; i++) {
		for (k = 0; k < ef->lines[i].nw; k++)
			free(ef->lines[i].w[k]);
		free(ef->lines[i].w);
		free(ef->lines[i].text);
	}
	free(ef->lines);
	for (i = 0; i < ef->nfiles; i++)
		free(ef->files[i]);
	free(ef->files);
	free(ef->path);
	memset(ef, 0, sizeof(*ef));
}
