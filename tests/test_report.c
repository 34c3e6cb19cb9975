// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_report.c - the HTML report: expected sections, escaping, no external
 * assets, an interrupt probe's delivery counts and a two-vCPU probe's wait,
 * renders in headless Chromium.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"
#include "results/exit_path.h"
#include "tests/fixture.h"
#include "tests/fifo_stop.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define N 40
#define EVIL "<script>alert(\"x\")</script> & 'q'"

static char *tmp;
static char base_path[4096], new_path[4096];

static json_t *probe(const char *name, const char *group, double center, uint64_t seed, double exits)
{
	double s[N];

	fixture_samples(s, N, center, center / 50, seed);
	return fixture_probe(name, group, s, N, exits);
}

static json_t *checks(const char *cet_status)
{
	json_t *xcr0 = fixture_check("xstate", "xcr0_after_pio", "pass", "xcr0 7 == 7");

	/* Structured evidence (expected/observed) and a check stopped by Ctrl-C. */
	json_object_set_new(xcr0, "expected", json_string("0x7"));
	json_object_set_new(xcr0, "observed", json_string("0x7 " EVIL));
	return json_pack("[o, o, o, o]", xcr0,
			 fixture_check("cet", "ssp_survives", cet_status, EVIL),
			 fixture_check("migrate", "xss_roundtrip", "skip", "no XSAVES"),
			 fixture_check("migrate", "pkru_roundtrip", "stopped", "stopped by Ctrl-C"));
}

/* Add the run loop's exact counters to a probe's per_op. */
static json_t *with_user_io(json_t *probe, double user_io)
{
	json_t *per_op = json_object_get(probe, "per_op");

	json_object_set_new(per_op, "user_io", json_real(user_io));
	json_object_set_new(per_op, "user_mmio", json_real(0));
	json_object_set_new(per_op, "user_msr", json_real(0));
	json_object_set_new(per_op, "user_intr", json_real(0));
	return probe;
}

static void save(char *dst, const char *name, json_t *doc)
{
	const char *p = fixture_write(tmp, name, doc);

	snprintf(dst, 4096, "%s", p ? p : "?");
	json_decref(doc);
}

static void make_files(void)
{
	json_t *a, *b, *pa, *pb;

	pa = json_pack("[o, o, o, o, o]", probe("cpuid", "insn", 1200, 1, 1),
		       probe("rdmsr_tsc", "msr", 40, 2, 0),
		       probe("toggle_cr4_cet", "cr", 2000, 3, 2),
		       with_user_io(probe("pio_out", "io", 9000, 4, 1), 1),
		       fixture_probe_status("xsaves", "insn", "skipped", EVIL));
	pb = json_pack("[o, o, o, o]", probe("cpuid", "insn", 1000, 11, 1),
		       probe("rdmsr_tsc", "msr", 40, 12, 0),
		       probe("toggle_cr4_cet", "cr", 300, 13, 0),
		       with_user_io(probe("pio_out", "io", 9900, 14, 1), 0));
	/* The description of one probe carries markup that must come out escaped. */
	json_object_set_new(json_array_get(pa, 0), "description", json_string(EVIL));
	a = fixture_result(fixture_host("6.1.0", "Xeon", "native"), pa);
	b = fixture_result(fixture_host("6.18.44 " EVIL, "Xeon", "native"), pb);
	/* B ran in a lane, on a patched kernel of a named source, in a patched emulator. */
	json_object_set_new(json_object_get(b, "host"), "lane", json_pack("{s:s, s:s, s:[s], s:{s:s, s:s, s:s, s:o}}",
		"name", "vmx", "emulator", "bochs", "emulator_patches", "0001-e.patch",
		"kernel", "kind", "tiny", "source", "linux-source-7.2 7.2.12-1~bpo13+1",
		"source_sha256", "dd8cf7080e709d050ce2",
		"patches", json_pack("[s]", "seed/0001-x.patch")));
	json_object_set_new(a, "map", fixture_map(0, "host",
		json_pack("[o, o, o]", fixture_map_entry("cr4", 23, "CET", "toggle", "intercepted", 2),
			  fixture_map_entry("cr4", 7, "PGE", "toggle", "owned", 0),
			  fixture_map_entry("xcr0", 1, "SSE", "toggle", "rejected", 1))));
	json_object_set_new(b, "map", fixture_map(0, "host",
		json_pack("[o, o]", fixture_map_entry("cr4", 23, "CET", "toggle", "owned", 0),
			  fixture_map_entry("cr4", 7, "PGE", "toggle", "owned", 0))));
	json_object_set_new(a, "checks", checks("pass"));
	json_object_set_new(b, "checks", checks("fail"));
	save(base_path, "base.json", a);
	save(new_path, "new.json", b);
}

