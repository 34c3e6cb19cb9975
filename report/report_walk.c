// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_walk.c - the HTML report of a walk: per lane its steps, then per
 * one-vCPU probe its lane cycles over the commits as an inline SVG line
 * chart (skipped commits and gaps marked, steps marked) with the table of
 * its steps and the exit-path functions that changed.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/walk_steps.h"
#include "report/html.h"
#include "report/report.h"
#include "report/report_int.h"

#define W		960	/* SVG user units; the chart scales to the page width */
#define H		240
#define PX0		110	/* plot area */
#define PX1		(W - 20)
#define PY0		30
#define PY1		(H - 70)
#define MAX_XLABELS	40	/* at most this many commit labels under a chart */
#define TABLE_FNS	8	/* functions per step in the tables */

/* The lane's commits, oldest first: the chart's x axis. */
struct lane_axis {
	const struct walk_commit **commits;
	size_t n;
};

static double x_of(const struct lane_axis *ax, size_t pos)
{
	if (ax->n < 2)
		return (PX0 + PX1) / 2.0;
	return PX0 + (double)pos * (PX1 - PX0) / (double)(ax->n - 1);
}

static size_t axis_pos(const struct lane_axis *ax, const struct walk_commit *c)
{
	for (size_t i = 0; i < ax->n; i++)
		if (ax->commits[i] == c)
			return i;
	return 0;
}

static const struct walk_step *step_at(const struct walk_probe *p, const struct walk_commit *c)
{
	for (size_t i = 0; i < p->n_steps; i++)
		if (p->steps[i].c == c)
			return &p->steps[i];
	return NULL;
}

static int is_gap(const struct walk_probe *p, const struct walk_commit *c)
{
	for (size_t i = 0; i < p->n_gaps; i++)
		if (p->gaps[i] == c)
			return 1;
	return 0;
}

static void short_rev(FILE *f, const struct walk_commit *c)
{
	fprintf(f, "%.*s", WALK_SHORT_REV, c->rev);
}

static void write_pct(FILE *f, const struct walk_step *st)
{
	if (isfinite(st->change_pct))
		fprintf(f, "%+.2f%%", st->change_pct);
	else
		fputs("from 0", f);
}

static void chart(FILE *f, const struct lane_axis *ax, const struct walk_probe *p)
{
	double lo = p->figs[0].cycles, hi = lo, pad, y;
	size_t i, every = (ax->n + MAX_XLABELS - 1) / MAX_XLABELS, prev_pos = 0;
	bool open = false;

	for (i = 1; i < p->n_figs; i++) {
		lo = fmin(lo, p->figs[i].cycles);
		hi = fmax(hi, p->figs[i].cycles);
	}
	pad = (hi - lo) * 0.1;
	if (pad < fabs(hi) * 0.005 + 1)
		pad = fabs(hi) * 0.005 + 1;
	lo -= pad;
	hi += pad;
#define Y(v) (PY1 - ((v) - lo) / (hi - lo) * (PY1 - PY0))
	fprintf(f, "<svg class=\"chart walk\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"lane "
		"cycles of ", W, H);
	html_escape(f, p->name);
	fputs(" over the commits\">\n<g class=\"axis\">", f);
	for (i = 0; i <= 4; i++) {
		double v = lo + (hi - lo) * (double)i / 4;

		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", PX0, PX1, Y(v), Y(v),
			PX0 - 6, Y(v) + 4);
		html_num(f, v);
		fputs("</text>", f);
	}
	fprintf(f, "<text class=\"unit\" x=\"4\" y=\"%d\">lane cycles</text></g>\n", PY0 - 16);
	/* The commits: a label for some, a mark for a skipped commit or one without the probe. */
	for (i = 0; i < ax->n; i++) {
		const struct walk_commit *c = ax->commits[i];
		double x = x_of(ax, i);

		if (c->status == WALK_SKIP)
			fprintf(f, "<rect class=\"wskip\" x=\"%.1f\" y=\"%d\" width=\"6\" "
				"height=\"6\">"
				"<title>skipped: ", x - 3, PY1 - 3);
		else if (is_gap(p, ax->commits[i]))
			fprintf(f, "<circle class=\"wgap\" cx=\"%.1f\" cy=\"%d\" "
				"r=\"3\"><title>not measured: ", x, PY1);
		if (c->status == WALK_SKIP || is_gap(p, ax->commits[i])) {
			short_rev(f, c);
			fputc(' ', f);
			html_escape(f, c->status == WALK_SKIP ? c->reason : c->subject);
			fputs(c->status == WALK_SKIP ? "</title></rect>\n" : "</title></circle>\n",
			      f);
		}
		if (i % every && i != ax->n - 1 && !step_at(p, ax->commits[i]))
			continue;
		fprintf(f, "<text class=\"label%s\" transform=\"translate(%.1f %d) rotate(-45)\" "
			"text-anchor=\"end\">", c->status == WALK_SKIP ? " na" : "", x + 3,
			PY1 + 14);
		short_rev(f, c);
		fputs("</text>\n", f);
	}
	/* The line, broken at every gap: no step is judged across one. */
	for (i = 0; i < p->n_figs; i++) {
		size_t pos = axis_pos(ax, p->figs[i].c);
		bool broken = !i;

		for (size_t k = i ? prev_pos + 1 : pos; k < pos; k++)
			if (is_gap(p, ax->commits[k]))
				broken = true;
		if (broken && open)
			fputs("\"/>\n", f);
		if (broken) {
			fputs("<polyline class=\"wline\" points=\"", f);
			open = true;
		}
		fprintf(f, "%.1f,%.1f ", x_of(ax, pos), Y(p->figs[i].cycles));
		prev_pos = pos;
	}
	if (open)
		fputs("\"/>\n", f);
	for (i = 0; i < p->n_figs; i++) {
		const struct walk_commit *c = p->figs[i].c;
		const struct walk_step *st = step_at(p, c);
		double x = x_of(ax, axis_pos(ax, c));

		y = Y(p->figs[i].cycles);
		if (st) {
			const char *dir = st->after > st->before ? "up" : "down";

			fprintf(f, "<line class=\"wmark\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" "
				"y2=\"%d\"/>"
				"<text class=\"wstep %s\" x=\"%.1f\" y=\"%d\" "
				"text-anchor=\"middle\">", x, x, PY0, PY1, dir, x, PY0 + 10);
			write_pct(f, st);
			fputs("</text>\n", f);
		}
		fprintf(f, "<circle class=\"wpt%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%d\"><title>", st ?
			(st->after > st->before ? " up" : " down") : "", x, y, st ? 5 : 3);
		short_rev(f, c);
		fputc(' ', f);
		html_escape(f, c->subject);
		fprintf(f, ": %.0f lane cycles</title></circle>\n", p->figs[i].cycles);
	}
