// SPDX-License-Identifier: GPL-2.0-only
/* report_delta.c - one A/B comparison in the HTML report: delta chart with CI whiskers and a verdict table. */
#include <math.h>
#include <string.h>

#include "report/html.h"
#include "report/report.h"
#include "report/report_int.h"

#define W	1000
#define X0	210
#define X1	(W - 330)
#define ROW_H	22
#define AXIS_H	24
#define MAX_PCT	200.0	/* wider changes are drawn clipped at the edge */

/* By name, not position: a verdict added to compare.h is "na" here until it has a colour. */
const char *report_verdict_class(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_FASTER:
		return "faster";
	case COMPARE_SLOWER:
		return "slower";
	case COMPARE_SAME:
		return "same";
	case COMPARE_TOO_NOISY:
		return "noisy";
	default:
		return "na";
	}
}

const char *report_verdict_name(enum compare_verdict v)
{
	return (unsigned)v < COMPARE_VERDICT_N && compare_verdict_names[v] ? compare_verdict_names[v]
									 : "?";
}

static const char *method_name(enum compare_method m)
{
	return (unsigned)m < COMPARE_METHOD_N && compare_method_names[m] ? compare_method_names[m]
	       : "?";
}

static const char *r2r_name(enum compare_r2r k)
{
	return (unsigned)k < COMPARE_R2R_N && compare_r2r_names[k] ? compare_r2r_names[k] : "?";
}

/*
 * Does the probe have an interval? Every verdict but "not compared" comes
 * from one, a verdict added to compare.h too (e.g. one that says the
 * interval cannot judge the difference).
 */
static int has_interval(const struct compare_probe *p)
{
	return p->verdict != COMPARE_NOT_RUN;
}

/* A probe's model as compare --wide gives it: "runs", "rounds+floor", "runs/rounds", "batches". */
static void model_text(const struct compare_probe *p, char *buf, size_t len)
{
	const char *fl = p->floor ? "+floor" : "";

	if (p->method_a == p->method_b)
		snprintf(buf, len, "%s%s", method_name(p->method_a), fl);
	else
		snprintf(buf, len, "%s/%s%s", method_name(p->method_a), method_name(p->method_b),
			 fl);
}

/* What an interval of this method is. */
static void method_words(FILE *f, const struct compare_result *cr, enum compare_method m)
{
	switch (m) {
	case COMPARE_METHOD_BATCHES:
		fprintf(f, "a bootstrap over the raw samples, cycles/op their medians, %u "
			"resamples, seed %llu", stats_bootstrap_iters(0, 0, cr->opts.iters),
			(unsigned long long)cr->opts.seed);
		break;
	case COMPARE_METHOD_ROUNDS:
		fputs("Welch's t interval on the round medians (at least one side by the rounds "
		      "of its one run), cycles/op the mean of the run means, a run's the mean of "
		      "its round medians", f);
		break;
	case COMPARE_METHOD_RUNS:
		fputs("Welch's t interval on the run means (each side by its runs), cycles/op the "
		      "mean of the run means, a run's the mean of its round medians", f);
		break;
	default:
		fprintf(f, "the method '%s'", method_name(m));
		break;
	}
}

/* Whether the run-to-run variation is in the interval. */
static void r2r_words(FILE *f, enum compare_r2r k)
{
	switch (k) {
	case COMPARE_R2R_NONE:
		fputs("without the variation from one run to the next", f);
		break;
	case COMPARE_R2R_PARTIAL:
		fputs("with the variation from one run to the next on one side only", f);
		break;
	case COMPARE_R2R_RUNS:
		fputs("with the variation from one run to the next, from the spread of the "
		      "run means", f);
		break;
	case COMPARE_R2R_FLOOR:
		fputs("with the variation from one run to the next, the noise floor's", f);
		break;
	default:
		fprintf(f, "run to run: %s", r2r_name(k));
		break;
	}
}

/*
 * What this comparison's intervals are, from each probe's method and
 * run-to-run kind: one clause per (method, kind) found, with its probes
 * counted, e.g. "runs, with ... (5 probes); rounds+floor ... (2 probes)".
 */
