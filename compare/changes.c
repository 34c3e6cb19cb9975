// SPDX-License-Identifier: GPL-2.0-only
/*
 * changes.c - the ownership-map entries and checks whose status differs
 * between the two sides of a comparison (compare/compare_int.h): both
 * lists matched record by record, a record on one side only being a
 * change too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"

/* Map entries are matched on (reg, bit, op). */
static int cmp_entry(const void *pa, const void *pb)
{
	const struct result_map_entry *a = *(const struct result_map_entry *const *)pa;
	const struct result_map_entry *b = *(const struct result_map_entry *const *)pb;
	int c = strcmp(a->reg, b->reg);

	if (c)
		return c;
	if (a->bit != b->bit)
		return a->bit < b->bit ? -1 : 1;
	return strcmp(a->op, b->op);
}

/*
 * How two lists of records (map entries, checks) are paired: records of size
 * bytes, sorted by sort and matched by key (both qsort-style, on pointers to
 * record pointers); pair() gets (a, NULL), (NULL, b) or a matched (a, b).
 */
struct pairing {
	size_t size;
	int (*sort)(const void *, const void *);
	int (*key)(const void *, const void *);
	int (*pair)(struct compare_result *cr, const void *ctx, const void *a, const void *b);
};

/* Pointers to the n records at base, sorted (malloc'd; NULL when out of memory). */
static const void **sorted_refs(const void *base, size_t n, const struct pairing *pg)
{
	const void **v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++)
		v[i] = (const char *)base + i * pg->size;
	qsort(v, n, sizeof(*v), pg->sort);
	return v;
}

/* Walk both sorted lists in step, handing every record to pg->pair. 0 or -ENOMEM. */
static int pair_records(struct compare_result *cr, const void *ctx, const void *a, size_t na,
			const void *b, size_t nb, const struct pairing *pg)
{
	const void **va = sorted_refs(a, na, pg), **vb = sorted_refs(b, nb, pg);
	size_t i = 0, j = 0;
	int c, rc = -ENOMEM;

	if (!va || !vb)
		goto out;
	while (i < na || j < nb) {
		if (i == na)
			c = 1;
		else if (j == nb)
			c = -1;
		else
			c = pg->key(&va[i], &vb[j]);
		if (pg->pair(cr, ctx, c <= 0 ? va[i] : NULL, c >= 0 ? vb[j] : NULL))
			goto out;
		i += c <= 0;
		j += c >= 0;
	}
	rc = 0;
out:
	free(va);
	free(vb);
	return rc;
}

