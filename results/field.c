// SPDX-License-Identifier: GPL-2.0-only
/* field.c - read and write a struct by its field table (results/field.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/field.h"

#define MEMBER(p, f, type) ((type *)((char *)(p) + (f)->off))
#define CMEMBER(p, f, type) ((const type *)((const char *)(p) + (f)->off))

static int field_read(struct jcheck *c, json_t *obj, const struct field *f, void *p)
{
	int req = f->flags & FIELD_REQUIRED ? JCHECK_REQUIRED : JCHECK_OPTIONAL;
	const char *s = NULL;
	long long ll;
	double d;
	int i, rc;

	switch (f->type) {
	case FIELD_T_STRING:
		rc = jcheck_string(c, obj, f->key, req, !!(f->flags & FIELD_EMPTY_OK), &s);
		if (rc < 0)
			return rc;
		free(*MEMBER(p, f, char *));
		if (!(*MEMBER(p, f, char *) = strdup(s ? s : "")))
			return jcheck_fail(c, "out of memory");
		return 0;
	case FIELD_T_ENUM:
		rc = jcheck_enum(c, obj, f->key, req, f->names, f->n_names, &i);
		if (!rc)
			*MEMBER(p, f, int) = i;
		return rc < 0 ? rc : 0;
	case FIELD_T_INT:
		rc = jcheck_int(c, obj, f->key, req, f->min, f->max, &ll);
		if (!rc)
			*MEMBER(p, f, long long) = ll;
		return rc < 0 ? rc : 0;
	case FIELD_T_NUM:
		rc = jcheck_num(c, obj, f->key, req, &d);
		if (!rc)
			*MEMBER(p, f, double) = d;
		return rc < 0 ? rc : 0;
	case FIELD_T_BOOL:
		rc = jcheck_bool(c, obj, f->key, req, &i);
		if (!rc)
			*MEMBER(p, f, bool) = i;
		return rc < 0 ? rc : 0;
	case FIELD_T_N:
		break;
	}
	return jcheck_fail(c, "%s: no such field type", f->key);
}

int fields_read(struct jcheck *c, json_t *obj, const struct field_desc *d, void *p)
{
	for (size_t i = 0; i < d->n; i++)
		JCHECK_TRY(field_read(c, obj, &d->f[i], p));
	return 0;
}

/* The value of f in p, or NULL when FIELD_OMIT_ZERO leaves it out. */
static json_t *field_value(const struct field *f, const void *p, bool *omit)
{
	const char *s;
	int e;

	switch (f->type) {
	case FIELD_T_STRING:
		s = *CMEMBER(p, f, char *);
		*omit = !s || !s[0];
		return json_string(s ? s : "");
	case FIELD_T_ENUM:
		e = *CMEMBER(p, f, int);
		*omit = !e;
		return json_string(e >= 0 && e < f->n_names ? f->names[e] : "?");
	case FIELD_T_INT:
		*omit = !*CMEMBER(p, f, long long);
		return json_integer(*CMEMBER(p, f, long long));
	case FIELD_T_NUM:
		*omit = !*CMEMBER(p, f, double);
		return json_real(*CMEMBER(p, f, double));
	case FIELD_T_BOOL:
		*omit = !*CMEMBER(p, f, bool);
		return json_boolean(*CMEMBER(p, f, bool));
	case FIELD_T_N:
		break;
	}
	return NULL;
}

json_t *fields_write(const struct field_desc *d, const void *p)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < d->n; i++) {
		bool omit = false;
		json_t *v = field_value(&d->f[i], p, &omit);

		if (v && omit && (d->f[i].flags & FIELD_OMIT_ZERO)) {
			json_decref(v);
			continue;
		}
		if (!v || json_object_set_new(o, d->f[i].key, v)) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

void fields_free(const struct field_desc *d, void *p)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->f[i].type == FIELD_T_STRING) {
			free(*MEMBER(p, &d->f[i], char *));
			*MEMBER(p, &d->f[i], char *) = NULL;
		}
}

const char *field_type_name(enum field_type t)
{
	static const char *const names[FIELD_T_N] = {
		[FIELD_T_STRING] = "string", [FIELD_T_ENUM] = "enum", [FIELD_T_INT] = "integer",
		[FIELD_T_NUM] = "number", [FIELD_T_BOOL] = "boolean",
	};

	return t < FIELD_T_N ? names[t] : "?";
}
