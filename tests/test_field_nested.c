// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_field_nested.c - the field-table layer's (results/field.h) nested and
 * borrowing types on a made-up struct: borrowed strings (free and from a
 * list of names), int flags, nested objects (flat and at an offset, with a
 * present member), arrays of structs, maps, string and number arrays, a
 * custom field and a table's cross-field check. The writer's omissions, the
 * reader giving back what was written, required fields read first, the
 * error lines with their paths, and fields_free. Then the fixed-size
 * members on a second struct: char buffers (refused too long, or cut to fit
 * on a UTF-8 boundary), int integers, a table inline in its parent's
 * object, array elements set up by their table's init, a written-only
 * custom field; counts with their per-op figure against the outermost
 * struct's ops, strings or null, arrays with a present flag, a map whose
 * keys are copied into char buffers. Last the written-only shapes
 * (constants, pointers as booleans, null numbers, fixed number runs,
 * objects through a pointer, a picked table), and integer lists, counted
 * or a fixed pair; elements read by a picked table, their names unique;
 * an object that is the outermost struct of the per-op figures in it; a
 * required field's hint; an array grown by fields_grow; an object read into
 * a struct the reader allocates.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "base/err.h"
#include "results/field.h"
#include "tests/tap.h"

struct part {
	long long n;
	double *w;
	size_t n_w;
};

struct tag {
	const char *key;
	int value;
};

struct inner {
	bool present;
	long long lo, hi;
};

struct thing {
	const char *name;		/* borrowed */
	const char *kind;		/* one of kinds[] */
	const char *note;		/* optional, NULL absent */
	int flag;			/* -1 absent */
	int stage;			/* 0 absent: stages[0] is "", never read */
	long long size;			/* flat in "box" */
	struct inner in;		/* "range", when in.present */
	struct part *parts;
	size_t n_parts;
	struct tag *tags;
	size_t n_tags;
	const char **words;
	size_t n_words;
	double *deltas;			/* any sign */
	size_t n_deltas;
	long long magic;		/* custom: written as a string "#<n>" */
};

static const char *const kinds[] = { "round", "square" };
static const char *const stages[] = { "", "early", "late" };

static const struct field part_field[] = {
	FIELD_INT(struct part, n, "n", FIELD_REQUIRED, 0, 9),
	FIELD_NUMS(struct part, w, n_w, "w", FIELD_REQUIRED, 3, "a part has weights"),
};
static const struct field_desc part_desc = FIELD_DESC("part", part_field);

static const struct field tag_value[] = {
	FIELD_FLAG(struct tag, value, "value", FIELD_REQUIRED),
};
static const struct field_desc tag_desc = FIELD_DESC("tag", tag_value);

static const struct field box_field[] = {
	FIELD_INT(struct thing, size, "size", FIELD_REQUIRED, 0, 100),
};
static const struct field_desc box_desc = FIELD_DESC("box", box_field);

static int inner_check(struct jcheck *c, const void *p)
{
	const struct inner *in = p;

	return in->lo > in->hi ? jcheck_fail(c, "lo %lld > hi %lld", in->lo, in->hi) : 0;
}

static const struct field inner_field[] = {
	FIELD_INT(struct inner, lo, "lo", FIELD_REQUIRED, 0, 100),
	FIELD_INT(struct inner, hi, "hi", FIELD_REQUIRED, 0, 100),
};
static const struct field_desc inner_desc = FIELD_DESC_CHECK("range", inner_field, inner_check);

static json_t *magic_write(const void *p, bool *omit)
{
	char buf[32];

	*omit = ((const struct thing *)p)->magic < 0;
	snprintf(buf, sizeof(buf), "#%lld", ((const struct thing *)p)->magic);
	return *omit ? NULL : json_string(buf);
}

static int magic_read(struct jcheck *c, json_t *obj, void *p)
{
	const char *s;
	int rc = jcheck_string(c, obj, "magic", JCHECK_OPTIONAL, 0, &s);

	if (!rc && (s[0] != '#' || sscanf(s + 1, "%lld", &((struct thing *)p)->magic) != 1))
		return jcheck_fail(c, "magic: not #<n>");
	return rc;
}

static const struct field_custom magic = { magic_write, magic_read, NULL };

#define T struct thing
static const struct field thing_field[] = {
	FIELD_CSTR(T, name, "name", FIELD_REQUIRED),
	FIELD_CSTR_OF(T, kind, "kind", FIELD_REQUIRED, kinds, 2),
	FIELD_CSTR(T, note, "note", FIELD_EMPTY_OK | FIELD_OMIT_NULL),
	FIELD_FLAG(T, flag, "flag", FIELD_OMIT_NEG),
	FIELD_ENUM(T, stage, "stage", FIELD_OMIT_ZERO, stages, 3),
	FIELD_OBJ_FLAT("box", FIELD_REQUIRED, &box_desc),
	FIELD_OBJ_P(T, in, in.present, "range", 0, &inner_desc),
	FIELD_ARRAY(T, parts, n_parts, "parts", FIELD_OMIT_ZERO, &part_desc, struct part, 4,
		    "no parts (leave it out)"),
	FIELD_MAP(T, tags, n_tags, "tags", FIELD_OMIT_NULL, &tag_desc, struct tag, 2),
	FIELD_STRINGS(T, words, n_words, "words", 0, 3),
	FIELD_NUMS(T, deltas, n_deltas, "deltas", FIELD_SIGNED | FIELD_OMIT_NULL, 5, NULL),
	FIELD_CUSTOM("magic", 0, &magic),
};
static const struct field_desc thing_fields = FIELD_DESC("thing", thing_field);

