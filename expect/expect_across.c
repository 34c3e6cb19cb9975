// SPDX-License-Identifier: GPL-2.0-only
/*
 * expect_across.c - facts between kernels judged on the runs of
 * scripts/lane-kernels (expect/expect.h, expect --across): a probe's
 * median cycles on two kernels, two probes' on one, and a lane's map the
 * same on every kernel; every figure read through the query engine from
 * DIR/LANE-SOURCE/results/run.json and map.json.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "expect/expect.h"
#include "base/words.h"
#include "expect/judge.h"

struct across {
	struct judge *j;
	const char *dir;
	struct words lanes, sources;	/* the lanes and the sources run */
};

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int by_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The lanes and sources of dir's directories LANE-SOURCE (split at the
 * last '-'), the lanes by name, the sources by version: 0, or -ENOMEM.
 */
static int discover(struct across *a, bool lanes, bool sources)
{
	DIR *d = opendir(a->dir);
	struct dirent *de;
	int rc = 0;

	while (d && !rc && (de = readdir(d))) {
		const char *dash = strrchr(de->d_name, '-');
		struct stat st;
		char *path;

		if (de->d_name[0] == '.' || !dash || dash == de->d_name || !dash[1])
			continue;
		if (asprintf(&path, "%s/%s", a->dir, de->d_name) < 0) {
			rc = -ENOMEM;
			break;
		}
		if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			if (lanes)
				rc = words_add(&a->lanes, de->d_name, dash - de->d_name);
			if (!rc && sources)
				rc = words_add(&a->sources, dash + 1, strlen(dash + 1));
		}
		free(path);
	}
	if (d)
		closedir(d);
	if (a->lanes.n)
		qsort(a->lanes.v, a->lanes.n, sizeof(*a->lanes.v), by_str);
	if (a->sources.n)
		qsort(a->sources.v, a->sources.n, sizeof(*a->sources.v), by_version);
	return rc;
}

/* The sources run, joined by blanks. */
static char *sources_text(struct across *a)
{
	char *s = ej_fmt(a->j, "%s", "");
	size_t i;

	for (i = 0; i < a->sources.n; i++)
		s = ej_fmt(a->j, "%s%s%s", s, i ? " " : "", a->sources.v[i]);
	return s;
}

/* The lane and each source were run; else a skip line saying which was not, and false. */
static bool ran(struct across *a, const char *lane, const char *s1, const char *s2)
{
	const char *why = NULL;

	if (!words_has(&a->lanes, lane))
		why = ej_fmt(a->j, "lane %s not run", lane);
	else if (s1 && !words_has(&a->sources, s1))
		why = ej_fmt(a->j, "source %s not run", s1);
	else if (s2 && !words_has(&a->sources, s2))
		why = ej_fmt(a->j, "source %s not run", s2);
	if (why)
		ej_skip(a->j, "%s (%s)", a->j->l->text, why);
	return !why;
}

static char *result_file(struct across *a, const char *lane, const char *source,
			 const char *block)
{
	return ej_fmt(a->j, "%s/%s-%s/results/%s.json", a->dir, lane, source, block);
}

/* The probe's median cycles on lane and source, "" when it has no ok measurement. */
static char *median(struct across *a, const char *lane, const char *source, const char *probe)
{
	struct judge *j = a->j;
	char *v = ej_first_line(j, ej_qs(j, result_file(a, lane, source, "run"),
					 ej_fmt(j, "probes[%s][status=ok].cycles.median", probe)));

	return strcmp(v, "null") ? v : "";
}

static const char *none(const char *v)
{
	return *v ? v : "none";
}

/* The change from y to x in %, as "+1.2%". */
static char *change(struct judge *j, const char *x, const char *y)
{
	return ej_fmt(j, "%+.1f%%", (ej_awk_num(x) / ej_awk_num(y) - 1) * 100);
}

