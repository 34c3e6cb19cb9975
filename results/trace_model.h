/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_model.h - exits per operation by exit reason (tracefs kvm_exit events),
 * the "trace" object of run probes and of map entries: one model and its
 * field table.
 */
#ifndef EXITSCOPE_RESULTS_TRACE_MODEL_H
#define EXITSCOPE_RESULTS_TRACE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#define RESULT_TRACE_NAME_LEN	48	/* an exit reason as the kernel prints it */
#define RESULT_TRACE_MAX	64	/* reasons per trace */

struct field_desc;

struct result_trace_reason {
	char name[RESULT_TRACE_NAME_LEN];
	double per_op;
};

struct result_trace {
	bool present;			/* the region was traced (it may have no reasons) */
	size_t n;
	struct result_trace_reason *reason;	/* malloc'd, n of them */
};

/* Make t present with n zeroed reasons: 0, -E2BIG above RESULT_TRACE_MAX, -ENOMEM. */
int result_trace_alloc(struct result_trace *t, size_t n);
void result_trace_free(struct result_trace *t);
/*
 * The one field "trace" of a struct holding t ({"REASON": exits/op, ...};
 * not written when t is not present): a table's FIELD_INLINE_OBJ reads and
 * writes it (results/field.h).
 */
extern const struct field_desc result_trace_fields;

#endif
