// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_compare_schema.c - the compare --json writer's tables
 * (compare_json_tables, results/compare_model.c) agree with the field list
 * of docs/compare-report.md ("JSON fields"): each table has the row its
 * name names, listing its keys in writing order (an inline table's keys in
 * their place, a hook's after the table's), and every row is a table's.
 * The check also runs on a made-up table that must fail it. Run from the
 * top of the tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "results/compare_model.h"
#include "results/field.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define MD	"docs/compare-report.md"
#define HEAD	"| object | fields |\n| --- | --- |\n"
#define LEN	2048

/* Keys a custom hook writes after its table's: the comparison adds probes_used to the floor's. */
static const char *const hook_keys[][2] = { { "noise", "probes_used" } };

/* d's keys in writing order, ", "-joined onto buf. */
static void table_keys(const struct field_desc *d, char *buf)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct field *f = &d->f[i];

		if (f->type == FIELD_T_OBJECT && (f->flags & FIELD_INLINE))
			table_keys(f->sub, buf);
		else
			snprintf(buf + strlen(buf), LEN - strlen(buf), "%s%s", *buf ? ", " : "", f->key);
	}
	for (size_t i = 0; i < ARRAY_SIZE(hook_keys); i++)
		if (!strcmp(d->name, hook_keys[i][0]))
			snprintf(buf + strlen(buf), LEN - strlen(buf), ", %s", hook_keys[i][1]);
}

/* The line after p's. */
static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

/* The row of the table named name ("| name | `a`, `b` |"): its keys without quotes, or NULL. */
static const char *row_keys(const char *rows, const char *name, char *buf)
{
	size_t n = strlen(name), k = 0;
	const char *p;

	for (p = rows; *p == '|'; p = next_line(p))
		if (!strncmp(p + 2, name, n) && !strncmp(p + 2 + n, " | ", 3))
			break;
	if (*p != '|')
		return NULL;
	for (p += 5 + n; *p && *p != '\n' && *p != '|' && k < LEN - 1; p++)
		if (*p != '`')
			buf[k++] = *p;
	while (k && buf[k - 1] == ' ')
		k--;
	buf[k] = '\0';
	return buf;
}

/* Does d's row list d's keys? Diagnoses the difference when not. */
static bool row_matches(const char *rows, const struct field_desc *d)
{
	char want[LEN] = "", got[LEN];

	table_keys(d, want);
	if (!row_keys(rows, d->name, got)) {
		tap_diag("%s: no row \"| %s | ...\"", MD, d->name);
		return false;
	}
	if (strcmp(got, want))
		tap_diag("%s: %s:\n#   doc:    %s\n#   writer: %s", MD, d->name, got, want);
	return !strcmp(got, want);
}

int main(void)
{
	static const struct field swapped_f[] = {
		FIELD_CSTR(struct compare_check_change, name, "name", 0),
		FIELD_CSTR(struct compare_check_change, suite, "suite", 0),
		FIELD_CSTR(struct compare_check_change, a, "base", 0),
		FIELD_CSTR(struct compare_check_change, b, "new", 0),
	};
	static const struct field_desc swapped = FIELD_DESC("check_changes[]", swapped_f);
	char *md = run_read_file(MD, NULL);
	const char *rows = md ? strstr(md, HEAD) : NULL;
	size_t n = 0, named = 0, nrows = 0;
	const char *p;

	while (compare_json_tables[n])
		n++;
	tap_plan((int)n + 2);
	if (!rows) {
		tap_diag("%s: no \"JSON fields\" table", MD);
		rows = "";
	} else {
		rows += strlen(HEAD);
	}
	for (size_t i = 0; i < n; i++)
		ok(row_matches(rows, compare_json_tables[i]), "%s: the writer's keys, in order",
		   compare_json_tables[i]->name);
	for (p = rows; *p == '|'; p = next_line(p), nrows++)
		for (size_t i = 0; i < n; i++) {
			const char *name = compare_json_tables[i]->name;
			size_t len = strlen(name);

			named += !strncmp(p + 2, name, len) && !strncmp(p + 2 + len, " | ", 3);
		}
	ok(nrows && named == nrows, "every row of the list is a table's (%zu rows, %zu tables)",
	   nrows, n);
	ok(!row_matches(rows, &swapped), "a table whose keys are in another order fails");
	free(md);
	return tap_done();
}
