// SPDX-License-Identifier: GPL-2.0-only
/*
 * expect_map.c - the map lines judged once (expect_map.h): which entries a
 * line names, whether an entry meets it, and a measured map judged
 * against a file read for it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "expect/expect.h"
#include "expect/expect_map.h"

/* Reading a file for a map */

/* Whether the line is about entry e (profile aside). */
static bool line_matches(const struct expect_map_line *l, const struct result_map_entry *e)
{
	return !strcmp(l->reg, e->reg) && !strcmp(l->op, e->op) &&
	       expect_map_names(l->name, e->name, e->bit, e->op);
}

/* The names of the known entries of reg with op, for a message. */
static void entry_names(char *buf, size_t len, const struct expect_map_known *k, const char *reg,
			const char *op)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < k->n && n < len; i++)
		if (!strcmp(k->e[i].reg, reg) && !strcmp(k->e[i].op, op))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", k->e[i].name);
}

/* One "map ..." line (words after "map", as the parser checked them). */
static int map_line(struct expect_map_line *l, char **w, size_t nw,
		    const struct expect_map_known *k, struct err *err)
{
	char names[512];
	bool any = false;

	snprintf(l->reg, sizeof(l->reg), "%s", w[0]);
	snprintf(l->name, sizeof(l->name), "%s", w[1]);
	snprintf(l->op, sizeof(l->op), "%s", w[2]);
	snprintf(l->num, sizeof(l->num), "%s", nw > 4 ? w[4] : "");
	for (size_t i = 0; i < k->n && !any; i++)
		any = line_matches(l, &k->e[i]);
	if (!any) {
		entry_names(names, sizeof(names), k, l->reg, l->op);
		if (names[0])
			return err_set(err, -EINVAL, "no map entry '%s %s %s' (%s %s entries: %s)",
				       l->reg, l->name, l->op, l->reg, l->op, names);
		return err_set(err, -EINVAL, "no map entry '%s %s %s' (REG is cr0, cr3, cr4 or "
			       "cr8; OP toggle or read)", l->reg, l->name, l->op);
	}
	if (expect_map_statuses(w[3], &l->statuses))
		return err_set(err, -EINVAL, "unknown status '%s' (owned, intercepted, rejected, "
			       "emulated, skipped; '|' between alternatives)", w[3]);
	return 0;
}

