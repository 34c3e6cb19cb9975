// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_walk_schema.c - the walk file's field tables (results/walk_model.h:
 * walk_fields, walk_tool_fields, walk_commit_fields) agree with
 * docs/walk-schema.json: every field is a property of the matching type
 * (string, empty or not; enum with its names; integer with its bounds;
 * boolean; object; array of the sub table with its most items; a
 * constant, the schema's "const" or one-value "enum"), the required lists
 * are the tables' required fields, and the schema has no property the
 * tables lack. A custom field's type is the one given here.
 * Made-up wrong tables must fail the check. Run from the top of the tree.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "base/array_size.h"
#include "results/walk_model.h"
#include "tests/tap.h"

#define SCHEMA	"docs/walk-schema.json"

/* What the JSON Schema says of a custom field: its "type" (a string or "A|B"), or "const". */
static const struct {
	const char *key, *type;
} custom_types[] = {
	{ "lanes", "array" }, { "commands", "string|null" }, { "reason", "string|null" },
	{ "run", "string|null" },
};

/* Problems are counted and the first few told. */
static void problem(int *bad, const char *where, const char *key, const char *what)
{
	if (++*bad <= 5)
		tap_diag("  %s.%s: %s", where, key, what);
}

static bool str_in(json_t *arr, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), s))
			return true;
	return false;
}

/* p's "type", a string or an array of them, as "A|B". */
static void type_of(json_t *p, char *buf, size_t len)
{
	json_t *t = json_object_get(p, "type"), *v;
	size_t i, n = 0;

	buf[0] = 0;
	if (json_is_string(t))
		snprintf(buf, len, "%s", json_string_value(t));
	json_array_foreach(t, i, v)
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%s", i ? "|" : "",
			      json_string_value(v));
	if (json_object_get(p, "const") && !t)
		snprintf(buf, len, "const");
}

static long long bound(json_t *p, const char *key, long long dflt)
{
	json_t *v = json_object_get(p, key);

	return json_is_integer(v) ? json_integer_value(v) : dflt;
}

static void check_object(json_t *obj, const struct field_desc *d, const char *where, int *bad);

static void check_field(json_t *p, const struct field *f, const char *where, int *bad)
{
	char type[64];
	bool non_empty;
	json_t *en;

	type_of(p, type, sizeof(type));
	switch (f->type) {
	case FIELD_T_STRING:
	case FIELD_T_CSTR:
		non_empty = bound(p, "minLength", 0) > 0 || json_object_get(p, "pattern");
		if (strcmp(type, f->flags & FIELD_NULL ? "string|null" : "string") ||
		    non_empty != !(f->flags & FIELD_EMPTY_OK))
			problem(bad, where, f->key, f->flags & FIELD_NULL ?
				"not a string or null in the JSON Schema" :
				f->flags & FIELD_EMPTY_OK ? "not a string in the JSON Schema" :
				"not a non-empty string in the JSON Schema");
		break;
	case FIELD_T_ENUM:
		en = json_object_get(p, "enum");
		if (json_array_size(en) != (size_t)f->n_names)
			problem(bad, where, f->key, "the JSON Schema's enum differs");
		for (int i = 0; i < f->n_names; i++)
			if (!str_in(en, f->names[i]))
				problem(bad, where, f->key, "a name not in the JSON Schema's enum");
		break;
	case FIELD_T_INT:
		if (strcmp(type, "integer") || bound(p, "minimum", LLONG_MIN) != f->min ||
		    bound(p, "maximum", LLONG_MAX) != f->max)
			problem(bad, where, f->key, "not an integer with the table's bounds");
		break;
	case FIELD_T_BOOL:
	case FIELD_T_FLAG:
		if (strcmp(type, "boolean"))
			problem(bad, where, f->key, "not a boolean in the JSON Schema");
		break;
	case FIELD_T_OBJECT:
		if (strcmp(type, "object"))
			problem(bad, where, f->key, "not an object in the JSON Schema");
		else
			check_object(p, f->sub, f->key, bad);
		break;
	case FIELD_T_ARRAY:
		if (strcmp(type, "array") || bound(p, "maxItems", -1) != f->max ||
		    bound(p, "minItems", 0) != !!f->empty)
			problem(bad, where, f->key, "not an array of the table's length");
		else
			check_object(json_object_get(p, "items"), f->sub, f->key, bad);
		break;
	case FIELD_T_CONST:	/* a string's "const", an integer's one-value "enum" */
		en = f->names ? json_object_get(p, "const") : json_object_get(p, "enum");
		if (f->names ? !json_is_string(en) || strcmp(json_string_value(en), f->names[0]) :
		    strcmp(type, "integer") || json_array_size(en) != 1 ||
		    json_integer_value(json_array_get(en, 0)) != f->min)
			problem(bad, where, f->key, "not the table's constant in the JSON Schema");
		break;
	case FIELD_T_CUSTOM:
		for (size_t i = 0; i < ARRAY_SIZE(custom_types); i++)
			if (!strcmp(custom_types[i].key, f->key)) {
				if (strcmp(type, custom_types[i].type))
					problem(bad, where, f->key, "not the custom field's type");
				return;
			}
		problem(bad, where, f->key, "a custom field this test has no type for");
		break;
	default:
		problem(bad, where, f->key, "a field type the walk tables do not use");
		break;
	}
}

