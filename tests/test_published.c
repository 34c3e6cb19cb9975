// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_published.c - the published hardware figures: every row of
 * report/published.def is well formed (a probe of the catalogue, a vendor
 * and family, a figure, a source on the kvm list), and the HTML report shows
 * them beside a run whose host CPU is of that vendor and family, with the
 * run's own figure, and not beside a run on another CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/probes.h"
#include "report/published.h"
#include "report/report.h"
#include "tests/fixture.h"
#include "tests/tap.h"

static char *tmp;

static void test_table(void)
{
	size_t i, intel = 0, amd = 0;

	ok(published_n >= 1, "the table has %zu figures", published_n);
	for (i = 0; i < published_n; i++) {
		const struct published_figure *p = &published_figures[i];

		ok(probe_find(p->probe) != NULL, "row %zu: %s is a probe of the catalogue", i, p->probe);
		ok(!strcmp(p->vendor, "GenuineIntel") || !strcmp(p->vendor, "AuthenticAMD"),
		   "row %zu: vendor %s is a CPUID vendor string", i, p->vendor);
		ok(p->family > 0 && (p->model == -1 || p->model > 0),
		   "row %zu: family %lld, model %lld", i, p->family, p->model);
		ok(p->cycles > 0, "row %zu: %s %.2f cycles", i, p->probe, p->cycles);
		ok(!strncmp(p->source, "https://lore.kernel.org/", 24),
		   "row %zu: source on lore.kernel.org (%s)", i, p->source);
		ok(p->cpu[0] && p->kernel[0] && p->setup[0], "row %zu: CPU, kernel and setup stated", i);
		/*
		 * vmexit.c's ipi is on_cpu(1, nop): an IPI to a vCPU idle in HLT, and the
		 * wait for it to run the function: exitscope's ipi_halt (its ipi's
		 * target spins with IF=1).
		 */
		ok(p->vcase[0] && (strcmp(p->vcase, "ipi") || !strcmp(p->probe, "ipi_halt")),
		   "row %zu: vmexit.c's %s beside exitscope's %s", i, p->vcase, p->probe);
		intel += !strcmp(p->vendor, "GenuineIntel");
		amd += !strcmp(p->vendor, "AuthenticAMD");
	}
	diag("%zu Intel and %zu AMD figures", intel, amd);
	ok(amd >= 1, "an AMD figure is in the table (%zu)", amd);
}

/* A run on a host of the given CPU (the fixture's host, CPU fields replaced). */
static struct result_file *run_on(const char *file, const char *vendor, int family, int model,
				  const char *mode)
{
	json_t *host = fixture_host("6.6.34", "synthetic CPU", mode);
	json_t *cpu = json_object_get(host, "cpu");
	json_t *doc;
	double s[20];
	struct err err;
	const char *path;
	struct result_file *rf;

	json_object_set_new(cpu, "vendor", json_string(vendor));
	json_object_set_new(cpu, "family", json_integer(family));
	json_object_set_new(cpu, "model", json_integer(model));
	fixture_samples(s, 20, 2900, 30, 7);
	doc = fixture_result(host,
		json_pack("[o, o, o]", fixture_probe("tscdeadline_immed", "irq", s, 20, 1),
			  fixture_probe_status("vmcall", "insn", "skipped", "synthetic"),
			  fixture_probe("ipi_halt", "irq", s, 20, 1)));
	path = fixture_write(tmp, file, doc);
	json_decref(doc);
	rf = path ? result_read_file(path, &err) : NULL;
	if (!rf)
		diag("%s: %s", file, path ? err.msg : "not written");
	return rf;
}