static int line_add(struct expect_map *x, const struct expect_map_line *l)
{
	struct expect_map_line *n = realloc(x->l, (x->n + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	x->l = n;
	x->l[x->n++] = *l;
	return 0;
}

/* The profile a "profile" line names: one of profiles[], or "*". */
static int profile_of(const char *want, const char *const *profiles, size_t np,
		      char *out, size_t len, struct err *err)
{
	char known[512];
	size_t n = 0;

	if (!strcmp(want, "*")) {
		snprintf(out, len, "*");
		return 0;
	}
	for (size_t i = 0; i < np; i++) {
		if (!strcmp(profiles[i], want)) {
			snprintf(out, len, "%s", want);
			return 0;
		}
		n += (size_t)snprintf(known + n, n < sizeof(known) ? sizeof(known) - n : 0, "%s%s",
				      i ? ", " : "", profiles[i]);
		if (n >= sizeof(known))
			n = sizeof(known) - 1;
	}
	known[n] = 0;
	return err_set(err, -EINVAL, "profile '%s' is not mapped (mapped: %s; "
		       "add --cpuid-profile %s)", want, known, want);
}

/* Why a line of another kind is not judged on a map: what it is about. */
static const char *why_skipped(const struct expect_line *l, char *buf, size_t len)
{
	switch (l->kind) {
	case EXPECT_MAPTRACE:
		return "an entry's exit trace: exitscope expect judges it in a lane";
	case EXPECT_VALUE:
	case EXPECT_COUNT:
	case EXPECT_SUM:
	case EXPECT_FIELD:
	case EXPECT_RC:
		snprintf(buf, len, "block %s of a lane: exitscope expect judges it", l->w[0]);
		return buf;
	case EXPECT_MODE:
		return "block info of a lane: exitscope expect judges it";
	case EXPECT_PROBE:
	case EXPECT_TRACE:
		return "block run of a lane: exitscope expect judges it";
	default:
		return "block check of a lane: exitscope expect judges it";
	}
}

/* A line of another kind: kept, to be listed as skipped. */
static int skip_add(struct expect_map *x, const struct expect_line *l)
{
	char **n = realloc(x->skipped, (x->nskipped + 1) * sizeof(*n));
	char why[MAP_KEY_LEN + 64];

	if (!n)
		return -ENOMEM;
	x->skipped = n;
	if (asprintf(&x->skipped[x->nskipped], "skip %s:%u: %s (%s)", l->file, l->lineno, l->text,
		     why_skipped(l, why, sizeof(why))) < 0)
		return -ENOMEM;
	x->nskipped++;
	return 0;
}

/* One parsed line (profile: the current one, a profile line sets it). */
static int parsed_add(struct expect_map *x, const struct expect_line *el, char *profile,
		      const struct expect_map_known *k, struct err *err)
{
	struct expect_map_line l = { .lineno = el->lineno };
	int r;

	snprintf(l.file, sizeof(l.file), "%s", el->file);
	snprintf(l.text, sizeof(l.text), "%s", el->text);
	switch (el->kind) {
	case EXPECT_MAP:
		snprintf(l.profile, sizeof(l.profile), "%s", profile);
		r = map_line(&l, el->w, el->nw, k, err);
		if (!r && (r = line_add(x, &l)))
			err_set(err, r, "out of memory");
		break;
	case EXPECT_PROFILE:
		r = profile_of(el->w[0], k->profiles, k->np, profile, MAP_CPUID_PROFILE_LEN, err);
		break;
	default:
		r = skip_add(x, el);
		if (r)
			err_set(err, r, "out of memory");
		break;
	}
	if (r && r != -ENOMEM)
		err_prefix(err, "%s:%u", el->file, el->lineno);
	return r;
}

int expect_map_read(const char *path, const struct expect_map_known *k, struct expect_map *x,
		    struct err *err)
{
	/* The one language's parser; its parse errors come back in err, the first one. */
	const struct expect_opts o = { .tol = EXPECT_MAP_TOL };
	char profile[MAP_CPUID_PROFILE_LEN] = "";
	struct expect_file ef;
	int r;

	memset(x, 0, sizeof(*x));
	snprintf(x->path, sizeof(x->path), "%s", path);
	/* Before any profile line: host when it is mapped, else the first. */
	for (size_t i = 0; i < k->np && !profile[0]; i++)
		if (!strcmp(k->profiles[i], "host"))
			snprintf(profile, sizeof(profile), "host");
	if (!profile[0] && k->np)
		snprintf(profile, sizeof(profile), "%s", k->profiles[0]);
	r = expect_parse(path, &ef, &o, err);
	for (size_t i = 0; !r && i < ef.n; i++)
		r = parsed_add(x, &ef.lines[i], profile, k, err);
	expect_file_free(&ef);
	if (!r && !x->n)
		r = err_set(err, -EINVAL, "expectations file %s has no 'map' line: nothing to test",
			    path);
	if (r)
		expect_map_free(x);
	return r;
}

void expect_map_free(struct expect_map *x)
{
	for (size_t i = 0; i < x->nskipped; i++)
		free(x->skipped[i]);
	free(x->skipped);
	x->skipped = NULL;
	x->nskipped = 0;
	free(x->l);
	x->l = NULL;
	x->n = 0;
}

/* Judging a map */

static void status_text(char *buf, size_t len, unsigned statuses)
{
	size_t n = 0;

	buf[0] = 0;
	for (int k = 0; k < MAP_STATUS_N && n < len; k++)
		if (statuses & (1u << k))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "|" : "",
					      map_status_names[k]);
}

/* One test: line l about entry e of profile prof. Returns whether it was met (or skipped). */
static bool test_one(const struct expect_map_sink *s, void *ctx, const struct expect_map_line *l,
		     const char *prof, const struct result_map_entry *e)
{
	char desc[320], want[96], ex[32] = "", where[300], why[MAP_DETAIL_LEN + 96];
	struct expect_map_test t = { .desc = desc, .expected = l->text, .exits = ex,
				     .detail = e->detail, .where = where,
				     .status = map_status_name(e->status) };

	status_text(want, sizeof(want), l->statuses);
	snprintf(desc, sizeof(desc), "%s %s.%s: %s%s%s%s", prof, e->reg,
		 strcmp(e->op, "read") ? e->name : "read", want, l->num[0] ? " " : "", l->num,
		 l->num[0] ? " exits/op" : "");
	if (e->exits_per_op >= 0)
		snprintf(ex, sizeof(ex), "%.2f", e->exits_per_op);
	snprintf(where, sizeof(where), "%s:%u", l->file, l->lineno);
	switch (expect_map_verdict(l->statuses, l->num, EXPECT_MAP_TOL, (int)e->status,
				   e->exits_per_op, true)) {
	case EXPECT_MAP_MET:
		t.pass = true;
		break;
	case EXPECT_MAP_STOPPED:
		snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), " (stopped: %s)",
			 e->detail);
		break;
	case EXPECT_MAP_HOST_SKIPPED:
		t.pass = true;
		t.skip = e->detail;
		break;
	case EXPECT_MAP_HOST_EMULATES:
		snprintf(why, sizeof(why), "the host emulates guest code: ownership is not "
			 "meaningful (%s exits/op)", ex[0] ? ex : "-");
		t.pass = true;
		t.skip = why;
		break;
	default:
		break;
	}
	s->test(ctx, &t);
	return t.pass;
}

