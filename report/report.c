// SPDX-License-Identifier: GPL-2.0-only
/* report.c - the self-contained HTML report: page, host records, comparisons and check results. */
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "base/array_size.h"
#include "report/html.h"
#include "report/published.h"
#include "report/report.h"
#include "report/report_int.h"

static const char css[] =
	":root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--band:#f6f8fa}\n"
	"*{box-sizing:border-box}\n"
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
	"color:var(--fg);background:#fff;margin:0 auto;max-width:1200px;padding:16px 24px 48px}\n"
	"h1{font-size:22px;margin:8px 0 4px}\n"
	"h2{font-size:18px;border-bottom:2px solid var(--line);padding-bottom:4px;"
	"margin:32px 0 8px}\n"
	"h3{font-size:15px;margin:20px 0 6px}h3 small{color:var(--muted);font-weight:normal}\n"
	"nav{margin:6px 0 0}nav a{margin-right:14px;color:#0969da;text-decoration:none}\n"
	".meta,.help,.empty{color:var(--muted)}.help{font-size:13px;max-width:900px}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;margin:8px 0;font-size:13px}\n"
	"th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}\n"
	"thead th{background:var(--band);position:sticky;top:0}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"td.name,th.name{white-space:nowrap;"
	"font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12px}\n"
	"table.host th{white-space:nowrap}table.host td{max-width:420px;overflow-wrap:anywhere}\n"
	".differs{background:#fff8c5;font-weight:600}\n"
	".warn{color:#7d4e00;background:#fff8c5;border-left:4px solid #d4a72c;"
	"padding:6px 10px;margin:6px 0}\n"
	".warn.loud{color:#82071e;background:#ffebe9;border-left-color:#cf222e;font-weight:600}\n"
	".swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px}\n"
	".legend .key{margin-right:18px;white-space:nowrap}\n"
	"svg.chart{width:100%;height:auto;display:block;margin:4px 0}\n"
	"svg text{font-size:12px;fill:var(--fg)}\n"
	"svg .axis line{stroke:#d8dee4;stroke-width:1}svg .axis line.zero{stroke:#59636e}\n"
	"svg .axis text,svg .unit{fill:var(--muted);font-size:11px}\n"
	"svg .band{fill:#f6f8fa}svg .threshold{fill:#eef1f4}\n"
	"svg .bar{fill-opacity:.8}svg .dot{fill:#000;fill-opacity:.35}\n"
	"svg .spread{stroke:#6e7781;stroke-width:1.2}svg .ci{stroke:#000;stroke-width:1.8}\n"
	"svg .na{fill:var(--muted);font-style:italic}svg .val{font-size:11.5px}\n"
	"svg .label{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:11.5px}\n"
	"svg .dbar.v-faster{fill:#1a7f37}svg .dbar.v-slower{fill:#cf222e}"
	"svg .dbar.v-same{fill:#8c959f}\n"
	"svg .dbar.v-na{fill:#d0d7de}\n"
	"svg text.v-faster{fill:#1a7f37}svg text.v-slower{fill:#cf222e}\n"
	".v-faster{color:#1a7f37;font-weight:600}.v-slower{color:#cf222e;font-weight:600}\n"
	".v-same,.v-na{color:var(--muted)}.v-noisy{color:#9a6700;font-weight:600}\n"
	"svg .dbar.v-noisy{fill:#d4a72c}svg text.v-noisy{fill:#9a6700}\n"
	".stop{font-size:11px;color:var(--muted);margin-left:4px}.stop-budget,.stop-run_limit,"
	".stop-stopped{color:#9a6700;font-weight:600}\n"
	".ms-owned{background:#dafbe1}.ms-intercepted{background:#ffe6cc}"
	".ms-rejected{background:#ffcecb}\n"
	".ms-emulated{background:#eddeff}"
	".ms-skipped,.ms-none{background:#f6f8fa;color:var(--muted)}\n"
	"table.grid td{text-align:center;white-space:nowrap}\n"
	"tr.changed th.name{box-shadow:inset 4px 0 #cf222e}\n"
	".bitname{color:var(--muted)}\n"
	".cs-pass,.st-ok{background:#dafbe1}"
	".cs-fail,.st-failed,.st-hang{background:#ffcecb;font-weight:600}\n"
	".cs-skip,.st-skipped,.cs-stopped,.st-stopped,.ms-stopped"
	"{background:#f6f8fa;color:var(--muted)}\n"
	".detail,.reason,.evidence{font-size:12px;color:var(--muted);overflow-wrap:anywhere}\n"
	".evidence code{color:var(--fg)}\n"
	".comparison{border-left:3px solid var(--line);padding-left:12px;margin:12px 0 24px}\n"
	"ul.changes{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12.5px}\n"
	"footer{margin-top:40px;color:var(--muted);font-size:12px}\n"
	"svg .wline{fill:none;stroke:#0072b2;stroke-width:1.5}svg .wpt{fill:#0072b2}\n"
	"svg .wpt.up,svg .wstep.up{fill:#cf222e}svg .wpt.down,svg .wstep.down{fill:#1a7f37}\n"
	"svg .wmark{stroke:#cf222e;stroke-width:1;stroke-dasharray:3 3}\n"
	"svg .wskip{fill:#8c959f}svg .wgap{fill:none;stroke:#8c959f}\n"
	"tr.wskipped td{color:var(--muted)}\n"
	"@media print{body{max-width:none;padding:0;font-size:11px}nav{display:none}"
	"thead th{position:static}.group,table,svg,.comparison{break-inside:avoid}"
	"h2{break-after:avoid}.scroll{overflow:visible}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}\n";

enum host_field {
	HF_FILE, HF_KIND, HF_TOOL, HF_STARTED, HF_KERNEL, HF_BACKEND, HF_PARAMS, HF_CPU,
	HF_KVM, HF_CPUID, HF_XSTATE, HF_TSC, HF_EXEC, HF_LANE, HF_NR,
};

static const char *const host_field_names[HF_NR] = {
	"file", "kind", "exitscope", "started", "kernel", "backend module", "module parameters",
	"CPU", "KVM API", "CPUID (KVM supports)", "XCR0 / XSS supported", "TSC", "guest execution",
	"lane",
};

/* The text of one host-table cell (malloc'd; NULL when out of memory). */
static char *host_value(const struct result_file *rf, enum host_field hf)
{
	const struct host_record *h = &rf->host;
	char *s = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&s, &len);

	if (!m)
		return NULL;
	switch (hf) {
	case HF_FILE:
		fputs(rf->name, m);
		break;
	case HF_KIND:
		fputs(result_kind_names[rf->kind], m);
		break;
	case HF_TOOL:
		fputs(rf->tool_version ? rf->tool_version : "?", m);
		break;
	case HF_STARTED:
		fprintf(m, "%s%s%s", rf->started ? rf->started : "?",
			rf->finished ? " \u2013 " : "", rf->finished ? rf->finished : "");
		break;
	case HF_KERNEL:
		fputs(h->kernel, m);
		break;
	case HF_BACKEND:
		fputs(h->backend_module, m);
		break;
	case HF_PARAMS:
		for (i = 0; i < h->n_backend_params; i++)
			fprintf(m, "%s%s=%s", i ? " " : "", h->backend_params[i].key,
				h->backend_params[i].value);
		break;
	case HF_CPU:
		fprintf(m, "%s (%s family %lld model %lld stepping %lld)", h->cpu_name,
			h->cpu_vendor, h->cpu_family, h->cpu_model, h->cpu_stepping);
		break;
	case HF_KVM:
		if (h->kvm_api_version >= 0)
			fprintf(m, "%lld, %zu capabilities", h->kvm_api_version, h->n_kvm_caps);
		break;
	case HF_CPUID:
		for (i = 0; i < h->n_cpuid; i++)
			if (h->cpuid[i].value)
				fprintf(m, "%s ", h->cpuid[i].key);
		break;
	case HF_XSTATE:
		if (h->xcr0_supported >= 0)
			fprintf(m, "XCR0 %#llx", (unsigned long long)h->xcr0_supported);
		if (h->xss_supported >= 0)
			fprintf(m, ", XSS %#llx", (unsigned long long)h->xss_supported);
		break;
	case HF_TSC:
		if (h->tsc_khz)
			fprintf(m, "%lld kHz", h->tsc_khz);
		else
			fputs("unknown", m);
		break;
	case HF_EXEC:
		fputs(exec_mode_names[h->exec_mode], m);
		if (h->exec_detail)
			fprintf(m, " (%s)", h->exec_detail);
		break;
	case HF_LANE:
		if (!h->lane.present) {
			fputs("-", m);
			break;
		}
		fprintf(m, "%s: %s", host_lane_names[h->lane.name],
			h->lane.emulator ? h->lane.emulator : "?");
		if (h->lane.n_emulator_patches)
			fputs(", patches", m);
		for (i = 0; i < h->lane.n_emulator_patches; i++)
			fprintf(m, " %s", h->lane.emulator_patches[i]);
		fprintf(m, "; kernel %s", host_lane_kernel_names[h->lane.kernel_kind]);
		if (h->lane.kernel_source)
			fprintf(m, " %s", h->lane.kernel_source);
		if (h->lane.kernel_source_sha256)
			fprintf(m, " (sha256 %.12s)", h->lane.kernel_source_sha256);
		if (h->lane.kernel_config_sha256)
			fprintf(m, ", config %.12s", h->lane.kernel_config_sha256);
		fputs(h->lane.n_kernel_patches ? ", patches" : ", unpatched", m);
		for (i = 0; i < h->lane.n_kernel_patches; i++)
			fprintf(m, " %s", h->lane.kernel_patches[i]);
		if (h->lane.cycles)
			fprintf(m, "; cycles: %s", h->lane.cycles);
		break;
	case HF_NR:
		break;
	}
	if (fclose(m)) {
		free(s);
		return NULL;
	}
	return s;
}

