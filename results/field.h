/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * field.h - a result kind's fields described once: a table of (JSON key,
 * type, bounds, required or not, offset into the C struct) that drives the
 * kind's writer, its reader (through jcheck, so the error lines are
 * jcheck's), and tests/test_schema_doc.c, which holds the table against
 * docs/results-schema.md and docs/results-schema.json.
 */
#ifndef EXITSCOPE_RESULTS_FIELD_H
#define EXITSCOPE_RESULTS_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "results/jcheck.h"

enum field_type {
	FIELD_T_STRING,	/* char *, malloc'd by the reader; NULL is written as "" */
	FIELD_T_ENUM,	/* an enum (int-sized), written as names[value] */
	FIELD_T_INT,	/* long long in [min, max] */
	FIELD_T_NUM,	/* double, finite and >= 0 */
	FIELD_T_BOOL,	/* bool */
	FIELD_T_N
};

enum {
	FIELD_REQUIRED	= 1 << 0,	/* the reader refuses a document without it */
	FIELD_EMPTY_OK	= 1 << 1,	/* FIELD_T_STRING: "" is a valid value */
	FIELD_OMIT_ZERO	= 1 << 2,	/* the writer leaves it out when "" (or NULL) / 0 / false */
};

struct field {
	const char *key;
	enum field_type type;
	size_t off;			/* offsetof(struct, member) */
	unsigned flags;			/* FIELD_* */
	long long min, max;		/* FIELD_T_INT */
	const char *const *names;	/* FIELD_T_ENUM: names[0..n_names-1] */
	int n_names;
};

/* One kind: its name in the schema documents and its fields in writing order. */
struct field_desc {
	const char *name;
	const struct field *f;
	size_t n;
};

/* offsetof(st, m), refused at compile time unless m has the size of T. */
#define FIELD_OFF(st, m, T)								\
	(offsetof(st, m) + 0 * sizeof(char[sizeof(((st *)0)->m) == sizeof(T) ? 1 : -1]))

#define FIELD_DESC(name_, table) { (name_), (table), sizeof(table) / sizeof((table)[0]) }
#define FIELD_STR(st, m, key, fl)	{ (key), FIELD_T_STRING, FIELD_OFF(st, m, char *), (fl), 0, 0, NULL, 0 }
#define FIELD_ENUM(st, m, key, fl, names_, n_)						\
	{ (key), FIELD_T_ENUM, FIELD_OFF(st, m, int), (fl), 0, 0, (names_), (n_) }
#define FIELD_INT(st, m, key, fl, min_, max_)						\
	{ (key), FIELD_T_INT, FIELD_OFF(st, m, long long), (fl), (min_), (max_), NULL, 0 }
#define FIELD_NUM(st, m, key, fl)	{ (key), FIELD_T_NUM, FIELD_OFF(st, m, double), (fl), 0, 0, NULL, 0 }
#define FIELD_BOOL(st, m, key, fl)	{ (key), FIELD_T_BOOL, FIELD_OFF(st, m, bool), (fl), 0, 0, NULL, 0 }

/*
 * obj (an object at c's current path) into the struct at p, field by field
 * in table order, each through its jcheck getter. An absent optional field
 * leaves its member alone, except a string, which becomes "" (so every
 * string read is a real one). 0, or a negative errno with the message in
 * c ("out of memory" too); either way the strings read so far are p's
 * (fields_free).
 */
int fields_read(struct jcheck *c, json_t *obj, const struct field_desc *d, void *p);
/* The struct at p as a new JSON object (NULL: out of memory). */
json_t *fields_write(const struct field_desc *d, const void *p);
/* Free p's FIELD_T_STRING members (set to NULL). */
void fields_free(const struct field_desc *d, void *p);

/* "string", "enum", ...: a type's name, for tests and messages. */
const char *field_type_name(enum field_type t);

#endif