static bool in_profile(const struct expect_map_line *l, const char *prof)
{
	return !strcmp(l->profile, "*") || !strcmp(l->profile, prof);
}

/* Tests every (line, profile, entry) the lines name (s NULL: counts them); returns the count. */
static unsigned walk(const struct expect_map *x, const struct result_map *map,
		     const struct expect_map_sink *s, void *ctx, unsigned *failed)
{
	unsigned n = 0;

	for (size_t i = 0; i < x->n; i++) {
		const struct expect_map_line *l = &x->l[i];

		for (size_t j = 0; j < map->n_profiles; j++) {
			const struct result_map_cpuid_profile *p = &map->profiles[j];

			if (!in_profile(l, p->name))
				continue;
			for (size_t k = 0; k < p->n_entries; k++) {
				if (!line_matches(l, &p->entries[k]))
					continue;
				n++;
				if (s && !test_one(s, ctx, l, p->name, &p->entries[k]))
					(*failed)++;
			}
		}
	}
	return n;
}

/* Entries of a profile that no line names, as one comment per profile. */
static void untested(const struct expect_map *x, const struct result_map *map,
		     const struct expect_map_sink *s, void *ctx)
{
	for (size_t j = 0; j < map->n_profiles; j++) {
		const struct result_map_cpuid_profile *p = &map->profiles[j];
		char list[900], text[1200];
		size_t n = 0, count = 0;

		list[0] = 0;
		for (size_t k = 0; k < p->n_entries; k++) {
			const struct result_map_entry *e = &p->entries[k];
			bool named = false;

			for (size_t i = 0; i < x->n && !named; i++)
				named = in_profile(&x->l[i], p->name) && line_matches(&x->l[i], e);
			if (named)
				continue;
			count++;
			if (n < sizeof(list))
				n += (size_t)snprintf(list + n, sizeof(list) - n, " %s.%s", e->reg,
						      strcmp(e->op, "read") ? e->name : "read");
		}
		if (!count)
			continue;
		snprintf(text, sizeof(text), "profile %s: %zu entries without an expectation, "
			 "not tested:%s", p->name, count, list);
		s->comment(ctx, text);
	}
}

unsigned expect_map_judge(const struct expect_map *x, const struct result_map *map,
			  const struct expect_map_sink *s, void *ctx)
{
	unsigned failed = 0, n = walk(x, map, NULL, NULL, NULL);
	char text[1200];

	s->plan(ctx, n);
	if (map->emulated)
		s->comment(ctx, "this host emulates guest code: owned/intercepted expectations "
			   "are skipped");
	walk(x, map, s, ctx, &failed);
	untested(x, map, s, ctx);
	for (size_t i = 0; i < x->nskipped; i++)
		s->comment(ctx, x->skipped[i]);
	if (x->nskipped) {
		snprintf(text, sizeof(text), "%zu lines of %s are not about map ownership: skipped",
			 x->nskipped, x->path);
		s->comment(ctx, text);
	}
	snprintf(text, sizeof(text), "%u expectations tested, %u not met", n, failed);
	s->comment(ctx, text);
	return failed;
}
