// SPDX-License-Identifier: GPL-2.0-only
/* report_chart.c - the per-probe cost charts and numbers of the HTML report (inline SVG). */
#include <math.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "report/html.h"
#include "report/report.h"
#include "report/report_int.h"

#define W		960	/* SVG user units; the chart scales to the page width */
#define LABEL_W		210
#define VALUE_W		280
#define X0		LABEL_W
#define X1		(W - VALUE_W)
#define BAR_H		14
#define BAR_GAP		5
#define ROW_PAD		12
#define AXIS_H		24
#define MAX_DOTS	80

struct row {
	const char *group, *name;
	size_t order;		/* first appearance over all files */
	size_t group_order;	/* first appearance of its group */
	const struct run_probe *p[REPORT_MAX_FILES];
};

struct item {
	const char *group, *name;
	size_t order, file;
	const struct run_probe *p;
};

struct scale {
	int log;
	double lo, hi, step;
};

static int cmp_item(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	int c = strcmp(a->group, b->group);

	if (!c)
		c = strcmp(a->name, b->name);
	return c ? c : (a->order > b->order) - (a->order < b->order);
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	if (a->group_order != b->group_order)
		return a->group_order < b->group_order ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

/* One row per (group, probe name), in order of first appearance, groups together. */
static struct row *collect_rows(const struct report_ctx *r, size_t *nrows)
{
	struct item *items;
	struct row *rows;
	size_t i, j, k = 0, total = 0, n = 0, start;

	for (i = 0; i < r->n; i++)
		total += r->files[i]->n_probes;
	items = malloc((total ? total : 1) * sizeof(*items));
	rows = calloc(total ? total : 1, sizeof(*rows));
	if (!items || !rows) {
		free(items);
		free(rows);
		return NULL;
	}
	for (i = 0; i < r->n; i++) {
		for (j = 0; j < r->files[i]->n_probes; j++, k++) {
			const struct run_probe *p = &r->files[i]->probes[j];

			items[k] = (struct item){ p->group, p->name, k, i, p };
		}
	}
	qsort(items, total, sizeof(*items), cmp_item);
	for (i = 0; i < total; i++) {
		if (!n || strcmp(rows[n - 1].group, items[i].group) ||
		    strcmp(rows[n - 1].name, items[i].name)) {
			rows[n].group = items[i].group;
			rows[n].name = items[i].name;
			rows[n].order = items[i].order;
			n++;
		}
		rows[n - 1].p[items[i].file] = items[i].p;
	}
	/* Rows are sorted by group here: give each group its earliest row. */
	for (i = 0; i < n; i = j) {
		size_t first = rows[i].order;

		start = i;
		for (j = i; j < n && !strcmp(rows[j].group, rows[start].group); j++)
			if (rows[j].order < first)
				first = rows[j].order;
		for (k = start; k < j; k++)
			rows[k].group_order = first;
	}
	qsort(rows, n, sizeof(*rows), cmp_row);
	free(items);
	*nrows = n;
	return rows;
}

static double nice_step(double range)
{
	double raw = range / 5, mag, f;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return mag * (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10);
}

static void group_scale(const struct row *rows, size_t nrows, size_t nfiles, struct scale *sc)
{
	double hi = 0, lo_pos = INFINITY;
	size_t i, j;

	for (i = 0; i < nrows; i++) {
		for (j = 0; j < nfiles; j++) {
			const struct run_probe *p = rows[i].p[j];

			if (!p || p->status != PROBE_OK)
				continue;
			hi = fmax(hi, fmax(p->cycles.p99, fmax(p->cycles.ci95_hi, p->cycles.median)));
			/* A figure that prints as 0.0 (5e-324) is no anchor of a log scale. */
			if (p->cycles.min > COMPARE_DIFF_MIN)
				lo_pos = fmin(lo_pos, p->cycles.min);
			else if (p->cycles.median > COMPARE_DIFF_MIN)
				lo_pos = fmin(lo_pos, p->cycles.median);
		}
	}
	memset(sc, 0, sizeof(*sc));
	if (!(hi > COMPARE_DIFF_MIN) || !isfinite(hi))
		hi = 1;
	if (isfinite(lo_pos) && hi / lo_pos > 100) {
		sc->log = 1;
		sc->lo = pow(10, floor(log10(lo_pos)));
		sc->hi = pow(10, ceil(log10(hi)));
		if (!(sc->hi > sc->lo))
			sc->hi = sc->lo * 10;
		return;
	}
	sc->step = nice_step(hi);
	sc->hi = ceil(hi * 1.02 / sc->step) * sc->step;
}

static double sx(const struct scale *sc, double v)
{
	double t;

	if (!isfinite(v))
		v = 0;
	if (sc->log)
		t = v <= sc->lo ? 0 : (log10(v) - log10(sc->lo)) / (log10(sc->hi) - log10(sc->lo));
	else
		t = v / sc->hi;
	if (!(t >= 0))	/* and NaN: every coordinate written is finite */
		t = 0;
	if (t > 1)
		t = 1;
	return X0 + t * (X1 - X0);
}

static void draw_tick(FILE *f, const struct scale *sc, double v, double height)
{
	fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%.1f\"/>",
		sx(sc, v), sx(sc, v), AXIS_H - 4, height);
	fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", sx(sc, v), AXIS_H - 8);
	if (v >= 1e6)
		fprintf(f, "%gM", v / 1e6);
	else if (v >= 1e4)
		fprintf(f, "%gk", v / 1e3);
	else
		fprintf(f, "%.*f", !sc->log && sc->step < 1 ? 2 : 0, v);
	fputs("</text>", f);
}

