// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_path.c - the report's exit-path section: for every probe of a
 * profiled lane run, where one operation's instructions go (L1 kernel, L2
 * guest, L1 user space), the exits the emulator saw, and the kernel
 * functions that account for the most instructions per op, as a table and
 * as bars (a function the op runs less than its baseline gets a bar to the
 * left); with a census, the path's costly instructions per op by kind and
 * operand, and each function's in a short cell. In a file after A, the
 * functions and census rows that changed against A (compare's rule,
 * compare/path.h) are marked.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "compare/path.h"
#include "report/html.h"
#include "report/report_int.h"

#define PATH_TOP	12	/* functions shown per probe */
#define CENSUS_TOP	32	/* census rows shown per probe */
#define FN_CENSUS_TOP	3	/* census rows in a function's cell */
#define BAR_W		360	/* px of the largest bar */

int report_has_paths(const struct result_file *rf)
{
	for (size_t i = 0; i < rf->n_probes; i++)
		if (rf->probes[i].exit_path.present)
			return 1;
	return 0;
}

static void path_bars(FILE *f, const struct exit_path *e, size_t n)
{
	double max = 0;
	unsigned int h = 16, w = BAR_W + 8;

	for (size_t i = 0; i < n; i++)
		max = fmax(max, fabs(exit_path_per_op(e, e->fns[i].insn)));
	if (!(max > 0) || !isfinite(max))	/* no bar, or none whose width is a number */
		return;
	fprintf(f, "<svg class=\"bars\" width=\"%u\" height=\"%zu\" role=\"img\" "
		   "aria-label=\"kernel instructions per op by function\">\n", 2 * w, n * h + 4);
	for (size_t i = 0; i < n; i++) {
		double v = exit_path_per_op(e, e->fns[i].insn);
		double len = fabs(v) / max * BAR_W;

		fprintf(f, "<rect x=\"%.1f\" y=\"%zu\" width=\"%.1f\" height=\"%u\" "
			"fill=\"%s\"><title>", v < 0 ? w - len : (double)w, i * h + 2, len, h - 4,
			v < 0 ? "#b0b0b0" : "#3b6ea5");
		html_escape(f, e->fns[i].name);
		fputs(": ", f);
		html_num(f, v);
		fputs(" insn/op</title></rect>\n", f);
	}
	fprintf(f, "<line x1=\"%u\" y1=\"0\" x2=\"%u\" y2=\"%zu\" stroke=\"#333\"/>\n</svg>\n", w,
		w, n * h + 4);
}

static void census_num(FILE *f, double v)
{
	char buf[32];

	path_per_op_str(buf, sizeof(buf), v, 0);
	fputs(buf, f);
}

/* "xsetbv XCR0 2" */
static void census_text(FILE *f, const struct exit_path *e, const struct exit_path_census *c)
{
	html_escape(f, c->insn);
	if (c->operand) {
		fputc(' ', f);
		html_escape(f, c->operand);
	}
	fputc(' ', f);
	census_num(f, exit_path_per_op(e, c->count));
}

/* A function's census cell: its largest rows (by executions), "+N more" beyond. */
static void fn_census(FILE *f, const struct exit_path *e, const struct exit_path_fn *fn)
{
	size_t pick[FN_CENSUS_TOP], n = 0;

	fputs("<td class=\"name\">", f);
	while (n < FN_CENSUS_TOP && n < fn->n_census) {
		size_t best = fn->n_census;

		for (size_t i = 0; i < fn->n_census; i++) {
			bool taken = false;

			for (size_t k = 0; k < n; k++)
				taken |= pick[k] == i;
			if (!taken && (best == fn->n_census ||
				       llabs(fn->census[i].count) > llabs(fn->census[best].count)))
				best = i;
		}
		pick[n++] = best;
	}
	for (size_t k = 0; k < n; k++) {
		fputs(k ? ", " : "", f);
		census_text(f, e, &fn->census[pick[k]]);
	}
	if (fn->n_census > n)
		fprintf(f, ", +%zu more", fn->n_census - n);
	fputs("</td>", f);
}

