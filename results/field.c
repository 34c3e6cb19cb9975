// SPDX-License-Identifier: GPL-2.0-only
/* field.c - read and write a struct by its field table (results/field.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/field.h"

#define MEMBER(p, f, type) ((type *)((char *)(p) + (f)->off))
#define CMEMBER(p, f, type) ((const type *)((const char *)(p) + (f)->off))
#define COUNT(p, f) ((size_t *)((char *)(p) + (f)->off2))
#define CCOUNT(p, f) (*(const size_t *)((const char *)(p) + (f)->off2))
#define PRESENT(p, f) ((bool *)((char *)(p) + (f)->off_present))
#define CPRESENT(p, f) (*(const bool *)((const char *)(p) + (f)->off_present))

static int field_read(struct jcheck *c, json_t *obj, const struct field *f, void *p,
		      const void *root);
static int table_read(struct jcheck *c, json_t *obj, const struct field_desc *d, void *p,
		      const void *root);

/* An array or map field's n elements of size f->elem, zeroed, at f's pointer. */
static void *elems_alloc(struct jcheck *c, const struct field *f, void *p, size_t n, size_t size)
{
	void *a = jcheck_calloc(n, size);

	if (!a)
		jcheck_fail(c, "out of memory");
	*MEMBER(p, f, void *) = a;
	return a;
}

static int object_read(struct jcheck *c, json_t *obj, const struct field *f, void *p, int req,
		       const void *root)
{
	char *sp = (char *)p + f->off;
	json_t *o;
	size_t mark;
	int rc;

	if (f->flags & FIELD_INLINE)
		return table_read(c, obj, f->sub, sp, root);
	rc = jcheck_object(c, obj, f->key, req, &o);
	if (rc)
		return rc;
	mark = jcheck_push_key(c, f->key);
	if ((f->flags & FIELD_OWN) && !(sp = *MEMBER(p, f, char *) = calloc(1, f->elem)))
		return jcheck_fail(c, "out of memory");
	if ((f->flags & FIELD_OWN) && f->sub->init)
		f->sub->init(sp);
	JCHECK_TRY(table_read(c, o, f->sub, sp, f->flags & FIELD_ROOT ? sp : root));
	if (f->flags & FIELD_PRESENT)
		*PRESENT(p, f) = true;
	jcheck_pop(c, mark);
	return 0;
}

int fields_unique(struct jcheck *c, const void *a, size_t i, size_t size,
		  const struct field *kf, const char *what, const char *key)
{
	const char *s = *(const char *const *)((const char *)a + i * size + kf->off);
	char q[80];

	for (size_t j = 0; j < i; j++)
		if (!strcmp(*(const char *const *)((const char *)a + j * size + kf->off), s)) {
			jcheck_push_key(c, kf->key);
			return jcheck_fail(c, "duplicate %s \"%s\" (also %s[%zu])", what,
					   jcheck_quote(s, q, sizeof(q)), key, j);
		}
	return 0;
}

static int array_read(struct jcheck *c, json_t *obj, const struct field *f, void *p, int req,
		      const void *root)
{
	json_t *arr, *v;
	size_t i, mark, m;
	char *a;
	int rc = jcheck_array(c, obj, f->key, req, f->max, &arr);

	if (rc)
		return rc;
	mark = jcheck_push_key(c, f->key);
	if (!json_array_size(arr) && f->empty)
		return jcheck_fail(c, "%s", f->empty);
	if (!(a = elems_alloc(c, f, p, json_array_size(arr), f->elem)))
		return -ENOMEM;
	if (f->flags & FIELD_PRESENT)
		*PRESENT(p, f) = true;
	json_array_foreach(arr, i, v) {
		m = jcheck_push_index(c, i);
		*COUNT(p, f) = i + 1;
		if (!json_is_object(v) && (f->flags & FIELD_BARE))
			return jcheck_fail(c, "not an object");
		if (!json_is_object(v))
			return jcheck_fail(c, "not an object (found %s)", jcheck_type_name(v));
		if (f->sub->init)
			f->sub->init(a + i * f->elem);
		JCHECK_TRY(table_read(c, v, f->sub, a + i * f->elem, root));
		if (f->flags & FIELD_UNIQUE)
			JCHECK_TRY(fields_unique(c, a, i, f->elem, &f->sub->f[0], f->sub->name,
						 f->key));
		jcheck_pop(c, m);
	}
	jcheck_pop(c, mark);
	return 0;
}

