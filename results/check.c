/* check.c - collect, print and serialize check results. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "results/check.h"

static struct check_result *check_new(struct check_report *rep, const char *suite,
				      const char *name, enum check_status st)
{
	struct check_result *c;

	if (rep->n == rep->cap) {
		size_t cap = rep->cap ? rep->cap * 2 : 32;
		struct check_result *r = realloc(rep->r, cap * sizeof(*r));

		if (!r)
			return NULL;
		rep->r = r;
		rep->cap = cap;
	}
	c = &rep->r[rep->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->suite, sizeof(c->suite), "%s", suite);
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->status = st;
	return c;
}

void check_add(struct check_report *rep, const char *suite, const char *name,
	       enum check_status st, const char *fmt, ...)
{
	struct check_result *c = check_new(rep, suite, name, st);
	va_list ap;

	if (!c)
		return;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
}

void check_add_ev(struct check_report *rep, const char *suite, const char *name,
		  enum check_status st, const char *expected, const char *observed,
		  const char *fmt, ...)
{
	struct check_result *c = check_new(rep, suite, name, st);
	va_list ap;

	if (!c)
		return;
	snprintf(c->expected, sizeof(c->expected), "%s", expected ? expected : "");
	snprintf(c->observed, sizeof(c->observed), "%s", observed ? observed : "");
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
}

void check_report_free(struct check_report *rep)
{
	free(rep->r);
	memset(rep, 0, sizeof(*rep));
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
	json_t *a = json_array();

	for (size_t i = 0; i < rep->n; i++) {
		const struct check_result *c = &rep->r[i];
		json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "suite", c->suite, "name", c->name,
				      "status", check_status_name(c->status), "detail", c->detail);

		if (c->expected[0])
			json_object_set_new(o, "expected", json_string(c->expected));
		if (c->observed[0])
			json_object_set_new(o, "observed", json_string(c->observed));
		json_array_append_new(a, o);
	}
	return a;
}

void check_report_print(FILE *f, const struct check_report *rep)
{
	size_t w = 4;

	for (size_t i = 0; i < rep->n; i++) {
		size_t l = strlen(rep->r[i].suite) + 1 + strlen(rep->r[i].name);

		if (l > w)
			w = l;
	}
	for (size_t i = 0; i < rep->n; i++) {
		char full[96];

		snprintf(full, sizeof(full), "%s.%s", rep->r[i].suite, rep->r[i].name);
		fprintf(f, "%-4s  %-*s  %s\n", check_status_name(rep->r[i].status),
			(int)w, full, rep->r[i].detail);
	}
	fprintf(f, "%zu passed, %zu failed, %zu skipped\n", check_count(rep, CHECK_PASS),
		check_count(rep, CHECK_FAIL), check_count(rep, CHECK_SKIP));
}