static void thing_init(struct thing *t)
{
	*t = (struct thing){ .flag = -1, .magic = -1 };
}

static char *dump(const struct thing *t)
{
	json_t *o = fields_write(&thing_fields, t);
	char *s = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(10)) : NULL;

	json_decref(o);
	return s;
}

/* Read text into t (the document stays in *doc for the borrowed strings); the error line into msg. */
static int read_text(const char *text, json_t **doc, struct thing *t, char *msg, size_t len)
{
	struct err e;
	struct jcheck c = { .name = "t.json", .err = &e };
	int rc;

	err_init(&e);
	*doc = json_loads(text, 0, NULL);
	jcheck_push_key(&c, "things");
	jcheck_push_index(&c, 1);
	thing_init(t);
	rc = fields_read(&c, *doc, &thing_fields, t);
	snprintf(msg, len, "%s", e.msg);
	return rc;
}

#define FULL "{\"name\":\"a\",\"kind\":\"square\",\"note\":\"\",\"flag\":false,\"stage\":\"late\","	\
	"\"box\":{\"size\":7},\"range\":{\"lo\":1,\"hi\":2},"						\
	"\"parts\":[{\"n\":1,\"w\":[0.5]},{\"n\":2,\"w\":[1.0,2.0]}],"					\
	"\"tags\":{\"x\":true,\"y\":false},\"words\":[\"p\",\"q\"],\"deltas\":[-1.5,0.0],"		\
	"\"magic\":\"#42\"}"

static void test_write(void)
{
	struct thing t;
	char *s;

	thing_init(&t);
	s = dump(&t);
	tap_is_str(s, "{\"name\":\"\",\"kind\":\"\",\"box\":{\"size\":0},\"words\":[]}",
		   "write: absent (NULL, -1, names[0], no present, no count) left out, required written");
	free(s);
}

static void test_round_trip(void)
{
	struct thing t;
	char msg[ERR_MSG_MAX], *s;
	json_t *doc;
	int rc = read_text(FULL, &doc, &t, msg, sizeof(msg));

	ok(!rc, "read: a document with every type (%s)", msg);
	ok(t.kind == kinds[1] && t.in.present && t.n_parts == 2 && t.parts[1].n_w == 2 &&
	   t.n_tags == 2 && !strcmp(t.tags[1].key, "y") && t.n_words == 2 && t.deltas[0] == -1.5 &&
	   t.magic == 42 && t.flag == 0 && t.stage == 2 && t.size == 7,
	   "read: every member set (kind points at its name, range present)");
	s = dump(&t);
	tap_is_str(s, FULL, "write(read(doc)) is doc: same keys, order and values");
	free(s);
	fields_free(&thing_fields, &t);
	ok(!t.parts && !t.n_parts && !t.tags && !t.words && !t.deltas && !t.n_deltas,
	   "fields_free: arrays freed, pointers NULL, counts 0");
	json_decref(doc);
}

