// SPDX-License-Identifier: GPL-2.0-only
/* report_map.c - the ownership map of the HTML report: entries x (file, CPUID profile) grid. */
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "base/array_size.h"
#include "report/html.h"
#include "report/report.h"
#include "report/report_int.h"

#define MAX_COLS 64
#define MAX_ROWS 5000

struct col {
	size_t file;
	const struct result_map_cpuid_profile *prof;
	bool emulated;
};

struct cell {
	const struct result_map_entry *e;
	size_t col;
};

static int cmp_cell(const void *pa, const void *pb)
{
	const struct cell *a = pa, *b = pb;
	int c = strcmp(a->e->reg, b->e->reg);

	if (c)
		return c;
	if (a->e->bit != b->e->bit)
		return a->e->bit < b->e->bit ? -1 : 1;
	c = strcmp(a->e->op, b->e->op);
	return c ? c : (a->col > b->col) - (a->col < b->col);
}

static int same_key(const struct result_map_entry *a, const struct result_map_entry *b)
{
	return !strcmp(a->reg, b->reg) && a->bit == b->bit && !strcmp(a->op, b->op);
}

static const char *vector_name(long long v)
{
	static const char *const names[] = {
		[0] = "#DE", [1] = "#DB", [3] = "#BP", [6] = "#UD", [7] = "#NM", [8] = "#DF",
		[13] = "#GP", [14] = "#PF", [17] = "#AC", [18] = "#MC", [21] = "#CP",
	};

	if (v >= 0 && v < (long long)ARRAY_SIZE(names) && names[v])
		return names[v];
	return NULL;
}

static void write_cell(FILE *f, const struct result_map_entry *e)
{
	const char *vec;

	if (!e) {
		fputs("<td class=\"ms-none\">\u2013</td>", f);
		return;
	}
	fprintf(f, "<td class=\"ms-%s\" title=\"", map_status_names[e->status]);
	if (e->exits_per_op >= 0)
		fprintf(f, "%.2f exits/op; ", e->exits_per_op);
	if (e->cycles_per_op >= 0)
		fprintf(f, "%.1f cycles/op; ", e->cycles_per_op);
	html_escape(f, e->detail);
	fputs("\">", f);
	html_escape(f, map_status_names[e->status]);
	if (e->vector >= 0) {
		vec = vector_name(e->vector);
		if (vec)
			fprintf(f, " %s", vec);
		else
			fprintf(f, " #%lld", e->vector);
	}
	fputs("</td>", f);
}

/* A row changed when two columns of the same profile name disagree. */
static int row_changed(const struct col *cols, const struct result_map_entry **cells, size_t ncols)
{
	size_t i, j;

	for (i = 0; i < ncols; i++)
		for (j = i + 1; j < ncols; j++)
			if (cells[i] && cells[j] && cells[i]->status != cells[j]->status &&
			    !strcmp(cols[i].prof->name, cols[j].prof->name))
				return 1;
	return 0;
}

static void write_header(FILE *f, const struct report_ctx *r, const struct col *cols, size_t ncols)
{
	size_t c;

	fputs("<table class=\"grid\"><thead><tr><th>register bit</th><th>op</th>", f);
	for (c = 0; c < ncols; c++) {
		fprintf(f, "<th><span class=\"swatch\" style=\"background:%s\"></span>%c: ",
			html_file_color(cols[c].file), html_file_label(cols[c].file));
		html_escape(f, cols[c].prof->name);
		if (cols[c].prof->spec[0] && strcmp(cols[c].prof->spec, cols[c].prof->name)) {
			fputs("<br><small>", f);
			html_escape(f, cols[c].prof->spec);
			fputs("</small>", f);
		}
		if (cols[c].emulated)
			fputs("<br><small class=\"warn\">emulated</small>", f);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	(void)r;
}

static void write_rows(FILE *f, const struct col *cols, size_t ncols, struct cell *cells, size_t n)
{
	const struct result_map_entry *row[MAX_COLS];
	size_t i = 0, j, c, nrows = 0;

	while (i < n && nrows < MAX_ROWS) {
		memset(row, 0, sizeof(row));
		for (j = i; j < n && same_key(cells[j].e, cells[i].e); j++)
			row[cells[j].col] = cells[j].e;
		fprintf(f, "<tr%s><th class=\"name\">",
			row_changed(cols, row, ncols) ? " class=\"changed\"" : "");
		html_escape(f, cells[i].e->reg);
		fprintf(f, " bit %lld <span class=\"bitname\">", cells[i].e->bit);
		html_escape(f, cells[i].e->name);
		fputs("</span></th><td>", f);
		html_escape(f, cells[i].e->op);
		fputs("</td>", f);
		for (c = 0; c < ncols; c++)
			write_cell(f, row[c]);
		fputs("</tr>\n", f);
		i = j;
		nrows++;
	}
	if (i < n)
		fprintf(f, "<tr><td colspan=\"%zu\" class=\"empty\">(more entries not "
			"shown)</td></tr>\n", ncols + 2);
}

int report_map(const struct report_ctx *r)
{
	struct col cols[MAX_COLS];
	struct cell *cells;
	size_t i, k, e, ncols = 0, ncells = 0, more = 0;
	FILE *f = r->f;

	for (i = 0; i < r->n; i++) {
		const struct result_map *m = r->files[i]->map;

		for (k = 0; m && k < m->n_profiles; k++) {
			if (ncols == MAX_COLS) {
				more++;
				continue;
			}
			cols[ncols++] = (struct col){ i, &m->profiles[k], m->emulated };
			ncells += m->profiles[k].n_entries;
		}
	}
	fputs("<section id=\"map\"><h2>Ownership map</h2>\n", f);
	if (ncols == 0) {
		fputs("<p class=\"empty\">No ownership map in these files (exitscope map "
		      "--json).</p></section>\n", f);
		return 0;
	}
	cells = malloc((ncells ? ncells : 1) * sizeof(*cells));
	if (!cells)
		return -ENOMEM;
	for (i = 0, ncells = 0; i < ncols; i++)
		for (e = 0; e < cols[i].prof->n_entries; e++)
			cells[ncells++] = (struct cell){ &cols[i].prof->entries[e], i };
	qsort(cells, ncells, sizeof(*cells), cmp_cell);

	fputs("<p class=\"help\">Who owns each control-register bit or MSR under each CPUID "
	      "profile: <span class=\"ms-owned\">owned</span> by the guest (no exit), "
	      "<span class=\"ms-intercepted\">intercepted</span> (exits to KVM), "
	      "<span class=\"ms-rejected\">rejected</span> (fault injected), "
	      "<span class=\"ms-emulated\">emulated</span>, <span "
	      "class=\"ms-skipped\">skipped</span>, "
	      "<span class=\"ms-stopped\">stopped</span> (interrupted before it was measured). "
	      "Rows where the same profile differs between files are marked. Hover a cell for "
	      "exits/op, cycles/op and detail.</p>\n", f);
	for (i = 0; i < r->n; i++) {
		if (r->files[i]->map && r->files[i]->map->emulated) {
			fprintf(f, "<p class=\"warn\">%c: ", html_file_label(i));
			html_escape(f, r->files[i]->name);
			fputs(": the map was taken while the host emulated guest code; "
			      "ownership is not meaningful.</p>\n", f);
		}
	}
	write_header(f, r, cols, ncols);
	write_rows(f, cols, ncols, cells, ncells);
	fputs("</tbody></table>\n", f);
	if (more)
		fprintf(f, "<p class=\"empty\">%zu more profiles not shown.</p>\n", more);
	fputs("</section>\n", f);
	free(cells);
	return 0;
}