static void draw_axis(FILE *f, const struct scale *sc, double height)
{
	double v;
	int k;

	fprintf(f, "<g class=\"axis\">");
	if (sc->log) {
		for (v = sc->lo, k = 0; v <= sc->hi * 1.0001 && k < 40; v *= 10, k++)
			draw_tick(f, sc, v, height);
	} else {
		for (v = 0, k = 0; v <= sc->hi * 1.0001 && k < 40; v += sc->step, k++)
			draw_tick(f, sc, v, height);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"unit\">cycles/op%s</text>",
		X0 - 24, AXIS_H - 8, sc->log ? " (log)" : "");
	fprintf(f, "</g>\n");
}

/* Short label text: the name cut to fit the label column. */
static void label_text(FILE *f, const char *s, size_t max)
{
	char buf[128];

	if (strlen(s) <= max) {
		html_escape(f, s);
		return;
	}
	snprintf(buf, sizeof(buf), "%.*s", (int)max - 1, s);
	html_escape(f, buf);
	fputs("\u2026", f);
}

static void draw_bar(FILE *f, const struct report_ctx *r, const struct scale *sc,
		     const struct run_probe *p, size_t file, double y)
{
	const struct result_cycles *c;
	double cy = y + BAR_H / 2.0, ys = y + BAR_H + 2;
	size_t k, stride;

	if (!p || p->status != PROBE_OK) {
		fprintf(f, "<text class=\"na\" x=\"%d\" y=\"%.1f\">%c: ", X0 + 4, y + BAR_H - 3,
			html_file_label(file));
		if (!p) {
			fputs("not in this file", f);
		} else {
			html_escape(f, probe_status_names[p->status]);
			fputs(": ", f);
			label_text(f, p->reason ? p->reason : "", 90);
		}
		fputs("</text>\n", f);
		return;
	}
	c = &p->cycles;
	fprintf(f, "<g class=\"probe-bar\"><title>%c ", html_file_label(file));
	html_escape(f, r->files[file]->name);
	fputs(" \u2014 ", f);
	html_escape(f, p->name);
	fprintf(f, ": median %.1f cycles/op, 95%% CI [%.1f, %.1f], min..p99 %.1f..%.1f, "
		"%zu samples of %lld ops, %.2f exits/op</title>",
		c->median, c->ci95_lo, c->ci95_hi, c->min, c->p99, p->n_samples, p->batch,
		p->per_op[RESULT_OP_EXITS]);
	fprintf(f, "<rect class=\"bar\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
		"fill=\"%s\"/>", X0, y, sx(sc, c->median) - X0, BAR_H, html_file_color(file));
	stride = (p->n_samples + MAX_DOTS - 1) / MAX_DOTS;
	for (k = 0; k < p->n_samples; k += stride)
		fprintf(f, "<circle class=\"dot\" cx=\"%.1f\" cy=\"%.1f\" r=\"1.6\"/>",
			sx(sc, p->samples[k]), y + 2.5 + (double)((k * 7919) % (BAR_H - 4)));
	fprintf(f, "<line class=\"spread\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
		"<line class=\"spread\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
		"<line class=\"spread\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
		sx(sc, c->min), sx(sc, c->p99), ys, ys,
		sx(sc, c->min), sx(sc, c->min), ys - 2, ys + 2,
		sx(sc, c->p99), sx(sc, c->p99), ys - 2, ys + 2);
	fprintf(f, "<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
		"<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
		"<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
		sx(sc, c->ci95_lo), sx(sc, c->ci95_hi), cy, cy,
		sx(sc, c->ci95_lo), sx(sc, c->ci95_lo), y + 2, y + BAR_H - 2,
		sx(sc, c->ci95_hi), sx(sc, c->ci95_hi), y + 2, y + BAR_H - 2);
	fprintf(f, "<text class=\"val\" x=\"%d\" y=\"%.1f\">%c ", X1 + 8, y + BAR_H - 3,
		html_file_label(file));
	html_num(f, c->median);
	fputs(" [", f);
	html_num(f, c->ci95_lo);
	fputs("\u2013", f);
	html_num(f, c->ci95_hi);
	fprintf(f, "] \u00b7 %.2f exits/op</text></g>\n", p->per_op[RESULT_OP_EXITS]);
}

