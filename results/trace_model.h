/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_model.h - exits per operation by exit reason (tracefs kvm_exit events),
 * the "trace" object of run probes and of map entries: one model, its
 * writer and its reader.
 */
#ifndef EXITSCOPE_RESULTS_TRACE_MODEL_H
#define EXITSCOPE_RESULTS_TRACE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#define RESULT_TRACE_NAME_LEN	48	/* an exit reason as the kernel prints it */
#define RESULT_TRACE_MAX	64	/* reasons per trace */

struct field_desc;
struct jcheck;

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
/* {"REASON": exits/op, ...}; NULL when t is not present (or out of memory). */
json_t *result_trace_json(const struct result_trace *t);
/* The optional "trace" member of obj into t: 0, or -1 with the jcheck error set. */
int result_trace_read(struct jcheck *c, json_t *obj, struct result_trace *t);

/* The table behind them: the one field "trace" of the struct holding it (results/field.h). */
extern const struct field_desc result_trace_fields;

#endif
