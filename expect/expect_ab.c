// SPDX-License-Identifier: GPL-2.0-only
/*
 * expect_ab.c - an A/B file judged on the comparisons of an A/B output
 * directory (expect/expect.h, expect --ab): every figure read through the
 * query engine from compare-BASE-NEW-BLOCK.json and from the sides' own
 * results (SIDE/results/BLOCK.json), rounded and written as the lane-ab
 * lines have always shown them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/array_size.h"
#include "expect/expect.h"
#include "expect/judge.h"
#include "results/file_read.h"

#define AB_SIDE_FILE_MAX	(1u << 20)	/* bytes of dropped, SIDE/results/absent */

/* What an A/B line is about: the pair's comparison of a block and a probe. */
struct ab {
	struct judge *j;
	const char *dir;
	char *const *pairs;
	size_t npairs;
	const char *cj;		/* the comparison of blk */
	const char *probe, *blk;
	/* the probe's row of the comparison (probe_row) */
	const char *v, *bm, *nm, *dc, *dp, *plo, *phi, *bst, *nst;
};

/* Numbers written as the lines show them */

/* x * 100 rounded half away from zero, over 100. */
static double round2(double x)
{
	double v = x * 100;

	v = v < 0 ? -floor(-v + 0.5) : floor(v + 0.5);
	return v / 100;
}

/* "%.2f" without trailing zeros (12.30 -> 12.3, 5.00 -> 5, -0.00 -> -0). */
static char *trim2(struct judge *j, double x)
{
	char *s = ej_fmt(j, "%.2f", x);
	size_t n = strlen(s);

	while (n && s[n - 1] == '0')
		s[--n] = 0;
	if (n && s[n - 1] == '.')
		s[--n] = 0;
	return s;
}

/* -?[0-9.]+([eE][-+]?[0-9]+)? */
static bool numeric(const char *s)
{
	const char *p = s + (*s == '-'), *e;

	e = p + strspn(p, "0123456789.");
	if (e == p)
		return false;
	if (*e == 'e' || *e == 'E') {
		e++;
		e += *e == '-' || *e == '+';
		if (!(*e >= '0' && *e <= '9'))
			return false;
		e += strspn(e, "0123456789");
	}
	return !*e;
}

/* A figure rounded to two decimals, without trailing zeros; anything else as it is. */
static char *r2(struct judge *j, const char *x)
{
	return numeric(x) ? trim2(j, round2(strtod(x, NULL))) : (char *)x;
}

/* The first value path selects in file, "-" when none or null (scripts' qv). */
static char *fv(struct judge *j, const char *file, const char *path)
{
	char *v = ej_first_line(j, ej_qs(j, file, path));

	return !*v || !strcmp(v, "null") ? "-" : v;
}

/* As fv, "(absent)" for none. */
static char *fa(struct judge *j, const char *file, const char *path)
{
	char *v = fv(j, file, path);

	return strcmp(v, "-") ? v : "(absent)";
}

/* How many values path selects in file, "0" also when file cannot be read. */
static char *fn(struct judge *j, const char *file, const char *path)
{
	char *n = ej_qs(j, file, ej_fmt(j, "%s#", path));

	return *n ? n : "0";
}

static bool zero(const char *n)
{
	return !strcmp(n, "0");
}

static bool is_result(struct judge *j, const char *file)
{
	return *ej_qs(j, file, "kind") != 0;
}

/* "PROBE[@BLOCK]": the probe, and its block (dflt without one). */
static void split_probe(struct ab *a, const char *w, const char *dflt)
{
	const char *at = strrchr(w, '@');

	a->probe = at ? ej_keep(a->j, strndup(w, at - w)) : w;
	a->blk = at ? at + 1 : dflt;
}

static char *cmp_file(struct ab *a, const char *blk)
{
	return ej_fmt(a->j, "%s/compare-%s-%s-%s.json", a->dir, a->j->base, a->j->new, blk);
}

static bool nonempty(const char *path)
{
	struct stat st;

	return !stat(path, &st) && st.st_size > 0;
}

/*
 * The second word of the first line of file whose first word is key ("" when
 * none), its third in *w3.
 */
static char *line_words(struct judge *j, const char *file, const char *key, char **w3)
{
	char *buf, **v, *t;
	size_t len, n, i;

	*w3 = "";
	if (file_read_all(file, AB_SIDE_FILE_MAX, &buf, &len, NULL))
		return "";
	v = ej_lines_of(j, ej_keep(j, buf), &n);
	for (i = 0; i < n; i++) {
		char *w[3] = { "", "", "" };
		size_t k = 0;

		for (t = strtok(v[i], " \t"); t && k < 3; t = strtok(NULL, " \t"))
			w[k++] = t;
		if (strcmp(w[0], key))
			continue;
		*w3 = w[2];
		return w[1];
	}
	return "";
}