static void draw_group_chart(const struct report_ctx *r, const struct row *rows, size_t nrows)
{
	FILE *f = r->f;
	double row_h = (double)r->n * (BAR_H + BAR_GAP) - BAR_GAP + ROW_PAD;
	double height = AXIS_H + row_h * (double)nrows + 4, y;
	struct scale sc;
	size_t i, j;

	group_scale(rows, nrows, r->n, &sc);
	fprintf(f, "<svg class=\"chart\" viewBox=\"0 0 %d %.0f\" "
		"role=\"img\" aria-label=\"cycles per op of group ", W, height);
	html_escape(f, rows[0].group);
	fputs("\">\n", f);
	draw_axis(f, &sc, height);
	for (i = 0; i < nrows; i++) {
		y = AXIS_H + row_h * (double)i + ROW_PAD / 2.0;
		if (i % 2)
			fprintf(f, "<rect class=\"band\" x=\"0\" y=\"%.1f\" width=\"%d\" "
				"height=\"%.1f\"/>", y - ROW_PAD / 2.0, W, row_h);
		fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\"><title>",
			X0 - 8, y + (row_h - ROW_PAD) / 2 + 4);
		html_escape(f, rows[i].name);
		for (j = 0; j < r->n; j++) {
			if (rows[i].p[j] && rows[i].p[j]->description) {
				fputs(": ", f);
				html_escape(f, rows[i].p[j]->description);
				break;
			}
		}
		fputs("</title>", f);
		label_text(f, rows[i].name, 30);
		fputs("</text>\n", f);
		for (j = 0; j < r->n; j++)
			draw_bar(f, r, &sc, rows[i].p[j], j, y + (double)j * (BAR_H + BAR_GAP));
	}
	fputs("</svg>\n", f);
}

static void number_cell(FILE *f, double v)
{
	fputs("<td class=\"num\">", f);
	html_num(f, v);
	fputs("</td>", f);
}

/*
 * Why the probe's measurement ended, when the file says (method v2): a mark
 * after "ok", loud for "budget" (the precision was not reached), with the
 * achieved CI half-width in the title.
 */
static void stop_mark(FILE *f, const struct run_probe *p)
{
	static const char *const why[PROBE_STOP_N] = {
		[PROBE_STOP_PRECISION] = "its CI reached --precision",
		[PROBE_STOP_BUDGET] = "its --time-budget was spent before the CI reached "
				      "--precision",
		[PROBE_STOP_RUN_LIMIT] = "the run's --run-limit was reached",
		[PROBE_STOP_STOPPED] = "the run was stopped (Ctrl-C)",
		[PROBE_STOP_SAMPLES] = "the fixed --samples count (method v1)",
	};

	if (p->stop == PROBE_STOP_NONE || p->stop >= PROBE_STOP_N)
		return;
	fprintf(f, "<span class=\"stop stop-%s\" title=\"stopped: %s", probe_stop_names[p->stop],
		why[p->stop]);
	if (p->ci_rel_pct >= 0)
		fprintf(f, "; 95%% CI \u00b1%.2f%% of the median", p->ci_rel_pct);
	fprintf(f, "\">%s", probe_stop_names[p->stop]);
	if (p->ci_rel_pct >= 0 && p->stop != PROBE_STOP_SAMPLES)
		fprintf(f, " \u00b1%.1f%%", p->ci_rel_pct);
	fputs("</span>", f);
}

/* An interrupt probe's delivery and a two-vCPU probe's wait for vCPU 1, when the file has them. */
static void delivery_text(FILE *f, const struct run_probe *p)
{
	const struct run_delivery *d = &p->delivery;

	if (d->present) {
		fprintf(f, "<span class=\"delivery\" title=\"where each op's interrupt was taken: "
			"in its window, late (within %g ms after it, the wait included in the "
			"cost) or never\">"
			"interrupts: %lld in window, %lld late, %lld never", d->late_limit_ms,
			d->in_window, d->late, d->never);
		if (d->late_wait_cycles >= 0) {
			fputs(" (mean wait ", f);
			html_num(f, d->late_wait_cycles);
			fputs(" cycles)", f);
		}
		fputs("</span> ", f);
	}
	if (p->peer_wait_ms >= 0)
		fprintf(f, "<span class=\"peer\">vCPU 1 ready after %.3g ms</span> ",
			p->peer_wait_ms);
}