static void test_errors(void)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "{\"note\":5,\"kind\":\"round\",\"box\":{\"size\":1}}",
		  "t.json: things[1]: missing required field \"name\"" },
		{ "{\"name\":\"a\",\"kind\":\"oval\",\"box\":{\"size\":1}}",
		  "t.json: things[1].kind: \"oval\" is not one of round, square" },
		{ "{\"name\":\"a\",\"kind\":\"round\",\"box\":{\"size\":101}}", "t.json: things[1].box.size: " },
		{ "{\"name\":\"a\",\"kind\":\"round\",\"box\":{\"size\":1},\"stage\":\"\"}",
		  "t.json: things[1].stage: \"\" is not one of early, late" },
		{ "{\"name\":\"a\",\"kind\":\"round\",\"box\":{\"size\":1},\"range\":{\"lo\":3,\"hi\":2}}",
		  "t.json: things[1].range: lo 3 > hi 2" },
		{ "{\"name\":\"a\",\"kind\":\"round\",\"box\":{\"size\":1},\"parts\":[]}",
		  "t.json: things[1].parts: no parts (leave it out)" },
		{ "{\"name\":\"a\",\"kind\":\"round\",\"box\":{\"size\":1},\"parts\":[{\"n\":1,\"w\":[1]},3]}",
		  "t.json: things[1].parts[1]: not an object (found an integer)" },
		{ "{\"name\":\"a\",\"kind\":\"round\",\"box\":{\"size\":1},\"parts\":[{\"n\":1,\"w\":[]}]}",
		  "t.json: things[1].parts[0].w: a part has weights" },
		{ "{\"name\":\"a\",\"kind\":\"round\",\"box\":{\"size\":1},\"parts\":[{\"n\":1,\"w\":[-1]}]}",
		  "t.json: things[1].parts[0].w[0]: not a finite non-negative number" },
		{ "{\"name\":\"a\",\"kind\":\"round\",\"box\":{\"size\":1},\"deltas\":[1,\"x\"]}",
		  "t.json: things[1].deltas[1]: not a finite number" },
		{ "{\"name\":\"a\",\"kind\":\"round\",\"box\":{\"size\":1},\"tags\":{\"x\":1}}",
		  "t.json: things[1].tags.x: " },
		{ "{\"name\":\"a\",\"kind\":\"round\",\"box\":{\"size\":1},\"tags\":{\"x\":true,\"y\":true,"
		  "\"z\":true}}", "t.json: things[1].tags: too many entries" },
		{ "{\"name\":\"a\",\"kind\":\"round\",\"box\":{\"size\":1},\"words\":[\"a\",2]}",
		  "t.json: things[1].words[1]: not a string (found an integer)" },
		{ "{\"name\":\"a\",\"kind\":\"round\",\"box\":{\"size\":1},\"magic\":\"42\"}",
		  "t.json: things[1]: magic: not #<n>" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct thing t;
		char msg[ERR_MSG_MAX];
		json_t *doc;
		int rc = read_text(bad[i].text, &doc, &t, msg, sizeof(msg));

		ok(rc == -EINVAL && !strncmp(msg, bad[i].msg, strlen(bad[i].msg)),
		   "read %s: refused with '%s...'", bad[i].text, bad[i].msg);
		if (rc != -EINVAL || strncmp(msg, bad[i].msg, strlen(bad[i].msg)))
			diag("  rc %d, got '%s'", rc, msg);
		fields_free(&thing_fields, &t);
		json_decref(doc);
	}
}

struct est {
	double mean, rel;		/* rel: -1 absent */
};

struct row {
	char id[8];
	struct est e;			/* inline: its fields are the row's */
};

struct fixed {
	char id[8];			/* "" absent */
	char text[6];			/* free text, cut to fit */
	int code;			/* 0 absent */
	struct row *rows;
	size_t n_rows;
};

static const struct field est_field[] = {
	FIELD_NUM(struct est, mean, "mean", FIELD_REQUIRED | FIELD_SIGNED),
	FIELD_NUM(struct est, rel, "rel", FIELD_OMIT_NEG),
};
static const struct field_desc est_desc = FIELD_DESC("est", est_field);

static void row_init(void *p)
{
	((struct row *)p)->e.rel = -1;
}

static const struct field row_field[] = {
	FIELD_CHARS(struct row, id, "id", FIELD_REQUIRED),
	FIELD_INLINE_OBJ(struct row, e, &est_desc),
};
static const struct field_desc row_desc = FIELD_DESC_INIT("row", row_field, NULL, row_init);

static json_t *count_write(const void *p, bool *omit)
{
	*omit = false;
	return json_integer((json_int_t)((const struct fixed *)p)->n_rows);
}

static const struct field_custom count_custom = { .write = count_write };

#define F struct fixed
static const struct field fixed_field[] = {
	FIELD_CHARS(F, id, "id", FIELD_REQUIRED),
	FIELD_CHARS(F, text, "text", FIELD_EMPTY_OK | FIELD_OMIT_ZERO | FIELD_CUT),
	FIELD_INT32(F, code, "code", FIELD_OMIT_ZERO, 1, 99),
	FIELD_ARRAY(F, rows, n_rows, "rows", 0, &row_desc, struct row, 3, NULL),
	FIELD_CUSTOM("count", 0, &count_custom),
};
#undef F
static const struct field_desc fixed_fields = FIELD_DESC("fixed", fixed_field);

static int fixed_read(const char *text, struct fixed *f, char *msg, size_t len)
{
	struct err e;
	struct jcheck c = { .name = "f.json", .err = &e };
	json_t *doc = json_loads(text, 0, NULL);
	int rc;

	err_init(&e);
	memset(f, 0, sizeof(*f));
	rc = fields_read(&c, doc, &fixed_fields, f);
	snprintf(msg, len, "%s", e.msg);
	json_decref(doc);	/* nothing borrowed: the buffers are the struct's */
	return rc;
}

static char *fixed_dump(const struct fixed *f)
{
	json_t *o = fields_write(&fixed_fields, f);
	char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;

	json_decref(o);
	return s;
}