/* The report of files as a string (malloc'd), or NULL. */
static char *render(struct result_file **files, size_t n)
{
	char *buf = NULL;
	struct err err;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc;

	if (!f)
		return NULL;
	rc = report_write_html(f, files, n, NULL, &err);
	fclose(f);
	if (rc) {
		diag("report_write_html: %s", err.msg);
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * A method-v2 probe: one round per level (5 samples level +- 1%), stop
 * reason and achieved CI half-width as given.
 */
static json_t *round_probe(const char *name, const double *levels, size_t n, const char *stop,
			   double ci_rel_pct, uint64_t seed)
{
	double all[64 * 5];
	json_t *rounds = json_array(), *p;

	for (size_t r = 0; r < n && r < 64; r++) {
		json_t *xs = json_array();

		fixture_samples(all + r * 5, 5, levels[r], levels[r] / 100, seed + r);
		for (size_t k = 0; k < 5; k++)
			json_array_append_new(xs, json_real(all[r * 5 + k]));
		json_array_append_new(rounds, json_pack("{s:i, s:o, s:f, s:f, s:f}", "batch", 32,
			"samples", xs, "median", levels[r], "baseline_median", 500.0,
			"raw_median", 500.0 + levels[r]));
	}
	p = fixture_probe(name, "insn", all, n * 5, 1);
	json_object_set_new(p, "rounds", rounds);
	json_object_set_new(p, "stop", json_string(stop));
	json_object_set_new(p, "ci_rel_pct", json_real(ci_rel_pct));
	return p;
}

/* Two round files: a steady probe that reached its precision, a drifting one out of budget. */
static void test_rounds(void)
{
	const double steady[] = { 1000, 1001, 999, 1000, 1000, 1001 };
	const double wild_a[] = { 600, 1400, 900, 1300, 700, 1100 };
	const double wild_b[] = { 1200, 650, 1350, 800, 1000, 950 };
	char pa[4096], pb[4096];
	struct err err;
	struct result_file *files[2];
	char *html;

	save(pa, "rounds_a.json", fixture_result(fixture_host("6.1.0", "Xeon", "native"),
		json_pack("[o, o]", round_probe("steady", steady, 6, "precision", 0.4, 1),
			  round_probe("wild", wild_a, 6, "budget", 18.5, 2))));
	save(pb, "rounds_b.json", fixture_result(fixture_host("6.1.0", "Xeon", "native"),
		json_pack("[o, o]", round_probe("steady", steady, 6, "precision", 0.4, 3),
			  round_probe("wild", wild_b, 6, "budget", 17.0, 4))));
	files[0] = result_read_file(pa, &err);
	files[1] = files[0] ? result_read_file(pb, &err) : NULL;
	html = files[1] ? render(files, 2) : NULL;
	if (!html) {
		diag("%s", err.msg);
		tap_skip(7, "round files did not load or render");
	} else {
		ok(strstr(html, "<span class=\"stop stop-budget\"") != NULL &&
		   strstr(html, ">budget \u00b118.5%</span>") != NULL,
		   "a probe out of budget is marked 'budget' with its CI half-width");
		ok(strstr(html, "<span class=\"stop stop-precision\"") != NULL &&
		   strstr(html, ">precision \u00b10.4%</span>") != NULL, "a probe that reached precision says so");
		ok(strstr(html, "(6 rounds)") != NULL, "the samples cell counts the rounds");
		ok(strstr(html, "<td class=\"v-noisy\">too noisy (could detect \u2265 ") != NULL,
		   "the drifting probe: too noisy, with the smallest detectable change");
		ok(strstr(html, "<span class=\"v-noisy\">1 too noisy</span>") != NULL,
		   "the summary counts too noisy");
		ok(strstr(html, "Welch's t interval on the round medians") != NULL &&
		   strstr(html, "without the variation from one run to the next</span> (2 probes)") &&
		   !strstr(html, "does not see run-to-run variance"),
		   "the help says what the intervals are: round medians, one run a side, no batches");
		ok(strstr(html, "<p class=\"note\">note: one run per side and no noise floor: an interval "
			  "sees the variation between the rounds of its run") != NULL,
		   "one run per side, no floor: the report says the interval lacks run-to-run variation");
	}
	free(html);
	result_free(files[0]);
	if (files[0])
		result_free(files[1]);
}

/* An interrupt probe with late and never ones, and a two-vCPU probe's wait for vCPU 1. */
static void test_delivery(void)
{
	char path[4096];
	struct err err;
	struct result_file *file;
	json_t *irq = probe("self_ipi", "irq", 3e6, 21, 1), *ipi = probe("ipi_halt", "irq", 4e5, 22, 1);
	char *html;

	json_object_set_new(irq, "delivery", json_pack("{s:i, s:i, s:i, s:i, s:f, s:f}", "ops", 66,
						       "in_window", 2, "late", 60, "never", 4,
						       "late_limit_ms", 50.0, "late_wait_cycles", 7.5e6));
	json_object_set_new(ipi, "peer_wait_ms", json_real(12.5));
	save(path, "irq.json", fixture_result(fixture_host("6.1.0", "EPYC", "emulated"),
					      json_pack("[o, o]", irq, ipi)));
	file = result_read_file(path, &err);
	html = file ? render(&file, 1) : NULL;
	if (!html) {
		diag("%s", err.msg);
		tap_skip(2, "the delivery file did not load or render");
	} else {
		tap_like(html, ">interrupts: 2 in window, 60 late, 4 never (mean wait 7500000 cycles)</span>",
			 "the table gives the interrupt delivery counts and the mean late wait");
		tap_like(html, ">vCPU 1 ready after 12.5 ms</span>", "... and how long vCPU 1 took");
	}
	free(html);
	result_free(file);
}

static void no_external(const char *html, const char *what)
{
	ok(!strstr(html, "http://") && !strstr(html, "https://") && !strstr(html, "//cdn"),
	   "%s: no http:// or https:// references", what);
	ok(!strstr(html, "<script") && !strstr(html, " src=") && !strstr(html, "<link") &&
	   !strstr(html, "url(") && !strstr(html, "@import"),
	   "%s: no scripts, src=, <link>, url() or @import", what);
}

static char *html2;	/* the two-file report, rendered by Chromium below */

static void test_library(void)
{
	struct err err;
	struct result_file *files[2];
	char *html;

	files[0] = result_read_file(base_path, &err);
	files[1] = result_read_file(new_path, &err);
	if (!files[0] || !files[1]) {
		diag("%s", err.msg);
		tap_skip(38, "synthetic files did not load");
		return;
	}

	html = render(files, 1);
	ok(html != NULL, "one file: report written");
	if (html) {
		ok(!strncmp(html, "<!DOCTYPE html>", 15), "starts with <!DOCTYPE html>");
		tap_like(html, "id=\"host\"", "host section");
		tap_like(html, "id=\"probes\"", "probes section");
		tap_like(html, "id=\"map\"", "map section");
		tap_like(html, "id=\"checks\"", "checks section");
		ok(!strstr(html, "id=\"compare\""), "one file: no comparison section");
		ok(strstr(html, "@media print") != NULL, "print stylesheet");
		no_external(html, "one file");
		free(html);
	}

	html = html2 = render(files, 2);
	ok(html != NULL, "two files: report written");
	if (html) {
		tap_like(html, "id=\"compare\"", "two files: comparison section");
		tap_like(html, "<th>lane</th><td>-</td><td class=\"differs\">vmx: bochs, patches 0001-e.patch; "
			 "kernel tiny linux-source-7.2 7.2.12-1~bpo13+1 (sha256 dd8cf7080e70), patches seed/0001-x.patch</td>",
			 "the host table names the lane's emulator patches, kernel source and patches (A: no lane)");
		ok(strstr(html, "id=\"host\"") < strstr(html, "id=\"compare\"") &&
		   strstr(html, "id=\"compare\"") < strstr(html, "id=\"probes\""),
		   "host record at the top, then the comparison, then the probes");
		tap_like(html, "<svg class=\"chart\"", "inline SVG cost chart");
		tap_like(html, "<rect class=\"bar\"", "median bars");
		tap_like(html, "<line class=\"ci\"", "CI whiskers");
		tap_like(html, "<line class=\"spread\"", "min..p99 spread");
		tap_like(html, "<circle class=\"dot\"", "sample dots");
		tap_like(html, "<svg class=\"chart delta\"", "delta chart");
		/* One run a side without a floor: the differences are not judged (docs/method.md). */
		tap_like(html, "<td class=\"v-na\">not judged</td>", "a not judged verdict");
		ok(!strstr(html, "<td class=\"v-faster\">") && !strstr(html, "<td class=\"v-slower\">"),
		   "one run a side: no faster or slower verdict");
		tap_like(html, "toggle_cr4_cet: 2.00 -&gt; 0.00 exits/op (now guest-owned)",
			 "exits/op change, escaped");
		tap_like(html, "<td class=\"ms-intercepted\"", "map grid: intercepted cell");
		tap_like(html, "<td class=\"ms-owned\"", "map grid: owned cell");
		tap_like(html, "<td class=\"ms-none\"", "map grid: entry absent in one file");
		tap_like(html, "<tr class=\"changed\">", "map grid: changed row marked");
		tap_like(html, "<td class=\"cs-fail\">fail", "checks table: fail");
		tap_like(html, "<td class=\"cs-pass\">pass", "checks table: pass");
		tap_like(html, "<td class=\"cs-stopped\">stopped", "checks table: stopped");
		tap_like(html, "B: 1 pass, 1 fail, 1 skip, 1 stopped.", "checks summary counts stopped");
		tap_like(html, "<div class=\"evidence\">expected <code class=\"expected\">0x7</code>, "
			 "observed <code class=\"observed\">0x7 &lt;script&gt;", "check evidence, escaped");
		tap_like(html, "user_io 1.00", "numbers table: the run loop's user_io/op");
		tap_like(html, "pio_out: 1.00 -&gt; 0.00 user_io/op", "user_io/op change line");
		tap_like(html, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;",
			 "strings from the files are escaped");
		ok(!strstr(html, "<script>"), "no raw <script> from the files");
		no_external(html, "two files");
	} else {
		tap_skip(26, "no report");
	}
	result_free(files[0]);
	result_free(files[1]);
}

/*
 * Census: the report's exit-path tables of A and B's cpuid, an exit path
 * of 256 operations given in memory (the struct alone); B runs 2 fewer
 * xsetbv XCR0 and wrmsr IA32_XSS per op, no vmread 0x4826, the same
 * rdmsr IA32_TSC_AUX, and the same EVIL-named row.
 */
#define CENSUS_OPS	256

struct census_side {
	struct exit_path_fn fn;
	struct exit_path_census census[5];
};

static void census_side(struct exit_path *e, struct census_side *s, int new_side, int has_census)
{
	const struct exit_path_census base[] = {
		{ "rdmsr", "IA32_TSC_AUX", 2 * CENSUS_OPS }, { "vmread", "0x4826", CENSUS_OPS },
		{ "wrmsr", "IA32_XSS", 4 * CENSUS_OPS }, { "wrmsr", EVIL, CENSUS_OPS / 2 },
		{ "xsetbv", "XCR0", 4 * CENSUS_OPS },
	};
	const struct exit_path_census next[] = {
		{ "rdmsr", "IA32_TSC_AUX", 2 * CENSUS_OPS }, { "wrmsr", "IA32_XSS", 2 * CENSUS_OPS },
		{ "wrmsr", EVIL, CENSUS_OPS / 2 }, { "xsetbv", "XCR0", 2 * CENSUS_OPS },
	};
	size_t n = new_side ? 4 : 5;

	memcpy(s->census, new_side ? next : base, n * sizeof(*s->census));
	memset(e, 0, sizeof(*e));
	e->present = 1;
	e->ops = CENSUS_OPS;
	e->kernel_insn = (new_side ? 960 : 1000) * CENSUS_OPS;
	s->fn = (struct exit_path_fn){ .name = "vmx_vcpu_run", .insn = e->kernel_insn, .calls = CENSUS_OPS };
	e->fns = &s->fn;
	e->n_fns = 1;
	e->has_census = has_census;
	if (has_census) {
		e->census = s->census;
		e->n_census = n;
		s->fn.census = s->census;
		s->fn.n_census = n;
	}
}

static struct run_probe *probe_named(struct result_file *rf, const char *name)
{
	for (size_t i = 0; i < rf->n_probes; i++)
		if (!strcmp(rf->probes[i].name, name))
			return &rf->probes[i];
	return NULL;
}

static char *census_html;	/* the A/B report with censuses, rendered by Chromium below */

static void test_census(void)
{
	struct err err;
	struct result_file *files[2];
	struct census_side sa, sb;
	struct run_probe *pa, *pb;
	const char *sec, *in_b;
	char *html;

	files[0] = result_read_file(base_path, &err);
	files[1] = result_read_file(new_path, &err);
	pa = files[0] ? probe_named(files[0], "cpuid") : NULL;
	pb = files[1] ? probe_named(files[1], "cpuid") : NULL;
	if (!pa || !pb) {
		tap_skip(15, "synthetic files did not load");
		goto out;
	}
	census_side(&pa->exit_path, &sa, 0, 1);
	census_side(&pb->exit_path, &sb, 1, 1);
	html = census_html = render(files, 2);
	sec = html ? strstr(html, "<section id=\"exit-path\">") : NULL;
	in_b = sec ? strstr(sec, "</span>B: ") : NULL;
	ok(sec && in_b && strstr(sec, "<table class=\"census\">"), "A/B: the exit-path section has census tables");
	tap_like(sec, "<th>insn</th><th>operand</th><th>per op</th></tr></thead><tbody>\n"
		 "<tr><td class=\"name\">rdmsr</td><td class=\"name\">IA32_TSC_AUX</td><td class=\"num\">2</td></tr>\n",
		 "A's census: insn, operand, executions per op");
	ok(sec && in_b && strstr(sec, "class=\"changed\"") > in_b && strstr(sec, "A per op") > in_b,
	   "A's table, the first file's: nothing marked, no column of A's figures");
	tap_like(in_b, "<th>per op</th><th>A per op</th>", "B's census has a column of A's figures");
	tap_like(in_b, "<tr class=\"changed\"><td class=\"name\">xsetbv</td><td class=\"name\">XCR0</td>"
		 "<td class=\"num differs\">2</td><td class=\"num\">4</td></tr>", "B: xsetbv XCR0 2 (A 4) marked");
	tap_like(in_b, "<tr class=\"changed\"><td class=\"name\">wrmsr</td><td class=\"name\">IA32_XSS</td>"
		 "<td class=\"num differs\">2</td><td class=\"num\">4</td></tr>", "B: wrmsr IA32_XSS 2 (A 4) marked");
	tap_like(in_b, "<tr><td class=\"name\">rdmsr</td><td class=\"name\">IA32_TSC_AUX</td>"
		 "<td class=\"num\">2</td><td class=\"num\">2</td></tr>", "B: the unchanged rdmsr row unmarked");
	tap_like(in_b, "<tr class=\"changed\"><td class=\"name\">vmread</td><td class=\"name\">0x4826</td>"
		 "<td class=\"num differs\">0</td><td class=\"num\">1</td></tr>",
		 "B: a row only A has is listed at 0, marked");
	tap_like(sec, "<td class=\"name\">wrmsr IA32_XSS 4, xsetbv XCR0 4, rdmsr IA32_TSC_AUX 2, +2 more</td>",
		 "a function's census cell: its largest rows, the rest counted");
	tap_like(in_b, "<tr class=\"changed\"><td class=\"differs\">vmx_vcpu_run</td><td>960.0</td>",
		 "B: the changed function marked too");
	ok(sec && strstr(sec, "<td class=\"name\">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; "
			 "&#39;q&#39;</td><td class=\"num\">0.5</td>") && !strstr(html, "<script>"),
	   "an operand from the file is escaped; 0.5 per op");
	if (html)
		no_external(html, "census");
	else
		tap_skip(2, "no report");

	/* Pooled sides (A -- B): the exit-path section still sets B against A, as compare does. */
	{
		struct report_how how = { .n_base = 1 };
		char *pooled = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&pooled, &len);
		int rc = f ? report_write(f, files, 2, &how, &err) : -1;
		const char *psec, *pin_b;

		if (f)
			fclose(f);
		psec = !rc && pooled ? strstr(pooled, "<section id=\"exit-path\">") : NULL;
		pin_b = psec ? strstr(psec, "</span>B: ") : NULL;
		ok(pin_b && strstr(pooled, "id=\"compare-sides\"") &&
		   strstr(pin_b, "<tr class=\"changed\"><td class=\"name\">xsetbv</td><td class=\"name\">XCR0</td>"
			  "<td class=\"num differs\">2</td><td class=\"num\">4</td></tr>"),
		   "pooled sides: one comparison, and B's exit path still marked against A's");
		free(pooled);
	}

	/* Without a census (an older profile): no census table or column. */
	census_side(&pa->exit_path, &sa, 0, 0);
	census_side(&pb->exit_path, &sb, 1, 0);
	html = render(files, 2);
	sec = html ? strstr(html, "<section id=\"exit-path\">") : NULL;
	{
		const char *end = sec ? strstr(sec, "</section>") : NULL;
		char *only = end ? strndup(sec, (size_t)(end - sec)) : NULL;

		ok(only && strstr(only, "<td>vmx_vcpu_run</td>") && !strstr(only, "census") &&
		   !strstr(only, "Census"), "profiles without a census: the path's table, no census table or column");
		free(only);
	}
	free(html);
	memset(&pa->exit_path, 0, sizeof(pa->exit_path));
	memset(&pb->exit_path, 0, sizeof(pb->exit_path));
out:
	result_free(files[0]);
	result_free(files[1]);
}

/* Absolute path of prog in PATH, or NULL (static buffer). */
static const char *which(const char *prog)
{
	static char buf[4096];
	const char *path = getenv("PATH"), *p, *e;

	for (p = path; p && *p; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(e - p), p, prog);
		if (access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

/*
 * Chromium's run is bounded by timeout(1), a safety net far beyond the few
 * seconds it takes on a loaded host; exit 124 means it expired.
 */
#define CHROMIUM_LIMIT_S	"300"

/* Why chromium failed, in a diagnostic line. */
static void chromium_diag(int rc, const char *err)
{
	if (rc == 124)
		diag("chromium did not finish in " CHROMIUM_LIMIT_S " s (timeout): killed");
	else if (rc)
		diag("chromium exited %d: %.300s", rc, err);
}

/* Screenshot url into png with headless Chromium; returns the exit status. */
static int screenshot(const char *chromium, const char *url, const char *png, const char *profile)
{
	char shot[4200], prof[4200];
	struct run_result r;
	const char *argv[] = {
		"timeout", CHROMIUM_LIMIT_S, chromium, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-quic", "--no-first-run", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", prof, "--window-size=1280,2000",
		shot, url, NULL,
	};
	int rc;

	snprintf(shot, sizeof(shot), "--screenshot=%s", png);
	snprintf(prof, sizeof(prof), "--user-data-dir=%s", profile);
	rc = run_cmd(&r, argv);
	chromium_diag(rc, r.err);
	run_free(&r);
	return rc;
}

static void test_chromium(void)
{
	char html_path[4200], png[4200], blank_html[4200], blank_png[4200], url[4300], prof[4200];
	unsigned char hdr[24];
	const char *chromium = which("chromium");
	struct run_result r;
	const char *dump[] = {
		"timeout", CHROMIUM_LIMIT_S, NULL, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", prof, "--dump-dom", url, NULL,
	};
	long size, blank;
	FILE *f;

	if (!chromium)
		chromium = which("chromium-browser");
	if (!chromium || !html2) {
		tap_skip(8, chromium ? "no report to render" :
			 "chromium is not installed (Debian chromium: scripts/install-deps --test)");
		return;
	}
	dump[2] = chromium;
	snprintf(html_path, sizeof(html_path), "%s/report.html", tmp);
	fixture_write_raw(tmp, "report.html", html2, strlen(html2));
	snprintf(url, sizeof(url), "file://%s", html_path);
	snprintf(prof, sizeof(prof), "--user-data-dir=%s/profile-dom", tmp);

	run_cmd(&r, dump);
	is_int(r.status, 0, "chromium --dump-dom exits 0");
	chromium_diag(r.status, r.err);
	ok(strstr(r.out, "id=\"host\"") && strstr(r.out, "id=\"compare\"") &&
	   strstr(r.out, "id=\"probes\"") && strstr(r.out, "id=\"map\"") &&
	   strstr(r.out, "id=\"checks\""), "the loaded DOM has all sections");
	ok(strstr(r.out, "<svg class=\"chart\"") && strstr(r.out, "class=\"ci\""),
	   "the loaded DOM has the SVG charts");
	run_free(&r);

	snprintf(png, sizeof(png), "%s/report.png", tmp);
	snprintf(prof, sizeof(prof), "%s/profile-shot", tmp);
	is_int(screenshot(chromium, url, png, prof), 0, "chromium --screenshot exits 0");
	memset(hdr, 0, sizeof(hdr));
	f = fopen(png, "rb");
	ok(f && fread(hdr, 1, sizeof(hdr), f) == sizeof(hdr) &&
	   !memcmp(hdr, "\x89PNG\r\n\x1a\n", 8) && !memcmp(hdr + 12, "IHDR", 4), "screenshot is a PNG");
	if (f)
		fclose(f);
	ok(((uint32_t)hdr[16] << 24 | hdr[17] << 16 | hdr[18] << 8 | hdr[19]) == 1280 &&
	   ((uint32_t)hdr[20] << 24 | hdr[21] << 16 | hdr[22] << 8 | hdr[23]) == 2000,
	   "screenshot is 1280x2000 (IHDR)");

	/* A blank page of the same size compresses to almost nothing. */
	fixture_write_raw(tmp, "blank.html", "<!DOCTYPE html><html><body></body></html>", 41);
	snprintf(blank_html, sizeof(blank_html), "file://%s/blank.html", tmp);
	snprintf(blank_png, sizeof(blank_png), "%s/blank.png", tmp);
	snprintf(prof, sizeof(prof), "%s/profile-blank", tmp);
	is_int(screenshot(chromium, blank_html, blank_png, prof), 0, "blank page screenshot");
	size = file_size(png);
	blank = file_size(blank_png);
	if (!ok(size > 0 && blank > 0 && size > 4 * blank, "screenshot is not blank (PNG %ld bytes, "
		"blank page %ld bytes)", size, blank))
		diag("  the report screenshot is no bigger than an empty page's");
}

/* The census report as Chromium loads it: the tables survive parsing, the marks in place. */
static void test_census_chromium(void)
{
	char html_path[4200], url[4300], prof[4200];
	const char *chromium = which("chromium");
	struct run_result r;
	const char *dump[] = {
		"timeout", CHROMIUM_LIMIT_S, NULL, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", prof, "--dump-dom", url, NULL,
	};

	if (!chromium)
		chromium = which("chromium-browser");
	if (!chromium || !census_html) {
		tap_skip(2, chromium ? "no census report to render" :
			 "chromium is not installed (Debian chromium: scripts/install-deps --test)");
		return;
	}
	dump[2] = chromium;
	snprintf(html_path, sizeof(html_path), "%s/census.html", tmp);
	fixture_write_raw(tmp, "census.html", census_html, strlen(census_html));
	snprintf(url, sizeof(url), "file://%s", html_path);
	snprintf(prof, sizeof(prof), "--user-data-dir=%s/profile-census", tmp);
	run_cmd(&r, dump);
	is_int(r.status, 0, "census report: chromium --dump-dom exits 0");
	chromium_diag(r.status, r.err);
	ok(strstr(r.out, "<table class=\"census\"><thead><tr><th>insn</th>") &&
	   strstr(r.out, "<tr class=\"changed\"><td class=\"name\">xsetbv</td><td class=\"name\">XCR0</td>"
		      "<td class=\"num differs\">2</td>"),
	   "census report: the loaded DOM has the census tables and the marked rows");
	run_free(&r);
}

static void test_cli(void)
{
	const char *exe = getenv("EXITSCOPE");
	char out[4200], bad[4200];
	struct run_result r;

	if (!exe || access(exe, X_OK)) {
		tap_skip(7, "EXITSCOPE not set (run through make check)");
		return;
	}
	snprintf(out, sizeof(out), "%s/cli.html", tmp);
	{
		const char *argv[] = { exe, "report", base_path, new_path, "-o", out, NULL };

		run_cmd(&r, argv);
		is_int(r.status, 0, "report A B -o FILE exits 0");
		ok(file_size(out) > 1000, "report file written");
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "report", "--help", NULL };

		run_cmd(&r, argv);
		ok(r.status == 0 && strstr(r.out, "usage: exitscope report"), "--help: usage, exit 0");
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "report", "-o", out, NULL };

		run_cmd(&r, argv);
		is_int(r.status, 2, "no input files: exit 2");
		run_free(&r);
	}
	snprintf(bad, sizeof(bad), "%s/bad.json", tmp);
	fixture_write_raw(tmp, "bad.json", "{\"schema\": \"exitscope-result\"", 29);
	{
		const char *argv[] = { exe, "report", base_path, bad, "-o", out, NULL };

		run_cmd(&r, argv);
		is_int(r.status, 2, "invalid input: exit 2");
		ok(strstr(r.err, bad) && strstr(r.err, "truncated JSON") &&
		   strchr(r.err, '\n') == r.err + strlen(r.err) - 1, "one line naming the file and problem");
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "report", base_path, "-o", "-", NULL };

		run_cmd(&r, argv);
		ok(r.status == 0 && !strncmp(r.out, "<!DOCTYPE html>", 15), "-o -: HTML on stdout");
		run_free(&r);
	}
}

