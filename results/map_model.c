// SPDX-License-Identifier: GPL-2.0-only
/*
 * map_model.c - the ownership-map model (results/map_model.h): building it, the
 * "changes" between CPUID profiles, its JSON writer and its reader, side by side
 * so that what is written is what is read.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "results/map_model.h"

#define MAP_MAX_ITEMS	100000	/* CPUID profiles, entries per one (as RESULT_MAX_ITEMS) */

static const char *const sregs_names[] = { "accepted", "rejected" };

struct result_map *result_map_new(void)
{
	struct result_map *m = calloc(1, sizeof(*m));

	if (m)
		m->ops = m->rounds = -1;
	return m;
}

void result_map_free(struct result_map *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n_profiles; i++) {
		struct result_map_cpuid_profile *p = &m->profiles[i];

		for (size_t j = 0; j < p->n_entries; j++)
			result_trace_free(&p->entries[j].trace);
		free(p->entries);
	}
	free(m->profiles);
	free(m);
}

/* Copy s into buf; false when it does not fit. */
static bool copy_str(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s ? s : "");

	if (n >= len)
		return false;
	memcpy(buf, s ? s : "", n + 1);
	return true;
}

/* Make room for one more element of size sz in *arr (n used, *cap allocated). */
static void *grow(void *arr, size_t n, size_t *cap, size_t sz)
{
	size_t c = *cap ? *cap * 2 : 8;
	void *p;

	if (n < *cap)
		return arr;
	p = realloc(arr, c * sz);
	if (p)
		*cap = c;
	return p;
}