static void test_fixed(void)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "{\"id\":\"12345678\"}", "f.json: id: longer than 7 characters" },
		{ "{\"id\":\"a\",\"code\":100}", "f.json: code: must be in 1..99 (got 100)" },
		{ "{\"id\":\"a\",\"rows\":[{\"id\":\"r\"}]}",
		  "f.json: rows[0]: missing required field \"mean\"" },
		{ "{\"id\":\"a\",\"rows\":[{\"id\":\"r\",\"mean\":1,\"rel\":-2}]}",
		  "f.json: rows[0].rel: " },
	};
	struct fixed f = { .id = "" };
	char msg[ERR_MSG_MAX], *s;
	int rc;

	s = fixed_dump(&f);
	tap_is_str(s, "{\"id\":\"\",\"rows\":[],\"count\":0}",
		   "fixed write: required buffer written empty, \"\" and 0 left out");
	free(s);
	rc = fixed_read("{\"id\":\"abc\",\"text\":\"ab\u00e9\u00e9\",\"code\":7,\"count\":9,"
			"\"rows\":[{\"id\":\"r\",\"mean\":-1.5},{\"id\":\"s\",\"mean\":2.0,\"rel\":0.5}]}",
			&f, msg, sizeof(msg));
	ok(!rc && !strcmp(f.id, "abc") && !strcmp(f.text, "ab\xc3\xa9") && f.code == 7 &&
	   f.n_rows == 2 && f.rows[0].e.mean == -1.5 && f.rows[0].e.rel == -1 &&
	   f.rows[1].e.rel == 0.5, "fixed read: buffers, int, inline fields, init's -1 kept (%s)",
	   msg);
	s = fixed_dump(&f);
	tap_is_str(s, "{\"id\":\"abc\",\"text\":\"ab\u00e9\",\"code\":7,\"rows\":[{\"id\":\"r\","
		   "\"mean\":-1.5},{\"id\":\"s\",\"mean\":2.0,\"rel\":0.5}],\"count\":2}",
		   "fixed write: cut text whole, inline fields in the row, count written, not read");
	free(s);
	fields_free(&fixed_fields, &f);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		rc = fixed_read(bad[i].text, &f, msg, sizeof(msg));
		ok(rc == -EINVAL && !strncmp(msg, bad[i].msg, strlen(bad[i].msg)),
		   "fixed read %s: refused with '%s...'", bad[i].text, bad[i].msg);
		if (rc != -EINVAL || strncmp(msg, bad[i].msg, strlen(bad[i].msg)))
			diag("  rc %d, got '%s'", rc, msg);
		fields_free(&fixed_fields, &f);
	}
}

struct cnt {
	const char *name;		/* NULL: null */
	long long n;
};

struct tally {
	long long ops;
	struct cnt *rows;
	size_t n_rows;
	bool has_rows;
};

static const struct field cnt_field[] = {
	FIELD_CSTR(struct cnt, name, "name", FIELD_REQUIRED | FIELD_NULL),
	FIELD_PER_OP(struct cnt, n, "n", "n_per_op", 0, 100, struct tally, ops),
};
static const struct field_desc cnt_desc = FIELD_DESC("cnt", cnt_field);

static const struct field tally_field[] = {
	FIELD_INT(struct tally, ops, "ops", FIELD_REQUIRED, 1, 100),
	FIELD_ARRAY_P(struct tally, rows, n_rows, has_rows, "rows", FIELD_BARE, &cnt_desc,
		      struct cnt, 4),
};
static const struct field_desc tally_fields = FIELD_DESC("tally", tally_field);

static void test_tally(void)
{
	static const struct { const char *text, *msg; } bad[] = {
		{ "{\"ops\":4,\"rows\":[{\"name\":null,\"n\":2,\"n_per_op\":0.3}]}",
		  "t.json: rows[0].n_per_op: 0.3 is not n / ops (0.5)" },
		{ "{\"ops\":4,\"rows\":[{\"n\":2,\"n_per_op\":0.5}]}",
		  "t.json: rows[0]: no \"name\" (a name, or null for none)" },
		{ "{\"ops\":4,\"rows\":[3]}", "t.json: rows[0]: not an object" },
	};
	struct cnt row = { NULL, 2 };
	struct tally t = { .ops = 4, .rows = &row, .n_rows = 1 };
	json_t *o = fields_write(&tally_fields, &t);
	char *s = json_dumps(o, JSON_COMPACT);

	tap_is_str(s, "{\"ops\":4}", "tally write: an array without its present flag left out");
	free(s);
	json_decref(o);
	t.has_rows = 1;
	o = fields_write(&tally_fields, &t);
	s = json_dumps(o, JSON_COMPACT);
	tap_is_str(s, "{\"ops\":4,\"rows\":[{\"name\":null,\"n\":2,\"n_per_op\":0.5}]}",
		   "tally write: null for NULL, the per-op figure against the outer ops");
	free(s);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct err e;
		struct jcheck c = { .name = "t.json", .err = &e };
		json_t *doc = json_loads(bad[i].text, 0, NULL);
		struct tally u = { 0 };
		int rc;

		err_init(&e);
		rc = fields_read(&c, doc, &tally_fields, &u);
		ok(rc == -EINVAL && !strcmp(e.msg, bad[i].msg), "tally read %s: refused with '%s'",
		   bad[i].text, bad[i].msg);
		if (rc != -EINVAL || strcmp(e.msg, bad[i].msg))
			diag("  rc %d, got '%s'", rc, e.msg);
		fields_free(&tally_fields, &u);
		json_decref(doc);
	}
	{
		struct err e;
		struct jcheck c = { .name = "t.json", .err = &e };
		struct tally u = { 0 };
		int rc;

		err_init(&e);
		rc = fields_read(&c, o, &tally_fields, &u);
		ok(!rc && u.has_rows && u.n_rows == 1 && !u.rows[0].name && u.rows[0].n == 2,
		   "tally read: what was written, present flag set (%s)", e.msg);
		fields_free(&tally_fields, &u);
	}
	json_decref(o);
}