/* Why the block has no result on purpose on side, or "" (a dropped command, an absent one). */
static char *absent_reason(struct ab *a, const char *side, const char *blk)
{
	struct judge *j = a->j;
	char *w3, *cmd = line_words(j, ej_fmt(j, "%s/dropped", a->dir), blk, &w3);

	if (*cmd)
		return ej_fmt(j, "exitscope %s has no %s", cmd, *w3 ? w3 : "such command");
	cmd = line_words(j, ej_fmt(j, "%s/%s/results/absent", a->dir, side), blk, &w3);
	return *cmd ? ej_fmt(j, "exitscope has no '%s' command", cmd) : "";
}

/* The comparison of blk in a->cj, or false with a skip or FAIL line saying why there is none. */
static bool need(struct ab *a, const char *blk)
{
	struct judge *j = a->j;
	const char *line = j->l->text;
	char *why;

	a->cj = cmp_file(a, blk);
	if (nonempty(a->cj))
		return true;
	why = absent_reason(a, j->base, blk);
	if (!*why)
		why = absent_reason(a, j->new, blk);
	if (*why)
		ej_skip(j, "%s (block '%s' not run: %s)", line, blk, why);
	else if (j->l->optional)
		ej_skip(j, "%s (no comparison of block '%s')", line, blk);
	else
		ej_bad(j, "%s: no comparison of block '%s' (missing results: %s/%s/results/%s.json "
		       "or %s/%s/results/%s.json)", line, blk, a->dir, j->base, blk, a->dir, j->new,
		       blk);
	return false;
}

/* The probe's row in the comparison; false when the comparison does not list it. */
static bool probe_row(struct ab *a)
{
	struct judge *j = a->j;
	const char *pr = ej_fmt(j, "probes[%s]", a->probe);

	if (!*ej_qs(j, a->cj, ej_fmt(j, "%s.name", pr)))
		return false;
	a->v = fv(j, a->cj, ej_fmt(j, "%s.verdict", pr));
	a->bm = r2(j, fv(j, a->cj, ej_fmt(j, "%s.base_median", pr)));
	a->nm = r2(j, fv(j, a->cj, ej_fmt(j, "%s.new_median", pr)));
	a->dc = r2(j, fv(j, a->cj, ej_fmt(j, "%s.diff_cycles", pr)));
	a->dp = r2(j, fv(j, a->cj, ej_fmt(j, "%s.diff_pct", pr)));
	a->plo = r2(j, fv(j, a->cj, ej_fmt(j, "%s.ci95_pct_lo", pr)));
	a->phi = r2(j, fv(j, a->cj, ej_fmt(j, "%s.ci95_pct_hi", pr)));
	a->bst = fv(j, a->cj, ej_fmt(j, "%s.base_status", pr));
	a->nst = fv(j, a->cj, ej_fmt(j, "%s.new_status", pr));
	return true;
}

static char *figures(struct ab *a)
{
	if (!strcmp(a->v, "not compared"))
		return ej_fmt(a->j, "not compared: base status %s, new status %s", a->bst, a->nst);
	return ej_fmt(a->j, "base %s, new %s cycles/op, diff %s (%s%% [%s%%, %s%%]), verdict %s",
		      a->bm, a->nm, a->dc, a->dp, a->plo, a->phi, a->v);
}

