// SPDX-License-Identifier: GPL-2.0-only
/*
 * map_model.c - the ownership-map model (results/map_model.h): building it, the
 * "changes" between CPUID profiles, its JSON writer and its reader, side by side
 * so that what is written is what is read.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/map_model.h"

#define MAP_MAX_ITEMS	100000	/* CPUID profiles, entries per one (as RESULT_MAX_ITEMS) */

/* MAP_SREGS_NONE (0) is not written. */
static const char *const sregs_names[] = { "", "accepted", "rejected" };

static void map_init(void *p)
{
	((struct result_map *)p)->ops = ((struct result_map *)p)->rounds = -1;
}

struct result_map *result_map_new(void)
{
	struct result_map *m = calloc(1, sizeof(*m));

	if (m)
		map_init(m);
	return m;
}

void result_map_free(struct result_map *m)
{
	if (m)
		fields_free(&result_map_fields, m);
	free(m);
}

struct result_map_cpuid_profile *result_map_cpuid_profile_add(struct result_map *m,
							      const char *name, const char *spec)
{
	struct result_map_cpuid_profile *p;

	if (m->n_profiles >= MAP_MAX_ITEMS)
		return NULL;
	p = fields_grow(m->profiles, m->n_profiles, &m->cap_profiles, sizeof(*p));
	if (!p)
		return NULL;
	m->profiles = p;
	p = &m->profiles[m->n_profiles];
	memset(p, 0, sizeof(*p));
	if (snprintf(p->name, sizeof(p->name), "%s", name ? name : "") >= (int)sizeof(p->name) ||
	    snprintf(p->spec, sizeof(p->spec), "%s", spec ? spec : "") >= (int)sizeof(p->spec))
		return NULL;	/* does not fit */
	m->n_profiles++;
	return p;
}

void result_map_entry_reset(struct result_map_entry *e)
{
	result_trace_free(&e->trace);
	memset(e, 0, sizeof(*e));
	e->status = MAP_SKIPPED;
	e->vector = -1;
	e->exits_per_op = e->cycles_per_op = -1;
	e->user_exits_per_op = e->insn_emulation_per_op = -1;
	e->cpuid = -1;
}

struct result_map_entry *result_map_entry_add(struct result_map_cpuid_profile *p)
{
	struct result_map_entry *e;

	if (p->n_entries >= MAP_MAX_ITEMS)
		return NULL;
	e = fields_grow(p->entries, p->n_entries, &p->cap_entries, sizeof(*e));
	if (!e)
		return NULL;
	p->entries = e;
	e = &p->entries[p->n_entries++];
	memset(&e->trace, 0, sizeof(e->trace));
	result_map_entry_reset(e);
	return e;
}

static bool same_key(const struct result_map_entry *a, const struct result_map_entry *b)
{
	return !strcmp(a->reg, b->reg) && a->bit == b->bit && !strcmp(a->op, b->op);
}

const struct result_map_entry *result_map_find_entry(const struct result_map_cpuid_profile *p,
						     const struct result_map_entry *key)
{
	for (size_t i = 0; i < p->n_entries; i++)
		if (same_key(&p->entries[i], key))
			return &p->entries[i];
	return NULL;
}

/* An entry cut short by Ctrl-C has no status to compare. */
bool result_map_entry_changed(const struct result_map *m, const struct result_map_entry *e)
{
	if (e->status == MAP_STOPPED)
		return false;
	for (size_t i = 1; i < m->n_profiles; i++) {
		const struct result_map_entry *x = result_map_find_entry(&m->profiles[i], e);

		if (x && x->status != MAP_STOPPED && x->status != e->status)
			return true;
	}
	return false;
}

size_t result_map_count(const struct result_map *m, enum map_status st)
{
	size_t n = 0;

	for (size_t i = 0; i < m->n_profiles; i++)
		for (size_t j = 0; j < m->profiles[i].n_entries; j++)
			n += m->profiles[i].entries[j].status == st;
	return n;
}

/* ---- the JSON: MAP, map_profile and map_entry in docs/results-schema.md ---- */

