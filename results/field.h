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

#include "base/array_size.h"
#include "results/jcheck.h"

enum field_type {
	FIELD_T_STRING,	/* char *, malloc'd by the reader; NULL is written as "" */
	FIELD_T_ENUM,	/* an enum (int-sized), written as names[value]; a names[0] of ""
			 * is "none", never read from a file */
	FIELD_T_INT,	/* long long in [min, max] (FIELD_INT32: an int) */
	FIELD_T_NUM,	/* double, finite and >= 0 */
	FIELD_T_BOOL,	/* bool */
	/* Models that borrow from the document and nest (host, run). */
	FIELD_T_CSTR,	/* const char *, borrowed: the reader points it into the document;
			 * with names, one of names[] (the member points at that name) */
	FIELD_T_FLAG,	/* int 0/1 as a boolean (a negative int: absent) */
	FIELD_T_OBJECT,	/* a nested object: sub's fields at off (0: the same struct) */
	FIELD_T_ARRAY,	/* sub structs of size elem at the pointer at off, the count
			 * (size_t) at off2; at most max */
	FIELD_T_MAP,	/* an object of key -> value: structs of size elem, each a
			 * const char *key first and sub's one field the value; or,
			 * when sub has two, its first (CHARS) the key, copied (longer
			 * refused), its second the value; sub's name what a key is */
	FIELD_T_STRINGS, /* const char ** at off, count at off2, at most max, borrowed */
	FIELD_T_NUMS,	/* double * at off, count at off2: finite numbers, at most max */
	FIELD_T_CUSTOM,	/* written and read by the hooks in custom */
	FIELD_T_CHARS,	/* char[elem], "" when absent; too long is refused (FIELD_CUT: cut) */
	FIELD_T_CONST,	/* no member: names[0] (a string) or min (an integer) is written,
			 * and the reader refuses another value */
	FIELD_T_SET,	/* a pointer, written as whether it is set (names: names[set]) */
	FIELD_T_INTS,	/* long long[max] at off, the count (size_t) at off2: min..max of
			 * them, each in [lo, hi] (FIELD_FIXED: max, no count) */
	FIELD_T_N
};

enum {
	FIELD_REQUIRED	= 1 << 0,	/* the reader refuses a document without it */
	FIELD_EMPTY_OK	= 1 << 1,	/* STRING, CSTR: "" is a valid value */
	FIELD_OMIT_ZERO	= 1 << 2,	/* the writer leaves it out when "" (or NULL) / 0 / false;
					 * an array when empty; an object when it has no member */
	FIELD_OMIT_NEG	= 1 << 3,	/* INT, NUM, ENUM, FLAG: a negative value is absent, not written */
	FIELD_OMIT_NULL	= 1 << 4,	/* a pointer (CSTR, arrays, MAP) is not written when NULL */
	FIELD_SIGNED	= 1 << 5,	/* NUM, NUMS: any finite number, not only >= 0 */
	FIELD_PRESENT	= 1 << 6,	/* the bool at off_present says whether it is there (OBJECT,
					 * ARRAY, MAP: the reader sets it); not written without,
					 * or null with FIELD_NULL */
	FIELD_INLINE	= 1 << 7,	/* OBJECT: sub's fields are this object's own (no key) */
	FIELD_CUT	= 1 << 8,	/* CHARS: free text, cut (UTF-8 whole) to fit */
	FIELD_PER_OP	= 1 << 9,	/* INT: key2 beside it is it / the long long at off2 of the
					 * outermost struct (its ops), written so and read checked;
					 * or of the nearest FIELD_ROOT object's */
	FIELD_NULL	= 1 << 10,	/* CSTR: JSON null is NULL (written so; absent is
					 * NULL too unless required); written only: NUM
					 * null when not finite or negative (FIELD_SIGNED:
					 * not finite), OBJECT null when FIELD_DEREF's
					 * pointer is NULL */
	FIELD_BARE	= 1 << 11,	/* ARRAY: an element not an object is "not an object" */
	FIELD_DEREF	= 1 << 12,	/* OBJECT: sub's struct is at the pointer at off (NULL:
					 * not written, or null with FIELD_NULL); written only */
	FIELD_FIXED	= 1 << 13,	/* NUMS: max doubles, the first at off, each elem bytes after
					 * the one before (no pointer, no count); written only.
					 * INTS: always max, not written when one is < 0 */
	FIELD_UNIQUE	= 1 << 14,	/* ARRAY: an element's first field, a string, repeats none
					 * of those before it ("duplicate <sub's name> ...") */
	FIELD_ROOT	= 1 << 15,	/* OBJECT: the outermost struct of its FIELD_PER_OP counts */
	FIELD_OWN	= 1 << 16,	/* FIELD_DEREF: read too, into a struct of elem bytes the
					 * reader allocates (sub's init), fields_free frees */
};

