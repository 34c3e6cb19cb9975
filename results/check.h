/*
 * check.h - pass/fail/skip results of the check suites (xstate, cet,
 * migrate), with the evidence or the skip reason, as text and JSON
 * ("checks" in docs/results-schema.md).
 */
#ifndef EXITSCOPE_RESULTS_CHECK_H
#define EXITSCOPE_RESULTS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <jansson.h>

#include "results/schema.h"



struct check_result {
	char suite[16];
	char name[64];
	enum check_status status;
	char detail[512];	/* evidence (fail), what was seen (pass), reason (skip) */
	/* Structured evidence, "" when the check has none: the value the check
	 * wanted and the value it saw, each in one canonical spelling (0x-hex
	 * for registers and masks, decimal for counts) so tests and tools can
	 * compare them without reading the prose. */
	char expected[128];
	char observed[128];
};

struct check_report {
	size_t n, cap;
	struct check_result *r;
};

void check_add(struct check_report *rep, const char *suite, const char *name,
	       enum check_status st, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* check_add with structured evidence (either may be NULL: none). */
void check_add_ev(struct check_report *rep, const char *suite, const char *name,
		  enum check_status st, const char *expected, const char *observed,
		  const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void check_report_free(struct check_report *rep);
size_t check_count(const struct check_report *rep, enum check_status st);
const struct check_result *check_find(const struct check_report *rep,
				      const char *suite, const char *name);
json_t *check_report_json(const struct check_report *rep);	/* array */
void check_report_print(FILE *f, const struct check_report *rep);

#endif