static void intervals_text(FILE *f, const struct compare_result *cr)
{
	size_t i, j, n;
	bool first = true;

	for (i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];
		char model[64];

		if (!has_interval(p))
			continue;
		for (j = 0; j < i; j++)	/* said already */
			if (has_interval(&cr->probes[j]) && cr->probes[j].method == p->method &&
			    cr->probes[j].r2r == p->r2r)
				break;
		if (j < i)
			continue;
		for (n = 0, j = i; j < cr->n_probes; j++)
			n += has_interval(&cr->probes[j]) && cr->probes[j].method == p->method &&
			     cr->probes[j].r2r == p->r2r;
		model_text(p, model, sizeof(model));
		fprintf(f, "%s<span class=\"interval\">", first ? "" : "; ");
		method_words(f, cr, p->method);
		fputs(", ", f);
		r2r_words(f, p->r2r);
		fprintf(f, "</span> (%zu probe%s)", n, n == 1 ? "" : "s");
		first = false;
	}
	if (first)
		fputs("no probe has one", f);
}

static double px(double pct, double d)
{
	double t = pct / d;

	if (isnan(t))	/* every coordinate written is finite */
		t = 0;
	if (t < -1)
		t = -1;
	if (t > 1)
		t = 1;
	return (X0 + X1) / 2.0 + t * (X1 - X0) / 2.0;
}

/* The smallest 1, 2, 2.5 or 5 x 10^k that is >= v. */
static double nice_ceil(double v)
{
	double mag = pow(10, floor(log10(v))), f = v / mag;

	return mag * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10);
}

static void pct_text(FILE *f, double v)
{
	fprintf(f, "%+.1f%%", v);
}

static void delta_chart(FILE *f, const struct compare_result *cr, const char *la)
{
	double d = 2 * cr->opts.threshold_pct, y, height;
	size_t i, n = 0;
	int k;

	for (i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		if (p->verdict == COMPARE_NOT_RUN || !p->has_pct)
			continue;
		d = fmax(d, fmax(fabs(p->pct), fmax(fabs(p->pct_lo), fabs(p->pct_hi))));
		n++;
	}
	if (n == 0)
		return;
	if (!(d > 0.1))	/* changes of a tenth of a percent or none (0 against 5e-324) */
		d = 1;
	d = fmin(nice_ceil(d * 1.05), MAX_PCT);
	height = AXIS_H + (double)n * ROW_H + 6;
	fprintf(f, "<svg class=\"chart delta\" viewBox=\"0 0 %d %.0f\" role=\"img\" "
		"aria-label=\"change of each probe's figure, percent of %s's\">\n", W, height, la);
	fprintf(f, "<rect class=\"threshold\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
		"height=\"%.1f\"><title>"
		"\u00b1%.1f%%: below the threshold</title></rect>\n",
		px(-cr->opts.threshold_pct, d), AXIS_H - 4,
		px(cr->opts.threshold_pct, d) - px(-cr->opts.threshold_pct, d),
		height - AXIS_H + 4, cr->opts.threshold_pct);
	fputs("<g class=\"axis\">", f);
	for (k = -2; k <= 2; k++) {
		double v = d * k / 2;

		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%.1f\"%s/>", px(v, d),
			px(v, d), AXIS_H - 4, height, k == 0 ? " class=\"zero\"" : "");
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", px(v, d),
			AXIS_H - 8);
		pct_text(f, v);
		fputs("</text>", f);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"unit\">change, %% of "
		"%s</text></g>\n", X0 - 36, AXIS_H - 8, la);
	for (i = 0, n = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];
		const char *cls = report_verdict_class(p->verdict);
		double x0 = px(0, d), x1 = px(p->pct, d);

		if (p->verdict == COMPARE_NOT_RUN || !p->has_pct)
			continue;
		y = AXIS_H + (double)n++ * ROW_H;
		fprintf(f, "<g class=\"delta-row\"><title>");
		html_escape(f, p->name);
		fprintf(f, ": %.1f -> %.1f cycles/op, %+.2f%% (95%% CI %+.2f%% .. %+.2f%%): "
			"%s</title>", p->d.median_a, p->d.median_b, p->pct, p->pct_lo, p->pct_hi,
			report_verdict_name(p->verdict));
		fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", X0 - 8,
			y + 15);
		html_escape(f, p->name);
		fputs("</text>", f);
		fprintf(f, "<rect class=\"dbar v-%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"12\"/>", cls, fmin(x0, x1), y + 5, fabs(x1 - x0));
		fprintf(f, "<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
			"<line class=\"ci\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
			px(p->pct_lo, d), px(p->pct_hi, d), y + 11, y + 11,
			px(p->pct_lo, d), px(p->pct_lo, d), y + 7, y + 15,
			px(p->pct_hi, d), px(p->pct_hi, d), y + 7, y + 15);
		fprintf(f, "<text class=\"val v-%s\" x=\"%d\" y=\"%.1f\">", cls, X1 + 8, y + 15);
		pct_text(f, p->pct);
		fputs(" [", f);
		pct_text(f, p->pct_lo);
		fputs(", ", f);
		pct_text(f, p->pct_hi);
		fprintf(f, "] %s</text></g>\n", report_verdict_name(p->verdict));
	}
	fputs("</svg>\n", f);
}