struct kv {
	char name[4];
	double v;
};

struct dict {
	bool present;
	size_t n;
	struct kv *kv;
};

static const struct field kv_field[] = {
	FIELD_CHARS(struct kv, name, "", 0),
	FIELD_NUM(struct kv, v, "", FIELD_REQUIRED),
};
static const struct field_desc kv_desc = FIELD_DESC("key", kv_field);
static const struct field dict_field[] = {
	FIELD_MAP_P(struct dict, kv, n, present, "d", 0, &kv_desc, struct kv, 2),
};
static const struct field_desc dict_fields = FIELD_DESC("dict", dict_field);

static void test_dict(void)
{
	static const struct { const char *text, *msg; } cases[] = {
		{ "{\"d\":{\"ab\":1.5,\"c\":0.0}}", "" },
		{ "{\"d\":{\"abcd\":1}}", "t.json: d: key longer than 3 characters" },
		{ "{\"d\":{\"a\":1,\"b\":1,\"c\":1}}", "t.json: d: too many keys (3, limit 2)" },
		{ "{\"d\":{\"a\":-1}}", "t.json: d.a: " },
	};
	struct dict d = { 0 };
	json_t *o = fields_write(&dict_fields, &d);

	ok(o && !json_object_size(o), "dict write: not present, not written");
	json_decref(o);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct err e;
		struct jcheck c = { .name = "t.json", .err = &e };
		json_t *doc = json_loads(cases[i].text, 0, NULL);
		char *s = NULL;
		int rc;

		err_init(&e);
		rc = fields_read(&c, doc, &dict_fields, &d);
		if (!rc) {
			o = fields_write(&dict_fields, &d);
			s = json_dumps(o, JSON_COMPACT);
			json_decref(o);
		}
		ok(cases[i].msg[0] ? rc == -EINVAL && !strncmp(e.msg, cases[i].msg,
							      strlen(cases[i].msg)) :
		   !rc && d.present && d.n == 2 && !strcmp(d.kv[0].name, "ab") && s &&
		   !strcmp(s, cases[i].text), "dict read %s: %s", cases[i].text,
		   cases[i].msg[0] ? cases[i].msg : "keys copied, written back alike");
		if (rc && strncmp(e.msg, cases[i].msg, strlen(cases[i].msg)))
			diag("  rc %d, got '%s'", rc, e.msg);
		free(s);
		fields_free(&dict_fields, &d);
		json_decref(doc);
	}
}

/* A flat object left out only when empty, in a struct whose first member is a NULL pointer. */
struct flatty {
	const char *first;		/* NULL: no pointer of an object's */
	long long size;
};
static const struct field flatty_box_field[] = {
	FIELD_INT(struct flatty, size, "size", FIELD_OMIT_ZERO, 0, 100),
};
static const struct field_desc flatty_box_desc = FIELD_DESC("flatty_box", flatty_box_field);
static const struct field flatty_field[] = {
	FIELD_CSTR(struct flatty, first, "first", FIELD_OMIT_NULL),
	FIELD_OBJ_FLAT("box", FIELD_OMIT_ZERO, &flatty_box_desc),
};
static const struct field_desc flatty_desc = FIELD_DESC("flatty", flatty_field);

static void test_flat_omit(void)
{
	struct flatty f = { NULL, 7 };
	json_t *o = fields_write(&flatty_desc, &f);
	char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;

	tap_is_str(s, "{\"box\":{\"size\":7}}",
		   "write: a flat object with a member is written, whatever the struct's first pointer");
	free(s);
	json_decref(o);
	f.size = 0;
	o = fields_write(&flatty_desc, &f);
	s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	tap_is_str(s, "{}", "write: a flat object that would be empty is left out (FIELD_OMIT_ZERO)");
	free(s);
	json_decref(o);
}

/* A required field's refusal when missing says what it is for. */
static void test_hint(void)
{
	static const struct field hinted_field[] = {
		{ "box", FIELD_T_OBJECT, 0, FIELD_REQUIRED, .sub = &flatty_box_desc,
		  .hint = "(what it holds)" },
	};
	static const struct field_desc hinted_desc = FIELD_DESC("hinted", hinted_field);
	struct flatty f = { NULL, 7 };
	struct err e;
	struct jcheck c = { .name = "t", .err = &e };
	json_t *o = json_object();

	err_init(&e);
	tap_is_str(fields_read(&c, o, &hinted_desc, &f) ? e.msg : "(read)",
		   "t: missing required field \"box\" (what it holds)", "read: missing, with a hint");
	json_decref(o);
}

/*
 * The written-only shapes: a constant (read back and refused when another),
 * a pointer's being set as a boolean or a name, numbers null when not
 * finite, negative or not present, a fixed run of numbers with a stride, an
 * object reached through a pointer (null, or inline), a size_t count, and
 * an element's table picked by its member.
 */