static int map_read(struct jcheck *c, json_t *obj, const struct field *f, void *p, int req,
		    const void *root)
{
	const struct field_desc *sub = f->sub;
	const struct field *kf = sub->n == 2 ? &sub->f[0] : NULL;
	json_t *o, *v;
	const char *key;
	size_t mark, i = 0, n;
	char *a;
	int rc = jcheck_object(c, obj, f->key, req, &o);

	if (rc)
		return rc;
	mark = jcheck_push_key(c, f->key);
	n = json_object_size(o);
	if (n > (size_t)f->max)
		return kf ? jcheck_fail(c, "too many %ss (%zu, limit %lld)", sub->name, n, f->max) :
			    jcheck_fail(c, "too many entries");
	if (!(a = elems_alloc(c, f, p, n, f->elem)))
		return -ENOMEM;
	if (f->flags & FIELD_PRESENT)
		*PRESENT(p, f) = true;
	json_object_foreach(o, key, v) {
		struct field vf = sub->f[!!kf];
		char *e = a + i * f->elem;

		if (kf && strlen(key) >= kf->elem)
			return jcheck_fail(c, "%s longer than %zu characters", sub->name,
					   kf->elem - 1);
		if (kf)
			strcpy(e + kf->off, key);
		vf.key = key;
		JCHECK_TRY(field_read(c, o, &vf, e, root));
		if (!kf)
			*(const char **)e = key;
		*COUNT(p, f) = ++i;
	}
	jcheck_pop(c, mark);
	return 0;
}

static int nums_read(struct jcheck *c, json_t *obj, const struct field *f, void *p, int req)
{
	bool any = f->flags & FIELD_SIGNED;
	json_t *arr, *v;
	size_t i, mark;
	double *a, d;
	int rc = jcheck_array(c, obj, f->key, req, f->max, &arr);

	if (rc)
		return rc;
	mark = jcheck_push_key(c, f->key);
	if (!json_array_size(arr) && f->empty)
		return jcheck_fail(c, "%s", f->empty);
	if (!(a = elems_alloc(c, f, p, json_array_size(arr), sizeof(double))))
		return -ENOMEM;
	json_array_foreach(arr, i, v) {
		d = json_is_number(v) ? json_number_value(v) : -1;
		if (!json_is_number(v) || !isfinite(d) || (!any && !(d >= 0))) {
			jcheck_push_index(c, i);
			return jcheck_fail(c, any ? "not a finite number" :
					   "not a finite non-negative number");
		}
		a[i] = d;
	}
	*COUNT(p, f) = json_array_size(arr);
	jcheck_pop(c, mark);
	return 0;
}

/* Integers into the long longs at f (FIELD_T_INTS). */
static int ints_read(struct jcheck *c, json_t *obj, const struct field *f, void *p, int req)
{
	json_t *arr, *v;
	size_t i, mark;
	int rc = jcheck_array(c, obj, f->key, req, f->max, &arr);

	if (rc)
		return rc;
	mark = jcheck_push_key(c, f->key);
	if (json_array_size(arr) < (size_t)f->min)
		return jcheck_fail(c, "%zu %ss, want %lld", json_array_size(arr), f->what, f->min);
	json_array_foreach(arr, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < f->lo ||
		    json_integer_value(v) > f->hi) {
			jcheck_push_index(c, i);
			return jcheck_fail(c, "not a %s number (an integer >= %lld)", f->what,
					   f->lo);
		}
		MEMBER(p, f, long long)[i] = json_integer_value(v);
	}
	if (!(f->flags & FIELD_FIXED))
		*COUNT(p, f) = json_array_size(arr);
	jcheck_pop(c, mark);
	return 0;
}

