// SPDX-License-Identifier: GPL-2.0-only
/* map_expect.c - map expectations read, and checked against a map as TAP (map_expect.h). */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/array_size.h"
#include "cli/cli.h"
#include "cli/map_expect.h"
#include "cli/tap_out.h"
#include "expect/expect.h"
#include "map/map.h"


static bool map_expect_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* Whether the line is about entry e (profile aside). */
static bool map_expect_matches(const struct map_expect_line *l, const struct result_map_entry *e)
{
	if (strcmp(l->reg, e->reg) || strcmp(l->op, e->op))
		return false;
	if (!strcmp(l->name, "*"))
		return true;
	if (map_expect_digits(l->name))
		return !strcmp(e->op, "toggle") && e->bit == atoll(l->name);
	return !strcasecmp(l->name, e->name);
}

/* The names of the entries of reg with op, for a message. */
static void map_expect_names(char *buf, size_t len, const char *reg, const char *op)
{
	struct result_map_entry e;
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < map_nr_entries() && n < len; i++) {
		map_entry_key_at(i, &e);
		if (!strcmp(e.reg, reg) && !strcmp(e.op, op))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", e.name);
	}
}

static int map_expect_statuses(const char *s, unsigned *out)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	*out = 0;
	for (char *w = strtok_r(buf, "|", &save); w; w = strtok_r(NULL, "|", &save)) {
		int st = -1;

		for (int k = 0; k < MAP_STATUS_N; k++)
			if (k != MAP_STOPPED && !strcmp(w, map_status_names[k]))
				st = k;
		if (st < 0)
			return -EINVAL;
		*out |= 1u << st;
	}
	return *out ? 0 : -EINVAL;
}

static int map_expect_num(const char *s, struct map_expect_line *l)
{
	static const char *const ops[] = { ">=", "<=", ">", "<" };

	snprintf(l->cmp, sizeof(l->cmp), "=");
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strncmp(s, ops[i], strlen(ops[i]))) {
			snprintf(l->cmp, sizeof(l->cmp), "%s", ops[i]);
			s += strlen(ops[i]);
			break;
		}
	snprintf(l->numtext, sizeof(l->numtext), "%s%s", strcmp(l->cmp, "=") ? l->cmp : "", s);
	/* Decimal, as the options' numbers and as scripts/lane-assert reads it (no 0x1, no -1). */
	return cli_parse_num(s, 0, DBL_MAX, &l->num) ? -EINVAL : 0;
}

/* One "map ..." line (words after "map"). */
static int map_expect_map_line(struct map_expect_line *l, char **w, int nw, struct err *err)
{
	struct result_map_entry e;
	char names[512];
	bool any = false;

	if (nw < 4 || nw > 5)
		return err_set(err, -EINVAL, "want 'map REG NAME|BIT|* OP STATUS[|STATUS...] [NUM]'");
	snprintf(l->reg, sizeof(l->reg), "%s", w[0]);
	snprintf(l->name, sizeof(l->name), "%s", w[1]);
	snprintf(l->op, sizeof(l->op), "%s", w[2]);
	for (size_t i = 0; i < map_nr_entries() && !any; i++) {
		map_entry_key_at(i, &e);
		any = map_expect_matches(l, &e);
	}
	if (!any) {
		map_expect_names(names, sizeof(names), l->reg, l->op);
		if (names[0])
			return err_set(err, -EINVAL, "no map entry '%s %s %s' (%s %s entries: %s)", l->reg,
				       l->name, l->op, l->reg, l->op, names);
		return err_set(err, -EINVAL, "no map entry '%s %s %s' (REG is cr0, cr3, cr4 or cr8; OP toggle or read)",
			       l->reg, l->name, l->op);
	}
	if (map_expect_statuses(w[3], &l->statuses))
		return err_set(err, -EINVAL, "unknown status '%s' (owned, intercepted, rejected, emulated, skipped; '|' between alternatives)",
			 w[3]);
	if (nw == 5 && map_expect_num(w[4], l)) {
		return err_set(err, -EINVAL, "'%s' is not N, >=N, <=N, >N or <N exits/op (N a decimal number)", w[4]);
	}
	return 0;
}

