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

static const char *const verdict_class[COMPARE_VERDICT_N] = { "faster", "slower", "same", "noisy",
								"same", "na" };

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

static void delta_chart(FILE *f, const struct compare_result *cr)
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
		"aria-label=\"change of each probe's figure, percent of A's\">\n", W, height);
	fprintf(f, "<rect class=\"threshold\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%.1f\"><title>"
		"\u00b1%.1f%%: below the threshold</title></rect>\n",
		px(-cr->opts.threshold_pct, d), AXIS_H - 4,
		px(cr->opts.threshold_pct, d) - px(-cr->opts.threshold_pct, d),
		height - AXIS_H + 4, cr->opts.threshold_pct);
	fputs("<g class=\"axis\">", f);
	for (k = -2; k <= 2; k++) {
		double v = d * k / 2;

		fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%.1f\"%s/>", px(v, d), px(v, d),
			AXIS_H - 4, height, k == 0 ? " class=\"zero\"" : "");
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", px(v, d), AXIS_H - 8);
		pct_text(f, v);
		fputs("</text>", f);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"unit\">change, %% of A</text>"
		"</g>\n", X0 - 36, AXIS_H - 8);
	for (i = 0, n = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];
		const char *cls = verdict_class[p->verdict];
		double x0 = px(0, d), x1 = px(p->pct, d);

		if (p->verdict == COMPARE_NOT_RUN || !p->has_pct)
			continue;
		y = AXIS_H + (double)n++ * ROW_H;
		fprintf(f, "<g class=\"delta-row\"><title>");
		html_escape(f, p->name);
		fprintf(f, ": %.1f -> %.1f cycles/op, %+.2f%% (95%% CI %+.2f%% .. %+.2f%%): %s</title>",
			p->d.median_a, p->d.median_b, p->pct, p->pct_lo, p->pct_hi,
			compare_verdict_names[p->verdict]);
		fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", X0 - 8, y + 15);
		html_escape(f, p->name);
		fputs("</text>", f);
		fprintf(f, "<rect class=\"dbar v-%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"12\"/>",
			cls, fmin(x0, x1), y + 5, fabs(x1 - x0));
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
		fprintf(f, "] %s</text></g>\n", compare_verdict_names[p->verdict]);
	}
	fputs("</svg>\n", f);
}

static void delta_table(FILE *f, const struct compare_result *cr, char la, char lb)
{
	size_t i;

	fprintf(f, "<div class=\"scroll\"><table class=\"nums delta\"><thead><tr><th>probe</th>"
		"<th>group</th><th>%c cycles/op</th><th>%c cycles/op</th><th>diff (cycles)</th>"
		"<th>diff %%</th><th>95%% CI of diff</th><th>verdict</th><th>exits/op</th></tr>"
		"</thead><tbody>\n", la, lb);
	for (i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		fputs("<tr><td class=\"name\">", f);
		html_escape(f, p->name);
		fputs("</td><td>", f);
		html_escape(f, p->group);
		fputs("</td>", f);
		if (p->verdict == COMPARE_NOT_RUN && p->why) {
			fputs("<td colspan=\"5\" class=\"reason\">", f);
			html_escape(f, p->why);
			fputs("</td><td class=\"v-na\">not compared</td><td></td></tr>\n", f);
			continue;
		}
		if (p->verdict == COMPARE_NOT_RUN) {
			fprintf(f, "<td colspan=\"5\" class=\"reason\">%c: ", la);
			html_escape(f, probe_status_names[p->a->status]);
			fprintf(f, ", %c: ", lb);
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
		fprintf(f, "<td class=\"v-%s\">%s", verdict_class[p->verdict],
			compare_verdict_names[p->verdict]);
		if (p->verdict == COMPARE_TOO_NOISY)
			fprintf(f, " (could detect \u2265 %.1f%%)", p->mde_pct);
		if (p->method == COMPARE_METHOD_BATCHES && cr->n_by_rounds)
			fputs(" (b)", f);
		fputs("</td>", f);
		fprintf(f, "<td class=\"num\">%.2f \u2192 %.2f</td></tr>\n",
			p->per_op_a[RESULT_OP_EXITS], p->per_op_b[RESULT_OP_EXITS]);
	}
	fputs("</tbody></table></div>\n", f);
}

void report_delta(const struct report_ctx *r, const struct compare_result *cr, size_t ia, size_t ib)
{
	FILE *f = r->f;

	if (cr->n_probes == 0) {
		fputs("<p class=\"empty\">No probes in both files.</p>\n", f);
		return;
	}
	fprintf(f, "<p class=\"help\">Change of the cycles/op from %c to %c with the 95%% "
		"confidence interval of the difference (", html_file_label(ia), html_file_label(ib));
	if (cr->n_by_rounds)
		fputs("Welch t interval on the round medians; a side's cycles/op is the mean of its "
		      "round medians, not the median of its samples the run table shows", f);
	if (cr->n_by_batches)
		fprintf(f, "%sbootstrap over the raw samples, cycles/op their medians, %u resamples, "
			"seed %llu",
			cr->n_by_rounds ? "; (b): fewer than 2 rounds on a side, " : "",
			stats_bootstrap_iters(0, 0, cr->opts.iters), (unsigned long long)cr->opts.seed);
	fprintf(f, "). Significant: the interval excludes 0 and the change is at least %.1f%% "
		"(shaded band); too noisy: not significant and the interval's half width exceeds "
		"%.1f%%, so a change of that size could not have been seen.</p>\n",
		cr->opts.threshold_pct, cr->opts.threshold_pct);
	delta_chart(f, cr);
	delta_table(f, cr, html_file_label(ia), html_file_label(ib));
}
