// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_schema_doc.c - each result kind described by field tables
 * (results/field.h) agrees with its documents: docs/results-schema.md (the
 * kind's block, e.g. "CHECK:", and its row of the "What the readers refuse"
 * table) and its $defs entry in docs/results-schema.json. Every field of
 * the tables is documented with its type (string, enum with its names,
 * integer with its bounds, number, boolean, object, array) and its
 * required-ness, and nothing is documented that the tables lack. A nested
 * object whose table is not a kind of its own is held in its parent's
 * block, row ("cpu.{vendor,family}") and $defs entry; the keys of a map
 * ({"ept": "Y"}) are examples, not fields. A kind may be several tables
 * (MAP: the map, its CPUID profiles, their entries; the readers' row spells
 * the arrays between them as "profiles[].entries[].reg"); an inline table
 * (FIELD_INLINE: the trace in a map entry) is its parent's own fields; a
 * char buffer's length is the string's maxLength. Each check also runs on
 * a made-up table that must fail it. Run from the top of the tree.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "results/check_model.h"
#include "results/exit_path.h"
#include "results/field.h"
#include "results/host_record_model.h"
#include "results/map_model.h"
#include "results/noise.h"
#include "results/run_model.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define MD	"docs/results-schema.md"
#define SCHEMA	"docs/results-schema.json"
#define MAX_KEYS 160
#define KEY_LEN	64
#define NDESC	3

/*
 * A kind: its tables (a probe is two: what every probe has and a measured
 * one's; a map three: the map, its CPUID profiles, their entries), the line its block follows, its row in the readers' table (NULL:
 * none) and its $defs entries (the tables' names).
 */
struct kind {
	const struct field_desc *d[NDESC];
	const char *block;	/* "CHECK:" */
	const char *row;	/* "| checks |" */
	const char *const *extra;	/* keys the documents have beyond the tables (NULL-ended) */
};

/* The noise floor's envelope, read before its table. */
static const char *const noise_envelope[] = { "schema", "schema_version", "tool", "version", NULL };

static const struct kind kinds[] = {
	{ { &check_fields }, "CHECK:", "| checks |", NULL },
	{ { &host_record_fields }, "HOST (", "| host |", NULL },
	{ { &host_lane_fields }, "LANE (", NULL, NULL },
	{ { &run_probe_fields, &run_measurement_fields }, "PROBE:", "| probe |", NULL },
	{ { &run_round_fields }, "ROUND (", NULL, NULL },
	{ { &run_settings_fields }, "SETTINGS (", NULL, NULL },
	{ { &result_map_fields, &result_map_profile_fields, &result_map_entry_fields }, "MAP:",
	  "| map |", NULL },
	{ { &noise_fields, &noise_probe_fields, &noise_omitted_fields }, "## The noise floor file",
	  NULL, noise_envelope },
	{ { &exit_path_fields, &exit_path_fn_fields, &exit_path_exit_fields }, "EXIT_PATH (", NULL,
	  NULL },
	{ { &exit_path_census_fields }, "CENSUS (", NULL, NULL },
};

/* The per-op figure beside a FIELD_PER_OP count: a required number of any sign. */
static const struct field *per_op_field(const struct field *f)
{
	static struct field pool[32];
	static size_t n;

	for (size_t i = 0; i < n; i++)
		if (pool[i].key == f->key2)
			return &pool[i];
	if (n == ARRAY_SIZE(pool))
		return f;
	pool[n] = (struct field){ .key = f->key2, .type = FIELD_T_NUM,
				  .flags = FIELD_REQUIRED | FIELD_SIGNED };
	return &pool[n++];
}