#undef Y
	fputs("</svg>\n", f);
}

static void step_functions(FILE *f, const struct walk_step *st)
{
	if (!st->has_path) {
		fputs("<span class=\"empty\">no exit paths</span>", f);
		return;
	}
	fprintf(f, "kernel %.1f \u2192 %.1f insn/op", st->kernel_insn[0], st->kernel_insn[1]);
	if (st->n_fns) {
		fputs("<ul class=\"changes\">", f);
		for (size_t i = 0; i < st->n_fns && i < TABLE_FNS; i++) {
			fputs("<li>", f);
			html_escape(f, st->fns[i].name);
			fprintf(f, " %+.1f insn/op, %+.2f calls/op</li>",
				st->fns[i].insn[1] - st->fns[i].insn[0],
				st->fns[i].calls[1] - st->fns[i].calls[0]);
		}
		if (st->n_fns > TABLE_FNS)
			fprintf(f, "<li>%zu more (exitscope walk --json)</li>",
				st->n_fns - TABLE_FNS);
		fputs("</ul>", f);
	}
	if (st->has_census && st->n_census) {
		fputs("<div class=\"detail\">census per op:", f);
		for (size_t i = 0; i < st->n_census; i++) {
			fprintf(f, "%s %+.2f ", i ? "," : "",
				st->census[i].per_op[1] - st->census[i].per_op[0]);
			html_escape(f, st->census[i].insn);
			if (st->census[i].operand) {
				fputc(' ', f);
				html_escape(f, st->census[i].operand);
			}
		}
		fputs("</div>", f);
	}
}

static void step_row(FILE *f, const struct walk_probe *p, const struct walk_step *st,
		     bool with_probe)
{
	const struct walk_commit *c = st->c;

	fputs("<tr class=\"wstep\"><td class=\"name\">", f);
	short_rev(f, c);
	fputs("</td><td>", f);
	html_escape(f, c->subject);
	if (with_probe) {
		fputs("</td><td class=\"name\">", f);
		html_escape(f, p->name);
	}
	fprintf(f, "</td><td class=\"num\">%.0f \u2192 %.0f</td><td class=\"num %s\">", st->before,
		st->after, st->after > st->before ? "v-slower" : "v-faster");
	write_pct(f, st);
	fputs("</td><td class=\"name\">", f);
	short_rev(f, st->from);
	fputs("</td><td>", f);
	step_functions(f, st);
	fputs("</td></tr>\n", f);
}

static void steps_table_head(FILE *f, bool with_probe)
{
	fprintf(f, "<div class=\"scroll\"><table class=\"steps\"><thead><tr><th>commit</th>"
		"<th>subject</th>%s<th>lane cycles</th><th>change</th><th>vs</th>"
		"<th>exit path: what changed</th></tr></thead><tbody>\n",
		with_probe ? "<th>probe</th>" : "");
}