/* No ok measurement of one of them: FAIL (what: the line as it names itself), or skip. */
static bool measured(struct judge *j, const char *what, const char *x, const char *y,
		     const char *sep)
{
	if (*x && *y)
		return true;
	if (j->l->optional)
		ej_skip(j, "%s (no ok measurement: %s%s%s)", j->l->text, none(x), sep, none(y));
	else
		ej_bad(j, "%s: no ok measurement (%s%s%s)", what, none(x), sep, none(y));
	return false;
}

/* faster LANE PROBE NEW OLD PCT */
static void judge_faster(struct across *a, char **w)
{
	struct judge *j = a->j;
	char *n, *o;

	if (!ran(a, w[0], w[2], w[3]))
		return;
	n = median(a, w[0], w[2], w[1]);
	o = median(a, w[0], w[3], w[1]);
	if (!measured(j, ej_fmt(j, "faster %s %s %s %s", w[0], w[1], w[2], w[3]), n, o, " vs "))
		return;
	if (ej_awk_num(n) < ej_awk_num(o) * (1 - ej_awk_num(w[4]) / 100))
		ej_ok(j, "%s %s: %s %s < %s %s cycles (%s)", w[0], w[1], w[2], n, w[3], o,
		      change(j, n, o));
	else
		ej_bad(j, "faster %s %s %s %s: measured %s %s, %s %s cycles "
		       "(%s, needed below -%s%%)", w[0], w[1], w[2], w[3], w[2], n, w[3], o,
		       change(j, n, o), w[4]);
}

/* near|below LANE SOURCE PROBE OTHER PCT */
static void judge_near(struct across *a, char **w, bool below)
{
	struct judge *j = a->j;
	const char *kind = below ? "below" : "near";
	double d, p = ej_awk_num(w[4]);
	char *x, *y;

	if (!ran(a, w[0], w[1], NULL))
		return;
	x = median(a, w[0], w[1], w[2]);
	y = median(a, w[0], w[1], w[3]);
	if (!measured(j, ej_fmt(j, "%s %s %s %s %s", kind, w[0], w[1], w[2], w[3]), x, y, ", "))
		return;
	d = (ej_awk_num(x) / ej_awk_num(y) - 1) * 100;
	if (below && ej_awk_num(x) < ej_awk_num(y) * (1 - p / 100))
		ej_ok(j, "%s %s: %s %s below %s %s cycles (%s)", w[0], w[1], w[2], x, w[3], y,
		      change(j, x, y));
	else if (below)
		ej_bad(j, "below %s %s %s %s %s: measured %s %s, %s %s cycles "
		       "(%s, needed below -%s%%)", w[0], w[1], w[2], w[3], w[4], w[2], x, w[3], y,
		       change(j, x, y), w[4]);
	else if (d <= p && d >= -p)
		ej_ok(j, "%s %s: %s %s within %s%% of %s %s cycles", w[0], w[1], w[2], x,
		      w[4], w[3], y);
	else
		ej_bad(j, "near %s %s %s %s %s: measured %s %s, %s %s cycles (%s)", w[0], w[1],
		       w[2], w[3], w[4], w[2], x, w[3], y, change(j, x, y));
}

/* The lines of s, none when s is empty. */
static char **lines(struct judge *j, char *s, size_t *n)
{
	if (!*s) {
		*n = 0;
		return NULL;
	}
	return ej_lines_of(j, s, n);
}

/* "a;b": the differences found so far and one more. */
static char *also(struct judge *j, char *diff, const char *more)
{
	return *diff ? ej_fmt(j, "%s;%s", diff, more) : ej_fmt(j, "%s", more);
}

/*
 * The entries of the first map's first profile whose status differs
 * between the maps' first profiles, or that some map lacks, as
 * "REG.NAME OP: STATUS..."; and each map without a profile. "" when none.
 */