struct result_map_cpuid_profile *result_map_cpuid_profile_add(struct result_map *m,
							      const char *name, const char *spec)
{
	struct result_map_cpuid_profile *p;

	if (m->n_profiles >= MAP_MAX_ITEMS)
		return NULL;
	p = grow(m->profiles, m->n_profiles, &m->cap_profiles, sizeof(*p));
	if (!p)
		return NULL;
	m->profiles = p;
	p = &m->profiles[m->n_profiles];
	memset(p, 0, sizeof(*p));
	if (!copy_str(p->name, sizeof(p->name), name) || !copy_str(p->spec, sizeof(p->spec), spec))
		return NULL;
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
	e = grow(p->entries, p->n_entries, &p->cap_entries, sizeof(*e));
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

/* ---- writer ---- */

static void set_num(json_t *o, const char *key, double v)
{
	if (v >= 0)
		json_object_set_new(o, key, json_real(v));
}

static json_t *entry_json(const struct result_map_entry *e)
{
	json_t *o = json_pack("{s:s, s:I, s:s, s:s}", "reg", e->reg, "bit", (json_int_t)e->bit,
			      "name", e->name, "op", e->op);

	if (!o)
		return NULL;
	if (e->feature[0]) {
		json_object_set_new(o, "feature", json_string(e->feature));
		json_object_set_new(o, "cpuid", json_boolean(e->cpuid > 0));
	}
	if (e->sregs != MAP_SREGS_NONE) {
		json_object_set_new(o, "sregs", json_string(sregs_names[e->sregs == MAP_SREGS_REJECTED]));
		if (e->sregs_errno > 0)
			json_object_set_new(o, "sregs_errno", json_integer(e->sregs_errno));
	}
	if (e->trace.present)
		json_object_set_new(o, "trace", result_trace_json(&e->trace));
	json_object_set_new(o, "status", json_string(map_status_name(e->status)));
	if (e->vector >= 0)
		json_object_set_new(o, "vector", json_integer(e->vector));
	set_num(o, "exits_per_op", e->exits_per_op);
	set_num(o, "cycles_per_op", e->cycles_per_op);
	set_num(o, "user_exits_per_op", e->user_exits_per_op);
	set_num(o, "insn_emulation_per_op", e->insn_emulation_per_op);
	if (e->detail[0])
		json_object_set_new(o, "detail", json_string(e->detail));
	return o;
}

static json_t *cpuid_profile_json(const struct result_map_cpuid_profile *p)
{
	json_t *entries = json_array(), *o;

	for (size_t i = 0; i < p->n_entries; i++)
		json_array_append_new(entries, entry_json(&p->entries[i]));
	o = json_pack("{s:s}", "name", p->name);
	if (p->spec[0])
		json_object_set_new(o, "spec", json_string(p->spec));
	json_object_set_new(o, "entries", entries);
	if (p->note[0])
		json_object_set_new(o, "note", json_string(p->note));
	return o;
}

static json_t *changes_json(const struct result_map *m)
{
	json_t *changes = json_array();

	if (!m->n_profiles)
		return changes;
	for (size_t i = 0; i < m->profiles[0].n_entries; i++) {
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

json_t *result_map_json(const struct result_map *m)
{
	json_t *o = json_pack("{s:b}", "emulated", m->emulated != 0), *profs = json_array();

	if (!o || !profs) {
		json_decref(o);
		json_decref(profs);
		return NULL;
	}
	if (m->ops >= 0)
		json_object_set_new(o, "ops", json_integer(m->ops));
	if (m->rounds >= 0)
		json_object_set_new(o, "rounds", json_integer(m->rounds));
	for (size_t i = 0; i < m->n_profiles; i++)
		json_array_append_new(profs, cpuid_profile_json(&m->profiles[i]));
	json_object_set_new(o, "profiles", profs);
	json_object_set_new(o, "changes", changes_json(m));
	if (m->incomplete)
		json_object_set_new(o, "incomplete", json_true());
	return o;
}

/* ---- reader ---- */

#define TRY JCHECK_TRY

/*
 * A string into buf: identifiers (cut false) that do not fit are an error,
 * free text (cut true) is cut. Absent optionals leave buf as it is.
 */
static int read_str(struct jcheck *c, json_t *obj, const char *key, int req, int allow_empty,
		    char *buf, size_t len, bool cut)
{
	const char *s;
	size_t mark, n;
	int rc = jcheck_string(c, obj, key, req, allow_empty, &s);

	if (rc)
		return rc;
	n = strlen(s);
	if (n >= len) {
		if (!cut) {
			mark = jcheck_push_key(c, key);
			rc = jcheck_fail(c, "longer than %zu characters", len - 1);
			jcheck_pop(c, mark);
			return rc;
		}
		n = len - 1;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;	/* not inside a UTF-8 sequence */
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

static int read_entry(struct jcheck *c, json_t *obj, struct result_map_entry *e)
{
	long long ll;
	int idx, b, rc;

	if (!json_is_object(obj))
		return jcheck_fail(c, "not an object (found %s)", jcheck_type_name(obj));
	TRY(read_str(c, obj, "reg", JCHECK_REQUIRED, 0, e->reg, sizeof(e->reg), false));
	TRY(jcheck_int(c, obj, "bit", JCHECK_REQUIRED, 0, 63, &e->bit));
	TRY(read_str(c, obj, "name", JCHECK_REQUIRED, 1, e->name, sizeof(e->name), false));
	TRY(read_str(c, obj, "op", JCHECK_REQUIRED, 0, e->op, sizeof(e->op), false));
	TRY(jcheck_enum(c, obj, "status", JCHECK_REQUIRED, map_status_names, MAP_STATUS_N, &idx));
	e->status = idx;
	TRY(jcheck_int(c, obj, "vector", JCHECK_OPTIONAL, 0, 255, &e->vector));
	TRY(jcheck_num(c, obj, "exits_per_op", JCHECK_OPTIONAL, &e->exits_per_op));
	TRY(jcheck_num(c, obj, "cycles_per_op", JCHECK_OPTIONAL, &e->cycles_per_op));
	TRY(jcheck_num(c, obj, "user_exits_per_op", JCHECK_OPTIONAL, &e->user_exits_per_op));
	TRY(jcheck_num(c, obj, "insn_emulation_per_op", JCHECK_OPTIONAL, &e->insn_emulation_per_op));
	TRY(read_str(c, obj, "detail", JCHECK_OPTIONAL, 1, e->detail, sizeof(e->detail), true));
	TRY(read_str(c, obj, "feature", JCHECK_OPTIONAL, 1, e->feature, sizeof(e->feature), false));
	rc = jcheck_bool(c, obj, "cpuid", JCHECK_OPTIONAL, &b);
	if (rc < 0)
		return rc;
	if (rc == 0)
		e->cpuid = b;
	idx = -1;
	TRY(jcheck_enum(c, obj, "sregs", JCHECK_OPTIONAL, sregs_names, 2, &idx));
	e->sregs = idx < 0 ? MAP_SREGS_NONE : idx ? MAP_SREGS_REJECTED : MAP_SREGS_ACCEPTED;
	ll = 0;
	TRY(jcheck_int(c, obj, "sregs_errno", JCHECK_OPTIONAL, 1, 4095, &ll));
	e->sregs_errno = (int)ll;
	return result_trace_read(c, obj, &e->trace);
}

static int read_cpuid_profile(struct jcheck *c, json_t *obj, struct result_map *m)
{
	struct result_map_cpuid_profile *p;
	json_t *arr, *v;
	size_t i, mark;

	if (!json_is_object(obj))
		return jcheck_fail(c, "not an object (found %s)", jcheck_type_name(obj));
	p = result_map_cpuid_profile_add(m, NULL, NULL);
	if (!p)
		return jcheck_fail(c, "out of memory");
	TRY(read_str(c, obj, "name", JCHECK_REQUIRED, 0, p->name, sizeof(p->name), false));
	TRY(read_str(c, obj, "spec", JCHECK_OPTIONAL, 1, p->spec, sizeof(p->spec), false));
	TRY(read_str(c, obj, "note", JCHECK_OPTIONAL, 1, p->note, sizeof(p->note), true));
	TRY(jcheck_array(c, obj, "entries", JCHECK_REQUIRED, MAP_MAX_ITEMS, &arr));
	json_array_foreach(arr, i, v) {
		struct result_map_entry *e = result_map_entry_add(p);

		mark = jcheck_push_key(c, "entries");
		jcheck_push_index(c, i);
		if (!e)
			return jcheck_fail(c, "out of memory");
		TRY(read_entry(c, v, e));
		jcheck_pop(c, mark);
	}
	return 0;
}

static int read_map(struct jcheck *c, json_t *obj, struct result_map *m)
{
	json_t *arr, *v;
	size_t i, mark;

	TRY(jcheck_bool(c, obj, "emulated", JCHECK_REQUIRED, &m->emulated));
	TRY(jcheck_int(c, obj, "ops", JCHECK_OPTIONAL, 0, LLONG_MAX, &m->ops));
	TRY(jcheck_int(c, obj, "rounds", JCHECK_OPTIONAL, 0, LLONG_MAX, &m->rounds));
	TRY(jcheck_bool(c, obj, "incomplete", JCHECK_OPTIONAL, &m->incomplete));
	TRY(jcheck_array(c, obj, "profiles", JCHECK_REQUIRED, MAP_MAX_ITEMS, &arr));
	json_array_foreach(arr, i, v) {
		mark = jcheck_push_key(c, "profiles");
		jcheck_push_index(c, i);
		TRY(read_cpuid_profile(c, v, m));
		jcheck_pop(c, mark);
	}
	return 0;
}

int result_map_read(struct jcheck *c, json_t *obj, struct result_map **out)
{
	struct result_map *m;
	int rc;

	if (!json_is_object(obj))
		return jcheck_fail(c, "not an object (found %s)", jcheck_type_name(obj));
	m = result_map_new();
	if (!m)
		return jcheck_fail(c, "out of memory");
	rc = read_map(c, obj, m);
	if (rc < 0) {
		result_map_free(m);
		return rc;
	}
	*out = m;
	return 0;
}
