// SPDX-License-Identifier: GPL-2.0-only
/* trace_model.c - the "trace" object (exits/op by exit reason), by its field table. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* A reason's name, copied (the key), and its exits/op (the value). */
static const struct field reason_field[] = {
	FIELD_CHARS(struct result_trace_reason, name, "", 0),
	FIELD_NUM(struct result_trace_reason, per_op, "", FIELD_REQUIRED),
};
static const struct field_desc reason_desc = FIELD_DESC("exit reason", reason_field);

static const struct field trace_field[] = {
	FIELD_MAP_P(struct result_trace, reason, n, present, "trace", 0, &reason_desc,
		    struct result_trace_reason, RESULT_TRACE_MAX),
};
const struct field_desc result_trace_fields = FIELD_DESC("trace", trace_field);