static int lane_section(FILE *f, const struct walk_steps *s, const struct walk_lane *l)
{
	const struct walk_file *w = s->w;
	const char *name = host_lane_names[l->lane];
	struct lane_axis ax = { 0 };
	size_t i, j, k, nsteps = 0;

	ax.commits = calloc(w->n_commits ? w->n_commits : 1, sizeof(*ax.commits));
	if (!ax.commits)
		return -ENOMEM;
	for (i = 0; i < w->n_commits; i++)
		if (w->commits[i].lane == l->lane)
			ax.commits[ax.n++] = &w->commits[i];
	for (j = 0; j < l->n_probes; j++)
		nsteps += l->probes[j].n_steps;
	fprintf(f, "<section id=\"lane-%s\"><h2>Lane %s</h2>\n<p class=\"summary\">%zu "
		"commits, %zu measured, %zu skipped; %zu one-vCPU probes, %zu step%s.</p>\n", name,
		name, ax.n, l->n_ok, l->n_skipped, l->n_probes, nsteps, nsteps == 1 ? "" : "s");
	if (nsteps) {
		steps_table_head(f, true);
		/* In commit order. */
		for (i = 0; i < ax.n; i++)
			for (j = 0; j < l->n_probes; j++)
				for (k = 0; k < l->probes[j].n_steps; k++)
					if (l->probes[j].steps[k].c == ax.commits[i])
						step_row(f, &l->probes[j], &l->probes[j].steps[k], true);
		fputs("</tbody></table></div>\n", f);
	}
	if (l->n_skipped) {
		fputs("<p>Skipped commits:</p><ul class=\"changes\">\n", f);
		for (i = 0; i < l->n_skipped; i++) {
			fputs("<li>", f);
			short_rev(f, l->skipped[i]);
			fputc(' ', f);
			html_escape(f, l->skipped[i]->subject);
			fputs(": <span class=\"reason\">", f);
			html_escape(f, l->skipped[i]->reason);
			fputs("</span></li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	if (l->n_two_vcpu) {
		fputs("<p class=\"help\">Not judged: their second vCPU makes their lane "
		      "cycles move between boots of one kernel far more than a one-vCPU probe's:",
		      f);
		for (i = 0; i < l->n_two_vcpu; i++) {
			fputs(" <code>", f);
			html_escape(f, l->two_vcpu[i]);
			fputs("</code>", f);
		}
		fputs(".</p>\n", f);
	}
	/* Probes with steps first, then the rest; a probe never measured has no chart. */
	for (int pass = 0; pass < 2; pass++)
		for (j = 0; j < l->n_probes; j++) {
			const struct walk_probe *p = &l->probes[j];

			if (!p->n_figs || (pass == 0) != (p->n_steps > 0))
				continue;
			fprintf(f, "<div class=\"group\" id=\"%s-", name);
			html_escape(f, p->name);
			fputs("\"><h3>", f);
			html_escape(f, p->name);
			fprintf(f, " <small>%zu step%s, measured at %zu of %zu "
				"commits</small></h3>\n", p->n_steps, p->n_steps == 1 ? "" : "s",
				p->n_figs, ax.n);
			chart(f, &ax, p);
			if (p->n_steps) {
				steps_table_head(f, false);
				for (k = 0; k < p->n_steps; k++)
					step_row(f, p, &p->steps[k], false);
				fputs("</tbody></table></div>\n", f);
			}
			fputs("</div>\n", f);
		}
	fputs("</section>\n", f);
	free(ax.commits);
	return 0;
}

int report_write_walk_html(FILE *f, const struct walk_steps *s, struct err *err)
{
	const struct walk_file *w = s->w;

	report_page_start(f, "exitscope walk");
	fputs("<header id=\"top\"><h1>exitscope walk</h1>\n<p class=\"meta\">", f);
	html_escape(f, w->name);
	if (w->range) {
		fputs(": ", f);
		html_escape(f, w->range);
	}
	if (w->repository) {
		fputs(" in ", f);
		html_escape(f, w->repository);
	}
	fprintf(f, ", %zu commits", w->n_commits);
	if (w->every > 1)
		fprintf(f, " (every %lld%s)", w->every,
			w->first_parent > 0 ? ", first parent" : "");
	else if (w->first_parent > 0)
		fputs(" (first parent)", f);
	fputs("</p>\n<p class=\"help\">A step: a commit where a one-vCPU probe's median lane "
	      "cycles differ from those of the lane's previous measured commit", f);
	fprintf(f, " by more than %.2f%% (what boots of one kernel differ by) and %.0f "
		"cycles. Lane cycles are emulated instructions, not hardware cycles.</p>\n<nav>",
		s->spread_pct, s->floor_cycles);
	for (size_t i = 0; i < s->n_lanes; i++)
		fprintf(f, "<a href=\"#lane-%s\">Lane %s</a>", host_lane_names[s->lanes[i].lane],
			host_lane_names[s->lanes[i].lane]);
	fputs("</nav></header>\n<main>\n", f);
	for (size_t i = 0; i < s->n_lanes; i++)
		if (lane_section(f, s, &s->lanes[i]))
			return err_set(err, -ENOMEM, "out of memory");
	return report_page_end(f, err);
}