static char *render(struct result_file **files, size_t n)
{
	char *buf = NULL;
	struct err err;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (report_write_html(f, files, n, NULL, &err)) {
		diag("report_write_html: %s", err.msg);
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

/* The number of published rows of a vendor and family, and of them the model's. */
static size_t rows_of(const char *vendor, int family, int model, size_t *same_model)
{
	size_t i, n = 0;

	*same_model = 0;
	for (i = 0; i < published_n; i++) {
		const struct published_figure *p = &published_figures[i];

		if (strcmp(p->vendor, vendor) || p->family != family)
			continue;
		n++;
		*same_model += p->model == model;
	}
	return n;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (hay = strstr(hay, needle); hay; hay = strstr(hay + 1, needle))
		n++;
	return n;
}

static void test_report(void)
{
	struct result_file *spr = run_on("spr.json", "GenuineIntel", 6, 143, "native");
	struct result_file *epyc = run_on("epyc.json", "AuthenticAMD", 25, 1, "native");
	struct result_file *pvm = run_on("pvm.json", "GenuineIntel", 6, 85, "emulated");
	struct result_file *turin = run_on("turin.json", "AuthenticAMD", 26, 2, "native");
	struct result_file *files[2];
	size_t rows, same;
	char *html;

	if (!spr || !epyc || !pvm || !turin) {
		tap_skip(17, "synthetic runs did not load");
		goto out;
	}
	rows = rows_of("GenuineIntel", 6, 143, &same);

	files[0] = spr;
	html = render(files, 1);
	ok(html != NULL, "Intel family 6 run: report written");
	if (html) {
		tap_like(html, "id=\"published\"", "Intel family 6 run: published section");
		tap_like(html, "href=\"#published\"", "Intel family 6 run: linked from the nav");
		tap_like(html, "Published figures for this CPU family", "section title");
		is_int(count(html, "<small>(same family)</small>") + count(html, "<small>(same model)</small>"),
		       rows, "one row per published figure of the family");
		is_int(count(html, "<small>(same model)</small>"), same, "same model marked (model 143)");
		tap_like(html, "Xeon Gold 6442Y", "the Sapphire Rapids figure is shown");
		tap_like(html, "lore.kernel.org/kvm/20240913173323.6guq4p2h4z7ulgr3@desk/",
			 "its source is shown");
		ok(!strstr(html, "https://"), "the source is text, not a reference out of the page");
		/* The run's own net median of tscdeadline_immed stands beside the figure. */
		ok(strstr(html, "<td class=\"num\">3153.0</td><td class=\"num\">29") != NULL,
		   "the run's tscdeadline_immed net figure beside the published 3153");
		tap_like(html, "<td class=\"num empty\">skipped</td>", "a skipped probe says so");
		tap_like(html, "<td class=\"name\">ipi_halt</td><td class=\"name\">ipi</td>"
			 "<td class=\"num\">3319.0</td><td class=\"num\">29",
			 "vmexit.c's ipi figure beside the run's ipi_halt");
		ok(!strstr(html, "<td class=\"name\">ipi</td><td class=\"name\">ipi</td>"),
		   "... and not beside exitscope's ipi");
		free(html);
	}

	files[0] = turin;
	html = render(files, 1);
	ok(html && strstr(html, "id=\"published\"") && strstr(html, "AMD Turin") &&
	   strstr(html, "<td class=\"name\">cpuid</td><td class=\"name\">cpuid</td>"
		  "<td class=\"num\">6200.0</td>"),
	   "AMD family 26 run: the Turin cpuid figure (6.2k)");
	tap_like(html ? html : "", "lore.kernel.org/kvm/20251206001720.468579-35-seanjc@google.com/",
		 "... with its source");
	free(html);

	files[0] = epyc;
	html = render(files, 1);
	ok(html && !strstr(html, "id=\"published\"") && !strstr(html, "#published"),
	   "AMD family 25 run: no published section (no AMD figures of that family)");
	free(html);

	files[0] = epyc;
	files[1] = pvm;
	html = render(files, 2);
	ok(html && strstr(html, "id=\"published\"") &&
	   strstr(html, "B: guest code was emulated by the host: its figures are emulation costs"),
	   "an emulated Intel run beside an AMD one: section for B, with the emulation note");
	free(html);
out:
	result_free(spr);
	result_free(epyc);
	result_free(pvm);
	result_free(turin);
}

int main(void)
{
	tmp = fixture_tmpdir();
	if (!tmp)
		return tap_skip_all("cannot make a temp dir");
	test_table();
	test_report();
	fixture_rmdir(tmp);
	return done_testing();
}
