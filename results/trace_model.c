// SPDX-License-Identifier: GPL-2.0-only
/* trace_model.c - the "trace" object (exits/op by exit reason): writer and reader side by side. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/jcheck.h"
#include "results/field.h"
#include "results/trace_model.h"

int result_trace_alloc(struct result_trace *t, size_t n)
{
	result_trace_free(t);
	if (n > RESULT_TRACE_MAX)
		return -E2BIG;
	t->reason = calloc(n ? n : 1, sizeof(*t->reason));
	if (!t->reason)
		return -ENOMEM;
	t->n = n;
	t->present = true;
	return 0;
}

void result_trace_free(struct result_trace *t)
{
	free(t->reason);
	memset(t, 0, sizeof(*t));
}

json_t *result_trace_json(const struct result_trace *t)
{
	json_t *o;

	if (!t->present || !(o = json_object()))
		return NULL;
	for (size_t i = 0; i < t->n; i++)
		json_object_set_new(o, t->reason[i].name, json_real(t->reason[i].per_op));
	return o;
}

int result_trace_read(struct jcheck *c, json_t *obj, struct result_trace *t)
{
	json_t *o, *v;
	const char *key;
	size_t i = 0, mark;
	int rc = jcheck_object(c, obj, "trace", JCHECK_OPTIONAL, &o);

	if (rc)
		return rc < 0 ? rc : 0;
	mark = jcheck_push_key(c, "trace");
	if (json_object_size(o) > RESULT_TRACE_MAX)
		return jcheck_fail(c, "too many exit reasons (%zu, limit %d)", json_object_size(o),
				   RESULT_TRACE_MAX);
	if (result_trace_alloc(t, json_object_size(o)))
		return jcheck_fail(c, "out of memory");
	json_object_foreach(o, key, v) {
		if (strlen(key) >= RESULT_TRACE_NAME_LEN)
			return jcheck_fail(c, "exit reason longer than %d characters",
					   RESULT_TRACE_NAME_LEN - 1);
		strcpy(t->reason[i].name, key);
		JCHECK_TRY(jcheck_num(c, o, key, JCHECK_REQUIRED, &t->reason[i].per_op));
		i++;
	}
	jcheck_pop(c, mark);
	return 0;
}

/* ---- the table: the one field "trace" of the struct holding a result_trace ---- */

static json_t *trace_write(const void *p, bool *omit)
{
	*omit = !((const struct result_trace *)p)->present;
	return *omit ? NULL : result_trace_json(p);
}

static int trace_read(struct jcheck *c, json_t *obj, void *p)
{
	return result_trace_read(c, obj, p);
}

static void trace_free(void *p)
{
	result_trace_free(p);
}

static const struct field_custom trace_custom = { trace_write, trace_read, trace_free };
static const struct field trace_field[] = { FIELD_CUSTOM("trace", 0, &trace_custom) };
const struct field_desc result_trace_fields = FIELD_DESC("trace", trace_field);
