// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_schema_doc.c - each result kind described by a field table
 * (results/field.h) agrees with its documents: docs/results-schema.md (the
 * kind's block, e.g. "CHECK:", and its row of the "What the readers refuse"
 * table) and its $defs entry in docs/results-schema.json. Every field of
 * the table is documented with its type (string, enum with its names,
 * integer with its bounds, number, boolean) and its required-ness, and
 * nothing is documented that the table lacks. Each check also runs on a
 * made-up table that must fail it. Run from the top of the tree.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "results/check_model.h"
#include "results/field.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define MD	"docs/results-schema.md"
#define SCHEMA	"docs/results-schema.json"
#define MAX_KEYS 64
#define KEY_LEN	64

/* A converted kind: its table, its block's label and its row in the readers' table. */
struct kind {
	const struct field_desc *d;
	const char *block;	/* "CHECK:" */
	const char *row;	/* "| checks |" */
};

static const struct kind kinds[] = {
	{ &check_fields, "CHECK:", "| checks |" },
};

static const struct field *find(const struct field_desc *d, const char *key)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->f[i].key, key))
			return &d->f[i];
	return NULL;
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
 * The kind's block: from the line "CHECK:" to the end of the fenced block
 * after it; *len its length. NULL when there is none.
 */
static const char *md_block(const char *md, const char *label, size_t *len)
{
	const char *s = md, *open, *close;
	size_t ll = strlen(label);

	while ((s = strstr(s, label)) && ((s != md && s[-1] != '\n') || s[ll] != '\n'))
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

/* The block's keys: every "word": in it, into keys[]. */
static size_t block_keys(const char *b, size_t len, char keys[][KEY_LEN])
{
	size_t n = 0;

	for (const char *s = b; s < b + len && n < MAX_KEYS; s++) {
		const char *q;

		if (*s != '"' || !(q = strchr(s + 1, '"')) || q >= b + len || q[1] != ':')
			continue;
		if (q - s - 1 > 0 && q - s - 1 < KEY_LEN)
			snprintf(keys[n++], KEY_LEN, "%.*s", (int)(q - s - 1), s + 1);
		s = q;
	}
	return n;
}

/* The block documents every field with its type and required-ness, and nothing else. */
static int check_block(const char *md, const struct kind *k)
{
	char keys[MAX_KEYS][KEY_LEN], word[KEY_LEN + 4];
	size_t len, llen, nk;
	const char *b = md_block(md, k->block, &len);
	int bad = 0;

	if (!b)
		return problem(&bad, k->d->name, "no block %s%s", k->block, ""), 1;
	for (size_t i = 0; i < k->d->n; i++) {
		const struct field *f = &k->d->f[i];
		const char *l = block_line(b, len, f->key, &llen), *v;
		char line[512];

		if (!l) {
			problem(&bad, k->d->name, "\"%s\" is not in its block%s", f->key, "");
			continue;
		}
		snprintf(line, sizeof(line), "%.*s", (int)llen, l);
		v = strstr(line, f->key) + strlen(f->key) + 2;
		while (*v == ' ')
			v++;
		if (!!strstr(line, "optional") == required(f))
			problem(&bad, k->d->name, "\"%s\": the block says %s", f->key,
				required(f) ? "optional" : "required");
		switch (f->type) {
		case FIELD_T_STRING:
		case FIELD_T_ENUM:
			if (*v != '"')
				problem(&bad, k->d->name, "\"%s\": not shown as a string%s", f->key, "");
			break;
		case FIELD_T_INT:
		case FIELD_T_NUM:
			if (!isdigit((unsigned char)*v) && *v != '-')
				problem(&bad, k->d->name, "\"%s\": not shown as a number%s", f->key, "");
			break;
		case FIELD_T_BOOL:
			if (strncmp(v, "true", 4) && strncmp(v, "false", 5))
				problem(&bad, k->d->name, "\"%s\": not shown as a boolean%s", f->key, "");
			break;
		default:
			break;
		}
		for (int j = 0; f->type == FIELD_T_ENUM && j < f->n_names; j++) {
			snprintf(word, sizeof(word), "\"%s\"", f->names[j]);
			if (!strstr(line, word))
				problem(&bad, k->d->name, "\"%s\": value %s not in its block", f->key, word);
		}
	}
	nk = block_keys(b, len, keys);
	for (size_t i = 0; i < nk; i++)
		if (!find(k->d, keys[i]))
			problem(&bad, k->d->name, "\"%s\" is documented but not in the table%s", keys[i], "");
	return bad;
}

/* The backquoted names of a table cell outside parentheses, into keys[]. */
static size_t cell_keys(const char *s, const char *e, char keys[][KEY_LEN])
{
	size_t n = 0;
	int depth = 0;

	for (; s < e && n < MAX_KEYS; s++) {
		const char *q;

		depth += (*s == '(') - (*s == ')');
		if (*s != '`' || !(q = memchr(s + 1, '`', e - s - 1)))
			continue;
		if (!depth && q - s - 1 < KEY_LEN)
			snprintf(keys[n++], KEY_LEN, "%.*s", (int)(q - s - 1), s + 1);
		s = q;
	}
	return n;
}

/* The readers' table row: the required cell names exactly the required fields, the other cell the rest. */
static int check_row(const char *md, const struct kind *k)
{
	char keys[MAX_KEYS][KEY_LEN];
	const char *row = strstr(md, k->row), *c1, *c2, *end;
	int bad = 0;

	if (!row || !(c1 = strchr(row + strlen(k->row), '|')) || !(c2 = strchr(c1 + 1, '|')) ||
	    !(end = strchr(row, '\n')) || c2 > end)
		return problem(&bad, k->d->name, "no row %s%s", k->row, ""), 1;
	for (int cell = 0; cell < 2; cell++) {
		const char *s = cell ? c1 + 1 : row + strlen(k->row), *e = cell ? c2 : c1;
		size_t n = cell_keys(s, e, keys), want = 0;

		for (size_t i = 0; i < k->d->n; i++) {
			bool in = false;

			if (required(&k->d->f[i]) == !!cell)
				continue;
			want++;
			for (size_t j = 0; j < n; j++)
				in |= !strcmp(keys[j], k->d->f[i].key);
			if (!in)
				problem(&bad, k->d->name, "%s not in the row's %s cell", k->d->f[i].key,
					cell ? "optional" : "required");
		}
		if (n != want)
			problem(&bad, k->d->name, "the row's %s cell names %s", cell ? "optional" : "required",
				"other fields too");
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

/* docs/results-schema.json's $defs entry: same required list, same properties, same types. */
static int check_json(json_t *schema, const struct kind *k)
{
	json_t *def = json_object_get(json_object_get(schema, "$defs"), k->d->name);
	json_t *props = json_object_get(def, "properties"), *req = json_object_get(def, "required");
	const char *key;
	json_t *p;
	int bad = 0;

	if (!json_is_object(props))
		return problem(&bad, k->d->name, "no $defs.%s.properties%s", k->d->name, ""), 1;
	for (size_t i = 0; i < k->d->n; i++) {
		const struct field *f = &k->d->f[i];
		const char *type, *ref;
		json_t *en;

		p = json_object_get(props, f->key);
		if (!p) {
			problem(&bad, k->d->name, "%s is not in the JSON Schema%s", f->key, "");
			continue;
		}
		if (str_in(req, f->key) != required(f))
			problem(&bad, k->d->name, "%s: the JSON Schema says %s", f->key,
				required(f) ? "optional" : "required");
		type = json_string_value(json_object_get(p, "type"));
		ref = json_string_value(json_object_get(p, "$ref"));
		en = json_object_get(p, "enum");
		switch (f->type) {
		case FIELD_T_STRING:
			if (f->flags & FIELD_EMPTY_OK ? !type || strcmp(type, "string") :
			    !ref || strcmp(ref, "#/$defs/nonempty"))
				problem(&bad, k->d->name, "%s: not a %s string in the JSON Schema", f->key,
					f->flags & FIELD_EMPTY_OK ? "" : "non-empty");
			break;
		case FIELD_T_ENUM:
			if (json_array_size(en) != (size_t)f->n_names)
				problem(&bad, k->d->name, "%s: the JSON Schema's enum differs%s", f->key, "");
			for (int j = 0; j < f->n_names; j++)
				if (!str_in(en, f->names[j]))
					problem(&bad, k->d->name, "%s: %s not in the JSON Schema's enum",
						f->key, f->names[j]);
			break;
		case FIELD_T_INT:
			if (!type || strcmp(type, "integer") ||
			    json_integer_value(json_object_get(p, "minimum")) != f->min ||
			    json_integer_value(json_object_get(p, "maximum")) != f->max)
				problem(&bad, k->d->name, "%s: not an integer %s in the JSON Schema",
					f->key, "with the table's bounds");
			break;
		case FIELD_T_NUM:
			if (!type || strcmp(type, "number") ||
			    json_number_value(json_object_get(p, "minimum")) != 0)
				problem(&bad, k->d->name, "%s: not a number >= 0 in the JSON Schema%s",
					f->key, "");
			break;
		case FIELD_T_BOOL:
			if (!type || strcmp(type, "boolean"))
				problem(&bad, k->d->name, "%s: not a boolean in the JSON Schema%s", f->key, "");
			break;
		default:
			break;
		}
	}
	json_object_foreach(props, key, p)
		if (!find(k->d, key))
			problem(&bad, k->d->name, "%s is in the JSON Schema but not in the table%s", key, "");
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

	if (!md || !schema)
		return tap_skip_all("run from the top of the tree: " MD " or " SCHEMA " unreadable"), 0;
	tap_plan((int)(3 * ARRAY_SIZE(kinds) + 3 + 3 + 3 + 2));
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		const struct kind *k = &kinds[i];

		ok(!check_block(md, k), "%s: %s %s documents the table's fields", k->d->name, MD, k->block);
		ok(!check_row(md, k), "%s: %s row '%s' names the required and optional fields",
		   k->d->name, MD, k->row);
		ok(!check_json(schema, k), "%s: %s $defs.%s agrees with the table", k->d->name, SCHEMA,
		   k->d->name);
	}
	for (size_t i = 0; i < ARRAY_SIZE(fakes); i++) {
		struct kind k = { &fakes[i], kinds[0].block, kinds[0].row };
		int (*const check[])(const char *, const struct kind *) = { check_block, check_row };

		diag("made-up table with %s (problems expected):", fake_why[i]);
		for (size_t j = 0; j < ARRAY_SIZE(check); j++)
			if (fake_seen[i] & (1u << j))
				ok(check[j](md, &k), "made up, %s: the %s check catches it", fake_why[i],
				   j ? "row" : "block");
		ok(check_json(schema, &k), "made up, %s: the JSON Schema check catches it", fake_why[i]);
	}
	json_decref(schema);
	free(md);
	return tap_done();
}