/* s is one of the lines of the values path selects in file. */
static bool listed(struct judge *j, const char *file, const char *path, const char *s)
{
	char *all = ej_qs(j, file, path), **v;
	size_t n, i;

	if (!*all)
		return false;
	v = ej_lines_of(j, all, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static void no_probe(struct ab *a)
{
	struct judge *j = a->j;
	const char *where = "on neither side";

	if (listed(j, a->cj, "only_in_base[*]", a->probe))
		where = "only in base";
	else if (listed(j, a->cj, "only_in_new[*]", a->probe))
		where = "only in new";
	if (j->l->optional)
		ej_skip(j, "%s (probe %s@%s %s)", j->l->text, a->probe, a->blk, where);
	else
		ej_bad(j, "%s: probe %s@%s: %s", j->l->text, a->probe, a->blk, where);
}

/* The probe's row of the comparison of its block, or false with the line said. */
static bool probe_need(struct ab *a, const char *w)
{
	split_probe(a, w, "run");
	if (!need(a, a->blk))
		return false;
	if (probe_row(a))
		return true;
	no_probe(a);
	return false;
}

/* The kinds */

static void judge_pair(struct ab *a, char **w)
{
	struct judge *j = a->j;
	char *all = "";
	size_t i;
	bool found = false;

	j->base = w[0];
	j->new = w[1];
	for (i = 0; i < a->npairs; i++) {
		all = ej_fmt(j, "%s%s%s", all, i ? " " : "", a->pairs[i]);
		found |= !strcmp(a->pairs[i], ej_fmt(j, "%s:%s", w[0], w[1]));
	}
	if (!found)
		ej_bad(j, "pair %s %s is not one of the compared pairs (%s)", w[0], w[1], all);
}

static void judge_verdict(struct ab *a, char **w)
{
	static const char *const shorts[][2] = {
		{ "no significant change", "unchanged" }, { "not compared", "not-compared" },
		{ "too noisy", "too-noisy" }, { "not judged", "unjudged" },
	};
	struct judge *j = a->j;
	const char *s;
	size_t i;

	if (!probe_need(a, w[0]))
		return;
	s = a->v;
	for (i = 0; i < ARRAY_SIZE(shorts); i++)
		if (!strcmp(s, shorts[i][0]))
			s = shorts[i][1];
	if (ej_one_of(j, s, w[1]))
		ej_ok(j, "%s@%s %s: %s", a->probe, a->blk, s, figures(a));
	else
		ej_bad(j, "%s@%s: expected %s, measured %s: %s", a->probe, a->blk, w[1], s,
		       figures(a));
}

/* exits PROBE A -> B, perop PROBE COUNTER A -> B */
static void judge_perop(struct ab *a, char **w, const char *cnt, char **ab)
{
	struct judge *j = a->j;
	char *va, *vb, *fa2, *fb2;

	if (!probe_need(a, w[0]))
		return;
	if (!strcmp(a->v, "not compared"))
		return ej_bad(j, "%s@%s %s/op: %s", a->probe, a->blk, cnt, figures(a));
	va = fv(j, a->cj, ej_fmt(j, "probes[%s].base_per_op.%s", a->probe, cnt));
	vb = fv(j, a->cj, ej_fmt(j, "probes[%s].new_per_op.%s", a->probe, cnt));
	fa2 = strcmp(va, "-") ? ej_fmt(j, "%.2f", ej_awk_num(va)) : "-";
	fb2 = strcmp(vb, "-") ? ej_fmt(j, "%.2f", ej_awk_num(vb)) : "-";
	if (ej_num_holds(j, va, ab[0]) && ej_num_holds(j, vb, ab[2]))
		ej_ok(j, "%s@%s: %s -> %s %s/op", a->probe, a->blk, fa2, fb2, cnt);
	else
		ej_bad(j, "%s@%s: expected %s -> %s %s/op, measured %s -> %s (%s)", a->probe,
		       a->blk, ab[0], ab[2], cnt, fa2, fb2, figures(a));
}

/* The PCT of "PCT%". */
static char *pct_of(struct judge *j, const char *s)
{
	size_t n = strlen(s);

	return ej_keep(j, strndup(s, n - (n && s[n - 1] == '%')));
}

static void judge_within(struct ab *a, char **w, bool pct)
{
	struct judge *j = a->j;
	char *spec = pct_of(j, w[1]), *what;
	bool good;

	if (!probe_need(a, w[0]))
		return;
	if (!pct) {
		double x = ej_awk_num(a->dp), m = ej_awk_num(spec);

		good = strcmp(a->dp, "-") && x <= m && -x <= m;
		what = ej_fmt(j, "|diff| <= %s%%", spec);
	} else {
		good = ej_num_holds(j, a->dp, spec);
		what = ej_fmt(j, "diff%% %s", spec);
	}
	if (good)
		ej_ok(j, "%s@%s %s: %s", a->probe, a->blk, what, figures(a));
	else
		ej_bad(j, "%s@%s: expected %s, measured %s", a->probe, a->blk, what, figures(a));
}

/* A side's map entry REG/NAME/OP (its host profile, else its first): false when it has none. */
static bool side_map(struct ab *a, const char *side, const char *reg, const char *name,
		     const char *op, char **st, char **ex, char **cy)
{
	struct judge *j = a->j;
	char *f = ej_fmt(j, "%s/%s/results/map.json", a->dir, side), *prof = "host", *e;

	if (zero(fn(j, f, "map.profiles[host]")))
		prof = ej_first_line(j, ej_qs(j, f, "map.profiles[*].name"));
	if (!*prof)
		return false;
	e = ej_fmt(j, "map.profiles[%s].entries[%s/%s/%s]", prof, reg, name, op);
	*st = ej_first_line(j, ej_qs(j, f, ej_fmt(j, "%s.status", e)));
	if (!**st)
		return false;
	*ex = fv(j, f, ej_fmt(j, "%s.exits_per_op", e));
	*cy = fv(j, f, ej_fmt(j, "%s.cycles_per_op", e));
	return true;
}

/* map REG NAME OP A -> B [EXITS_A -> EXITS_B] */
static void judge_map(struct ab *a, char **w, size_t nw)
{
	struct judge *j = a->j;
	char *mc, *sa, *sb, *ea, *eb, *ca, *cb;

	if (!need(a, "map"))
		return;
	/* the change of that entry in compare's map_changes: its host profile's, else the first */
	mc = ej_fmt(j, "map_changes[reg=%s][name=%s][op=%s]", w[0], w[1], w[2]);
	if (!zero(fn(j, a->cj, ej_fmt(j, "%s[profile=host]", mc))))
		mc = ej_fmt(j, "%s[profile=host]", mc);
	if (!zero(fn(j, a->cj, mc))) {
		sa = fa(j, a->cj, ej_fmt(j, "%s.base", mc));
		sb = fa(j, a->cj, ej_fmt(j, "%s.new", mc));
		ea = fv(j, a->cj, ej_fmt(j, "%s.base_exits_per_op", mc));
		eb = fv(j, a->cj, ej_fmt(j, "%s.new_exits_per_op", mc));
		ca = fv(j, a->cj, ej_fmt(j, "%s.base_cycles_per_op", mc));
		cb = fv(j, a->cj, ej_fmt(j, "%s.new_cycles_per_op", mc));
	} else if (!side_map(a, j->base, w[0], w[1], w[2], &sa, &ea, &ca) ||
		   !side_map(a, j->new, w[0], w[1], w[2], &sb, &eb, &cb)) {
		/* unchanged: both sides' map files say what it is */
		if (j->l->optional)
			ej_skip(j, "%s (no map entry %s.%s %s)", j->l->text, w[0], w[1], w[2]);
		else
			ej_bad(j, "%s: no map entry %s.%s %s in %s or %s", j->l->text, w[0], w[1],
			       w[2], j->base, j->new);
		return;
	}
	if (!ej_one_of(j, sa, w[3]) || !ej_one_of(j, sb, w[5]))
		ej_bad(j, "map %s.%s %s: expected %s -> %s, measured %s -> %s (exits/op %s -> %s, "
		       "cycles/op %s -> %s)", w[0], w[1], w[2], w[3], w[5], sa, sb, ea, eb, ca, cb);
	else if (nw == 9 && !(ej_num_holds(j, ea, w[6]) && ej_num_holds(j, eb, w[8])))
		ej_bad(j, "map %s.%s %s: expected exits/op %s -> %s, measured %s -> %s (%s -> %s, "
		       "cycles/op %s -> %s)", w[0], w[1], w[2], w[6], w[8], ea, eb, sa, sb, ca, cb);
	else
		ej_ok(j, "map %s.%s %s: %s -> %s, exits/op %s -> %s, cycles/op %s -> %s", w[0],
		      w[1], w[2], sa, sb, ea, eb, ca, cb);
}

/* The i-th line of s, "" past its end. */
static char *nth(struct judge *j, char *s, size_t i)
{
	char **v;
	size_t n;

	if (!*s)
		return "";
	v = ej_lines_of(j, s, &n);
	return i < n ? v[i] : "";
}

static void judge_mapchanges(struct ab *a, char **w)
{
	static const char *const cols[] = { "reg", "name", "op", "base", "new" };
	struct judge *j = a->j;
	char *col[5], *n, *lst = "";
	size_t i, k, rows = 0, nl;

	if (!need(a, "map"))
		return;
	n = fn(j, a->cj, "map_changes[profile=host]");
	for (k = 0; k < 5; k++) {
		col[k] = ej_qs(j, a->cj, ej_fmt(j, "map_changes[profile=host].%s", cols[k]));
		if (*col[k]) {
			ej_lines_of(j, col[k], &nl);
			rows = nl > rows ? nl : rows;
		}
	}
	for (i = 0, k = 0; i < rows; i++) {
		char *b = nth(j, col[3], i), *nw = nth(j, col[4], i);

		if (!*nth(j, col[0], i))
			continue;
		lst = ej_fmt(j, "%s%s%s.%s %s %s -> %s", lst, k++ ? ", " : "", nth(j, col[0], i),
			     nth(j, col[1], i), nth(j, col[2], i),
			     strcmp(b, "null") ? b : "(absent)",
			     strcmp(nw, "null") ? nw : "(absent)");
	}
	if (ej_num_holds(j, n, w[0]))
		ej_ok(j, "%s map changes%s%s", n, *lst ? ": " : "", lst);
	else
		ej_bad(j, "expected %s map changes, measured %s%s%s", w[0], n, *lst ? ": " : "",
		       lst);
}

/* check SUITE NAME A -> B */
static void judge_check(struct ab *a, char **w)
{
	struct judge *j = a->j;
	char *cc, *sa, *sb;

	if (!need(a, "check"))
		return;
	cc = ej_fmt(j, "check_changes[suite=%s][name=%s]", w[0], w[1]);
	if (!zero(fn(j, a->cj, cc))) {
		sa = fa(j, a->cj, ej_fmt(j, "%s.base", cc));
		sb = fa(j, a->cj, ej_fmt(j, "%s.new", cc));
	} else {
		const char *st = ej_fmt(j, "checks[%s/%s].status", w[0], w[1]);

		sa = ej_first_line(j, ej_qs(j, ej_fmt(j, "%s/%s/results/check.json", a->dir,
						      j->base), st));
		sb = ej_first_line(j, ej_qs(j, ej_fmt(j, "%s/%s/results/check.json", a->dir,
						      j->new), st));
		if (!*sa || !*sb) {
			if (j->l->optional)
				ej_skip(j, "%s (no check %s/%s)", j->l->text, w[0], w[1]);
			else
				ej_bad(j, "%s: no check %s/%s in %s or %s", j->l->text, w[0], w[1],
				       j->base, j->new);
			return;
		}
	}
	if (ej_one_of(j, sa, w[2]) && ej_one_of(j, sb, w[4]))
		ej_ok(j, "check %s/%s: %s -> %s", w[0], w[1], sa, sb);
	else
		ej_bad(j, "check %s/%s: expected %s -> %s, measured %s -> %s", w[0], w[1], w[2],
		       w[4], sa, sb);
}

/* path lines: a function's figures on both sides */
struct path_row {
	char *va, *vb, *ia, *ib, *names, *state;
	char *none;	/* "no exit path ..." when a side or the comparison has none */
};

/* x rounded to two decimals, half away from zero, written without trailing zeros */
static char *rd(struct judge *j, double x, double *out)
{
	double v = x * 100, i = trunc(v);

	if (v - i >= 0.5)
		i++;
	else if (i - v >= 0.5)
		i--;
	*out = i / 100;
	if (i == 0 && v < 0)
		return "-0";
	return trim2(j, i / 100);
}

/* name is fn or one of its GCC clones (fn.suffix) */
static bool fn_match(const char *name, const char *fn)
{
	size_t n = strlen(fn);

	return !strncmp(name, fn, n) && (!name[n] || name[n] == '.');
}

/* "[a, b]" (a compare pair of figures) into its two numbers */
static void fig_pair(const char *s, double *x, double *y)
{
	const char *c = strchr(s, ',');

	*x = ej_awk_num(s + strspn(s, "[ "));
	*y = c ? ej_awk_num(c + 1 + strspn(c + 1, " [")) : 0;
}

static int by_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/*
 * FUNCTION's calls or instructions per op on BASE and on NEW (its GCC
 * clones counted with it) from compare's exit_paths; a function compare
 * does not list did not change and is read from the sides' own exit
 * paths (absent there: 0). FUNCTION "kernel": the L1 kernel's
 * instructions per op.
 */
static void path_row(struct ab *a, const char *fnc, const char *unit, struct path_row *r)
{
	struct judge *j = a->j;
	const char *ra = ej_fmt(j, "%s/%s/results/%s.json", a->dir, j->base, a->blk);
	const char *rb = ej_fmt(j, "%s/%s/results/%s.json", a->dir, j->new, a->blk);
	const char *ep = ej_fmt(j, "probes[%s].exit_path", a->probe);
	const char *cp = ej_fmt(j, "exit_paths.probes[probe=%s]", a->probe);
	double ca = 0, cb = 0, ia = 0, ib = 0, sa = 0, sb = 0, ja = 0, jb = 0, v0, v1, v2, v3;
	char *why = "", **changed, **all, *cn, *ccall, *cins, *x0, *x1, *y0, *y1;
	size_t nc = 0, na = 0, nchanged, i, k, side;

	memset(r, 0, sizeof(*r));
	r->va = r->vb = r->ia = r->ib = r->names = r->state = "";
	if (!is_result(j, ra) || !is_result(j, rb))
		return;
	for (side = 0; side < 2; side++) {
		const char *f = side ? rb : ra, *s;

		if (!zero(fn(j, f, ep)))
			continue;
		s = fv(j, f, ej_fmt(j, "probes[%s].status", a->probe));
		s = strcmp(s, "-") ? s : "null";
		s = strcmp(s, "ok") ? ej_fmt(j, "probe status %s", s)
				    : "not profiled: LANE_PROFILE=1";
		why = ej_fmt(j, "%s%s%s (%s)", why, *why ? " and " : "",
			     side ? j->new : j->base, s);
	}
	if (*why) {
		r->none = ej_fmt(j, "no exit path on %s", why);
		return;
	}
	if (zero(fn(j, a->cj, "exit_paths"))) {
		r->none = "no exit path in compare's output (exitscope compare without exit_paths)";
		return;
	}
	if (!strcmp(fnc, "kernel")) {
		char *ka, *kb, *kp = ej_fmt(j, "%s.kernel_insn_per_op", cp);

		if (!zero(fn(j, a->cj, kp))) {
			char *both = ej_qs(j, a->cj, ej_fmt(j, "%s[*]", kp));

			ka = nth(j, both, 0);
			kb = nth(j, both, 1);
		} else {
			ka = fv(j, ra, ej_fmt(j, "%s.kernel_insn_per_op", ep));
			kb = fv(j, rb, ej_fmt(j, "%s.kernel_insn_per_op", ep));
		}
		r->va = r->ia = rd(j, ej_awk_num(ka), &v0);
		r->vb = r->ib = rd(j, ej_awk_num(kb), &v1);
		r->names = "kernel";
		r->state = v0 != v1 ? "changed" : "unchanged";
		return;
	}
	/* the functions compare lists as changed */
	cn = ej_qs(j, a->cj, ej_fmt(j, "%s.functions[*].name", cp));
	ccall = ej_qs(j, a->cj, ej_fmt(j, "%s.functions[*].calls_per_op", cp));
	cins = ej_qs(j, a->cj, ej_fmt(j, "%s.functions[*].insn_per_op", cp));
	changed = *cn ? ej_lines_of(j, cn, &nchanged) : NULL;
	if (!*cn)
		nchanged = 0;
	for (i = 0; i < nchanged; i++) {
		double c1, c2, n1, n2;

		if (!fn_match(changed[i], fnc))
			continue;
		changed[nc++] = changed[i];
		fig_pair(nth(j, ccall, i), &c1, &c2);
		fig_pair(nth(j, cins, i), &n1, &n2);
		ca += c1;
		cb += c2;
		ia += n1;
		ib += n2;
	}
	/* each side's own functions: a name not in changed[] did not change */
	all = NULL;
	for (side = 0; side < 2; side++) {
		const char *f = side ? rb : ra;
		char *names = ej_qs(j, f, ej_fmt(j, "%s.functions[*].name", ep));
		char *calls = ej_qs(j, f, ej_fmt(j, "%s.functions[*].calls_per_op", ep));
		char *insn = ej_qs(j, f, ej_fmt(j, "%s.functions[*].insn_per_op", ep));
		char **v;
		size_t n;

		if (!*names)
			continue;
		v = ej_lines_of(j, names, &n);
		for (i = 0; i < n; i++) {
			bool in = false;

			if (!fn_match(v[i], fnc))
				continue;
			for (k = 0; k < na && strcmp(all[k], v[i]); k++)
				;
			if (k == na) {
				char **nall = realloc(all, (na + 1) * sizeof(*nall));

				if (!nall) {
					free(all);
					j->oom = true;
					return;
				}
				all = nall;
				all[na++] = v[i];
			}
			for (k = 0; k < nc; k++)
				in |= !strcmp(changed[k], v[i]);
			if (in)
				continue;
			if (side) {
				sb += ej_awk_num(nth(j, calls, i));
				jb += ej_awk_num(nth(j, insn, i));
			} else {
				sa += ej_awk_num(nth(j, calls, i));
				ja += ej_awk_num(nth(j, insn, i));
			}
		}
	}
	x0 = rd(j, ca + sa, &v0);
	x1 = rd(j, cb + sb, &v1);
	y0 = rd(j, ia + ja, &v2);
	y1 = rd(j, ib + jb, &v3);
	if (na)
		qsort(all, na, sizeof(*all), by_str);
	for (k = 0; k < na; k++)
		r->names = ej_fmt(j, "%s%s%s", r->names, k ? "," : "", all[k]);
	free(all);
	if (!na)
		r->state = "on neither side";
	else if (!nc)
		r->state = "unchanged";
	else if (v0 == 0 && v2 == 0)
		r->state = "new";
	else if (v1 == 0 && v3 == 0)
		r->state = "gone";
	else
		r->state = "changed";
	r->va = strcmp(unit, "calls") ? y0 : x0;
	r->vb = strcmp(unit, "calls") ? y1 : x1;
	r->ia = y0;
	r->ib = y1;
}

/* path PROBE[@BLOCK] FUNCTION calls|insn A -> B */
static void judge_path(struct ab *a, char **w)
{
	struct judge *j = a->j;
	const char *fnc = w[1], *unit = w[2];
	struct path_row r;
	char *extra;

	if (!probe_need(a, w[0]))
		return;
	path_row(a, fnc, unit, &r);
	if (j->oom)
		return;
	if (r.none) {
		if (j->l->optional)
			ej_skip(j, "%s (%s@%s: %s)", j->l->text, a->probe, a->blk, r.none);
		else
			ej_bad(j, "%s: %s@%s: %s", j->l->text, a->probe, a->blk, r.none);
		return;
	}
	extra = r.state;
	if (!strcmp(unit, "calls"))
		extra = ej_fmt(j, "insn/op %s -> %s, %s", r.ia, r.ib, r.state);
	if (*r.names && strcmp(r.names, fnc))
		extra = ej_fmt(j, "%s; counted: %s", extra, r.names);
	if (ej_num_holds(j, r.va, w[3]) && ej_num_holds(j, r.vb, w[5]))
		ej_ok(j, "%s@%s %s: %s -> %s %s/op (%s)", a->probe, a->blk, fnc, r.va, r.vb, unit,
		      extra);
	else
		ej_bad(j, "%s@%s %s: expected %s/op %s -> %s, measured %s -> %s (%s)", a->probe,
		       a->blk, fnc, unit, w[3], w[5], r.va, r.vb, extra);
}

/*
 * census PROBE[@BLOCK] INSN OPERAND|- A -> B: the L1 kernel's executions
 * per op of INSN with OPERAND in the probe's exit-path census on BASE and
 * on NEW (a row a side's census lacks is 0 there), from the sides' results.
 */
static void judge_census(struct ab *a, char **w)
{
	struct judge *j = a->j;
	const char *id, *side;
	char *vals[2] = { "", "" }, *why = "", *f, *v;
	size_t s;
	int rc;

	if (!probe_need(a, w[0]))
		return;
	id = strcmp(w[2], "-") ? ej_fmt(j, "%s/%s", w[1], w[2]) : w[1];
	for (s = 0; s < 2; s++) {
		side = s ? j->new : j->base;
		f = ej_fmt(j, "%s/%s/results/%s.json", a->dir, side, a->blk);
		ej_q(j, f, ej_fmt(j, "probes[%s].exit_path.census", a->probe), &rc, NULL);
		if (rc) {
			why = ej_fmt(j, "%s%s%s", why, *why ? " and " : "", side);
			continue;
		}
		v = fv(j, f, ej_fmt(j, "probes[%s].exit_path.census[%s].per_op", a->probe, id));
		vals[s] = r2(j, strcmp(v, "-") ? v : "0");
	}
	if (*why) {
		if (j->l->optional)
			ej_skip(j, "%s (%s@%s: no census on %s)", j->l->text, a->probe, a->blk,
				why);
		else
			ej_bad(j, "%s: %s@%s: no census on %s (LANE_PROFILE=1 with a "
			       "census-counting Bochs)", j->l->text, a->probe, a->blk, why);
		return;
	}
	if (ej_num_holds(j, vals[0], w[3]) && ej_num_holds(j, vals[1], w[5]))
		ej_ok(j, "%s@%s census %s: %s -> %s per op", a->probe, a->blk, id, vals[0],
		      vals[1]);
	else
		ej_bad(j, "%s@%s census %s: expected %s -> %s per op, measured %s -> %s", a->probe,
		       a->blk, id, w[3], w[5], vals[0], vals[1]);
}

/* about lines: sums of figures */

static bool prefixed(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* A term written as a number: as the shell's patterns -?[0-9]*, [0-9]*, .[0-9]* take it. */
static bool term_number(const char *t)
{
	if (*t >= '0' && *t <= '9')
		return true;
	if (t[0] == '.' && t[1] >= '0' && t[1] <= '9')
		return true;
	return t[0] == '-' && t[1] && t[2] >= '0' && t[2] <= '9';
}

/* The block a figure term reads, NULL for a number or an operator. */
static const char *term_block(struct ab *a, const char *t)
{
	if (term_number(t))
		return NULL;
	if (prefixed(t, "base:map:") || prefixed(t, "new:map:"))
		return "map";
	if (prefixed(t, "base:") || prefixed(t, "new:") || prefixed(t, "diff:")) {
		split_probe(a, strchr(t, ':') + 1, "run");
		return a->blk;
	}
	return NULL;
}

/* A term's value, "" when it has none. */
static char *term(struct ab *a, const char *t)
{
	struct judge *j = a->j;
	char *st, *ex, *cy, *v;

	if (term_number(t))
		return (char *)t;
	if (prefixed(t, "base:map:") || prefixed(t, "new:map:")) {
		char *f = ej_keep(j, strdup(strstr(t, ":map:") + 5)), *r, *n, *o;

		if (j->oom)
			return "";
		r = f;
		n = strchr(r, '.');
		n = n ? (*n = 0, n + 1) : "";
		o = strchr(n, '.');
		o = o ? (*o = 0, o + 1) : "";
		if (!side_map(a, t[0] == 'n' ? j->new : j->base, r, n, o, &st, &ex, &cy))
			return "";
		return strcmp(cy, "-") ? cy : "";
	}
	if (prefixed(t, "base:") || prefixed(t, "new:") || prefixed(t, "diff:")) {
		const char *f = t[0] == 'b' ? "base_median" : t[0] == 'n' ? "new_median" :
					      "diff_cycles";
		char *cj;

		split_probe(a, strchr(t, ':') + 1, "run");
		cj = cmp_file(a, a->blk);
		if (!nonempty(cj))
			return "";
		v = fv(j, cj, ej_fmt(j, "probes[%s].%s", a->probe, f));
		return strcmp(v, "-") ? v : "";
	}
	return "";
}

/*
 * TERM [+|- TERM].. of w[0..n): its value ("%.6f" as awk sums) and how it
 * is shown in *shown; NULL when a term has no value (*missing).
 */
static char *sum(struct ab *a, char **w, size_t n, char **shown, const char **missing)
{
	struct judge *j = a->j;
	char *total = "0", *sh = "", *v;
	int sign = 1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(w[i], "+") || !strcmp(w[i], "-")) {
			sign = w[i][0] == '+' ? 1 : -1;
			sh = ej_fmt(j, "%s %s", sh, w[i]);
			continue;
		}
		v = term(a, w[i]);
		if (!*v) {
			*missing = w[i];
			return NULL;
		}
		total = ej_fmt(j, "%.6f", ej_awk_num(total) + sign * ej_awk_num(v));
		sh = ej_fmt(j, "%s %s=%.2f", sh, w[i], ej_awk_num(v));
		sign = 1;
	}
	*shown = *sh ? sh + 1 : sh;
	return total;
}

/* about TERM [+|- TERM].. = TERM [+|- TERM].. within PCT% */
static void judge_about(struct ab *a, char **w, size_t nw)
{
	struct judge *j = a->j;
	size_t eq = 0, wi = nw - 2, i;
	char *lv, *rv, *ls, *rs, *pc;
	const char *nob = NULL, *b, *miss = "";
	double d, r;

	for (i = 0; i < nw; i++)
		if (!strcmp(w[i], "="))
			eq = i;
	/* a term about a block without comparison: skipped or failed as that block */
	for (i = 0; i < wi && !nob; i++) {
		b = term_block(a, w[i]);
		if (b && !nonempty(cmp_file(a, b)))
			nob = b;
	}
	if (nob) {
		need(a, nob);
		return;
	}
	lv = sum(a, w, eq, &ls, &miss);
	rv = lv ? sum(a, w + eq + 1, wi - eq - 1, &rs, &miss) : NULL;
	if (!rv) {
		if (j->l->optional)
			ej_skip(j, "%s (missing %s)", j->l->text, miss);
		else
			ej_bad(j, "%s: no value for %s", j->l->text, miss);
		return;
	}
	pc = pct_of(j, w[wi + 1]);
	d = fabs(ej_awk_num(lv) - ej_awk_num(rv));
	r = fabs(ej_awk_num(rv));
	if (d <= ej_awk_num(pc) / 100 * r)
		ej_ok(j, "about: %.2f vs %.2f within %s%% (%s = %s)", ej_awk_num(lv),
		      ej_awk_num(rv), pc, ls, rs);
	else
		ej_bad(j, "expected %s to be within %s%% of %s, measured %.2f vs %.2f", ls, pc, rs,
		       ej_awk_num(lv), ej_awk_num(rv));
}

static void judge_line(struct ab *a, const struct expect_line *l)
{
	a->j->l = l;
	switch (l->kind) {
	case EXPECT_PAIR:
		return judge_pair(a, l->w);
	case EXPECT_VERDICT:
		return judge_verdict(a, l->w);
	case EXPECT_EXITS:
		return judge_perop(a, l->w, "exits", l->w + 1);
	case EXPECT_PEROP:
		return judge_perop(a, l->w, l->w[1], l->w + 2);
	case EXPECT_WITHIN:
		return judge_within(a, l->w, false);
	case EXPECT_PCT:
		return judge_within(a, l->w, true);
	case EXPECT_AB_MAP:
		return judge_map(a, l->w, l->nw);
	case EXPECT_MAPCHANGES:
		return judge_mapchanges(a, l->w);
	case EXPECT_AB_CHECK:
		return judge_check(a, l->w);
	case EXPECT_PATH:
		return judge_path(a, l->w);
	case EXPECT_CENSUS:
		return judge_census(a, l->w);
	case EXPECT_ABOUT:
		return judge_about(a, l->w, l->nw);
	default:
		ej_bad(a->j, "%s: not an A/B line", l->text);
	}
}

static void ab_line(void *ctx, const struct expect_line *l)
{
	judge_line(ctx, l);
}

int expect_judge_ab(const struct expect_file *ef, const char *dir, char *const *pairs,
		    size_t npairs, const struct expect_opts *o)
{
	struct judge j = { .o = o, .dir = dir, .ab = true };
	struct ab a = { .j = &j, .dir = dir, .pairs = pairs, .npairs = npairs };
	char *first = npairs ? strdup(pairs[0]) : strdup("a:b"), *colon;
	int rc;

	if (!first)
		return -ENOMEM;
	colon = strchr(first, ':');
	j.base = first;
	j.new = colon ? (*colon = 0, colon + 1) : "";
	rc = ej_run(&j, ef, "lane-ab", "expectations", ab_line, &a);
	ej_release(&j);
	free(first);
	return rc;
}