static int write_host(const struct report_ctx *r)
{
	FILE *f = r->f;
	char *v[REPORT_MAX_FILES];
	size_t i, w;
	int hf, rc = 0;

	fputs("<section id=\"host\"><h2>Host</h2>\n<div class=\"scroll\"><table class=\"host\">"
	      "<thead><tr><th></th>", f);
	for (i = 0; i < r->n; i++)
		fprintf(f, "<th><span class=\"swatch\" style=\"background:%s\"></span>%c</th>",
			html_file_color(i), html_file_label(i));
	fputs("</tr></thead><tbody>\n", f);
	for (hf = 0; hf < HF_NR && !rc; hf++) {
		for (i = 0; i < r->n; i++) {
			v[i] = host_value(r->files[i], hf);
			if (!v[i])
				rc = -ENOMEM;
		}
		fprintf(f, "<tr><th>%s</th>", host_field_names[hf]);
		for (i = 0; i < r->n; i++) {
			/* Highlight what differs from the first file (except bookkeeping rows). */
			bool differs = hf > HF_STARTED && v[i] && v[0] && strcmp(v[i], v[0]);

			fprintf(f, "<td%s>", differs ? " class=\"differs\"" : "");
			html_escape(f, v[i]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
		for (i = 0; i < r->n; i++)
			free(v[i]);
	}
	fputs("</tbody></table></div>\n", f);
	for (i = 0; i < r->n; i++) {
		/* Say it unless the file's own warnings already do. */
		for (w = 0; w < r->files[i]->n_warnings; w++)
			if (strstr(r->files[i]->warnings[w], "emulat"))
				break;
		if (r->files[i]->host.exec_mode == EXEC_EMULATED && w == r->files[i]->n_warnings) {
			fprintf(f, "<p class=\"warn\">%c: guest code was emulated by the host: "
				"cycle figures are emulation costs, not hardware VM-exit "
				"costs.</p>\n", html_file_label(i));
		}
		for (w = 0; w < r->files[i]->n_warnings; w++) {
			fprintf(f, "<p class=\"warn\">%c: ", html_file_label(i));
			html_escape(f, r->files[i]->warnings[w]);
			fputs("</p>\n", f);
		}
	}
	fputs("</section>\n", f);
	return rc;
}

static void write_list(FILE *f, const char *title, const char *const *items, size_t n)
{
	size_t i;

	if (!n)
		return;
	fprintf(f, "<p>%s: ", title);
	for (i = 0; i < n; i++) {
		fputs(i ? ", <code>" : "<code>", f);
		html_escape(f, items[i]);
		fputs("</code>", f);
	}
	fputs("</p>\n", f);
}

/* The summary: each verdict with its count (any verdict compare has), then the one-side probes. */
static void write_summary(FILE *f, const struct compare_result *cr, const char *la, const char *lb)
{
	size_t count[COMPARE_VERDICT_N] = { 0 }, i;
	int v;

	for (i = 0; i < cr->n_probes; i++)
		if ((unsigned)cr->probes[i].verdict < COMPARE_VERDICT_N)
			count[cr->probes[i].verdict]++;
	fputs("<p class=\"summary\">", f);
	for (v = 0; v < COMPARE_VERDICT_N; v++) {
		/* the four of every comparison always, any other verdict when it occurs */
		if (!count[v] && v != COMPARE_FASTER && v != COMPARE_SLOWER && v != COMPARE_SAME &&
		    v != COMPARE_TOO_NOISY && v != COMPARE_NOT_RUN)
			continue;
		fprintf(f, "<span class=\"v-%s\">%zu %s</span>, ", report_verdict_class(v),
			count[v], report_verdict_name(v));
	}
	fprintf(f, "%zu only in %s, %zu only in %s.</p>\n", cr->n_only_a, la, cr->n_only_b, lb);
}

static void write_comparison(const struct report_ctx *r, const struct compare_result *cr,
			     const char *la, const char *lb, const char *id)
{
	char line[1024], title[64];
	FILE *f = r->f;
	size_t i;

	fprintf(f, "<div class=\"comparison\" id=\"compare-%s\"><h3>%s \u2192 %s: ", id, la, lb);
	html_escape(f, cr->name_a);
	fputs(" \u2192 ", f);
	html_escape(f, cr->name_b);
	fputs("</h3>\n", f);
	write_summary(f, cr, la, lb);
	fputs("<p class=\"note\">", f);
	html_escape(f, compare_normalize_line(cr, line, sizeof(line)));
	fputs("</p>\n", f);
	if (compare_speed_line(cr, line, sizeof(line))) {
		fputs("<p class=\"note\">", f);
		html_escape(f, line);
		fputs("</p>\n", f);
	}
	if (cr->noise) {
		fputs("<p class=\"note\">noise floor: ", f);
		html_escape(f, cr->noise->name ? cr->noise->name : "?");
		fprintf(f, " (%lld runs)", cr->noise->runs);
		fprintf(f, ", in the interval of %zu probe%s</p>\n", cr->n_floor,
			cr->n_floor == 1 ? "" : "s");
	}
	if (cr->method_note) {
		fputs("<p class=\"note\">", f);
		html_escape(f, cr->method_note);
		fputs("</p>\n", f);
	}
	if (cr->r2r_note) {	/* an interval without the run-to-run variation says so */
		fputs("<p class=\"note\">", f);
		html_escape(f, cr->r2r_note);
		fputs("</p>\n", f);
	}
	if (cr->n_host == 0) {
		fputs("<p>Same kernel, backend, CPU, TSC frequency and execution mode.</p>\n", f);
	} else {
		fprintf(f, "<table class=\"hostdiff\"><thead><tr><th>host "
			"difference</th><th>%s</th><th>%s</th></tr></thead><tbody>\n", la, lb);
		for (i = 0; i < cr->n_host; i++) {
			fputs("<tr><th>", f);
			html_escape(f, cr->host[i].field);
			fputs("</th><td>", f);
			html_escape(f, cr->host[i].a);
			fputs("</td><td class=\"differs\">", f);
			html_escape(f, cr->host[i].b);
			fputs("</td></tr>\n", f);
		}
		fputs("</tbody></table>\n", f);
	}
	for (i = 0; i < cr->n_warnings; i++) {
		fprintf(f, "<p class=\"warn%s\">",
			strncmp(cr->warnings[i], "WARNING", 7) ? "" : " loud");
		html_escape(f, cr->warnings[i]);
		fputs("</p>\n", f);
	}
	report_delta(r, cr, la, lb);
	if (cr->n_counters) {
		fputs("<p>Per-op counter changes (facts, not noise):</p><ul class=\"changes\">\n",
		      f);
		for (i = 0; i < cr->n_counters; i++) {
			fputs("<li>", f);
			html_escape(f, compare_counter_line(&cr->counters[i], line, sizeof(line)));
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	if (cr->map_compared) {
		fputs(cr->n_map ? "<p>Ownership map changes:</p><ul class=\"changes\">\n"
				: "<p>Ownership map: no changes.</p>\n", f);
		for (i = 0; i < cr->n_map; i++) {
			fputs("<li>", f);
			html_escape(f, compare_map_line(cr, &cr->map[i], line, sizeof(line)));
			fputs("</li>\n", f);
		}
		if (cr->n_map)
			fputs("</ul>\n", f);
	}
	snprintf(title, sizeof(title), "Only in %s", la);
	write_list(f, title, cr->only_a, cr->n_only_a);
	snprintf(title, sizeof(title), "Only in %s", lb);
	write_list(f, title, cr->only_b, cr->n_only_b);
	fputs("</div>\n", f);
}

/* The labels of files[from..to-1] joined with '+': "A", "A+B". */
static void side_label(char *buf, size_t len, size_t from, size_t to)
{
	size_t k = 0;

	for (size_t i = from; i < to && k + 3 < len; i++) {
		if (i > from)
			buf[k++] = '+';
		buf[k++] = html_file_label(i);
	}
	buf[k] = 0;
}

int report_compare(struct report_ctx *r, const struct compare_opts *opts, struct err *err)
{
	const struct result_file *const *f = (const struct result_file *const *)r->files;
	int paths = r->n && report_has_paths(f[0]);

	if (r->n_base) {	/* the pooled sides: one comparison */
		r->pooled = compare_results_multi(f, r->n_base, f + r->n_base, r->n - r->n_base, opts,
						  err);
		if (!r->pooled)
			return err && err->code ? err->code : -ENOMEM;
	}
	for (size_t i = 1; i < r->n; i++) {
		if (r->n_base && !(paths && report_has_paths(f[i])))
			continue;
		r->vs_a[i] = compare_results(f[0], f[i], opts, err);
		if (!r->vs_a[i])
			return err && err->code ? err->code : -ENOMEM;
	}
	return 0;
}

void report_compare_free(struct report_ctx *r)
{
	compare_free(r->pooled);
	r->pooled = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(r->vs_a); i++) {
		compare_free(r->vs_a[i]);
		r->vs_a[i] = NULL;
	}
}

static void write_comparisons(const struct report_ctx *r, const char *doc)
{
	char la[2 * REPORT_MAX_FILES + 1], lb[2 * REPORT_MAX_FILES + 1];
	size_t i;

	if (r->n < 2)
		return;
	fputs("<section id=\"compare\"><h2>A/B comparison</h2>\n", r->f);
	if (doc) {
		fputs("<p class=\"note\">The comparison of ", r->f);
		html_escape(r->f, doc);
		fputs(" (exitscope compare --json), made again from its files with its "
		      "options.</p>\n", r->f);
	}
	if (r->pooled) {
		side_label(la, sizeof(la), 0, r->n_base);
		side_label(lb, sizeof(lb), r->n_base, r->n);
		write_comparison(r, r->pooled, la, lb, "sides");
	}
	for (i = 1; !r->n_base && i < r->n; i++) {
		side_label(la, sizeof(la), 0, 1);
		side_label(lb, sizeof(lb), i, i + 1);
		write_comparison(r, r->vs_a[i], la, lb, lb);
	}
	fputs("</section>\n", r->f);
}

/* Check results: (suite, name) rows x files. */
struct check_ref {
	const struct check_result *c;
	size_t file;
};

static int cmp_check(const void *pa, const void *pb)
{
	const struct check_ref *a = pa, *b = pb;
	int c = strcmp(a->c->suite, b->c->suite);

	if (!c)
		c = strcmp(a->c->name, b->c->name);
	return c ? c : (a->file > b->file) - (a->file < b->file);
}

/* The structured evidence of a check: what it expected and what it observed. */
static void write_evidence(FILE *f, const struct check_result *c)
{
	if (!c->expected[0] && !c->observed[0])
		return;
	fputs("<div class=\"evidence\">", f);
	if (c->expected[0]) {
		fputs("expected <code class=\"expected\">", f);
		html_escape(f, c->expected);
		fputs("</code>", f);
	}
	if (c->expected[0] && c->observed[0])
		fputs(", ", f);
	if (c->observed[0]) {
		fputs("observed <code class=\"observed\">", f);
		html_escape(f, c->observed);
		fputs("</code>", f);
	}
	fputs("</div>", f);
}

static int write_checks(const struct report_ctx *r)
{
	const struct check_result *row[REPORT_MAX_FILES];
	struct check_ref *refs;
	size_t i, j, k, total = 0, n = 0;
	size_t count[REPORT_MAX_FILES][CHECK_STATUS_N] = { { 0 } };
	FILE *f = r->f;

	for (i = 0; i < r->n; i++)
		total += r->files[i]->checks.n;
	fputs("<section id=\"checks\"><h2>Checks</h2>\n", f);
	if (!total) {
		fputs("<p class=\"empty\">No check results in these files (exitscope check "
		      "--json).</p></section>\n", f);
		return 0;
	}
	refs = malloc(total * sizeof(*refs));
	if (!refs)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		for (j = 0; j < r->files[i]->checks.n; j++) {
			refs[n++] = (struct check_ref){ &r->files[i]->checks.r[j], i };
			count[i][r->files[i]->checks.r[j].status]++;
		}
	}
	qsort(refs, n, sizeof(*refs), cmp_check);
	fputs("<p class=\"summary\">", f);
	for (i = 0; i < r->n; i++) {
		if (!r->files[i]->checks.n)
			continue;
		fprintf(f, "%c: %zu pass, %zu fail, %zu skip", html_file_label(i),
			count[i][CHECK_PASS], count[i][CHECK_FAIL], count[i][CHECK_SKIP]);
		if (count[i][CHECK_STOPPED])
			fprintf(f, ", %zu stopped", count[i][CHECK_STOPPED]);
		fputs(". ", f);
	}
	fputs("</p>\n<div class=\"scroll\"><table class=\"checks\"><thead><tr><th>suite</th>"
	      "<th>check</th>", f);
	for (i = 0; i < r->n; i++)
		if (r->files[i]->checks.n)
			fprintf(f, "<th><span class=\"swatch\" "
				"style=\"background:%s\"></span>%c</th>", html_file_color(i),
				html_file_label(i));
	fputs("</tr></thead><tbody>\n", f);
	for (i = 0; i < n; i = j) {
		memset(row, 0, sizeof(row));
		for (j = i; j < n && !cmp_check(&(struct check_ref){ refs[i].c, 0 },
						&(struct check_ref){ refs[j].c, 0 }); j++)
			row[refs[j].file] = refs[j].c;
		fputs("<tr><td>", f);
		html_escape(f, refs[i].c->suite);
		fputs("</td><td class=\"name\">", f);
		html_escape(f, refs[i].c->name);
		fputs("</td>", f);
		for (k = 0; k < r->n; k++) {
			if (!r->files[k]->checks.n)
				continue;
			if (!row[k]) {
				fputs("<td class=\"cs-skip\">\u2013</td>", f);
				continue;
			}
			fprintf(f, "<td class=\"cs-%s\">%s", check_status_names[row[k]->status],
				check_status_names[row[k]->status]);
			if (row[k]->detail[0]) {
				fputs("<div class=\"detail\">", f);
				html_escape(f, row[k]->detail);
				fputs("</div>", f);
			}
			write_evidence(f, row[k]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div></section>\n", f);
	free(refs);
	return 0;
}

int report_write_html(FILE *f, struct result_file *const *files, size_t n,
		      const struct compare_opts *opts, struct err *err)
{
	struct report_how how = { .cmp = opts };

	return report_write(f, files, n, &how, err);
}

int report_write(FILE *f, struct result_file *const *files, size_t n, const struct report_how *how,
		 struct err *err)
{
	struct report_ctx r = { .f = f, .files = files, .n = n, .n_base = how->n_base };
	int rc;
	const struct compare_opts *opts = how->cmp;
	struct compare_opts defaults;
	struct err e;
	size_t i;

	err_init(&e);

	if (n == 0 || n > REPORT_MAX_FILES)
		return err_set(err, -EINVAL, "report needs 1 to %d result files", REPORT_MAX_FILES);
	if (how->n_base && how->n_base >= n)
		return err_set(err, -EINVAL, "report: no files on the new side");
	if (!opts) {
		compare_opts_init(&defaults);
		opts = &defaults;
	}
	if (report_compare(&r, opts, &e)) {
		report_compare_free(&r);
		return err_set(err, e.code ? e.code : -ENOMEM, "%s",
			       e.msg[0] ? e.msg : "out of memory");
	}
	report_page_start(f, "exitscope report");
	fputs("<header id=\"top\"><h1>exitscope report</h1>\n<p class=\"meta\">", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s<span class=\"swatch\" style=\"background:%s\"></span>%c: ",
			i ? " &nbsp; " : "", html_file_color(i), html_file_label(i));
		html_escape(f, files[i]->name);
		fprintf(f, " (%s%s)", result_kind_names[files[i]->kind],
			!how->n_base ? "" : i < how->n_base ? ", base side" : ", new side");
	}
	fputs("</p>\n<nav><a href=\"#host\">Host</a>", f);
	if (n >= 2)
		fputs("<a href=\"#compare\">A/B comparison</a>", f);
	if (report_published_any(&r))
		fputs("<a href=\"#published\">Published figures</a>", f);
	fputs("<a href=\"#probes\">Probe costs</a><a href=\"#map\">Ownership map</a>"
	      "<a href=\"#checks\">Checks</a></nav></header>\n<main>\n", f);
	rc = write_host(&r);
	if (!rc)
		write_comparisons(&r, how->doc);
	if (!rc && !(rc = report_published(&r) < 0 ? -ENOMEM : 0) && !(rc = report_probes(&r)) &&
	    !(rc = report_exit_paths(&r)) && !(rc = report_map(&r)))
		rc = write_checks(&r);
	if (rc)
		rc = err_set(err, rc, "%s", rc == -ENOMEM ? "out of memory" : strerror(-rc));
	else
		rc = report_page_end(f, err);
	report_compare_free(&r);
	return rc;
}

void report_page_start(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      f);
	html_escape(f, title);
	fputs("</title>\n<style>\n", f);
	fputs(css, f);
	fputs("</style></head>\n<body>\n", f);
}

int report_page_end(FILE *f, struct err *err)
{
	fputs("</main>\n<footer>Generated by exitscope from the files above; self-contained: "
	      "no scripts, no external resources.</footer>\n</body></html>\n", f);
	if (ferror(f))
		return err_set(err, -EIO, "write error");
	return 0;
}
