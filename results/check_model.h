/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check_model.h - the check model: pass/fail/skip/stopped results of the check
 * suites (xstate, cet, migrate), with the evidence or the skip reason, as
 * text, as JSON ("checks" in docs/results-schema.md, CHECK) and read back
 * from a result file.
 */
#ifndef EXITSCOPE_RESULTS_CHECK_MODEL_H
#define EXITSCOPE_RESULTS_CHECK_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "results/field.h"
#include "results/jcheck.h"
#include "results/schema.h"

/* A check; every string is owned by its report and never NULL ("" = none). */
struct check_result {
	char *suite;
	char *name;
	enum check_status status;
	char *detail;		/* evidence (fail), what was seen (pass), reason (skip) */
	/* Structured evidence, "" when the check has none: the value the check
	 * wanted and the value it saw, each in one canonical spelling (0x-hex
	 * for registers and masks, decimal for counts) so tests and tools can
	 * compare them without reading the prose. */
	char *expected;
	char *observed;
};

struct check_report {
	size_t n, cap;
	struct check_result *r;
};

void check_add(struct check_report *rep, const char *suite, const char *name,
	       enum check_status st, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* check_add with structured evidence (either may be NULL: none). A check
 * that cannot be stored (out of memory) is dropped. */
void check_add_ev(struct check_report *rep, const char *suite, const char *name,
		  enum check_status st, const char *expected, const char *observed,
		  const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
/* Give c a new status and detail (fmt may use c's old detail). 0 or -ENOMEM (c unchanged). */
int check_restate(struct check_result *c, enum check_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void check_report_free(struct check_report *rep);
size_t check_count(const struct check_report *rep, enum check_status st);
const struct check_result *check_find(const struct check_report *rep,
				      const char *suite, const char *name);
/* A check's fields, in writing order (results/field.h). */
extern const struct field_desc check_fields;
json_t *check_report_json(const struct check_report *rep);	/* array */
/* A report: a document's optional "checks" array (its reader frees by check_report_free). */
extern const struct field_desc check_report_fields;
/*
 * Where the detail of check i has a tail (a clause after ": " or "; ", at
 * least CHECK_SHARED_MIN characters) that another check's detail ends with
 * too: the table and TAP print such a tail once, as a note. NULL: none.
 */
#define CHECK_SHARED_MIN	60
const char *check_shared_tail(const struct check_report *rep, size_t i);

#endif
