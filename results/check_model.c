// SPDX-License-Identifier: GPL-2.0-only
/* check_model.c - the check model: collect check results; their field table drives the JSON writer and reader. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "results/check_model.h"

/* "" for NULL, so every string of a check is a real one. */
static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

/* CHECK in docs/results-schema.md. */
static const struct field check_field[] = {
	FIELD_STR(struct check_result, suite, "suite", FIELD_REQUIRED),
	FIELD_STR(struct check_result, name, "name", FIELD_REQUIRED),
	FIELD_ENUM(struct check_result, status, "status", FIELD_REQUIRED,
		   check_status_names, CHECK_STATUS_N),
	FIELD_STR(struct check_result, detail, "detail", FIELD_EMPTY_OK),
	FIELD_STR(struct check_result, expected, "expected", FIELD_EMPTY_OK | FIELD_OMIT_ZERO),
	FIELD_STR(struct check_result, observed, "observed", FIELD_EMPTY_OK | FIELD_OMIT_ZERO),
};
const struct field_desc check_fields = FIELD_DESC("check", check_field);

/* A report: the "checks" array of its document. */
static const struct field report_field[] = {
	FIELD_ARRAY(struct check_report, r, n, "checks", 0, &check_fields, struct check_result,
		    RESULT_MAX_ITEMS, NULL),
};
const struct field_desc check_report_fields = FIELD_DESC("checks", report_field);

/* Append *c (its strings now rep's): 0 or -ENOMEM (nothing appended). */
static int check_append(struct check_report *rep, const struct check_result *c)
{
	struct check_result *r = fields_grow(rep->r, rep->n, &rep->cap, sizeof(*r));

	if (!r)
		return -ENOMEM;
	rep->r = r;
	rep->r[rep->n++] = *c;
	return 0;
}

/* Append a check; takes detail (malloc'd, may be NULL). 0 or -ENOMEM (nothing appended). */
static int check_push(struct check_report *rep, const char *suite, const char *name,
		      enum check_status st, const char *expected, const char *observed,
		      char *detail)
{
	struct check_result c = {
		.suite = dup_or_empty(suite), .name = dup_or_empty(name), .status = st,
		.detail = detail ? detail : strdup(""),
		.expected = dup_or_empty(expected), .observed = dup_or_empty(observed),
	};

	if (!c.suite || !c.name || !c.detail || !c.expected || !c.observed || check_append(rep, &c)) {
		fields_free(&check_fields, &c);
		return -ENOMEM;
	}
	return 0;
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

int check_restate(struct check_result *c, enum check_status st, const char *fmt, ...)
{
	va_list ap;
	char *detail;

	va_start(ap, fmt);
	detail = vformat(fmt, ap);
	va_end(ap);
	if (!detail)
		return -ENOMEM;
	free(c->detail);
	c->detail = detail;
	c->status = st;
	return 0;
}

static void check_vadd(struct check_report *rep, const char *suite, const char *name,
		       enum check_status st, const char *expected, const char *observed,
		       const char *fmt, va_list ap)
{
	char *detail = vformat(fmt, ap);

	if (detail)
		check_push(rep, suite, name, st, expected, observed, detail);
}

void check_add(struct check_report *rep, const char *suite, const char *name,
	       enum check_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	check_vadd(rep, suite, name, st, NULL, NULL, fmt, ap);
	va_end(ap);
}

void check_add_ev(struct check_report *rep, const char *suite, const char *name,
		  enum check_status st, const char *expected, const char *observed,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	check_vadd(rep, suite, name, st, expected, observed, fmt, ap);
	va_end(ap);
}

void check_report_free(struct check_report *rep)
{
	fields_free(&check_report_fields, rep);
	rep->cap = 0;
}

size_t check_count(const struct check_report *rep, enum check_status st)
{
	size_t n = 0;

	for (size_t i = 0; i < rep->n; i++)
		n += rep->r[i].status == st;
	return n;
}

const struct check_result *check_find(const struct check_report *rep,
				      const char *suite, const char *name)
{
	for (size_t i = 0; i < rep->n; i++)
		if (!strcmp(rep->r[i].suite, suite) && !strcmp(rep->r[i].name, name))
			return &rep->r[i];
	return NULL;
}

json_t *check_report_json(const struct check_report *rep)
{
	return fields_write_array(&check_fields, rep->r, rep->n, sizeof(*rep->r));
}

/* Whether s (within detail d) starts a clause: the whole detail, or after ": " or "; ". */
static bool clause_start(const char *d, const char *s)
{
	return s == d || (s - d >= 2 && s[-1] == ' ' && (s[-2] == ':' || s[-2] == ';'));
}

/* Whether detail d ends with tail, at the start of one of its clauses. */
static bool ends_with_clause(const char *d, const char *tail)
{
	size_t ld = strlen(d), lt = strlen(tail);

	return ld >= lt && !strcmp(d + ld - lt, tail) && clause_start(d, d + ld - lt);
}

const char *check_shared_tail(const struct check_report *rep, size_t i)
{
	const char *d = rep->r[i].detail;

	for (const char *s = d; *s; s++) {
		if (!clause_start(d, s) || strlen(s) < CHECK_SHARED_MIN)
			continue;
		for (size_t j = 0; j < rep->n; j++)
			if (j != i && ends_with_clause(rep->r[j].detail, s))
				return s;
	}
	return NULL;
}