struct field;
struct field_desc;

/* A field the table cannot spell: p is the struct the field is a member of. */
struct field_custom {
	json_t *(*write)(const void *p, bool *omit);	/* NULL + !*omit: out of memory */
	int (*read)(struct jcheck *c, json_t *obj, void *p);	/* reads the key itself; NULL:
								 * written only */
	void (*free)(void *p);				/* may be NULL */
};

struct field {
	const char *key;
	enum field_type type;
	size_t off;			/* offsetof(struct, member) */
	unsigned flags;			/* FIELD_* */
	long long min, max;		/* FIELD_T_INT; max: arrays' and maps' most entries */
	const char *const *names;	/* ENUM (and CSTR): names[0..n_names-1] */
	int n_names;
	size_t off2;			/* ARRAY, MAP, STRINGS, NUMS: the count */
	size_t off_present;		/* FIELD_PRESENT: the bool saying it is there */
	const struct field_desc *sub;	/* OBJECT, ARRAY, MAP: the elements' table */
	size_t elem;			/* ARRAY, MAP: sizeof an element; CHARS: the
					 * buffer's; INT: sizeof(int) for an int member */
	const char *empty;		/* ARRAY, NUMS: refused empty with this message */
	const struct field_custom *custom;
	const char *key2;		/* FIELD_PER_OP */
	long long lo, hi;		/* INTS: each element's range */
	const char *what;		/* INTS: an element's name in the refusals */
	const char *hint;		/* FIELD_REQUIRED: after "missing required field" */
};

/* One kind: its name in the schema documents and its fields in writing order. */
struct field_desc {
	const char *name;
	const struct field *f;
	size_t n;
	/* Optional: a rule across fields, run once they are read (at the object's path). */
	int (*check)(struct jcheck *c, const void *p);
	/* Optional: an ARRAY's element is zeroed, then given to init, before it is read. */
	void (*init)(void *p);
	/*
	 * Optional: the table p is written and read by after these fields (e.g. by a
	 * member's value they read); fields_free leaves it to the caller.
	 */
	const struct field_desc *(*pick)(const void *p);
};

/* offsetof(st, m), refused at compile time unless m has the size of T. */
#define FIELD_OFF(st, m, T)								\
	(offsetof(st, m) + 0 * sizeof(char[sizeof(((st *)0)->m) == sizeof(T) ? 1 : -1]))

#define FIELD_DESC(name_, table)							\
	{ .name = (name_), .f = (table), .n = ARRAY_SIZE(table) }
#define FIELD_STR(st, m, key, fl)	{ (key), FIELD_T_STRING, FIELD_OFF(st, m, char *), (fl), .names = NULL }
#define FIELD_ENUM(st, m, key, fl, names_, n_)						\
	{ (key), FIELD_T_ENUM, FIELD_OFF(st, m, int), (fl), .names = (names_), .n_names = (n_) }
#define FIELD_INT(st, m, key, fl, min_, max_)						\
	{ (key), FIELD_T_INT, FIELD_OFF(st, m, long long), (fl), .min = (min_), .max = (max_) }
#define FIELD_INT32(st, m, key, fl, min_, max_)						\
	{ (key), FIELD_T_INT, FIELD_OFF(st, m, int), (fl), .min = (min_), .max = (max_),	\
	  .elem = sizeof(int) }
/* A count and its per-op figure key2 (count / root's ops). */
#define FIELD_PER_OP(st, m, key, key2_, min_, max_, root, ops)				\
	{ (key), FIELD_T_INT, FIELD_OFF(st, m, long long), FIELD_REQUIRED | FIELD_PER_OP,	\
	  .min = (min_), .max = (max_), .off2 = FIELD_OFF(root, ops, long long), .key2 = (key2_) }
#define FIELD_CHARS(st, m, key, fl)							\
	{ (key), FIELD_T_CHARS, FIELD_OFF(st, m, char[sizeof(((st *)0)->m)]), (fl),		\
	  .elem = sizeof(((st *)0)->m) }
#define FIELD_NUM(st, m, key, fl)	{ (key), FIELD_T_NUM, FIELD_OFF(st, m, double), (fl), .names = NULL }
#define FIELD_BOOL(st, m, key, fl)	{ (key), FIELD_T_BOOL, FIELD_OFF(st, m, bool), (fl), .names = NULL }
/* A size_t count, written as an integer (read as one in [0, max_]). */
#define FIELD_SIZE(st, m, key, fl, max_)						\
	{ (key), FIELD_T_INT, FIELD_OFF(st, m, size_t), (fl), .min = 0, .max = (max_) }