static const struct path_probe_change *change_find(const struct path_changes *pc, const char *probe)
{
	for (size_t i = 0; pc && i < pc->n; i++)
		if (!strcmp(pc->probes[i].probe, probe))
			return &pc->probes[i];
	return NULL;
}

static const struct path_census_change *census_changed(const struct path_probe_change *c, const char *insn,
						       const char *operand)
{
	for (size_t i = 0; c && i < c->n_census; i++)
		if (path_census_same(c->census[i].insn, c->census[i].operand, insn, operand))
			return &c->census[i];
	return NULL;
}

static int fn_changed(const struct path_probe_change *c, const char *name)
{
	for (size_t i = 0; c && i < c->n_fns; i++)
		if (!strcmp(c->fns[i].name, name))
			return 1;
	return 0;
}

static void census_row(FILE *f, const char *insn, const char *operand, double per_op, bool changed,
		       const double *a_per_op)
{
	fputs(changed ? "<tr class=\"changed\"><td class=\"name\">" : "<tr><td class=\"name\">", f);
	html_escape(f, insn);
	fputs("</td><td class=\"name\">", f);
	html_escape(f, operand);
	fputs(changed ? "</td><td class=\"num differs\">" : "</td><td class=\"num\">", f);
	census_num(f, per_op);
	if (a_per_op) {
		fputs("</td><td class=\"num\">", f);
		census_num(f, *a_per_op);
	}
	fputs("</td></tr>\n", f);
}

/* A's figure of a census row (0 when A does not list it). */
static double a_figure(const struct exit_path *a, const char *insn, const char *operand)
{
	for (size_t i = 0; i < a->n_census; i++) {
		const struct exit_path_census *c = &a->census[i];

		if (path_census_same(c->insn, c->operand, insn, operand))
			return exit_path_per_op(a, c->count);
	}
	return 0;
}

/*
 * The path's census table; a is A's path of the probe when this file is
 * compared with A and both have a census (a column of A's figures, the
 * changed rows marked, rows gone from A's listed at 0), else NULL.
 */
static void path_census(FILE *f, const struct exit_path *e, const struct exit_path *a,
			const struct path_probe_change *chg)
{
	size_t n = e->n_census < CENSUS_TOP ? e->n_census : CENSUS_TOP;

	fputs("<p class=\"meta\">Census: the L1 kernel's costly instructions, exact executions "
	      "per op by kind and operand", f);
	if (a)
		fputs("; rows that changed against A are highlighted", f);
	fputs(".</p>\n<table class=\"census\"><thead><tr><th>insn</th><th>operand</th><th>per "
	      "op</th>", f);
	if (a)
		fputs("<th>A per op</th>", f);
	fputs("</tr></thead><tbody>\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct exit_path_census *c = &e->census[i];
		double av = a ? a_figure(a, c->insn, c->operand) : 0;

		census_row(f, c->insn, c->operand, exit_path_per_op(e, c->count),
			   census_changed(chg, c->insn, c->operand) != NULL, a ? &av : NULL);
	}
	for (size_t i = 0; a && chg && i < chg->n_census; i++) {
		const struct path_census_change *c = &chg->census[i];
		bool listed = false;

		for (size_t j = 0; j < e->n_census; j++)
			listed |= path_census_same(e->census[j].insn, e->census[j].operand, c->insn, c->operand);
		if (!listed)
			census_row(f, c->insn, c->operand, 0, true, &c->per_op[0].mean);
	}
	if (e->n_census > n)
		fprintf(f, "<tr><td colspan=\"%d\">%zu more rows in the JSON</td></tr>\n",
			a ? 4 : 3, e->n_census - n);
	if (!e->n_census && !(chg && chg->n_census))
		fprintf(f, "<tr><td colspan=\"%d\">none counted</td></tr>\n", a ? 4 : 3);
	fputs("</tbody></table>\n", f);
}

/*
 * One probe's exit path; a: A's path of the probe and chg its changes
 * against A, when this file is compared with A (else NULL).
 */