/* An object schema (properties, required) against table d. */
static void check_object(json_t *obj, const struct field_desc *d, const char *where, int *bad)
{
	json_t *props = json_object_get(obj, "properties"), *req = json_object_get(obj, "required");
	const char *key;
	size_t i, n_req = 0;
	json_t *p;

	if (!json_is_object(props)) {
		problem(bad, where, "properties", "missing in the JSON Schema");
		return;
	}
	for (i = 0; i < d->n; i++) {
		const struct field *f = &d->f[i];
		bool required = f->flags & FIELD_REQUIRED;

		n_req += required;
		if (!(p = json_object_get(props, f->key))) {
			problem(bad, where, f->key, "not in the JSON Schema");
			continue;
		}
		if (str_in(req, f->key) != required)
			problem(bad, where, f->key, required ? "optional in the JSON Schema" :
				"required in the JSON Schema");
		check_field(p, f, where, bad);
	}
	if (json_array_size(req) != n_req)
		problem(bad, where, "required", "lists a field the table does not require");
	json_object_foreach(props, key, p) {
		bool in = false;

		for (i = 0; i < d->n && !in; i++)
			in = !strcmp(d->f[i].key, key);
		if (!in)
			problem(bad, where, key, "in the JSON Schema but not in the table");
	}
}

static int check(json_t *schema, const struct field_desc *d)
{
	int bad = 0;

	check_object(schema, d, d->name, &bad);
	return bad;
}

/* Made-up walk tables, each wrong in one way the check must catch. */
static const struct field fake_commit[] = {
	FIELD_CSTR(struct walk_commit, rev, "rev", FIELD_REQUIRED),
	FIELD_CSTR(struct walk_commit, subject, "subject", FIELD_REQUIRED),	/* not empty-ok */
	FIELD_ENUM(struct walk_commit, lane, "lane", FIELD_REQUIRED, host_lane_names, HOST_LANE_N),
	FIELD_ENUM(struct walk_commit, status, "status", FIELD_REQUIRED, walk_status_names,
		   WALK_STATUS_N),
	FIELD_CSTR(struct walk_commit, reason, "reason", FIELD_EMPTY_OK),	/* not nullable */
};
static const struct field_desc fake_commit_fields = FIELD_DESC("walk_commit", fake_commit);
static const struct field fake_tool[] = {
	FIELD_CSTR(struct walk_file, tool_name, "name", FIELD_EMPTY_OK),
	FIELD_CSTR(struct walk_file, tool_version, "version", FIELD_EMPTY_OK),
	FIELD_CSTR(struct walk_file, range, "undocumented", FIELD_EMPTY_OK),
};
static const struct field_desc fake_tool_fields = FIELD_DESC("walk_tool", fake_tool);