/* Is every attribute value of html (what is between =" and ") free of nan and inf, any case? */
static bool attrs_finite(const char *html, char *bad, size_t len)
{
	for (const char *p = strstr(html, "=\""); p; p = strstr(p, "=\"")) {
		size_t n;
		char *v;

		p += 2;
		n = strcspn(p, "\"");
		v = strndup(p, n);
		if (v && (strcasestr(v, "nan") || strcasestr(v, "inf"))) {
			snprintf(bad, len, "%s", v);
			free(v);
			return false;
		}
		free(v);
		p += n;
	}
	return true;
}

/*
 * The report of a pair with a zero base (0 -> 5e-324, 0 -> 3, 0 -> 0) and
 * one of all zeros: every number in an SVG or HTML attribute is finite.
 */
static void test_zero_base(void)
{
	const double z[] = { 0, 0, 0, 0, 0 }, d[] = { 5e-324, 5e-324, 5e-324, 5e-324, 5e-324 };
	const double t[] = { 3, 3, 3, 3, 3 };
	const char *exe = getenv("EXITSCOPE");
	char a_path[4096], b_path[4096], c_path[4096], bad[256] = "";
	struct run_result r;

	if (!exe || access(exe, X_OK)) {
		tap_skip(3, "EXITSCOPE not set (run through make check)");
		return;
	}
	save(a_path, "zero_a.json", fixture_result(fixture_host("6.1.0", "Xeon", "native"),
		json_pack("[o, o, o]", fixture_probe("zero_tiny", "hand", z, 5, 1),
			  fixture_probe("zero_up", "hand", z, 5, 1), fixture_probe("zero_zero", "hand", z, 5, 0))));
	save(b_path, "zero_b.json", fixture_result(fixture_host("6.1.0", "Xeon", "native"),
		json_pack("[o, o, o]", fixture_probe("zero_tiny", "hand", d, 5, 1),
			  fixture_probe("zero_up", "hand", t, 5, 1), fixture_probe("zero_zero", "hand", z, 5, 0))));
	save(c_path, "zero_c.json", fixture_result(fixture_host("6.1.0", "Xeon", "native"),
		json_pack("[o]", fixture_probe("zero_zero", "hand", z, 5, 0))));
	{
		const char *argv[] = { exe, "report", a_path, b_path, "-o", "-", NULL };

		bool fin;

		run_cmd(&r, argv);
		fin = attrs_finite(r.out, bad, sizeof(bad));
		ok(r.status == 0 && strstr(r.out, "zero_tiny") && fin,
		   "zero base pair: every attribute finite (%d%s%s)", r.status, *bad ? ", found " : "", bad);
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "report", c_path, "-o", "-", NULL };

		bool fin;

		run_cmd(&r, argv);
		fin = attrs_finite(r.out, bad, sizeof(bad));
		ok(r.status == 0 && strstr(r.out, "zero_zero") && fin,
		   "one file of zeros: every attribute finite (%d%s%s)", r.status, *bad ? ", found " : "", bad);
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "report", b_path, a_path, "-o", "-", NULL };

		bool fin;

		run_cmd(&r, argv);
		fin = attrs_finite(r.out, bad, sizeof(bad));
		ok(r.status == 0 && fin,
		   "the pair the other way (5e-324 base): every attribute finite (%d%s%s)", r.status,
		   *bad ? ", found " : "", bad);
		run_free(&r);
	}
}

