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


enum check_status { CHECK_PASS, CHECK_FAIL, CHECK_SKIP };

struct check_result {
	char suite[16];
	char name[64];
	enum check_status status;
	char detail[512];	/* evidence (fail), what was seen (pass), reason (skip) */
};

struct check_report {
	size_t n, cap;
	struct check_result *r;
};

void check_add(struct check_report *rep, const char *suite, const char *name,
	       enum check_status st, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void check_report_free(struct check_report *rep);
const char *check_status_name(enum check_status st);
size_t check_count(const struct check_report *rep, enum check_status st);
const struct check_result *check_find(const struct check_report *rep,
				      const char *suite, const char *name);
json_t *check_report_json(const struct check_report *rep);	/* array */
void check_report_print(FILE *f, const struct check_report *rep);

#endif