static void path_probe(FILE *f, const struct run_probe *p, const struct exit_path *a,
		       const struct path_probe_change *chg)
{
	const struct exit_path *e = &p->exit_path;
	size_t n = e->n_fns < PATH_TOP ? e->n_fns : PATH_TOP;

	fputs("<h4>", f);
	html_escape(f, p->name);
	fputs("</h4>\n<p class=\"meta\">per op: L1 kernel ", f);
	html_num(f, exit_path_per_op(e, e->kernel_insn));
	fputs(" insn, L2 guest ", f);
	html_num(f, exit_path_per_op(e, e->guest_insn));
	fputs(" insn, L1 user space ", f);
	html_num(f, exit_path_per_op(e, e->user_insn));
	fputs(" insn; exits", f);
	for (size_t i = 0; i < e->n_exits; i++) {
		fputs(i ? ", " : " ", f);
		html_escape(f, e->exits[i].reason);
		fputc(' ', f);
		html_num(f, exit_path_per_op(e, e->exits[i].exits));
	}
	if (!e->n_exits)
		fputs(" none", f);
	fprintf(f, " (over %lld operations)</p>\n", e->ops);
	path_bars(f, e, n);
	fputs("<table><thead><tr><th>function</th><th>insn/op</th><th>calls/op</th>", f);
	if (e->has_census)
		fputs("<th>census/op</th>", f);
	fputs("</tr></thead><tbody>\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs(fn_changed(chg, e->fns[i].name)
		      ? "<tr class=\"changed\"><td class=\"differs\">" : "<tr><td>", f);
		html_escape(f, e->fns[i].name);
		fputs("</td><td>", f);
		html_num(f, exit_path_per_op(e, e->fns[i].insn));
		fputs("</td><td>", f);
		html_num(f, exit_path_per_op(e, e->fns[i].calls));
		fputs("</td>", f);
		if (e->has_census)
			fn_census(f, e, &e->fns[i]);
		fputs("</tr>\n", f);
	}
	if (e->n_fns > n)
		fprintf(f, "<tr><td colspan=\"%d\">%zu more functions in the JSON</td></tr>\n",
			e->has_census ? 4 : 3, e->n_fns - n);
	fputs("</tbody></table>\n", f);
	if (e->has_census)
		path_census(f, e, a && a->has_census ? a : NULL, a && a->has_census ? chg : NULL);
}

/* A's exit path of probe name, when A has one (else NULL). */
static const struct exit_path *a_path(const struct report_ctx *r, const char *name)
{
	const struct run_probe *p = result_find_probe(r->files[0], name);

	return p && p->exit_path.present ? &p->exit_path : NULL;
}

int report_exit_paths(const struct report_ctx *r)
{
	FILE *f = r->f;
	bool any = false;

	for (size_t i = 0; i < r->n; i++)
		any |= report_has_paths(r->files[i]);
	if (!any)
		return 0;
	fputs("<section id=\"exit-path\"><h2>Exit paths</h2>\n"
	      "<p>Counted exactly by the lane's instrumented emulator: the op's batches minus "
	      "its baseline batches over the same operations. Functions are the lane kernel's "
	      "symbols; code inlined into a function counts as that function's.", f);
	if (r->n >= 2)
		fputs(" In a file after A, the figures that differ from A's are highlighted.", f);
	fputs("</p>\n", f);
	for (size_t i = 0; i < r->n; i++) {
		const struct result_file *rf = r->files[i];
		const struct path_changes *pc = r->vs_a[i] ? &r->vs_a[i]->paths : NULL;
		int vs_a = i > 0 && report_has_paths(r->files[0]);

		if (!report_has_paths(rf))
			continue;
		if (vs_a && !pc)
			return -ENOMEM;	/* report_compare made it, unless out of memory */
		fprintf(f, "<h3><span class=\"swatch\" style=\"background:%s\"></span>%c: ",
			html_file_color(i), html_file_label(i));
		html_escape(f, rf->name);
		fputs("</h3>\n", f);
		for (size_t j = 0; j < rf->n_probes; j++) {
			const struct run_probe *p = &rf->probes[j];

			if (p->exit_path.present)
				path_probe(f, p, vs_a ? a_path(r, p->name) : NULL,
					   vs_a ? change_find(pc, p->name) : NULL);
		}
	}
	fputs("</section>\n", f);
	return ferror(f) ? -EIO : 0;
}