struct fig {
	double mean, lo;
};
struct sub {
	const char *rev;
};
struct shape {
	const char *name;
	const void *owner;
	double pct, sd;
	bool has_pct;
	struct fig fig[2];
	const struct sub *at;
	size_t runs;
};
static const char *const sides[] = { "new", "base" };
static const struct field sub_field[] = {
	FIELD_CSTR(struct sub, rev, "rev", 0),
};
static const struct field_desc sub_desc = FIELD_DESC("sub", sub_field);
static const struct field shape_field[] = {
	FIELD_CONST_STR("schema", "shape"),
	FIELD_CONST_INT("version", 3),
	FIELD_SET(struct shape, owner, "owned", 0),
	FIELD_SET_OF(struct shape, owner, "side", 0, sides),
	FIELD_NUM_IF(struct shape, pct, has_pct, "pct", FIELD_SIGNED),
	FIELD_NUM(struct shape, sd, "sd", FIELD_NULL),
	FIELD_NUMS_FIXED(struct shape, fig[0].mean, "means", 0, 2, sizeof(struct fig)),
	FIELD_OBJ_PTR(struct shape, at, "at", FIELD_NULL, &sub_desc),
	{ "", FIELD_T_OBJECT, offsetof(struct shape, at), FIELD_INLINE | FIELD_DEREF,
	  .sub = &sub_desc },
	FIELD_SIZE(struct shape, runs, "runs", 0, 1000),
};
static const struct field_desc shape_desc = FIELD_DESC("shape", shape_field);
static const struct field named_field[] = {
	FIELD_CSTR(struct shape, name, "name", 0),
};
static const struct field_desc named_desc = FIELD_DESC("named", named_field);

static const struct field_desc *shape_pick(const void *p)
{
	return ((const struct shape *)p)->name ? &named_desc : &shape_desc;
}

static char *shape_dump(const struct field_desc *d, const void *p)
{
	json_t *o = fields_write(d, p);
	char *s = o ? json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;

	json_decref(o);
	return s;
}

static void test_written_only(void)
{
	static const struct field_desc picked = { .name = "picked", .pick = shape_pick };
	struct sub at = { "abc" };
	struct shape sh = { .owner = &at, .pct = -2.5, .sd = 0.5, .has_pct = true,
			    .fig = { { 1, 9 }, { 2, 9 } }, .at = &at, .runs = 4 };
	struct jcheck c = { .name = "t" };
	struct err e = { 0 };
	struct shape back = { 0 };
	json_t *o;
	char *s;

	s = shape_dump(&shape_desc, &sh);
	tap_is_str(s, "{\"schema\":\"shape\",\"version\":3,\"owned\":true,\"side\":\"base\","
		   "\"pct\":-2.5,\"sd\":0.5,\"means\":[1.0,2.0],\"at\":{\"rev\":\"abc\"},"
		   "\"rev\":\"abc\",\"runs\":4}", "write: every written-only shape, set");
	free(s);
	sh.owner = NULL;
	sh.has_pct = false;
	sh.sd = -1;
	sh.at = NULL;
	s = shape_dump(&shape_desc, &sh);
	tap_is_str(s, "{\"schema\":\"shape\",\"version\":3,\"owned\":false,\"side\":\"new\","
		   "\"pct\":null,\"sd\":null,\"means\":[1.0,2.0],\"at\":null,\"runs\":4}",
		   "write: unset pointers, a number not present and a negative one null");
	free(s);
	sh.sd = NAN;
	sh.name = "x";
	s = shape_dump(&picked, &sh);
	tap_is_str(s, "{\"name\":\"x\"}", "write: the table picked by the member");
	free(s);
	sh.name = NULL;
	s = shape_dump(&picked, &sh);
	ok(s && strstr(s, "\"sd\":null"), "write: a number not finite is null, by the other table");
	free(s);
	c.err = &e;
	o = json_pack("{s:s, s:i}", "schema", "shape", "version", 3);
	ok(!fields_read(&c, o, &shape_desc, &back), "read: the constants as written");
	json_decref(o);
	o = json_pack("{s:s, s:i}", "schema", "shop", "version", 3);
	ok(fields_read(&c, o, &shape_desc, &back) == -EINVAL &&
	   !strcmp(e.msg, "t: schema: \"shop\", not \"shape\""),
	   "read: another string than the constant is refused (%s)", e.msg);
	json_decref(o);
	o = json_pack("{s:s, s:i}", "schema", "shape", "version", 4);
	ok(fields_read(&c, o, &shape_desc, &back) == -EINVAL && strstr(e.msg, "version"),
	   "read: another integer than the constant is refused (%s)", e.msg);
	json_decref(o);
}