static int add_map_change(struct compare_result *cr, const char *profile,
			  const struct result_map_entry *ea, const struct result_map_entry *eb)
{
	const struct result_map_entry *e = ea ? ea : eb;
	struct compare_map_change *m = findings_push(&cr->map, &cr->n_map, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->profile = profile;
	if (!e)
		return 0;
	m->reg = e->reg;
	m->name = e->name;
	m->op = e->op;
	m->bit = e->bit;
	m->a = ea ? map_status_names[ea->status] : NULL;
	m->b = eb ? map_status_names[eb->status] : NULL;
	m->a_exits = ea ? ea->exits_per_op : -1;
	m->b_exits = eb ? eb->exits_per_op : -1;
	m->a_cycles = ea ? ea->cycles_per_op : -1;
	m->b_cycles = eb ? eb->cycles_per_op : -1;
	return 0;
}

/* A map entry on one side only, or on both with another status, is a change. */
static int map_pair(struct compare_result *cr, const void *profile, const void *a, const void *b)
{
	const struct result_map_entry *ea = a, *eb = b;

	if (ea && eb && ea->status == eb->status)
		return 0;
	return add_map_change(cr, profile, ea, eb);
}

static const struct pairing map_pairing = {
	.size = sizeof(struct result_map_entry), .sort = cmp_entry, .key = cmp_entry, .pair = map_pair,
};

static int compare_cpuid_profile(struct compare_result *cr,
				 const struct result_map_cpuid_profile *pa,
				 const struct result_map_cpuid_profile *pb)
{
	return pair_records(cr, pa->name, pa->entries, pa->n_entries, pb->entries, pb->n_entries,
			    &map_pairing);
}

static const struct result_map_cpuid_profile *find_cpuid_profile(const struct result_map *m,
								  const char *name)
{
	size_t i;

	for (i = 0; i < m->n_profiles; i++)
		if (strcmp(m->profiles[i].name, name) == 0)
			return &m->profiles[i];
	return NULL;
}

int changes_maps(struct compare_result *cr, const struct result_map *a, const struct result_map *b)
{
	const struct result_map_cpuid_profile *pb;
	struct compare_map_change *m;
	size_t i;

	cr->map_compared = 1;
	if (a->emulated && findings_warnf(cr, "note: %s's ownership map was taken under "
					      "emulation: ownership is not meaningful", cr->name_a))
		return -ENOMEM;
	if (b->emulated && findings_warnf(cr, "note: %s's ownership map was taken under "
					      "emulation: ownership is not meaningful", cr->name_b))
		return -ENOMEM;
	/* Profiles are few (CPUID variants): a linear lookup is fine. */
	for (i = 0; i < a->n_profiles && i < 1000; i++) {
		pb = find_cpuid_profile(b, a->profiles[i].name);
		if (!pb) {
			m = findings_push(&cr->map, &cr->n_map, sizeof(*m));
			if (!m)
				return -ENOMEM;
			m->profile = a->profiles[i].name;
			m->a = "present";
			m->a_exits = m->b_exits = m->a_cycles = m->b_cycles = -1;
			continue;
		}
		if (compare_cpuid_profile(cr, &a->profiles[i], pb))
			return -ENOMEM;
	}
	for (i = 0; i < b->n_profiles && i < 1000; i++) {
		if (find_cpuid_profile(a, b->profiles[i].name))
			continue;
		m = findings_push(&cr->map, &cr->n_map, sizeof(*m));
		if (!m)
			return -ENOMEM;
		m->profile = b->profiles[i].name;
		m->b = "present";
		m->a_exits = m->b_exits = m->a_cycles = m->b_cycles = -1;
	}
	return 0;
}

/* Checks are matched on (suite, name); a repeated key pairs up in file order. */
static int cmp_check(const void *pa, const void *pb)
{
	const struct check_result *a = *(const struct check_result *const *)pa;
	const struct check_result *b = *(const struct check_result *const *)pb;
	int c = strcmp(a->suite, b->suite);

	if (c)
		return c;
	c = strcmp(a->name, b->name);
	if (c)
		return c;
	return (a > b) - (a < b);
}

/* The matching key of two checks (on pointers to check pointers, as cmp_check). */
static int cmp_check_key(const void *pa, const void *pb)
{
	const struct check_result *a = *(const struct check_result *const *)pa;
	const struct check_result *b = *(const struct check_result *const *)pb;
	int c = strcmp(a->suite, b->suite);

	return c ? c : strcmp(a->name, b->name);
}

static int add_check_change(struct compare_result *cr, const struct check_result *ca,
			    const struct check_result *cb)
{
	const struct check_result *c = ca ? ca : cb;
	struct compare_check_change *m = findings_push(&cr->checks, &cr->n_checks, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->suite = c->suite;
	m->name = c->name;
	m->a = ca ? check_status_names[ca->status] : NULL;
	m->b = cb ? check_status_names[cb->status] : NULL;
	return 0;
}

/* A check on one side only, or on both with another status, is a change. */
static int check_pair(struct compare_result *cr, const void *ctx, const void *a, const void *b)
{
	const struct check_result *ca = a, *cb = b;

	(void)ctx;
	if (ca && cb && ca->status == cb->status)
		return 0;
	return add_check_change(cr, ca, cb);
}

static const struct pairing check_pairing = {
	.size = sizeof(struct check_result), .sort = cmp_check, .key = cmp_check_key, .pair = check_pair,
};

int changes_checks(struct compare_result *cr, const struct check_report *a,
		   const struct check_report *b)
{
	cr->checks_compared = 1;
	return pair_records(cr, NULL, a->r, a->n, b->r, b->n, &check_pairing);
}