/*
 * SIGTERM while `exitscope report` is blocked writing its output into a
 * FIFO whose reader stopped after 5000 bytes (the program's own state,
 * /proc/PID/wchan, says when):
 * one line "stopped by SIGTERM", exit 143, not killed by the signal.
 */
static void test_sigterm(void)
{
	char path[4096], fifo[4200];
	struct run_result r;
	json_t *doc;
	int blocked;

	if (!getenv("EXITSCOPE") || access(getenv("EXITSCOPE"), X_OK)) {
		tap_skip(2, "EXITSCOPE not set (run through make check)");
		return;
	}
	/* 400 probes: an output far beyond a pipe's 64 KiB */
	doc = fixture_result_large(400);
	snprintf(path, sizeof(path), "%s", fixture_write(tmp, "many.json", doc));
	json_decref(doc);
	snprintf(fifo, sizeof(fifo), "%s/report.fifo", tmp);
	/* Its first 5000 bytes read: the write that blocks has written part of its bytes. */
	blocked = run_stop_on_fifo_after(&r, (const char *const[]){ getenv("EXITSCOPE"), "report", path, "-o",
					 fifo, NULL }, fifo, SIGTERM, 5000);
	if (!fifo_stop_blocked(blocked, &r, "report", 2))
		return;
	ok(r.status == 128 + SIGTERM && !r.signal,
	   "SIGTERM while writing to a full FIFO: exit 143, not killed (%d, signal %d)", r.status,
	   r.signal);
	ok(strchr(r.err, '\n') == r.err + strlen(r.err) - 1 && strstr(r.err, "exitscope report: stopped by SIGTERM"),
	   "one line: stopped by SIGTERM (%s)", r.err);
	run_free(&r);
}

int main(void)
{
	tmp = fixture_tmpdir();
	if (!tmp)
		return tap_skip_all("cannot make a temp dir");
	make_files();
	test_library();
	test_rounds();
	test_delivery();
	test_census();
	test_cli();
	test_zero_base();
	test_sigterm();
	test_chromium();
	test_census_chromium();
	free(html2);
	free(census_html);
	fixture_rmdir(tmp);
	return done_testing();
}