/* A string into the buffer at f (f->elem long): too long is refused, or cut when FIELD_CUT. */
static int chars_read(struct jcheck *c, json_t *obj, const struct field *f, void *p, int req)
{
	char *buf = MEMBER(p, f, char);
	const char *s;
	size_t n, mark;
	int rc = jcheck_string(c, obj, f->key, req, !!(f->flags & FIELD_EMPTY_OK), &s);

	if (rc)
		return rc;
	n = strlen(s);
	if (n >= f->elem) {
		if (!(f->flags & FIELD_CUT)) {
			mark = jcheck_push_key(c, f->key);
			rc = jcheck_fail(c, "longer than %zu characters", f->elem - 1);
			jcheck_pop(c, mark);
			return rc;
		}
		n = f->elem - 1;
		while (n && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;	/* not inside a UTF-8 sequence */
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

/* The per-op figure beside a count (FIELD_PER_OP): count / the outermost struct's ops. */
static double per_op(const struct field *f, long long n, const void *root)
{
	long long ops = *(const long long *)((const char *)root + f->off2);

	return ops > 0 ? (double)n / (double)ops : 0;
}

static int per_op_read(struct jcheck *c, json_t *obj, const struct field *f, long long n,
		       const void *root)
{
	double got, want = per_op(f, n, root);
	size_t mark;
	int rc;

	JCHECK_TRY(jcheck_real(c, obj, f->key2, JCHECK_REQUIRED, &got));
	if (fabs(got - want) <= 1e-9 * fmax(1, fabs(want)))
		return 0;
	mark = jcheck_push_key(c, f->key2);
	rc = jcheck_fail(c, "%g is not %s / ops (%g)", got, f->key, want);
	jcheck_pop(c, mark);
	return rc;
}

/* A borrowed string, or with FIELD_NULL a JSON null (NULL); absent: NULL unless required. */
static int cstr_null_read(struct jcheck *c, json_t *obj, const struct field *f, void *p)
{
	json_t *v = json_object_get(obj, f->key);
	int rc;

	if (!v && (f->flags & FIELD_REQUIRED))
		return jcheck_fail(c, "no \"%s\" (a name, or null for none)", f->key);
	*MEMBER(p, f, const char *) = NULL;
	if (!v || json_is_null(v))
		return 0;
	rc = jcheck_string(c, obj, f->key, JCHECK_REQUIRED, !!(f->flags & FIELD_EMPTY_OK),
			   MEMBER(p, f, const char *));
	return rc < 0 ? rc : 0;
}

/* A constant: the string names[0] or the integer min, nothing else. */
static int const_read(struct jcheck *c, json_t *obj, const struct field *f, int req)
{
	const char *s;
	long long ll;
	size_t mark;
	int rc;

	if (!f->names)
		return jcheck_int(c, obj, f->key, req, f->min, f->max, &ll);
	rc = jcheck_string(c, obj, f->key, req, 0, &s);
	if (rc || !strcmp(s, f->names[0]))
		return rc;
	mark = jcheck_push_key(c, f->key);
	rc = jcheck_fail(c, "\"%s\", not \"%s\"", s, f->names[0]);
	jcheck_pop(c, mark);
	return rc;
}

/* An enum whose names[0] is "" (none) is never read as names[0]. */
static int enum_read(struct jcheck *c, json_t *obj, const struct field *f, int req, int *out)
{
	int skip = f->n_names && !f->names[0][0], i;
	int rc = jcheck_enum(c, obj, f->key, req, f->names + skip, f->n_names - skip, &i);

	if (!rc)
		*out = i + skip;
	return rc;
}

static int field_read(struct jcheck *c, json_t *obj, const struct field *f, void *p,
		      const void *root)
{
	int req = f->flags & FIELD_REQUIRED ? JCHECK_REQUIRED : JCHECK_OPTIONAL;
	bool empty_ok = f->flags & FIELD_EMPTY_OK;
	const char *s = NULL;
	long long ll;
	double d;
	int i, rc;

	if (f->hint && req && !json_object_get(obj, f->key))
		return jcheck_fail(c, "missing required field \"%s\" %s", f->key, f->hint);
	switch (f->type) {
	case FIELD_T_STRING:
		rc = jcheck_string(c, obj, f->key, req, empty_ok, &s);
		if (rc < 0)
			return rc;
		free(*MEMBER(p, f, char *));
		if (!(*MEMBER(p, f, char *) = strdup(s ? s : "")))
			return jcheck_fail(c, "out of memory");
		return 0;
	case FIELD_T_CSTR:
		if (f->flags & FIELD_NULL)
			return cstr_null_read(c, obj, f, p);
		if (f->names) {
			rc = jcheck_enum(c, obj, f->key, req, f->names, f->n_names, &i);
			s = rc ? NULL : f->names[i];
		} else {
			rc = jcheck_string(c, obj, f->key, req, empty_ok, &s);
		}
		if (!rc)
			*MEMBER(p, f, const char *) = s;
		return rc < 0 ? rc : 0;
	case FIELD_T_ENUM:
		rc = enum_read(c, obj, f, req, &i);
		if (!rc)
			*MEMBER(p, f, int) = i;
		return rc < 0 ? rc : 0;
	case FIELD_T_INT:
		rc = jcheck_int(c, obj, f->key, req, f->min, f->max, &ll);
		if (!rc && f->elem == sizeof(int))
			*MEMBER(p, f, int) = (int)ll;
		else if (!rc)
			*MEMBER(p, f, long long) = ll;
		if (!rc && (f->flags & FIELD_PER_OP))
			return per_op_read(c, obj, f, ll, root);
		return rc < 0 ? rc : 0;
	case FIELD_T_CHARS:
		rc = chars_read(c, obj, f, p, req);
		return rc < 0 ? rc : 0;
	case FIELD_T_NUM:
		rc = (f->flags & FIELD_SIGNED ? jcheck_real : jcheck_num)(c, obj, f->key, req, &d);
		if (!rc)
			*MEMBER(p, f, double) = d;
		return rc < 0 ? rc : 0;
	case FIELD_T_BOOL:
	case FIELD_T_FLAG:
		rc = jcheck_bool(c, obj, f->key, req, &i);
		if (!rc && f->type == FIELD_T_BOOL)
			*MEMBER(p, f, bool) = i;
		else if (!rc)
			*MEMBER(p, f, int) = i;
		return rc < 0 ? rc : 0;
	case FIELD_T_OBJECT:
		if ((f->flags & FIELD_DEREF) && !(f->flags & FIELD_OWN))
			return 0;	/* written only */
		rc = object_read(c, obj, f, p, req, root);
		return rc < 0 ? rc : 0;
	case FIELD_T_ARRAY:
		rc = array_read(c, obj, f, p, req, root);
		return rc < 0 ? rc : 0;
	case FIELD_T_MAP:
		rc = map_read(c, obj, f, p, req, root);
		return rc < 0 ? rc : 0;
	case FIELD_T_STRINGS:
		rc = jcheck_strings(c, obj, f->key, req, f->max, MEMBER(p, f, const char **),
				    COUNT(p, f));
		return rc < 0 ? rc : 0;
	case FIELD_T_NUMS:
		rc = nums_read(c, obj, f, p, req);
		return rc < 0 ? rc : 0;
	case FIELD_T_INTS:
		rc = ints_read(c, obj, f, p, req);
		return rc < 0 ? rc : 0;
	case FIELD_T_CUSTOM:
		rc = f->custom->read ? f->custom->read(c, obj, p) : 0;
		return rc < 0 ? rc : 0;
	case FIELD_T_CONST:
		rc = const_read(c, obj, f, req);
		return rc < 0 ? rc : 0;
	case FIELD_T_SET:
		return 0;	/* written only */
	case FIELD_T_N:
		break;
	}
	return jcheck_fail(c, "%s: no such field type", f->key);
}

/* Required fields first, so a broken object names what is missing; then the rest. */
static int table_read(struct jcheck *c, json_t *obj, const struct field_desc *d, void *p,
		      const void *root)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < d->n; i++)
			if ((int)!(d->f[i].flags & FIELD_REQUIRED) == pass)
				JCHECK_TRY(field_read(c, obj, &d->f[i], p, root));
	if (d->pick)
		JCHECK_TRY(table_read(c, obj, d->pick(p), p, root));
	return d->check ? d->check(c, p) : 0;
}

int fields_read(struct jcheck *c, json_t *obj, const struct field_desc *d, void *p)
{
	return table_read(c, obj, d, p, p);
}

/* A FIELD_T_INT member: a long long, or an int. */
static long long int_value(const struct field *f, const void *p)
{
	return f->elem == sizeof(int) ? *CMEMBER(p, f, int) : *CMEMBER(p, f, long long);
}

/* Whether the writer leaves f out of p (its FIELD_OMIT_* say it is absent). */
static bool field_absent(const struct field *f, const void *p)
{
	bool zero = f->flags & FIELD_OMIT_ZERO, neg = f->flags & FIELD_OMIT_NEG;
	bool null = f->flags & FIELD_OMIT_NULL;
	const char *s;
	long long ll;
	double d;

	if ((f->flags & FIELD_PRESENT) && !CPRESENT(p, f))
		return !(f->flags & FIELD_NULL);
	switch (f->type) {
	case FIELD_T_STRING:
	case FIELD_T_CSTR:
		s = *CMEMBER(p, f, char *);
		return (null && !s) || (zero && (!s || !s[0]));
	case FIELD_T_ENUM:
	case FIELD_T_FLAG:
		ll = *CMEMBER(p, f, int);
		return (zero && !ll) || (neg && ll < 0);
	case FIELD_T_INT:
		ll = int_value(f, p);
		return (zero && !ll) || (neg && ll < 0);
	case FIELD_T_CHARS:
		return zero && !*CMEMBER(p, f, char);
	case FIELD_T_NUM:
		d = *CMEMBER(p, f, double);
		return (zero && !d) || (neg && !(d >= 0));
	case FIELD_T_BOOL:
		return zero && !*CMEMBER(p, f, bool);
	case FIELD_T_OBJECT:
		/* In place: FIELD_OMIT_ZERO is an empty object (field_value). */
		return (f->flags & FIELD_DEREF) && !(f->flags & FIELD_NULL) &&
		       !*CMEMBER(p, f, void *);
	case FIELD_T_SET:
		return zero && !*CMEMBER(p, f, void *);
	case FIELD_T_INTS:
		for (ll = 0; (f->flags & FIELD_FIXED) && ll < f->max; ll++)
			if (CMEMBER(p, f, long long)[ll] < 0)
				return true;
		return zero && !(f->flags & FIELD_FIXED) && !CCOUNT(p, f);
	case FIELD_T_ARRAY:
	case FIELD_T_MAP:
	case FIELD_T_STRINGS:
	case FIELD_T_NUMS:
		if (f->flags & FIELD_FIXED)
			return false;
		s = *CMEMBER(p, f, void *);
		return (null && !s) || (zero && (!s || !CCOUNT(p, f)));
	case FIELD_T_CONST:
	case FIELD_T_CUSTOM:
	case FIELD_T_N:
		break;
	}
	return false;
}

/* A JSON array of f's elements at p (NULL: out of memory). */
static json_t *table_write(const struct field_desc *d, const void *p, const void *root);
static json_t *array_write(const struct field_desc *d, const void *a, size_t n, size_t size,
			   const void *root);

static json_t *elems_write(const struct field *f, const void *p, const void *root)
{
	bool fixed = f->flags & FIELD_FIXED, ints = f->type == FIELD_T_INTS;
	const char *a = fixed || ints ? CMEMBER(p, f, char) : *CMEMBER(p, f, void *);
	size_t n = fixed ? (size_t)f->max : a ? CCOUNT(p, f) : 0;
	size_t stride = fixed && !ints ? f->elem : sizeof(double);
	json_t *arr, *v;

	if (f->type == FIELD_T_ARRAY)
		return array_write(f->sub, a, n, f->elem, root);
	arr = json_array();
	for (size_t i = 0; arr && i < n && (!ints || i < (size_t)f->max); i++) {
		const char *s = f->type == FIELD_T_STRINGS ? ((const char *const *)a)[i] : NULL;

		if (ints)
			v = json_integer(((const long long *)a)[i]);
		else if (f->type == FIELD_T_STRINGS)
			v = json_string(s ? s : "");
		else if (!(v = json_real(*(const double *)(a + i * stride))))
			continue;	/* not finite: JSON has no such number */
		if (json_array_append_new(arr, v)) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

static json_t *field_value(const struct field *f, const void *p, bool *omit, const void *root);

/* A map's entries: an object of each element's key and value. */
static json_t *map_write(const struct field *f, const void *p, const void *root)
{
	const struct field *kf = f->sub->n == 2 ? &f->sub->f[0] : NULL;
	const char *a = *CMEMBER(p, f, void *);
	size_t n = a ? CCOUNT(p, f) : 0;
	json_t *o = json_object();

	for (size_t i = 0; o && i < n; i++) {
		const char *e = a + i * f->elem;
		bool omit = false;
		json_t *v = field_value(&f->sub->f[!!kf], e, &omit, root);

		if (v && json_object_set_new(o, kf ? e + kf->off : *(const char *const *)e, v))
			v = NULL;
		if (!v && !omit) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* The value of f in p; NULL with *omit set when it is left out, else out of memory. */
static json_t *field_value(const struct field *f, const void *p, bool *omit, const void *root)
{
	bool null = f->flags & FIELD_NULL;
	const void *sp;
	const char *s;
	json_t *v;
	double d;
	int e;

	if (null && (f->flags & FIELD_PRESENT) && !CPRESENT(p, f))
		return json_null();

	switch (f->type) {
	case FIELD_T_STRING:
	case FIELD_T_CSTR:
		s = *CMEMBER(p, f, char *);
		if (!s && (f->flags & FIELD_NULL))
			return json_null();
		return json_string(s ? s : "");
	case FIELD_T_ENUM:
		e = *CMEMBER(p, f, int);
		return json_string(e >= 0 && e < f->n_names ? f->names[e] : "?");
	case FIELD_T_INT:
		return json_integer(int_value(f, p));
	case FIELD_T_CHARS:
		return json_string(CMEMBER(p, f, char));
	case FIELD_T_NUM:
		d = *CMEMBER(p, f, double);
		if (null && (!isfinite(d) || (!(f->flags & FIELD_SIGNED) && d < 0)))
			return json_null();
		v = json_real(d);
		*omit = !v;	/* not finite: JSON has no such number */
		return v;
	case FIELD_T_BOOL:
		return json_boolean(*CMEMBER(p, f, bool));
	case FIELD_T_FLAG:
		return json_boolean(*CMEMBER(p, f, int));
	case FIELD_T_OBJECT:
		sp = f->flags & FIELD_DEREF ? *CMEMBER(p, f, void *) : CMEMBER(p, f, char);
		if (!sp)
			return json_null();
		v = table_write(f->sub, sp, f->flags & FIELD_ROOT ? sp : root);
		if (v && (f->flags & FIELD_OMIT_ZERO) && !json_object_size(v)) {
			json_decref(v);
			*omit = true;
			return NULL;
		}
		return v;
	case FIELD_T_ARRAY:
	case FIELD_T_STRINGS:
	case FIELD_T_NUMS:
	case FIELD_T_INTS:
		return elems_write(f, p, root);
	case FIELD_T_MAP:
		return map_write(f, p, root);
	case FIELD_T_CUSTOM:
		return f->custom->write(p, omit);
	case FIELD_T_CONST:
		return f->names ? json_string(f->names[0]) : json_integer(f->min);
	case FIELD_T_SET:
		e = !!*CMEMBER(p, f, void *);
		return f->names ? json_string(f->names[e]) : json_boolean(e);
	case FIELD_T_N:
		break;
	}
	return NULL;
}

static int table_write_to(json_t *o, const struct field_desc *d, const void *p, const void *root)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct field *f = &d->f[i];
		bool omit = field_absent(f, p);
		json_t *v;

		if (f->type == FIELD_T_OBJECT && (f->flags & FIELD_INLINE)) {
			const void *sp = f->flags & FIELD_DEREF ? *CMEMBER(p, f, void *) :
					 CMEMBER(p, f, char);

			if (sp && table_write_to(o, f->sub, sp, root))
				return -ENOMEM;
			continue;
		}
		v = omit ? NULL : field_value(f, p, &omit, root);
		if (!omit && (!v || json_object_set_new(o, d->f[i].key, v)))
			return -ENOMEM;
		if (!omit && (f->flags & FIELD_PER_OP) &&
		    json_object_set_new(o, f->key2, json_real(per_op(f, int_value(f, p), root))))
			return -ENOMEM;
	}
	return d->pick ? table_write_to(o, d->pick(p), p, root) : 0;
}

static json_t *table_write(const struct field_desc *d, const void *p, const void *root)
{
	json_t *o = json_object();

	if (o && table_write_to(o, d, p, root)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *fields_write(const struct field_desc *d, const void *p)
{
	return table_write(d, p, p);
}

/* root NULL: each element is its own. */
static json_t *array_write(const struct field_desc *d, const void *a, size_t n, size_t size,
			   const void *root)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < n; i++) {
		const char *e = (const char *)a + i * size;

		if (json_array_append_new(arr, table_write(d, e, root ? root : e))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

json_t *fields_write_array(const struct field_desc *d, const void *a, size_t n, size_t size)
{
	return array_write(d, a, n, size, NULL);
}

void fields_free(const struct field_desc *d, void *p)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct field *f = &d->f[i];
		char *a;

		switch (f->type) {
		case FIELD_T_STRING:
			free(*MEMBER(p, f, char *));
			*MEMBER(p, f, char *) = NULL;
			break;
		case FIELD_T_OBJECT:
			if (!(f->flags & FIELD_DEREF))
				fields_free(f->sub, (char *)p + f->off);
			if (!(f->flags & FIELD_OWN) || !(a = *MEMBER(p, f, char *)))
				break;
			fields_free(f->sub, a);
			free(a);
			*MEMBER(p, f, char *) = NULL;
			break;
		case FIELD_T_ARRAY:
			a = *MEMBER(p, f, char *);
			for (size_t j = 0; a && j < *COUNT(p, f); j++)
				fields_free(f->sub, a + j * f->elem);
			/* fall through */
		case FIELD_T_MAP:
		case FIELD_T_STRINGS:
		case FIELD_T_NUMS:
			free(*MEMBER(p, f, void *));
			*MEMBER(p, f, void *) = NULL;
			*COUNT(p, f) = 0;
			if (f->flags & FIELD_PRESENT)
				*PRESENT(p, f) = false;
			break;
		case FIELD_T_CUSTOM:
			if (f->custom->free)
				f->custom->free(p);
			break;
		default:
			break;
		}
	}
}

void *fields_grow(void *arr, size_t n, size_t *cap, size_t size)
{
	size_t c = n < 4 ? 8 : n * 2;
	void *p;

	if (n < *cap)
		return arr;
	p = realloc(arr, c * size);
	if (p)
		*cap = c;
	return p;
}

const char *field_type_name(enum field_type t)
{
	static const char *const names[FIELD_T_N] = {
		[FIELD_T_STRING] = "string", [FIELD_T_ENUM] = "enum", [FIELD_T_INT] = "integer",
		[FIELD_T_NUM] = "number", [FIELD_T_BOOL] = "boolean",
		[FIELD_T_CSTR] = "string", [FIELD_T_FLAG] = "boolean", [FIELD_T_OBJECT] = "object",
		[FIELD_T_ARRAY] = "array", [FIELD_T_MAP] = "object", [FIELD_T_STRINGS] = "array",
		[FIELD_T_NUMS] = "array", [FIELD_T_CUSTOM] = "custom", [FIELD_T_CHARS] = "string",
		[FIELD_T_CONST] = "constant", [FIELD_T_SET] = "boolean", [FIELD_T_INTS] = "array",
	};

	return t < FIELD_T_N ? names[t] : "?";
}