/* A number written null when the bool present says it is not there (FIELD_NULL). */
#define FIELD_NUM_IF(st, m, present, key, fl)						\
	{ (key), FIELD_T_NUM, FIELD_OFF(st, m, double), (fl) | FIELD_NULL | FIELD_PRESENT,	\
	  .off_present = FIELD_OFF(st, present, bool) }
/* n doubles from st's m, each stride bytes after the one before, as an array. */
#define FIELD_NUMS_FIXED(st, m, key, fl, n_, stride)					\
	{ (key), FIELD_T_NUMS, FIELD_OFF(st, m, double), (fl) | FIELD_FIXED, .max = (n_),	\
	  .elem = (stride) }
#define FIELD_CONST_STR(key, s)	{ (key), FIELD_T_CONST, 0, FIELD_REQUIRED,		\
				  .names = (const char *const[]){ (s) }, .n_names = 1 }
#define FIELD_CONST_INT(key, v)	{ (key), FIELD_T_CONST, 0, FIELD_REQUIRED, .min = (v), .max = (v) }
/* Whether the pointer at st's m is set, as a boolean (names_: {unset, set} names instead). */
#define FIELD_SET(st, m, key, fl)	{ (key), FIELD_T_SET, FIELD_OFF(st, m, void *), (fl), .names = NULL }
#define FIELD_SET_OF(st, m, key, fl, names_)						\
	{ (key), FIELD_T_SET, FIELD_OFF(st, m, void *), (fl), .names = (names_), .n_names = 2 }
#define FIELD_DESC_CHECK(name_, table, check_)						\
	{ .name = (name_), .f = (table), .n = ARRAY_SIZE(table), .check = (check_) }
#define FIELD_DESC_INIT(name_, table, check_, init_)					\
	{ .name = (name_), .f = (table), .n = ARRAY_SIZE(table), .check = (check_), \
	  .init = (init_) }
#define FIELD_CSTR(st, m, key, fl)							\
	{ (key), FIELD_T_CSTR, FIELD_OFF(st, m, char *), (fl), .names = NULL }
#define FIELD_CSTR_OF(st, m, key, fl, names_, n_)					\
	{ (key), FIELD_T_CSTR, FIELD_OFF(st, m, char *), (fl), .names = (names_), .n_names = (n_) }
#define FIELD_FLAG(st, m, key, fl)	{ (key), FIELD_T_FLAG, FIELD_OFF(st, m, int), (fl), .names = NULL }
#define FIELD_OBJ(st, m, key, fl, sub_)							\
	{ (key), FIELD_T_OBJECT, offsetof(st, m), (fl), .sub = (sub_) }
/* A nested object made of members of st itself (sub's offsets are st's). */
#define FIELD_OBJ_FLAT(key, fl, sub_)	{ (key), FIELD_T_OBJECT, 0, (fl), .sub = (sub_) }
/* sub's fields, members of the struct at st's m, written into this object itself. */
#define FIELD_INLINE_OBJ(st, m, sub_)							\
	{ "", FIELD_T_OBJECT, offsetof(st, m), FIELD_INLINE, .sub = (sub_) }
#define FIELD_OBJ_P(st, m, present, key, fl, sub_)					\
	{ (key), FIELD_T_OBJECT, offsetof(st, m), (fl) | FIELD_PRESENT,			\
	  .off_present = FIELD_OFF(st, present, bool), .sub = (sub_) }
/* An object whose struct is at the pointer st's m (written only). */
#define FIELD_OBJ_PTR(st, m, key, fl, sub_)						\
	{ (key), FIELD_T_OBJECT, FIELD_OFF(st, m, void *), (fl) | FIELD_DEREF, .sub = (sub_) }
/* The same, read into one the reader allocates (FIELD_OWN). */
#define FIELD_OBJ_OWN(st, m, key, fl, sub_)						\
	{ (key), FIELD_T_OBJECT, FIELD_OFF(st, m, void *), (fl) | FIELD_DEREF | FIELD_OWN,	\
	  .sub = (sub_), .elem = sizeof(*((st *)0)->m) }
#define FIELD_ARRAY(st, m, n, key, fl, sub_, et, max_, empty_)				\
	{ (key), FIELD_T_ARRAY, FIELD_OFF(st, m, et *), (fl), .max = (max_),		\
	  .off2 = FIELD_OFF(st, n, size_t), .sub = (sub_), .elem = sizeof(et), .empty = (empty_) }
