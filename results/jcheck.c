// SPDX-License-Identifier: GPL-2.0-only
/* jcheck.c - typed JSON field getters that report problems by file and JSON path. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/jcheck.h"

const char *jcheck_quote(const char *s, char *buf, size_t len)
{
	size_t i, o = 0;

	if (len == 0)
		return "";
	for (i = 0; s[i] && o + 1 < len; i++) {
		if (i >= 60 && o + 4 < len) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		buf[o++] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	}
	buf[o] = '\0';
	return buf;
}

const char *jcheck_type_name(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:	return "an object";
	case JSON_ARRAY:	return "an array";
	case JSON_STRING:	return "a string";
	case JSON_INTEGER:	return "an integer";
	case JSON_REAL:		return "a real number";
	case JSON_TRUE:
	case JSON_FALSE:	return "a boolean";
	case JSON_NULL:		return "null";
	}
	return "unknown";
}

static void path_printf(struct jcheck *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void path_printf(struct jcheck *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->len >= sizeof(c->path) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(c->path + c->len, sizeof(c->path) - c->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		c->path[c->len] = '\0';
	else if ((size_t)n >= sizeof(c->path) - c->len)
		c->len = sizeof(c->path) - 1;
	else
		c->len += (size_t)n;
}

size_t jcheck_push_key(struct jcheck *c, const char *key)
{
	size_t mark = c->len;
	char q[80];

	path_printf(c, "%s%s", c->len ? "." : "", jcheck_quote(key, q, sizeof(q)));
	return mark;
}

size_t jcheck_push_index(struct jcheck *c, size_t i)
{
	size_t mark = c->len;

	path_printf(c, "[%zu]", i);
	return mark;
}

void jcheck_pop(struct jcheck *c, size_t mark)
{
	if (mark < sizeof(c->path)) {
		c->len = mark;
		c->path[mark] = '\0';
	}
}

int jcheck_fail(struct jcheck *c, const char *fmt, ...)
{
	char msg[ERR_MSG_MAX], *p;
	va_list ap;

	if (!c->err)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->len)
		err_set(c->err, -EINVAL, "%s: %s: %s", c->name, c->path, msg);
	else
		err_set(c->err, -EINVAL, "%s: %s", c->name, msg);
	/* One line: jansson quotes raw input ("near '...'"), which may hold newlines. */
	for (p = c->err->msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return -EINVAL;
}

/* Look key up in obj; 0 found, 1 optional and absent, -EINVAL required and absent. */
static int lookup(struct jcheck *c, json_t *obj, const char *key, int req, json_t **v)
{
	*v = json_object_get(obj, key);
	if (*v)
		return 0;
	if (!req)
		return 1;
	return jcheck_fail(c, "missing required field \"%s\"", key);
}

/* Report a bad value of obj.key: "<path>.<key>: <what>". */
static int bad(struct jcheck *c, const char *key, const char *what, json_t *v)
{
	size_t mark = jcheck_push_key(c, key);

	if (v)
		jcheck_fail(c, "%s (found %s)", what, jcheck_type_name(v));
	else
		jcheck_fail(c, "%s", what);
	jcheck_pop(c, mark);
	return -EINVAL;
}

int jcheck_object(struct jcheck *c, json_t *obj, const char *key, int req, json_t **out)
{
	json_t *v;
	int rc = lookup(c, obj, key, req, &v);

	if (rc)
		return rc;
	if (!json_is_object(v))
		return bad(c, key, "not an object", v);
	*out = v;
	return 0;
}