static bool str_listed(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* Whether d is a kind's table (documented in its own block), not an inline object. */
static bool is_kind(const struct field_desc *d)
{
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		for (size_t j = 0; j < NDESC; j++)
			if (kinds[i].d[j] == d)
				return true;
	return false;
}

static bool inline_obj(const struct field *f)
{
	return f->type == FIELD_T_OBJECT && !is_kind(f->sub);
}

/* An object whose fields are its parent's own (FIELD_INLINE): it has no key of its own. */
static bool flat_obj(const struct field *f)
{
	return f->type == FIELD_T_OBJECT && (f->flags & FIELD_INLINE);
}

/* A field the readers never read (computed on reading): written only, in no readers' row. */
static bool written_only(const struct field *f)
{
	return f->type == FIELD_T_CUSTOM && !f->custom->read;
}

/* An array of another of k's tables: the readers' row spells it as "key[]." prefixes. */
static bool kind_array(const struct kind *k, const struct field *f)
{
	for (size_t j = 0; f->type == FIELD_T_ARRAY && j < NDESC; j++)
		if (k->d[j] == f->sub)
			return true;
	return false;
}

/* The field key of d or of an inline object under it. */
static const struct field *find(const struct field_desc *d, const char *key)
{
	for (size_t i = 0; d && i < d->n; i++) {
		const struct field *f = &d->f[i], *g;

		if (!strcmp(f->key, key))
			return f;
		if ((f->flags & FIELD_PER_OP) && !strcmp(f->key2, key))
			return per_op_field(f);
		if (inline_obj(f) && (g = find(f->sub, key)))
			return g;
	}
	return NULL;
}

static const struct field *kind_find(const struct kind *k, const char *key)
{
	const struct field *f = NULL;

	for (size_t j = 0; j < NDESC && !f; j++)
		f = find(k->d[j], key);
	return f;
}

static bool required(const struct field *f)
{
	return f->flags & FIELD_REQUIRED;
}

/* Problems are counted and the first few told (diag). */
static int problem(int *n, const char *kind, const char *fmt, const char *a, const char *b)
{
	if (++*n <= 5) {
		char msg[256];

		snprintf(msg, sizeof(msg), fmt, a, b);
		diag("  %s: %s", kind, msg);
	}
	return 0;
}

/*
 * The kind's block: from the line that starts with label ("CHECK:") to the
 * end of the fenced block after it; *len its length. NULL when there is none.
 */
static const char *md_block(const char *md, const char *label, size_t *len)
{
	const char *s = md, *open, *close;
	size_t ll = strlen(label);

	while ((s = strstr(s, label)) && s != md && s[-1] != '\n')
		s += ll;
	if (!s || !(open = strstr(s, "```")) || !(open = strchr(open, '\n')) ||
	    !(close = strstr(open, "\n```")))
		return NULL;
	*len = close - open;
	return open;
}

/* The line of block b (length len) holding "key":, NULL if none. */
static const char *block_line(const char *b, size_t len, const char *key, size_t *llen)
{
	char pat[KEY_LEN + 4];
	const char *s = b, *e = b + len, *ls, *le;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	while ((s = strstr(s, pat)) && s < e) {
		if (s > b && s[-1] != ' ' && s[-1] != '{' && s[-1] != '\n') {
			s++;
			continue;
		}
		for (ls = s; ls > b && ls[-1] != '\n'; ls--)
			;
		le = strchr(s, '\n');
		*llen = (le && le < e ? le : e) - ls;
		return ls;
	}
	return NULL;
}

/* Past the balanced {...} or [...] that s starts at (s itself when it starts neither). */
static const char *skip_value(const char *s, const char *e)
{
	int depth = 0;
	const char *p = s;

	if (*s != '{' && *s != '[')
		return s;
	for (; p < e; p++) {
		depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
		if (!depth)
			return p;
	}
	return e;
}

/* The block's keys: every "word": in it, into keys[]; a map's own keys are its examples. */
static size_t block_keys(const struct kind *k, const char *b, size_t len, char keys[][KEY_LEN])
{
	size_t n = 0;
	const char *e = b + len;

	for (const char *s = b; s < e && n < MAX_KEYS; s++) {
		const struct field *f;
		const char *q, *v;

		if (*s != '"' || !(q = strchr(s + 1, '"')) || q >= e || q[1] != ':')
			continue;
		if (q - s - 1 > 0 && q - s - 1 < KEY_LEN)
			snprintf(keys[n++], KEY_LEN, "%.*s", (int)(q - s - 1), s + 1);
		s = q;
		f = kind_find(k, keys[n - 1]);
		if (f && (f->type == FIELD_T_MAP || f->type == FIELD_T_CUSTOM)) {
			for (v = q + 2; v < e && *v == ' '; v++)
				;
			s = skip_value(v, e);
		}
	}
	return n;
}

/* The value's look in a block: "..." for strings, a digit for numbers, ... */
static bool shown_as(const struct field *f, const char *v)
{
	switch (f->type) {
	case FIELD_T_STRING:
	case FIELD_T_CSTR:
	case FIELD_T_CHARS:
	case FIELD_T_ENUM:
		return *v == '"';
	case FIELD_T_CONST:
		return f->names ? *v == '"' : isdigit((unsigned char)*v);
	case FIELD_T_INT:
	case FIELD_T_NUM:
		return isdigit((unsigned char)*v) || *v == '-';
	case FIELD_T_BOOL:
	case FIELD_T_FLAG:
	case FIELD_T_SET:
		return !strncmp(v, "true", 4) || !strncmp(v, "false", 5);
	case FIELD_T_OBJECT:	/* inline, or the name of its block */
		return *v == '{' || isupper((unsigned char)*v);
	case FIELD_T_MAP:
		return *v == '{';
	case FIELD_T_ARRAY:	/* or the name of its elements' block */
		return *v == '[' || (is_kind(f->sub) && isupper((unsigned char)*v));
	case FIELD_T_STRINGS:
	case FIELD_T_NUMS:
	case FIELD_T_INTS:
		return *v == '[';
	case FIELD_T_CUSTOM:
	case FIELD_T_N:
		break;
	}
	return true;
}

/*
 * Each field of d (and of its inline objects) is in block b with its type and,
 * unless its object is optional, its required-ness (its line says "optional").
 */
static void check_fields_in(const char *b, size_t len, const char *name,
			    const struct field_desc *d, bool req_parent, int *bad)
{
	char word[KEY_LEN + 4], pat[KEY_LEN + 4];
	size_t llen;

	for (size_t i = 0; d && i < d->n; i++) {
		const struct field *f = &d->f[i];
		const char *l = block_line(b, len, f->key, &llen), *v, *at;
		bool req = req_parent && required(f);
		int skip = f->type == FIELD_T_ENUM && f->n_names && !f->names[0][0];
		char line[512];

		if (flat_obj(f)) {
			check_fields_in(b, len, name, f->sub, req_parent, bad);
			continue;
		}
		if (!l) {
			problem(bad, name, "\"%s\" is not in its block%s", f->key, "");
			continue;
		}
		/* A key two tables share ("exits"): the first place it is shown as this one's type. */
		snprintf(pat, sizeof(pat), "\"%s\":", f->key);
		at = strstr(l, pat);
		for (const char *x = at; x && x < b + len; x = strstr(x + 1, pat)) {
			for (v = x + strlen(pat); *v == ' '; v++)
				;
			if (!shown_as(f, v))
				continue;
			for (l = at = x; l > b && l[-1] != '\n'; l--)
				;
			llen = strcspn(l, "\n");
			break;
		}
		snprintf(line, sizeof(line), "%.*s", (int)llen, l);
		v = (size_t)(at - l) + strlen(pat) < strlen(line) ? line + (at - l) + strlen(pat) : "";
		while (*v == ' ')
			v++;
		/* In an optional object, the object's line says so. */
		if (req_parent && !written_only(f) && !!strstr(line, "optional") == req)
			problem(bad, name, "\"%s\": the block says %s", f->key,
				req ? "optional" : "required");
		if (!shown_as(f, v))
			problem(bad, name, "\"%s\": not shown as %s", f->key, field_type_name(f->type));
		for (int j = skip; f->names && j < f->n_names; j++) {
			snprintf(word, sizeof(word), "\"%s\"", f->names[j]);
			if (!strstr(line, word))
				problem(bad, name, "\"%s\": value %s not in its block", f->key, word);
		}
		if (inline_obj(f))
			check_fields_in(b, len, name, f->sub, req, bad);
		if (f->flags & FIELD_PER_OP) {
			const struct field_desc po = { .name = name, .f = per_op_field(f), .n = 1 };

			check_fields_in(b, len, name, &po, req_parent, bad);
		}
	}
}

/* The block documents every field with its type and required-ness, and nothing else. */
static int check_block(const char *md, const struct kind *k)
{
	char keys[MAX_KEYS][KEY_LEN];
	size_t len, nk;
	const char *b = md_block(md, k->block, &len);
	int bad = 0;

	if (!b)
		return problem(&bad, k->d[0]->name, "no block %s%s", k->block, ""), 1;
	for (size_t j = 0; j < NDESC; j++)
		check_fields_in(b, len, k->d[0]->name, k->d[j], true, &bad);
	nk = block_keys(k, b, len, keys);
	for (size_t i = 0; i < nk; i++)
		if (!kind_find(k, keys[i]) && !str_listed(k->extra, keys[i]))
			problem(&bad, k->d[0]->name, "\"%s\" is documented but not in the table%s",
				keys[i], "");
	return bad;
}

/*
 * A cell's name as the tables have it: an array's elements' table is a table
 * of the kind ("profiles[].entries[].reg" is "reg"), and what follows a space
 * is a bound ("bit 0..63").
 */
static void key_tidy(char *k)
{
	char *el = NULL, *sp = strchr(k, ' ');

	if (sp)
		*sp = '\0';
	for (char *x = k; (x = strstr(x, "[].")); x += 3)
		el = x + 3;
	if (el)
		memmove(k, el, strlen(el) + 1);
}

/*
 * The backquoted names of a table cell outside parentheses, into keys[];
 * "cpu.{vendor,name}" is "cpu.vendor" and "cpu.name".
 */
static size_t cell_keys(const char *s, const char *e, char keys[][KEY_LEN])
{
	size_t n = 0;
	int depth = 0;

	for (; s < e && n < MAX_KEYS; s++) {
		const char *q, *br, *t;

		depth += (*s == '(') - (*s == ')');
		if (*s != '`' || !(q = memchr(s + 1, '`', e - s - 1)))
			continue;
		br = memchr(s + 1, '{', q - s - 1);
		for (t = br ? br + 1 : s + 1; !depth && t < q && n < MAX_KEYS; t++) {
			const char *c = t;

			while (c < q && *c != ',' && *c != '}')
				c++;
			if (br && br - s - 1 + (c - t) < KEY_LEN)
				snprintf(keys[n++], KEY_LEN, "%.*s%.*s", (int)(br - s - 1), s + 1,
					 (int)(c - t), t);
			else if (!br && q - s - 1 < KEY_LEN)
				snprintf(keys[n++], KEY_LEN, "%.*s", (int)(q - s - 1), s + 1);
			if (n)
				key_tidy(keys[n - 1]);
			t = br ? c : q;
		}
		s = q;
	}
	return n;
}

/* d's fields as the readers' table names them ("cpu.vendor"), with their required-ness. */
static size_t row_fields(const struct kind *k, const struct field_desc *d, const char *prefix,
			 bool req_parent, char keys[][KEY_LEN], bool *req, size_t n)
{
	for (size_t i = 0; d && i < d->n && n < MAX_KEYS; i++) {
		const struct field *f = &d->f[i];
		char path[KEY_LEN];

		if (written_only(f) || kind_array(k, f))
			continue;
		if (flat_obj(f)) {
			n = row_fields(k, f->sub, prefix, req_parent, keys, req, n);
			continue;
		}
		snprintf(path, sizeof(path), "%s%s", prefix, f->key);
		if (inline_obj(f)) {
			strncat(path, ".", sizeof(path) - strlen(path) - 1);
			n = row_fields(k, f->sub, path, req_parent && required(f), keys, req, n);
			continue;
		}
		snprintf(keys[n], KEY_LEN, "%s", path);
		req[n++] = req_parent && required(f);
	}
	return n;
}

/* The readers' table row: the required cell names exactly the required fields, the other cell the rest. */
static int check_row(const char *md, const struct kind *k)
{
	static char keys[MAX_KEYS][KEY_LEN], fields[MAX_KEYS][KEY_LEN];
	bool req[MAX_KEYS];
	const char *row = strstr(md, k->row), *c1, *c2, *end;
	size_t nf = 0;
	int bad = 0;

	if (!row || !(c1 = strchr(row + strlen(k->row), '|')) || !(c2 = strchr(c1 + 1, '|')) ||
	    !(end = strchr(row, '\n')) || c2 > end)
		return problem(&bad, k->d[0]->name, "no row %s%s", k->row, ""), 1;
	for (size_t j = 0; j < NDESC; j++)
		nf = row_fields(k, k->d[j], "", true, fields, req, nf);
	for (int cell = 0; cell < 2; cell++) {
		const char *s = cell ? c1 + 1 : row + strlen(k->row), *e = cell ? c2 : c1;
		size_t n = cell_keys(s, e, keys), want = 0;

		for (size_t i = 0; i < nf; i++) {
			bool in = false;

			if (req[i] == !!cell)
				continue;
			want++;
			for (size_t j = 0; j < n; j++)
				in |= !strcmp(keys[j], fields[i]);
			if (!in)
				problem(&bad, k->d[0]->name, "%s not in the row's %s cell", fields[i],
					cell ? "optional" : "required");
		}
		if (n != want)
			problem(&bad, k->d[0]->name, "the row's %s cell names %s",
				cell ? "optional" : "required", "other fields too");
	}
	return bad;
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

/* p with its "$ref": "#/$defs/X" followed; *ref the last name followed ("" none). */
static json_t *resolve(json_t *schema, json_t *p, const char **ref)
{
	const char *r;

	*ref = "";
	for (int i = 0; i < 8 && (r = json_string_value(json_object_get(p, "$ref"))); i++) {
		if (strncmp(r, "#/$defs/", 8))
			return NULL;
		*ref = r + 8;
		p = json_object_get(json_object_get(schema, "$defs"), *ref);
	}
	return p;
}

static bool is_type(json_t *p, const char *type)
{
	const char *t = json_string_value(json_object_get(p, "type"));

	return t && !strcmp(t, type);
}

/* A bound of p: its value, or dflt when p has none. */
static long long bound(json_t *p, const char *key, long long dflt)
{
	json_t *v = json_object_get(p, key);

	if (json_is_integer(v))
		return json_integer_value(v);
	return v ? (long long)json_number_value(v) : dflt;
}

static void check_props(json_t *schema, const char *name, const struct field_desc *const *d,
			json_t *const *props, json_t *const *req, const char *const *extra, int *bad);

/* The JSON Schema of one value p (resolved) says what f is. */
static void check_value(json_t *schema, const char *name, const struct field *f, json_t *p,
			const char *ref, int *bad)
{
	int skip = f->type == FIELD_T_ENUM && f->n_names && !f->names[0][0];
	bool signed_ = f->flags & FIELD_SIGNED;
	json_t *en = json_object_get(p, "enum"), *items;
	const char *iref;

	if (f->type == FIELD_T_CONST) {	/* the JSON Schema's const */
		json_t *k = json_object_get(p, "const");

		if (f->names ? !json_is_string(k) || strcmp(json_string_value(k), f->names[0]) :
			       !json_is_integer(k) || json_integer_value(k) != f->min)
			problem(bad, name, "%s: not the table's constant in the JSON Schema%s",
				f->key, "");
		return;
	}
	if (f->names) {
		if (json_array_size(en) != (size_t)(f->n_names - skip))
			problem(bad, name, "%s: the JSON Schema's enum differs%s", f->key, "");
		for (int j = skip; j < f->n_names; j++)
			if (!str_in(en, f->names[j]))
				problem(bad, name, "%s: %s not in the JSON Schema's enum", f->key,
					f->names[j]);
		return;
	}
	if (f->flags & FIELD_NULL) {	/* a string or null */
		json_t *alt = json_object_get(p, "oneOf");

		if (json_array_size(alt) != 2 || !is_type(json_array_get(alt, 1), "null")) {
			problem(bad, name, "%s: not a string or null in the JSON Schema%s", f->key, "");
			return;
		}
		p = json_array_get(alt, 0);
	}
	switch (f->type) {
	case FIELD_T_CHARS:	/* as long as the buffer holds, unless cut to fit */
		if (bound(p, "maxLength", -1) != (f->flags & FIELD_CUT ? -1 : (long long)f->elem - 1))
			problem(bad, name, "%s: not a string of at most %s in the JSON Schema", f->key,
				"the buffer's length");
		/* fall through */
	case FIELD_T_STRING:
	case FIELD_T_CSTR:
		if (!is_type(p, "string") || !(f->flags & FIELD_EMPTY_OK) != !!bound(p, "minLength", 0))
			problem(bad, name, "%s: not a %s string in the JSON Schema", f->key,
				f->flags & FIELD_EMPTY_OK ? "" : "non-empty");
		break;
	case FIELD_T_INT:
		if (!is_type(p, "integer") || bound(p, "minimum", LLONG_MIN) != f->min ||
		    bound(p, "maximum", LLONG_MAX) != f->max)
			problem(bad, name, "%s: not an integer %s in the JSON Schema", f->key,
				"with the table's bounds");
		break;
	case FIELD_T_NUM:
		if (!is_type(p, "number") || !!json_object_get(p, "minimum") == signed_ ||
		    bound(p, "minimum", 0) != 0)
			problem(bad, name, "%s: not a number %s in the JSON Schema", f->key,
				signed_ ? "of any sign" : ">= 0");
		break;
	case FIELD_T_BOOL:
	case FIELD_T_FLAG:
	case FIELD_T_SET:
		if (!is_type(p, "boolean"))
			problem(bad, name, "%s: not a boolean in the JSON Schema%s", f->key, "");
		break;
	case FIELD_T_OBJECT:
		if (is_kind(f->sub) ? strcmp(ref, f->sub->name) : !is_type(p, "object")) {
			problem(bad, name, "%s: not the object %s in the JSON Schema", f->key,
				f->sub->name);
		} else if (!is_kind(f->sub)) {
			json_t *pp = json_object_get(p, "properties"), *rq = json_object_get(p, "required");

			check_props(schema, name, &f->sub, &pp, &rq, NULL, bad);
		}
		break;
	case FIELD_T_MAP:
		items = resolve(schema, json_object_get(p, "additionalProperties"), &iref);
		if (!is_type(p, "object") || bound(p, "maxProperties", -1) != f->max || !items)
			problem(bad, name, "%s: not a map of at most %s in the JSON Schema", f->key,
				"the table's entries");
		else if (f->sub->n == 2 &&	/* a copied key: its buffer bounds the names */
			 bound(json_object_get(p, "propertyNames"), "maxLength", -1) !=
			 (long long)f->sub->f[0].elem - 1)
			problem(bad, name, "%s: names not bounded by %s in the JSON Schema", f->key,
				"the key's buffer");
		else
			check_value(schema, name, &f->sub->f[f->sub->n == 2], items, iref, bad);
		break;
	case FIELD_T_ARRAY:
	case FIELD_T_STRINGS:
	case FIELD_T_NUMS:
		items = resolve(schema, json_object_get(p, "items"), &iref);
		if (!is_type(p, "array") || bound(p, "maxItems", -1) != f->max ||
		    bound(p, "minItems", 0) != !!f->empty || !items) {
			problem(bad, name, "%s: not an array of the table's %s in the JSON Schema",
				f->key, "length");
		} else if (f->type == FIELD_T_ARRAY && strcmp(iref, f->sub->name)) {
			problem(bad, name, "%s: items are not %s in the JSON Schema", f->key,
				f->sub->name);
		} else if (f->type == FIELD_T_STRINGS && !is_type(items, "string")) {
			problem(bad, name, "%s: items are not %s in the JSON Schema", f->key, "strings");
		} else if (f->type == FIELD_T_NUMS && (!is_type(items, "number") ||
			   !!json_object_get(items, "minimum") == signed_)) {
			problem(bad, name, "%s: items are not %s in the JSON Schema", f->key,
				signed_ ? "numbers" : "numbers >= 0");
		}
		break;
	case FIELD_T_INTS:	/* min..max integers, each in [lo, hi] */
		items = resolve(schema, json_object_get(p, "items"), &iref);
		if (!is_type(p, "array") || bound(p, "minItems", 0) != f->min ||
		    bound(p, "maxItems", -1) != f->max || !is_type(items, "integer") ||
		    bound(items, "minimum", LLONG_MIN) != f->lo ||
		    bound(items, "maximum", LLONG_MAX) != f->hi)
			problem(bad, name, "%s: not %s in the JSON Schema", f->key,
				"the table's integers");
		break;
	case FIELD_T_ENUM:	/* its names, above */
	case FIELD_T_CONST:
	case FIELD_T_CUSTOM:
	case FIELD_T_N:
		break;
	}
}

/* d's fields with those of its FIELD_INLINE objects in place, into out[] (at most MAX_KEYS). */
static size_t flat_fields(const struct field_desc *d, const struct field **out, size_t n)
{
	for (size_t i = 0; i < d->n && n < MAX_KEYS; i++)
		if (flat_obj(&d->f[i]))
			n = flat_fields(d->f[i].sub, out, n);
		else if ((out[n++] = &d->f[i])->flags & FIELD_PER_OP && n < MAX_KEYS)
			out[n++] = per_op_field(&d->f[i]);
	return n;
}

/*
 * The properties (and required lists) of up to NDESC $defs entries against
 * the tables d[]: same fields, same required-ness, same types.
 */
static void check_props(json_t *schema, const char *name, const struct field_desc *const *d,
			json_t *const *props, json_t *const *req, const char *const *extra, int *bad)
{
	const struct field *ff[NDESC][MAX_KEYS];
	size_t nd = 0, nf[NDESC];
	const char *key;
	json_t *p;

	while (nd < NDESC && d[nd] && props[nd])
		nd++;
	for (size_t j = 0; j < nd; j++)
		nf[j] = flat_fields(d[j], ff[j], 0);
	for (size_t j = 0; j < nd; j++) {
		for (size_t i = 0; i < nf[j]; i++) {
			const struct field *f = ff[j][i];
			const char *ref = "";
			size_t w = j;

			for (size_t x = 0; x < nd && !json_object_get(props[w], f->key); x++)
				w = x;
			p = json_object_get(props[w], f->key);
			if (!p) {
				problem(bad, name, "%s is not in the JSON Schema%s", f->key, "");
				continue;
			}
			if (str_in(req[w], f->key) != required(f))
				problem(bad, name, "%s: the JSON Schema says %s", f->key,
					required(f) ? "optional" : "required");
			p = resolve(schema, p, &ref);
			check_value(schema, name, f, p, ref, bad);
		}
		json_object_foreach(props[j], key, p) {
			bool in = false;

			for (size_t x = 0; x < nd && !in; x++)
				for (size_t i = 0; i < nf[x] && !in; i++)
					in = !strcmp(ff[x][i]->key, key);
			if (!in && !str_listed(extra, key))
				problem(bad, name, "%s is in the JSON Schema but not in the table%s", key, "");
		}
	}
}

/* docs/results-schema.json's $defs entries: same required lists, same properties, same types. */
static int check_json(json_t *schema, const struct kind *k)
{
	json_t *props[NDESC] = { NULL }, *req[NDESC] = { NULL };
	int bad = 0;

	for (size_t j = 0; j < NDESC && k->d[j]; j++) {
		json_t *def = json_object_get(json_object_get(schema, "$defs"), k->d[j]->name);

		props[j] = json_object_get(def, "properties");
		req[j] = json_object_get(def, "required");
		if (!json_is_object(props[j]))
			return problem(&bad, k->d[j]->name, "no $defs.%s.properties%s", k->d[j]->name,
				       ""), 1;
	}
	check_props(schema, k->d[0]->name, k->d, props, req, k->extra, &bad);
	return bad;
}

/* Made-up tables, each wrong in one way the checks must catch. */
static const char *const fake_status[] = { "pass", "fail", "skip" };
static const struct field fake_extra[] = {
	FIELD_STR(struct check_result, suite, "suite", FIELD_REQUIRED),
	FIELD_STR(struct check_result, name, "name", FIELD_REQUIRED),
	FIELD_ENUM(struct check_result, status, "status", FIELD_REQUIRED, check_status_names,
		   CHECK_STATUS_N),
	FIELD_STR(struct check_result, detail, "detail", FIELD_EMPTY_OK),
	FIELD_STR(struct check_result, expected, "expected", FIELD_EMPTY_OK),
	FIELD_STR(struct check_result, observed, "observed", FIELD_EMPTY_OK),
	FIELD_STR(struct check_result, detail, "undocumented", FIELD_EMPTY_OK),
};
static const struct field fake_missing[] = {
	FIELD_STR(struct check_result, suite, "suite", FIELD_REQUIRED),
	FIELD_STR(struct check_result, name, "name", FIELD_REQUIRED),
	FIELD_ENUM(struct check_result, status, "status", FIELD_REQUIRED, check_status_names,
		   CHECK_STATUS_N),
	FIELD_STR(struct check_result, detail, "detail", FIELD_EMPTY_OK),
};
static const struct field fake_req[] = {
	FIELD_STR(struct check_result, suite, "suite", FIELD_REQUIRED),
	FIELD_STR(struct check_result, name, "name", FIELD_REQUIRED),
	FIELD_ENUM(struct check_result, status, "status", FIELD_REQUIRED, check_status_names,
		   CHECK_STATUS_N),
	FIELD_STR(struct check_result, detail, "detail", FIELD_REQUIRED | FIELD_EMPTY_OK),
	FIELD_STR(struct check_result, expected, "expected", FIELD_EMPTY_OK),
	FIELD_STR(struct check_result, observed, "observed", FIELD_EMPTY_OK),
};
static const struct field fake_type[] = {
	FIELD_STR(struct check_result, suite, "suite", FIELD_REQUIRED),
	FIELD_STR(struct check_result, name, "name", FIELD_REQUIRED),
	FIELD_ENUM(struct check_result, status, "status", FIELD_REQUIRED, fake_status, 3),
	FIELD_STR(struct check_result, detail, "detail", FIELD_EMPTY_OK),
	FIELD_STR(struct check_result, expected, "expected", FIELD_EMPTY_OK),
	FIELD_ENUM(struct check_result, status, "observed", 0, fake_status, 3),
};
static const struct field_desc fakes[] = {
	FIELD_DESC("check", fake_extra), FIELD_DESC("check", fake_missing),
	FIELD_DESC("check", fake_req), FIELD_DESC("check", fake_type),
};
static const char *const fake_why[] = {
	"a field the documents lack", "a documented field the table lacks",
	"an optional field the table requires", "a changed enum and type",
};
/* Which checks see each: 1 the block, 2 the row (required-ness and names only), 4 the JSON Schema. */
static const unsigned fake_seen[] = { 7, 7, 7, 5 };

int main(void)
{
	char *md = run_read_file(MD, NULL);
	json_error_t je;
	json_t *schema = json_load_file(SCHEMA, 0, &je);
	size_t rows = 0, bad_settings = 0;

	if (!md || !schema)
		return tap_skip_all("run from the top of the tree: " MD " or " SCHEMA " unreadable"), 0;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		rows += !!kinds[i].row;
	tap_plan((int)(2 * ARRAY_SIZE(kinds) + rows + 1 + 3 + 3 + 3 + 2 + 1));
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		const struct kind *k = &kinds[i];
		const char *name = k->d[0]->name;

		ok(!check_block(md, k), "%s: %s %s documents the table's fields", name, MD, k->block);
		if (k->row)
			ok(!check_row(md, k), "%s: %s row '%s' names the required and optional fields",
			   name, MD, k->row);
		ok(!check_json(schema, k), "%s: %s $defs.%s agrees with the table", name, SCHEMA, name);
	}
	for (size_t i = 0; i < RUN_SETTING_N; i++)
		bad_settings += !find(&run_settings_fields, run_setting_names[i]);
	ok(!bad_settings, "every run setting (run_setting_names) is a field of the settings table");
	for (size_t i = 0; i < ARRAY_SIZE(fakes); i++) {
		struct kind k = { { &fakes[i] }, kinds[0].block, kinds[0].row, NULL };
		int (*const check[])(const char *, const struct kind *) = { check_block, check_row };

		diag("made-up table with %s (problems expected):", fake_why[i]);
		for (size_t j = 0; j < ARRAY_SIZE(check); j++)
			if (fake_seen[i] & (1u << j))
				ok(check[j](md, &k), "made up, %s: the %s check catches it", fake_why[i],
				   j ? "row" : "block");
		ok(check_json(schema, &k), "made up, %s: the JSON Schema check catches it", fake_why[i]);
	}
	{	/* the settings, their integer list ("cpus") one longer and one less high */
		struct field f[MAX_KEYS];
		struct field_desc d = run_settings_fields;
		struct kind k = { { &d }, NULL, NULL, NULL };

		memcpy(f, d.f, (d.n = d.n < MAX_KEYS ? d.n : MAX_KEYS) * sizeof(*f));
		for (size_t i = 0; i < d.n; i++)
			if (f[i].type == FIELD_T_INTS)
				f[i].max++, f[i].hi--;
		d.f = f;
		diag("made-up settings with other integer bounds (problems expected):");
		ok(check_json(schema, &k), "made up, an integer list's bounds: the JSON Schema check "
		   "catches them");
	}
	json_decref(schema);
	free(md);
	return tap_done();
}