#define FAKE_WALK(name, version, every_, lanes_fl, tool, commit)				\
static const struct field name##_table[] = {						\
	FIELD_CONST_STR("schema", WALK_SCHEMA),						\
	FIELD_CONST_INT("schema_version", (version)),					\
	FIELD_OBJ_FLAT("tool", 0, tool),						\
	FIELD_CSTR(struct walk_file, repository, "repository", FIELD_EMPTY_OK),		\
	FIELD_CSTR(struct walk_file, range, "range", FIELD_EMPTY_OK),			\
	FIELD_FLAG(struct walk_file, first_parent, "first_parent", 0),			\
	every_,										\
	FIELD_CUSTOM("lanes", lanes_fl, NULL),						\
	FIELD_FLAG(struct walk_file, profile, "profile", 0),				\
	FIELD_CUSTOM("commands", 0, NULL),						\
	FIELD_ARRAY(struct walk_file, commits, n_commits, "commits", FIELD_REQUIRED,	\
		    commit, struct walk_commit, 100000, NULL),				\
};											\
static const struct field_desc name = FIELD_DESC("walk", name##_table)

#define EVERY(min_)	FIELD_INT(struct walk_file, every, "every", 0, (min_), LLONG_MAX)
#define V WALK_SCHEMA_VERSION
FAKE_WALK(fake_right, V, EVERY(1), FIELD_REQUIRED, &walk_tool_fields, &walk_commit_fields);
FAKE_WALK(fake_version, V + 1, EVERY(1), FIELD_REQUIRED, &walk_tool_fields, &walk_commit_fields);
FAKE_WALK(fake_bound, V, EVERY(0), FIELD_REQUIRED, &walk_tool_fields, &walk_commit_fields);
FAKE_WALK(fake_bool, V, FIELD_FLAG(struct walk_file, first_parent, "every", 0), FIELD_REQUIRED,
	  &walk_tool_fields, &walk_commit_fields);
FAKE_WALK(fake_req, V, EVERY(1), 0, &walk_tool_fields, &walk_commit_fields);
FAKE_WALK(fake_extra, V, EVERY(1), FIELD_REQUIRED, &fake_tool_fields, &walk_commit_fields);
FAKE_WALK(fake_items, V, EVERY(1), FIELD_REQUIRED, &walk_tool_fields, &fake_commit_fields);

static const struct {
	const struct field_desc *d;
	const char *why;
} fakes[] = {
	{ &fake_version, "another schema_version" },
	{ &fake_bound, "every's minimum changed" },
	{ &fake_bool, "every a boolean" },
	{ &fake_req, "lanes optional" },
	{ &fake_extra, "an undocumented tool field" },
	{ &fake_items, "a commit with a non-empty subject, a plain reason and no run" },
};

int main(void)
{
	json_error_t je;
	json_t *schema = json_load_file(SCHEMA, 0, &je);

	if (!schema)
		return tap_skip_all("run from the top of the tree: " SCHEMA " unreadable");
	tap_plan((int)(2 + ARRAY_SIZE(fakes)));
	tap_ok(!check(schema, &walk_fields), "%s agrees with the walk tables", SCHEMA);
	tap_ok(!check(schema, &fake_right), "a made-up copy of the walk table agrees too");
	for (size_t i = 0; i < ARRAY_SIZE(fakes); i++) {
		tap_diag("made-up table with %s (problems expected):", fakes[i].why);
		tap_ok(check(schema, fakes[i].d), "made up, %s: the check catches it", fakes[i].why);
	}
	json_decref(schema);
	return tap_done();
}