static int map_expect_add(struct map_expect *x, const struct map_expect_line *l)
{
	struct map_expect_line *n = realloc(x->l, (x->n + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	x->l = n;
	x->l[x->n++] = *l;
	return 0;
}

/* The profile a "profile" line names: one of profiles[], or "*". */
static int map_expect_profile(const char *want, const char *const *profiles, size_t np,
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
	return err_set(err, -EINVAL, "profile '%s' is not mapped (mapped: %s; add --cpuid-profile %s)", want,
		 known, want);
}

/* Why a line of another kind is not judged here: what it is about. */
static const char *map_expect_why(const struct expect_line *l, char *buf, size_t len)
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
static int map_expect_skip(struct map_expect *x, const struct expect_line *l)
{
	char **n = realloc(x->skipped, (x->ignored + 1) * sizeof(*n));
	char why[MAP_KEY_LEN + 64];

	if (!n)
		return -ENOMEM;
	x->skipped = n;
	if (asprintf(&x->skipped[x->ignored], "%s:%u: %s (%s)", l->file, l->lineno, l->text,
		     map_expect_why(l, why, sizeof(why))) < 0)
		return -ENOMEM;
	x->ignored++;
	return 0;
}

/* One parsed line (profile: the current one, a profile line sets it). */
static int map_expect_line_add(struct map_expect *x, const struct expect_line *el, char *profile,
			       const char *const *profiles, size_t np, struct err *err)
{
	struct map_expect_line l = { .lineno = el->lineno };
	int r;

	snprintf(l.file, sizeof(l.file), "%s", el->file);
	snprintf(l.text, sizeof(l.text), "%s", el->text);
	switch (el->kind) {
	case EXPECT_MAP:
		snprintf(l.profile, sizeof(l.profile), "%s", profile);
		r = map_expect_map_line(&l, el->w, (int)el->nw, err);
		if (!r && (r = map_expect_add(x, &l)))
			err_set(err, r, "out of memory");
		break;
	case EXPECT_PROFILE:
		r = map_expect_profile(el->w[0], profiles, np, profile, MAP_CPUID_PROFILE_LEN, err);
		break;
	default:
		r = map_expect_skip(x, el);
		if (r)
			err_set(err, r, "out of memory");
		break;
	}
	if (r && r != -ENOMEM)
		err_prefix(err, "%s:%u", el->file, el->lineno);
	return r;
}

int map_expect_read(const char *path, const char *const *profiles, size_t np,
		    struct map_expect *x, struct err *err)
{
	/* The one language's parser; its parse errors come back in err, the first one. */
	const struct expect_opts o = { .tol = MAP_EXPECT_TOL };
	char profile[MAP_CPUID_PROFILE_LEN] = "";
	struct expect_file ef;
	int r;

	memset(x, 0, sizeof(*x));
	snprintf(x->path, sizeof(x->path), "%s", path);
	/* Before any profile line: host when it is mapped, else the first. */
	for (size_t i = 0; i < np && !profile[0]; i++)
		if (!strcmp(profiles[i], "host"))
			snprintf(profile, sizeof(profile), "host");
	if (!profile[0] && np)
		snprintf(profile, sizeof(profile), "%s", profiles[0]);
	r = expect_parse(path, &ef, &o, err);
	for (size_t i = 0; !r && i < ef.n; i++)
		r = map_expect_line_add(x, &ef.lines[i], profile, profiles, np, err);
	expect_file_free(&ef);
	if (!r && !x->n)
		r = err_set(err, -EINVAL, "expectations file %s has no 'map' line: nothing to test", path);
	if (r)
		map_expect_free(x);
	return r;
}

void map_expect_free(struct map_expect *x)
{
	for (size_t i = 0; i < x->ignored; i++)
		free(x->skipped[i]);
	free(x->skipped);
	x->skipped = NULL;
	x->ignored = 0;
	free(x->l);
	x->l = NULL;
	x->n = 0;
}

static bool map_expect_num_ok(const struct map_expect_line *l, double x)
{
	double t = MAP_EXPECT_TOL;

	if (x < 0)
		return false;
	if (!strcmp(l->cmp, ">="))
		return x >= l->num - t;
	if (!strcmp(l->cmp, "<="))
		return x <= l->num + t;
	if (!strcmp(l->cmp, ">"))
		return x > l->num;
	if (!strcmp(l->cmp, "<"))
		return x < l->num;
	return x - l->num <= t && l->num - x <= t;
}

static void map_expect_status_text(char *buf, size_t len, unsigned statuses)
{
	size_t n = 0;

	buf[0] = 0;
	for (int k = 0; k < MAP_STATUS_N && n < len; k++)
		if (statuses & (1u << k))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "|" : "", map_status_names[k]);
}

/* One test: line l about entry e of profile prof. Returns whether it passed (or was skipped). */
static bool map_expect_test(struct tap_out *t, const struct map_expect *x,
			    const struct map_expect_line *l, const char *prof,
			    const struct result_map_entry *e)
{
	const unsigned own = 1u << MAP_OWNED | 1u << MAP_INTERCEPTED;
	char desc[256], want[96], ex[32] = "", where[300];
	bool in = l->statuses & (1u << e->status), num_checked, pass;

	map_expect_status_text(want, sizeof(want), l->statuses);
	snprintf(desc, sizeof(desc), "%s %s.%s: %s%s%s%s", prof, e->reg,
		 strcmp(e->op, "read") ? e->name : "read", want, l->cmp[0] ? " " : "",
		 l->numtext, l->cmp[0] ? " exits/op" : "");
	if (e->exits_per_op >= 0)
		snprintf(ex, sizeof(ex), "%.2f", e->exits_per_op);
	snprintf(where, sizeof(where), "%s:%u", l->file, l->lineno);
	if (e->status == MAP_STOPPED) {
		char d[sizeof(desc) + 64];

		snprintf(d, sizeof(d), "%s (stopped: %s)", desc, e->detail);
		tap_out_test(t, false, d);
		pass = false;
	} else if (!in && e->status == MAP_SKIPPED) {
		tap_out_skip(t, desc, e->detail);
		return true;
	} else if (!in && e->status == MAP_EMULATED && (l->statuses & own)) {
		char why[MAP_DETAIL_LEN + 96];

		snprintf(why, sizeof(why), "the host emulates guest code: ownership is not meaningful (%s exits/op)",
			 ex[0] ? ex : "-");
		tap_out_skip(t, desc, why);
		return true;
	} else {
		num_checked = l->cmp[0] && e->status != MAP_REJECTED && e->status != MAP_SKIPPED;
		pass = in && (!num_checked || map_expect_num_ok(l, e->exits_per_op));
		tap_out_test(t, pass, desc);
	}
	tap_out_yaml(t, "expected", l->text);
	tap_out_yaml(t, "observed_status", map_status_name(e->status));
	tap_out_yaml(t, "observed_exits_per_op", ex);
	tap_out_yaml(t, "detail", e->detail);
	tap_out_yaml(t, "line", where);
	return pass;
}

/* Calls test for every (line, profile, entry) the expectations name; returns the count. */
static unsigned map_expect_walk(const struct map_expect *x, const struct result_map *map,
				struct tap_out *t, unsigned *failed)
{
	unsigned n = 0;

	for (size_t i = 0; i < x->n; i++) {
		const struct map_expect_line *l = &x->l[i];

		for (size_t j = 0; j < map->n_profiles; j++) {
			const struct result_map_cpuid_profile *p = &map->profiles[j];

			if (strcmp(l->profile, "*") && strcmp(l->profile, p->name))
				continue;
			for (size_t k = 0; k < p->n_entries; k++) {
				if (!map_expect_matches(l, &p->entries[k]))
					continue;
				n++;
				if (t && !map_expect_test(t, x, l, p->name, &p->entries[k]))
					(*failed)++;
			}
		}
	}
	return n;
}

/* Entries of a profile that no expectation names, as one comment per profile. */
static void map_expect_untested(struct tap_out *t, const struct map_expect *x,
				const struct result_map *map)
{
	for (size_t j = 0; j < map->n_profiles; j++) {
		const struct result_map_cpuid_profile *p = &map->profiles[j];
		char list[900];
		size_t n = 0, count = 0;

		list[0] = 0;
		for (size_t k = 0; k < p->n_entries; k++) {
			const struct result_map_entry *e = &p->entries[k];
			bool named = false;

			for (size_t i = 0; i < x->n && !named; i++)
				named = (!strcmp(x->l[i].profile, "*") || !strcmp(x->l[i].profile, p->name)) &&
					map_expect_matches(&x->l[i], e);
			if (named)
				continue;
			count++;
			if (n < sizeof(list))
				n += (size_t)snprintf(list + n, sizeof(list) - n, " %s.%s", e->reg,
						      strcmp(e->op, "read") ? e->name : "read");
		}
		if (count)
			tap_out_comment(t, "profile %s: %zu entries without an expectation, not tested:%s",
					p->name, count, list);
	}
}

unsigned map_expect_tap(FILE *f, const struct map_expect *x, const struct result_map *map)
{
	struct tap_out t;
	unsigned failed = 0, n = map_expect_walk(x, map, NULL, NULL);

	tap_out_begin(&t, f, n);
	if (map->emulated)
		tap_out_comment(&t, "this host emulates guest code: owned/intercepted expectations are skipped");
	map_expect_walk(x, map, &t, &failed);
	map_expect_untested(&t, x, map);
	for (size_t i = 0; i < x->ignored; i++)
		tap_out_comment(&t, "skip %s", x->skipped[i]);
	if (x->ignored)
		tap_out_comment(&t, "%zu lines of %s are not about map ownership: skipped", x->ignored,
				x->path);
	tap_out_comment(&t, "%u expectations tested, %u not met", n, failed);
	return failed;
}