#define E struct result_map_entry
static const struct field entry_field[] = {
	FIELD_CHARS(E, reg, "reg", FIELD_REQUIRED),
	FIELD_INT(E, bit, "bit", FIELD_REQUIRED, 0, 63),
	FIELD_CHARS(E, name, "name", FIELD_REQUIRED | FIELD_EMPTY_OK),
	FIELD_CHARS(E, op, "op", FIELD_REQUIRED),
	FIELD_CHARS(E, feature, "feature", FIELD_EMPTY_OK | FIELD_OMIT_ZERO),
	FIELD_FLAG(E, cpuid, "cpuid", FIELD_OMIT_NEG),
	FIELD_ENUM(E, sregs, "sregs", FIELD_OMIT_ZERO | FIELD_OMIT_NEG, sregs_names, 3),
	FIELD_INT32(E, sregs_errno, "sregs_errno", FIELD_OMIT_ZERO | FIELD_OMIT_NEG, 1, 4095),
	FIELD_INLINE_OBJ(E, trace, &result_trace_fields),
	FIELD_ENUM(E, status, "status", FIELD_REQUIRED, map_status_names, MAP_STATUS_N),
	FIELD_INT(E, vector, "vector", FIELD_OMIT_NEG, 0, 255),
	FIELD_NUM(E, exits_per_op, "exits_per_op", FIELD_OMIT_NEG),
	FIELD_NUM(E, cycles_per_op, "cycles_per_op", FIELD_OMIT_NEG),
	FIELD_NUM(E, user_exits_per_op, "user_exits_per_op", FIELD_OMIT_NEG),
	FIELD_NUM(E, insn_emulation_per_op, "insn_emulation_per_op", FIELD_OMIT_NEG),
	FIELD_CHARS(E, detail, "detail", FIELD_EMPTY_OK | FIELD_OMIT_ZERO | FIELD_CUT),
};
#undef E

static void entry_init(void *e)
{
	result_map_entry_reset(e);
}

const struct field_desc result_map_entry_fields =
	FIELD_DESC_INIT("map_entry", entry_field, NULL, entry_init);

#define P struct result_map_cpuid_profile
static const struct field profile_field[] = {
	FIELD_CHARS(P, name, "name", FIELD_REQUIRED),
	FIELD_CHARS(P, spec, "spec", FIELD_EMPTY_OK | FIELD_OMIT_ZERO),
	FIELD_ARRAY(P, entries, n_entries, "entries", FIELD_REQUIRED, &result_map_entry_fields,
		    struct result_map_entry, MAP_MAX_ITEMS, NULL),
	FIELD_CHARS(P, note, "note", FIELD_EMPTY_OK | FIELD_OMIT_ZERO | FIELD_CUT),
};
#undef P
const struct field_desc result_map_profile_fields = FIELD_DESC("map_profile", profile_field);

/* "changes": the entries of CPUID profile 0 whose status differs in another one. */
static json_t *changes_write(const void *p, bool *omit)
{
	const struct result_map *m = p;
	json_t *changes = json_array();

	*omit = false;
	for (size_t i = 0; changes && m->n_profiles && i < m->profiles[0].n_entries; i++) {
		const struct result_map_entry *e = &m->profiles[0].entries[i];
		json_t *st;

		if (!result_map_entry_changed(m, e))
			continue;
		st = json_object();
		for (size_t j = 0; j < m->n_profiles; j++) {
			const struct result_map_entry *x = result_map_find_entry(&m->profiles[j], e);

			if (x)
				json_object_set_new(st, m->profiles[j].name,
						    json_string(map_status_name(x->status)));
		}
		json_array_append_new(changes, json_pack("{s:s, s:I, s:s, s:s, s:o}",
			"reg", e->reg, "bit", (json_int_t)e->bit, "name", e->name, "op", e->op,
			"statuses", st));
	}
	return changes;
}

/* Derived from the profiles: written, never read. */
static const struct field_custom changes_custom = { .write = changes_write };

#define M struct result_map
static const struct field map_field[] = {
	FIELD_FLAG(M, emulated, "emulated", FIELD_REQUIRED),
	FIELD_INT(M, ops, "ops", FIELD_OMIT_NEG, 0, LLONG_MAX),
	FIELD_INT(M, rounds, "rounds", FIELD_OMIT_NEG, 0, LLONG_MAX),
	FIELD_ARRAY(M, profiles, n_profiles, "profiles", FIELD_REQUIRED, &result_map_profile_fields,
		    struct result_map_cpuid_profile, MAP_MAX_ITEMS, NULL),
	FIELD_CUSTOM("changes", 0, &changes_custom),
	FIELD_FLAG(M, incomplete, "incomplete", FIELD_OMIT_ZERO),
};
#undef M
const struct field_desc result_map_fields = FIELD_DESC_INIT("map", map_field, NULL, map_init);

json_t *result_map_json(const struct result_map *m)
{
	return fields_write(&result_map_fields, m);
}