/* Integer lists: a counted one (min..max) and a fixed pair left out when one is < 0. */
struct ints {
	long long list[3];
	size_t n_list;
	long long pair[2];
};
static const struct field ints_field[] = {
	FIELD_INTS(struct ints, list, n_list, "list", FIELD_OMIT_ZERO, 2, 3, 0, 9, "slot"),
	FIELD_INTS_FIXED(struct ints, pair, "pair", 0, 2, 0, 99, "CPU"),
};
static const struct field_desc ints_desc = FIELD_DESC("ints", ints_field);

/* doc read into *in: "" when read, else the error line. */
static const char *ints_read(const char *doc, struct ints *in, struct err *e)
{
	struct jcheck c = { .name = "t", .err = e };
	json_t *o = json_loads(doc, 0, NULL);
	int rc;

	err_init(e);
	*in = (struct ints){ .pair = { -1, -1 } };
	rc = fields_read(&c, o, &ints_desc, in);
	json_decref(o);
	return rc ? e->msg : "";
}

static void test_ints(void)
{
	struct ints in = { { 1, 2, 3 }, 3, { 4, -1 } };
	struct err e;
	char *s = shape_dump(&ints_desc, &in);

	tap_is_str(s, "{\"list\":[1,2,3]}", "ints write: the counted list; a pair with a -1 left out");
	free(s);
	in.n_list = 0;
	in.pair[1] = 5;
	s = shape_dump(&ints_desc, &in);
	tap_is_str(s, "{\"pair\":[4,5]}", "ints write: the pair; an empty list left out");
	free(s);
	tap_is_str(ints_read("{\"list\":[0,9],\"pair\":[7,8]}", &in, &e), "",
		   "ints read: both lists");
	ok(in.n_list == 2 && in.list[1] == 9 && in.pair[0] == 7 && in.pair[1] == 8,
	   "ints read: the values and the count");
	tap_is_str(ints_read("{\"list\":[3]}", &in, &e), "t: list: 1 slots, want 2",
		   "ints read: too few, in the element's name");
	tap_is_str(ints_read("{\"pair\":[1,100]}", &in, &e),
		   "t: pair[1]: not a CPU number (an integer >= 0)", "ints read: above the range");
	tap_is_str(ints_read("{\"pair\":[1]}", &in, &e), "t: pair: 1 CPUs, want 2",
		   "ints read: a fixed pair wants both");
	ok(strstr(ints_read("{\"list\":[1,2,3,4]}", &in, &e), "t: list:") != NULL,
	   "ints read: more than max refused (%s)", e.msg);
}

/* Elements read by their own fields and then by a table picked by one of them, names unique. */
struct pk {
	const char *name;
	int counted;
	long long n;
	const char *why;
};
struct pks {
	struct pk *a;
	size_t n;
};
static const struct field pk_field[] = {
	FIELD_CSTR(struct pk, name, "name", FIELD_REQUIRED),
	FIELD_FLAG(struct pk, counted, "counted", FIELD_REQUIRED),
};
static const struct field pk_n_field[] = { FIELD_INT(struct pk, n, "n", FIELD_REQUIRED, 0, 9) };
static const struct field pk_why_field[] = { FIELD_CSTR(struct pk, why, "why", FIELD_REQUIRED) };
static const struct field_desc pk_n_desc = FIELD_DESC("pk_n", pk_n_field);
static const struct field_desc pk_why_desc = FIELD_DESC("pk_why", pk_why_field);

static const struct field_desc *pk_pick(const void *p)
{
	return ((const struct pk *)p)->counted ? &pk_n_desc : &pk_why_desc;
}

static const struct field_desc pk_desc = {
	.name = "pk", .f = pk_field, .n = ARRAY_SIZE(pk_field), .pick = pk_pick
};
static const struct field pks_field[] = {
	FIELD_ARRAY(struct pks, a, n, "pks", FIELD_REQUIRED | FIELD_UNIQUE, &pk_desc, struct pk,
		    9, NULL),
};
static const struct field_desc pks_desc = FIELD_DESC("pks", pks_field);

static void test_picked_read(void)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "{\"pks\":[{\"name\":\"a\",\"counted\":true,\"n\":3},"
		  "{\"name\":\"b\",\"counted\":false,\"why\":\"x\"}]}", "" },
		{ "{\"pks\":[{\"name\":\"a\",\"counted\":true,\"why\":\"x\"}]}",
		  "t: pks[0]: missing required field \"n\"" },
		{ "{\"pks\":[{\"name\":\"a\",\"counted\":false,\"n\":3}]}",
		  "t: pks[0]: missing required field \"why\"" },
		{ "{\"pks\":[{\"name\":\"a\",\"counted\":true,\"n\":3},"
		  "{\"name\":\"a\",\"counted\":false,\"why\":\"x\"}]}",
		  "t: pks[1].name: duplicate pk \"a\" (also pks[0])" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct err e;
		struct jcheck c = { .name = "t", .err = &e };
		json_t *doc = json_loads(cases[i].text, 0, NULL);
		struct pks ps = { NULL, 0 };
		int rc;
		char *s = NULL;

		err_init(&e);
		rc = fields_read(&c, doc, &pks_desc, &ps);
		if (!rc)
			s = shape_dump(&pks_desc, &ps);
		if (cases[i].msg[0])
			tap_is_str(rc ? e.msg : "(read)", cases[i].msg, "picked read: refused");
		else
			ok(!rc && ps.n == 2 && ps.a[0].n == 3 && !strcmp(ps.a[1].why, "x") && s &&
			   !strcmp(s, cases[i].text), "picked read: each element by its table, "
			   "written back alike");
		free(s);
		fields_free(&pks_desc, &ps);
		json_decref(doc);
	}
}

