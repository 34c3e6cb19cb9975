// SPDX-License-Identifier: GPL-2.0-only
/* published.c - the table of published.def, and matching a host record's CPU against it. */
#include <string.h>

#include "base/array_size.h"
#include "report/published.h"

const struct published_figure published_figures[] = {
#define PUBLISHED(v, fam, mod, c, k, vc, p, cyc, s, src) \
	{ .vendor = v, .family = fam, .model = mod, .cpu = c, .kernel = k, .vcase = vc, .probe = p, \
	  .cycles = cyc, .setup = s, .source = src },
#include "report/published.def"
#undef PUBLISHED
};

const size_t published_n = ARRAY_SIZE(published_figures);

int published_matches(const struct published_figure *p, const struct host_record *h)
{
	return h->cpu_vendor && !strcmp(h->cpu_vendor, p->vendor) && h->cpu_family == p->family;
}

int published_same_model(const struct published_figure *p, const struct host_record *h)
{
	return published_matches(p, h) && p->model >= 0 && h->cpu_model == p->model;
}

/* The HTML section; kept here with the table it shows. */
#include "report/html.h"
#include "report/report_int.h"

static size_t file_matches(const struct result_file *rf)
{
	size_t j, n = 0;

	for (j = 0; j < published_n; j++)
		n += published_matches(&published_figures[j], &rf->host);
	return n;
}

int report_published_any(const struct report_ctx *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (file_matches(r->files[i]))
			return 1;
	return 0;
}

static void run_cell(FILE *f, const struct run_probe *p, bool raw)
{
	double v;

	if (!p || p->status != PROBE_OK) {
		fprintf(f, "<td class=\"num empty\">%s</td>",
			p ? probe_status_names[p->status] : "not run");
		return;
	}
	v = raw ? p->raw_median_cycles : p->cycles.median;
	fputs("<td class=\"num\">", f);
	if (v >= 0 || !raw)
		html_num(f, v);
	else
		fputs("-", f);
	fputs("</td>", f);
}

static const char *source_text(const char *url)
{
	const char *s = strstr(url, "://");

	return s ? s + 3 : url;
}

int report_published(const struct report_ctx *r)
{
	FILE *f = r->f;
	size_t i, j;

	if (!report_published_any(r))
		return 0;
	fputs("<section id=\"published\"><h2>Published figures for this CPU family</h2>\n"
	      "<p class=\"help\">kvm-unit-tests' <code>x86/vmexit.flat</code> on real hardware, as "
	      "published on the kvm@vger.kernel.org list, for the CPU vendor and family of a "
	      "file's host, each beside the exitscope probe that measures what its case "
	      "measures (the case's own name is given: vmexit.c's <code>ipi</code> wakes a halted "
	      "vCPU, as <code>ipi_halt</code> does). vmexit.flat prints the TSC cycles of one "
	      "iteration of its loop, nothing subtracted: closest to this run's <em>raw</em> "
	      "figure (the probe batch before the paired baseline is subtracted); <em>net</em> is "
	      "the figure the tables show. The published runs are guests (QEMU where the source "
	      "says) with their own kernel, configuration and mitigations: a reference for the "
	      "order of magnitude, not a pass mark. docs/hardware.md says how each case differs "
	      "from exitscope's probe.</p>\n"
	      "<div class=\"scroll\"><table><thead><tr><th>file</th><th>probe</th>"
	      "<th>vmexit.c case</th><th>published</th><th>this run: net</th><th>raw</th>"
	      "<th>CPU</th><th>kernel</th>"
	      "<th>measured with</th><th>source</th></tr></thead><tbody>\n", f);
	for (i = 0; i < r->n; i++) {
		const struct result_file *rf = r->files[i];

		for (j = 0; j < published_n; j++) {
			const struct published_figure *p = &published_figures[j];

			if (!published_matches(p, &rf->host))
				continue;
			fprintf(f, "<tr><td><span class=\"swatch\" "
				"style=\"background:%s\"></span>%c</td>"
				"<td class=\"name\">", html_file_color(i), html_file_label(i));
			html_escape(f, p->probe);
			fputs("</td><td class=\"name\">", f);
			html_escape(f, p->vcase);
			fputs("</td><td class=\"num\">", f);
			html_num(f, p->cycles);
			fputs("</td>", f);
			run_cell(f, result_find_probe(rf, p->probe), false);
			run_cell(f, result_find_probe(rf, p->probe), true);
			fputs("<td>", f);
			html_escape(f, p->cpu);
			fputs(published_same_model(p, &rf->host) ? " <small>(same model)</small>" :
			      " <small>(same family)</small>", f);
			fputs("</td><td>", f);
			html_escape(f, p->kernel);
			fputs("</td><td class=\"detail\">", f);
			html_escape(f, p->setup);
			/* As text without its scheme: the page references nothing outside itself. */
			fputs("</td><td class=\"detail\">", f);
			html_escape(f, source_text(p->source));
			fputs("</td></tr>\n", f);
		}
		if (file_matches(rf) && rf->host.exec_mode == EXEC_EMULATED)
			fprintf(f, "<tr><td colspan=\"10\" class=\"warn\">%c: guest code was "
				"emulated by the host: its figures are emulation costs and do not "
				"compare with these.</td></tr>\n", html_file_label(i));
	}
	fputs("</tbody></table></div></section>\n", f);
	return 1;
}