static void delta_table(FILE *f, const struct compare_result *cr, const char *la, const char *lb)
{
	char model[64];
	size_t i;

	fprintf(f, "<div class=\"scroll\"><table class=\"nums delta\"><thead><tr><th>probe</th>"
		"<th>group</th><th>%s cycles/op</th><th>%s cycles/op</th><th>diff (cycles)</th>"
		"<th>diff %%</th><th>95%% CI of diff</th><th>interval</th><th>verdict</th>"
		"<th>exits/op</th></tr></thead><tbody>\n", la, lb);
	for (i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		fputs("<tr><td class=\"name\">", f);
		html_escape(f, p->name);
		fputs("</td><td>", f);
		html_escape(f, p->group);
		fputs("</td>", f);
		if (p->verdict == COMPARE_NOT_RUN && p->why) {
			fputs("<td colspan=\"6\" class=\"reason\">", f);
			html_escape(f, p->why);
			fputs("</td><td class=\"v-na\">not compared</td><td></td></tr>\n", f);
			continue;
		}
		if (p->verdict == COMPARE_NOT_RUN) {
			fprintf(f, "<td colspan=\"6\" class=\"reason\">%s: ", la);
			html_escape(f, probe_status_names[p->a->status]);
			fprintf(f, ", %s: ", lb);
			html_escape(f, probe_status_names[p->b->status]);
			fputs("</td><td class=\"v-na\">not compared</td><td></td></tr>\n", f);
			continue;
		}
		fputs("<td class=\"num\">", f);
		html_num(f, p->d.median_a);
		fputs("</td><td class=\"num\">", f);
		html_num(f, p->d.median_b);
		fprintf(f, "</td><td class=\"num\">%+.1f</td><td class=\"num\">", p->d.diff);
		if (p->has_pct)
			pct_text(f, p->pct);
		else
			fputs("n/a", f);
		fprintf(f, "</td><td class=\"num\">[%+.1f, %+.1f]</td>", p->d.lo, p->d.hi);
		model_text(p, model, sizeof(model));
		fprintf(f, "<td class=\"model\" title=\"run to run: %s\">%s</td>", r2r_name(p->r2r),
			model);
		fprintf(f, "<td class=\"v-%s\">%s", report_verdict_class(p->verdict),
			report_verdict_name(p->verdict));
		if (p->verdict == COMPARE_TOO_NOISY)
			fprintf(f, " (could detect \u2265 %.1f%%)", p->mde_pct);
		fputs("</td>", f);
		fprintf(f, "<td class=\"num\">%.2f \u2192 %.2f</td></tr>\n",
			p->per_op_a[RESULT_OP_EXITS], p->per_op_b[RESULT_OP_EXITS]);
	}
	fputs("</tbody></table></div>\n", f);
}

void report_delta(const struct report_ctx *r, const struct compare_result *cr, const char *la,
		  const char *lb)
{
	FILE *f = r->f;

	if (cr->n_probes == 0) {
		fputs("<p class=\"empty\">No probes on both sides.</p>\n", f);
		return;
	}
	fprintf(f, "<p class=\"help\">Change of the cycles/op from %s to %s with the 95%% "
		"confidence interval of the difference. The intervals (the table's interval column "
		"gives each probe's model, as compare --wide does): ", la, lb);
	intervals_text(f, cr);
	fprintf(f, ". Significant: the interval excludes 0 and the change is at least %.1f%% "
		"(shaded band); too noisy: not significant and the interval's half width exceeds "
		"%.1f%%, so a change of that size could not have been seen.</p>\n",
		cr->opts.threshold_pct, cr->opts.threshold_pct);
	delta_chart(f, cr, la);
	delta_table(f, cr, la, lb);
}