static void draw_group_table(const struct report_ctx *r, const struct row *rows, size_t nrows)
{
	FILE *f = r->f;
	size_t i, j;
	int k;

	fputs("<table class=\"nums\"><thead><tr><th>probe</th><th>file</th><th>status</th>"
	      "<th>median</th><th>95% CI</th><th>p90</th><th>p99</th><th>cv</th><th>samples</th>"
	      "<th>exits/op</th><th>other per-op counters</th></tr></thead><tbody>\n", f);
	for (i = 0; i < nrows; i++) {
		for (j = 0; j < r->n; j++) {
			const struct run_probe *p = rows[i].p[j];

			if (!p)
				continue;
			fputs("<tr><td class=\"name\">", f);
			html_escape(f, p->name);
			fprintf(f, "</td><td><span class=\"swatch\" "
				"style=\"background:%s\"></span>%c</td>", html_file_color(j),
				html_file_label(j));
			if (p->status != PROBE_OK) {
				fprintf(f, "<td class=\"st-%s\">", probe_status_names[p->status]);
				html_escape(f, probe_status_names[p->status]);
				fputs("</td><td colspan=\"8\" class=\"reason\">", f);
				html_escape(f, p->reason);
				fputs("</td></tr>\n", f);
				continue;
			}
			fputs("<td class=\"st-ok\">ok", f);
			stop_mark(f, p);
			fputs("</td>", f);
			number_cell(f, p->cycles.median);
			fputs("<td class=\"num\">", f);
			html_num(f, p->cycles.ci95_lo);
			fputs("\u2013", f);
			html_num(f, p->cycles.ci95_hi);
			fputs("</td>", f);
			number_cell(f, p->cycles.p90);
			number_cell(f, p->cycles.p99);
			fprintf(f, "<td class=\"num\">%.3f</td><td class=\"num\">%zu \u00d7 %lld",
				p->cycles.cv, p->n_samples, p->batch);
			if (p->n_rounds)
				fprintf(f, " (%zu rounds)", p->n_rounds);
			fprintf(f, "</td><td class=\"num\">%.2f</td><td>",
				p->per_op[RESULT_OP_EXITS]);
			for (k = 1; k < RESULT_PER_OP_N; k++)
				if (p->per_op[k] >= COMPARE_COUNTER_ZERO)
					fprintf(f, "%s %.2f ", result_per_op_names[k],
						p->per_op[k]);
			delivery_text(f, p);
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</tbody></table>\n", f);
}

int report_probes(const struct report_ctx *r)
{
	FILE *f = r->f;
	size_t nrows = 0, i, j;
	struct row *rows = collect_rows(r, &nrows);

	if (!rows)
		return -ENOMEM;
	fputs("<section id=\"probes\"><h2>Probe costs</h2>\n", f);
	if (nrows == 0) {
		fputs("<p class=\"empty\">No probe results in these files.</p></section>\n", f);
		free(rows);
		return 0;
	}
	fputs("<p class=\"legend\">", f);
	for (i = 0; i < r->n; i++) {
		fprintf(f, "<span class=\"key\"><span class=\"swatch\" "
			"style=\"background:%s\"></span>%c: ", html_file_color(i),
			html_file_label(i));
		html_escape(f, r->files[i]->name);
		fputs("</span> ", f);
	}
	fputs("</p>\n<p class=\"help\">Bar: median cycles per operation (nop loop overhead "
	      "subtracted). Black whisker: 95% confidence interval of the median. Grey line under "
	      "the bar: min..p99 of the samples; dots: the samples (at most 80 shown). Hover for "
	      "details.</p>\n", f);
	for (i = 0; i < nrows; i = j) {
		for (j = i; j < nrows && !strcmp(rows[j].group, rows[i].group); j++)
			;
		fputs("<div class=\"group\"><h3>", f);
		html_escape(f, rows[i].group);
		fprintf(f, " <small>(%zu probe%s)</small></h3>\n", j - i, j - i == 1 ? "" : "s");
		draw_group_chart(r, rows + i, j - i);
		draw_group_table(r, rows + i, j - i);
		fputs("</div>\n", f);
	}
	fputs("</section>\n", f);
	free(rows);
	return 0;
}