#define FIELD_MAP(st, m, n, key, fl, sub_, et, max_)					\
	{ (key), FIELD_T_MAP, FIELD_OFF(st, m, et *), (fl), .max = (max_),		\
	  .off2 = FIELD_OFF(st, n, size_t), .sub = (sub_), .elem = sizeof(et) }
#define FIELD_ARRAY_P(st, m, n, present, key, fl, sub_, et, max_)			\
	{ (key), FIELD_T_ARRAY, FIELD_OFF(st, m, et *), (fl) | FIELD_PRESENT, .max = (max_),	\
	  .off2 = FIELD_OFF(st, n, size_t), .off_present = FIELD_OFF(st, present, bool),	\
	  .sub = (sub_), .elem = sizeof(et) }
#define FIELD_MAP_P(st, m, n, present, key, fl, sub_, et, max_)				\
	{ (key), FIELD_T_MAP, FIELD_OFF(st, m, et *), (fl) | FIELD_PRESENT, .max = (max_),	\
	  .off2 = FIELD_OFF(st, n, size_t), .off_present = FIELD_OFF(st, present, bool),	\
	  .sub = (sub_), .elem = sizeof(et) }
#define FIELD_STRINGS(st, m, n, key, fl, max_)						\
	{ (key), FIELD_T_STRINGS, FIELD_OFF(st, m, char **), (fl), .max = (max_),	\
	  .off2 = FIELD_OFF(st, n, size_t) }
#define FIELD_NUMS(st, m, n, key, fl, max_, empty_)					\
	{ (key), FIELD_T_NUMS, FIELD_OFF(st, m, double *), (fl), .max = (max_),		\
	  .off2 = FIELD_OFF(st, n, size_t), .empty = (empty_) }
/*
 * Integers in st's long long m[max_], n of them (min_..max_), each in [lo_, hi_];
 * what_ names one: "1 CPUs, want 2", "not a CPU number (an integer >= 0)".
 */
#define FIELD_INTS(st, m, n, key, fl, min_, max_, lo_, hi_, what_)			\
	{ (key), FIELD_T_INTS, FIELD_OFF(st, m, long long[max_]), (fl), .min = (min_),	\
	  .max = (max_), .off2 = FIELD_OFF(st, n, size_t), .lo = (lo_), .hi = (hi_), .what = (what_) }
/* Always n_ of them (no count); left out when one is < 0. */
#define FIELD_INTS_FIXED(st, m, key, fl, n_, lo_, hi_, what_)				\
	{ (key), FIELD_T_INTS, FIELD_OFF(st, m, long long[n_]), (fl) | FIELD_FIXED,		\
	  .min = (n_), .max = (n_), .lo = (lo_), .hi = (hi_), .what = (what_) }
#define FIELD_CUSTOM(key, fl, custom_)	{ (key), FIELD_T_CUSTOM, 0, (fl), .custom = (custom_) }

/*
 * obj (an object at c's current path) into the struct at p, field by field
 * through jcheck's getters: the required fields first, then the others,
 * each in table order, then the table's check. An absent optional field
 * leaves its member alone, except a FIELD_T_STRING, which becomes "" (so
 * every such string read is a real one). 0, or a negative errno with the
 * message in c ("out of memory" too); either way what was read so far is
 * p's (fields_free).
 */
int fields_read(struct jcheck *c, json_t *obj, const struct field_desc *d, void *p);
/* The struct at p as a new JSON object (NULL: out of memory). */
json_t *fields_write(const struct field_desc *d, const void *p);
/* n structs of size size at a as a new JSON array, each by d (NULL: out of memory). */
json_t *fields_write_array(const struct field_desc *d, const void *a, size_t n, size_t size);
/*
 * Free what fields_read allocated in p: FIELD_T_STRING members, arrays
 * (with their elements' own), custom members; pointers become NULL and
 * counts 0. Borrowed strings stay with the document.
 */
void fields_free(const struct field_desc *d, void *p);

/*
 * Element i of the array a (elements of size size) has in the string (const
 * char *) field kf a value none before it has, else it is refused at kf's key,
 * "duplicate <what> \"<value>\" (also <key>[<j>])" (FIELD_UNIQUE). 0 or -EINVAL.
 */
int fields_unique(struct jcheck *c, const void *a, size_t i, size_t size,
		  const struct field *kf, const char *what, const char *key);
/*
 * Room for one more element of size size after the n at arr (*cap of them
 * allocated; 0 after fields_read, which allocates n exactly): arr, maybe
 * moved, or NULL (out of memory; arr is left as it was).
 */
void *fields_grow(void *arr, size_t n, size_t *cap, size_t size);

/* "string", "enum", ...: a type's name, for tests and messages. */
const char *field_type_name(enum field_type t);

#endif