static char *ownership_diff(struct across *a, const char *lane)
{
	struct judge *j = a->j;
	size_t ns = a->sources.n, nk, nn, no, i, k, m, nst, nv;
	char **f = calloc(ns + 1, sizeof(*f)), **prof = calloc(ns + 1, sizeof(*prof));
	char *diff = "", **reg, **name, **op, *sel, *st, **v;
	const char *first;

	if (!f || !prof) {
		j->oom = true;
		goto out;
	}
	for (i = 0; i < ns; i++) {
		f[i] = result_file(a, lane, a->sources.v[i], "map");
		prof[i] = ej_first_line(j, ej_qs(j, f[i], "map.profiles[*].name"));
		if (!*prof[i])
			diff = also(j, diff, ej_fmt(j, "%s: no map profile in it", f[i]));
	}
	if (!ns || !*prof[0])
		goto out;
	sel = ej_fmt(j, "map.profiles[%s].entries[*]", prof[0]);
	reg = lines(j, ej_qs(j, f[0], ej_fmt(j, "%s.reg", sel)), &nk);
	name = lines(j, ej_qs(j, f[0], ej_fmt(j, "%s.name", sel)), &nn);
	op = lines(j, ej_qs(j, f[0], ej_fmt(j, "%s.op", sel)), &no);
	for (k = 0; k < nk && !j->oom; k++) {
		const char *nm = k < nn ? name[k] : "", *o = k < no ? op[k] : "";
		const char *key = ej_fmt(j, "%s/%s/%s", reg[k], nm, o);
		bool same = true;

		st = "";
		first = NULL;
		nst = 0;
		for (i = 0; i < ns; i++) {
			if (!*prof[i])
				continue;
			v = lines(j, ej_qs(j, f[i], ej_fmt(j, "map.profiles[%s].entries[%s].status",
							   prof[i], key)), &nv);
			for (m = 0; m < nv; m++, nst++) {
				if (!first)
					first = v[m];
				same = same && !strcmp(v[m], first);
				st = ej_fmt(j, "%s%s%s", st, nst ? " " : "", v[m]);
			}
		}
		if (nst != ns || !same)
			diff = also(j, diff, ej_fmt(j, "%s.%s %s: %s", reg[k], nm, o, st));
	}
out:
	free(f);
	free(prof);
	return diff;
}

/* same-ownership LANE */
static void judge_same_ownership(struct across *a, char **w)
{
	struct judge *j = a->j;
	char *diff;

	if (!ran(a, w[0], NULL, NULL))
		return;
	diff = ownership_diff(a, w[0]);
	if (j->oom)
		return;
	if (!*diff)
		ej_ok(j, "%s: every map entry has the same status on %s", w[0], sources_text(a));
	else
		ej_bad(j, "same-ownership %s (%s): %s", w[0], sources_text(a), diff);
}

static void judge_line(struct across *a, const struct expect_line *l)
{
	a->j->l = l;
	switch (l->kind) {
	case EXPECT_FASTER:
		return judge_faster(a, l->w);
	case EXPECT_NEAR:
		return judge_near(a, l->w, false);
	case EXPECT_BELOW:
		return judge_near(a, l->w, true);
	case EXPECT_SAME_OWNERSHIP:
		return judge_same_ownership(a, l->w);
	default:
		ej_bad(a->j, "%s: not a line between kernels", l->text);
	}
}

static void across_line(void *ctx, const struct expect_line *l)
{
	judge_line(ctx, l);
}

int expect_judge_across(const struct expect_file *ef, const char *dir, const char *lanes,
			const char *sources, const struct expect_opts *o)
{
	struct judge j = { .o = o, .dir = dir, .files = true };
	struct across a = { .j = &j, .dir = dir };
	int rc;

	rc = lanes ? words_split(&a.lanes, lanes) : 0;
	if (!rc && sources)
		rc = words_split(&a.sources, sources);
	if (!rc && (!lanes || !sources))
		rc = discover(&a, !lanes, !sources);
	if (rc)
		goto out;
	rc = ej_run(&j, ef, "lane-kernels", "across", across_line, &a);
out:
	ej_release(&j);
	words_free(&a.lanes);
	words_free(&a.sources);
	return rc;
}