int jcheck_array(struct jcheck *c, json_t *obj, const char *key, int req, size_t max, json_t **out)
{
	json_t *v;
	int rc = lookup(c, obj, key, req, &v);
	size_t mark;

	if (rc)
		return rc;
	if (!json_is_array(v))
		return bad(c, key, "not an array", v);
	if (json_array_size(v) > max) {
		mark = jcheck_push_key(c, key);
		jcheck_fail(c, "too many entries (%zu, limit %zu)", json_array_size(v), max);
		jcheck_pop(c, mark);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int jcheck_string(struct jcheck *c, json_t *obj, const char *key, int req, int allow_empty,
		  const char **out)
{
	json_t *v;
	int rc = lookup(c, obj, key, req, &v);

	if (rc)
		return rc;
	if (!json_is_string(v))
		return bad(c, key, "not a string", v);
	if (!allow_empty && json_string_length(v) == 0)
		return bad(c, key, "empty string", NULL);
	*out = json_string_value(v);
	return 0;
}

int jcheck_int(struct jcheck *c, json_t *obj, const char *key, int req,
	       long long min, long long max, long long *out)
{
	char msg[96];
	json_t *v;
	json_int_t i;
	int rc = lookup(c, obj, key, req, &v);

	if (rc)
		return rc;
	if (!json_is_integer(v))
		return bad(c, key, "not an integer", v);
	i = json_integer_value(v);
	if (i < min || i > max) {
		if (max == LLONG_MAX)
			snprintf(msg, sizeof(msg), "must be >= %lld (got %lld)", min, (long long)i);
		else
			snprintf(msg, sizeof(msg), "must be in %lld..%lld (got %lld)", min, max,
				 (long long)i);
		return bad(c, key, msg, NULL);
	}
	*out = i;
	return 0;
}

int jcheck_real(struct jcheck *c, json_t *obj, const char *key, int req, double *out)
{
	json_t *v;
	int rc = lookup(c, obj, key, req, &v);

	if (rc)
		return rc;
	if (!json_is_number(v) || !isfinite(json_number_value(v)))
		return bad(c, key, "not a finite number", json_is_number(v) ? NULL : v);
	*out = json_number_value(v);
	return 0;
}

int jcheck_num(struct jcheck *c, json_t *obj, const char *key, int req, double *out)
{
	json_t *v;
	double d;
	int rc = lookup(c, obj, key, req, &v);

	if (rc)
		return rc;
	if (!json_is_number(v))
		return bad(c, key, "not a finite non-negative number", v);
	d = json_number_value(v);
	if (!isfinite(d) || d < 0)
		return bad(c, key, "not a finite non-negative number", NULL);
	*out = d;
	return 0;
}

int jcheck_bool(struct jcheck *c, json_t *obj, const char *key, int req, int *out)
{
	json_t *v;
	int rc = lookup(c, obj, key, req, &v);

	if (rc)
		return rc;
	if (!json_is_boolean(v))
		return bad(c, key, "not true or false", v);
	*out = json_is_true(v);
	return 0;
}

int jcheck_enum(struct jcheck *c, json_t *obj, const char *key, int req,
		const char *const *names, int n, int *out)
{
	char msg[256], q[80];
	const char *s;
	size_t o;
	int i, rc = jcheck_string(c, obj, key, req, 1, &s);

	if (rc)
		return rc;
	for (i = 0; i < n; i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	o = (size_t)snprintf(msg, sizeof(msg), "\"%s\" is not one of",
			     jcheck_quote(s, q, sizeof(q)));
	for (i = 0; i < n && o < sizeof(msg); i++)
		o += (size_t)snprintf(msg + o, sizeof(msg) - o, "%s %s", i ? "," : "", names[i]);
	return bad(c, key, msg, NULL);
}

void *jcheck_calloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

int jcheck_strings(struct jcheck *c, json_t *obj, const char *key, int req, size_t max,
		   const char ***out, size_t *n)
{
	json_t *arr, *v;
	size_t i, mark;
	int rc = jcheck_array(c, obj, key, req, max, &arr);

	if (rc)
		return rc;
	if (out) {
		*out = jcheck_calloc(json_array_size(arr), sizeof(**out));
		if (!*out)
			return jcheck_fail(c, "out of memory");
	}
	json_array_foreach(arr, i, v) {
		if (!json_is_string(v)) {
			mark = jcheck_push_key(c, key);
			jcheck_push_index(c, i);
			jcheck_fail(c, "not a string (found %s)", jcheck_type_name(v));
			jcheck_pop(c, mark);
			return -EINVAL;
		}
		if (out)
			(*out)[i] = json_string_value(v);
	}
	if (n)
		*n = json_array_size(arr);
	return 0;
}