/* A nested object that is its own outermost struct for the per-op figures in it. */
struct per {
	long long ops;
	long long n;
};
struct outer {
	long long ops;
	struct per per;
	bool has_per;
};
static const struct field per_field[] = {
	FIELD_INT(struct per, ops, "ops", FIELD_REQUIRED, 1, 100),
	FIELD_PER_OP(struct per, n, "n", "n_per_op", 0, 100, struct per, ops),
};
static const struct field_desc per_desc = FIELD_DESC("per", per_field);
static const struct field outer_field[] = {
	FIELD_INT(struct outer, ops, "ops", FIELD_REQUIRED, 1, 100),
	FIELD_OBJ_P(struct outer, per, has_per, "per", FIELD_ROOT, &per_desc),
};
static const struct field_desc outer_desc = FIELD_DESC("outer", outer_field);

static void test_own_root(void)
{
	struct outer o = { 2, { 4, 3 }, true }, back = { 0 };
	struct err e;
	struct jcheck c = { .name = "t", .err = &e };
	char *s = shape_dump(&outer_desc, &o);
	json_t *doc = json_loads("{\"ops\":1,\"per\":{\"ops\":10,\"n\":5,\"n_per_op\":5.0}}",
				 0, NULL);

	tap_is_str(s, "{\"ops\":2,\"per\":{\"ops\":4,\"n\":3,\"n_per_op\":0.75}}",
		   "root write: per-op by the object's own ops");
	err_init(&e);
	tap_is_str(fields_read(&c, doc, &outer_desc, &back) ? e.msg : "(read)",
		   "t: per.n_per_op: 5 is not n / ops (0.5)", "root read: checked by its own ops");
	free(s);
	json_decref(doc);
}

/* A producer's array grown one element at a time keeps what it holds. */
static void test_grow(void)
{
	long long *a = NULL, *g;
	size_t n = 0, cap = 0;
	bool kept = true;

	for (; n < 20 && (g = fields_grow(a, n, &cap, sizeof(*a))); n++) {
		a = g;
		a[n] = 3 * (long long)n;
	}
	for (size_t i = 0; i < n; i++)
		kept &= a[i] == 3 * (long long)i;
	ok(n == 20 && cap >= 20 && kept, "grow: 20 elements, each kept (room for %zu)", cap);
	free(a);
}

/* An object read into a struct the reader allocates and sets up, freed by fields_free. */
struct boxed {
	long long v, dflt;
};
struct owner {
	struct boxed *b;
};
static const struct field boxed_field[] = {
	FIELD_INT(struct boxed, v, "v", FIELD_REQUIRED, 0, 9),
};

static void boxed_init(void *p)
{
	((struct boxed *)p)->dflt = 5;
}

static const struct field_desc boxed_desc = FIELD_DESC_INIT("boxed", boxed_field, NULL, boxed_init);
static const struct field owner_field[] = {
	FIELD_OBJ_OWN(struct owner, b, "b", 0, &boxed_desc),
};
static const struct field_desc owner_desc = FIELD_DESC("owner", owner_field);

static void test_own(void)
{
	static const char *const docs[] = { "{\"b\":{\"v\":3}}", "{\"b\":{}}", "{}" };
	struct owner o[3] = { { NULL } };
	struct err e;
	struct jcheck c = { .name = "t", .err = &e };
	char *s;
	int rc[3];

	for (size_t i = 0; i < 3; i++) {
		json_t *doc = json_loads(docs[i], 0, NULL);

		err_init(&e);
		rc[i] = fields_read(&c, doc, &owner_desc, &o[i]);
		json_decref(doc);
	}
	s = shape_dump(&owner_desc, &o[0]);
	ok(!rc[0] && o[0].b && o[0].b->v == 3 && o[0].b->dflt == 5,
	   "own read: allocated, set up by init, read");
	tap_is_str(s, docs[0], "own write: through the pointer, as read");
	ok(rc[1] == -EINVAL && o[1].b && !rc[2] && !o[2].b,
	   "own read: kept for fields_free on failure; absent, none allocated");
	for (size_t i = 0; i < 3; i++)
		fields_free(&owner_desc, &o[i]);
	ok(!o[0].b && !o[1].b, "own free: freed, the pointers NULL");
	free(s);
}

int main(void)
{
	tap_plan(19 + 7 + 6 + 5 + 2 + 7 + 8 + 4 + 2 + 1 + 1 + 4);
	test_write();
	test_round_trip();
	test_errors();
	test_fixed();
	test_tally();
	test_dict();
	test_flat_omit();
	test_written_only();
	test_ints();
	test_picked_read();
	test_own_root();
	test_hint();
	test_grow();
	test_own();
	return tap_done();
}
