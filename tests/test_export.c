// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_export.c - `exitscope export` and `run --openmetrics` against the
 * real tools: the text passes `promtool check metrics` (Debian prometheus)
 * for results the binary measures and for recorded ones, holds the lines
 * it should (metric names, label values, escaping), is written atomically
 * (a failure leaves no file, no temporary and an old file intact; success
 * renames a new file into place), and bad input is one line and exit 2.
 * Interrupt delivery counts (late ones too) and the wait for a second vCPU
 * are families of their own, for failed probes as well. The text is
 * OpenMetrics 1.0.0: "# EOF" last, a UNIT line for each family named after
 * its unit, and a strict OpenMetrics parser (python3-prometheus-client)
 * takes it. The round CI (the mean of the round medians and its 95% CI)
 * is exported from the run's own rounds and ci_rel_pct. The systemd units
 * pass `systemd-analyze verify`; the alert rules pass
 * `promtool check rules` and their unit test `promtool test rules`.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/array_size.h"
#include "export/openmetrics.h"
#include "results/result_read.h"
#include "tests/fixture.h"
#include "tests/fifo_stop.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define PROMTOOL	"promtool"
#define PATHLEN		600

static const char *exe;
static char *dir;

/* text holds line as a whole line. */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; p && (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

/* text has a line that starts with prefix. */
static bool has_prefix(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, prefix, n))
			return true;
	return false;
}

/* One line on stderr, starting "exitscope CMD: ". */
static bool one_line(const struct run_result *r, const char *cmd)
{
	char want[64];
	size_t n = strlen(r->err);

	snprintf(want, sizeof(want), "exitscope %s: ", cmd);
	return n && !strncmp(r->err, want, strlen(want)) && strchr(r->err, '\n') == r->err + n - 1;
}

/* A usage error: "exitscope CMD: ..." and the hint to --help, nothing else. */
static bool usage_lines(const struct run_result *r, const char *cmd)
{
	char want[64];
	const char *nl = strchr(r->err, '\n');

	snprintf(want, sizeof(want), "\nTry 'exitscope %s --help'.\n", cmd);
	return nl && !strncmp(r->err, "exitscope ", 10) && !strcmp(nl, want);
}

/* `promtool check metrics < path`: its exit status; its output (lints) in *out (free it). */
static int promtool_metrics(const char *path, char **out)
{
	const char *argv[] = { "sh", "-c", PROMTOOL " check metrics < \"$1\" 2>&1", "sh", path, NULL };
	struct run_result r;
	int st = run_cmd(&r, argv);

	*out = strdup(r.out);
	run_free(&r);
	return st;
}

static bool promtool_clean(const char *path, const char *what)
{
	char *out = NULL;
	int st = promtool_metrics(path, &out);
	bool good = ok(st == 0 && out && !*out, "promtool check metrics accepts %s without a lint", what);

	if (!good)
		diag("promtool exit %d: %s", st, out ? out : "");
	free(out);
	return good;
}

static int run_export(struct run_result *r, const char *const *args, const struct run_opts *o)
{
	const char *argv[32] = { exe, "export" };
	size_t n = 2;

	while (*args && n < 31)
		argv[n++] = *args++;
	return run_cmd_opts(r, argv, o);
}

/* How many entries dir d holds (. and .. aside). */
static int dir_entries(const char *d)
{
	DIR *dh = opendir(d);
	struct dirent *de;
	int n = 0;

	if (!dh)
		return -1;
	while ((de = readdir(dh)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(dh);
	return n;
}

static void test_promtool_is_real(void)
{
	char path[PATHLEN], *out = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/nohelp.prom", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("exitscope_x{run=\"a\"} 1\nexitscope_x{run=\"a\"} 2 3 4\n", f);
		fclose(f);
	}
	ok(promtool_metrics(path, &out) != 0, "promtool rejects a text without HELP/TYPE and with a bad line "
	   "(the check below can fail)");
	free(out);
}

static void test_usage(void)
{
	struct run_result r;
	char out[PATHLEN];

	{
		const char *a[] = { "--help", NULL };

		run_export(&r, a, NULL);
		ok(r.status == 0 && strstr(r.out, "--format") && strstr(r.out, "--output") &&
		   strstr(r.out, "run=NAME"), "export --help: exit 0, names its options and the run label");
		run_free(&r);
	}
	{
		const char *a[] = { NULL };

		run_export(&r, a, NULL);
		ok(r.status == 2 && usage_lines(&r, "export"), "no result file: exit 2, one line and the --help hint");
		run_free(&r);
	}
	{
		const char *a[] = { "--format", "json", "lanes/samples/vmx/run.json", NULL };

		run_export(&r, a, NULL);
		ok(r.status == 2 && usage_lines(&r, "export") && strstr(r.err, "'json'"),
		   "--format json: exit 2, one line naming it and the --help hint");
		run_free(&r);
	}
	snprintf(out, sizeof(out), "%s/bad-input.prom", dir);
	{
		const char *a[] = { "-o", out, "lanes/samples/vmx/run.json", "nonexistent.json", NULL };

		run_export(&r, a, NULL);
		ok(r.status == 2 && one_line(&r, "export") && strstr(r.err, "nonexistent.json: cannot open") &&
		   access(out, F_OK), "a missing input: exit 2, one line naming it, no output file");
		run_free(&r);
	}
	{
		const char *a[] = { "-o", out, "fuzz/corpus/broken-negative-sample.json", NULL };

		run_export(&r, a, NULL);
		ok(r.status == 2 && one_line(&r, "export") && strstr(r.err, "samples[") && access(out, F_OK),
		   "an invalid input: exit 2, one line with the reader's reason, no output file");
		if (r.status != 2)
			diag("%s", r.err);
		run_free(&r);
	}
}

static void openmetrics_clean(const char *path, const char *text, const char *what);

static void test_recorded(void)
{
	const char *a[] = { "-o", NULL, "lanes/samples/vmx/run.json", "lanes/samples/vmx/map.json",
			    "lanes/samples/vmx/check.json", "lanes/samples/svm/info.json", NULL };
	static const char *const lines[] = {
		"# HELP exitscope_info The host record of the run as labels; value 1.",
		"# TYPE exitscope_info gauge",
		"exitscope_info{run=\"run\",version=\"0.1.0\",kernel=\"6.1.192\",backend=\"kvm_intel\","
		"cpu_vendor=\"GenuineIntel\",cpu_model_name=\"Intel(R) Core(TM) i7-7800X CPU @ 3.50GHz\","
		"cpu_family=\"6\",cpu_model=\"85\",cpu_stepping=\"4\",execution_mode=\"native\",lane=\"vmx\","
		"lane_kernel=\"tiny\"} 1",
		"exitscope_info{run=\"info\",version=\"0.1.0\",kernel=\"6.1.192\",backend=\"kvm_amd\","
		"cpu_vendor=\"AuthenticAMD\",cpu_model_name=\"AMD EPYC Processor\",cpu_family=\"23\","
		"cpu_model=\"1\",cpu_stepping=\"2\",execution_mode=\"native\",lane=\"svm\",lane_kernel=\"tiny\"} 1",
		"# TYPE exitscope_probe_median_cycles gauge",
		"exitscope_probe_median_cycles{run=\"run\",probe=\"toggle_cr4_pge\",group=\"cr\"} 4",
		"exitscope_probe_ci95_lower_cycles{run=\"run\",probe=\"cpuid\",group=\"insn\"} 1198",
		"exitscope_probe_ci95_upper_cycles{run=\"run\",probe=\"cpuid\",group=\"insn\"} 1198",
		"exitscope_probe_exits_per_op{run=\"run\",probe=\"cpuid\",group=\"insn\"} 1.006144393",
		"exitscope_probe_userspace_exits_per_op{run=\"run\",probe=\"pio_to_user\",group=\"io\",reason=\"io\"} 1",
		"exitscope_probe_status{run=\"run\",probe=\"toggle_cr4_cet\",group=\"cr\",status=\"skipped\"} 1",
		"exitscope_probe_status{run=\"run\",probe=\"toggle_cr4_cet\",group=\"cr\",status=\"ok\"} 0",
		"exitscope_run_finished_timestamp_seconds{run=\"run\"} 1796162763",
		"exitscope_host_tsc_hertz{run=\"run\"} 20000000",
		"exitscope_map_emulated{run=\"map\"} 0",
		"exitscope_map_bit_status{run=\"map\",profile=\"host\",reg=\"cr4\",bit=\"7\",bit_name=\"PGE\","
		"op=\"toggle\",status=\"owned\"} 1",
		"exitscope_map_bit_status{run=\"map\",profile=\"host\",reg=\"cr4\",bit=\"7\",bit_name=\"PGE\","
		"op=\"toggle\",status=\"intercepted\"} 0",
		"exitscope_map_bit_exits_per_op{run=\"map\",profile=\"host\",reg=\"cr4\",bit=\"7\",bit_name=\"PGE\","
		"op=\"toggle\"} 0",
		"exitscope_check_status{run=\"check\",suite=\"xstate\",check=\"xss\",status=\"skip\"} 1",
		"exitscope_check_status{run=\"check\",suite=\"xstate\",check=\"xss\",status=\"pass\"} 0",
	};
	char out[PATHLEN], *text;
	struct run_result r;
	size_t missing = 0, types = 0, helps = 0, bad_names = 0;

	snprintf(out, sizeof(out), "%s/lanes.prom", dir);
	a[1] = out;
	run_export(&r, a, NULL);
	ok(r.status == 0 && !*r.err, "export of the recorded vmx run, map, check and svm info: exit 0, silent");
	run_free(&r);
	promtool_clean(out, "the recorded lane results");
	text = run_read_file(out, NULL);
	for (size_t i = 0; text && i < ARRAY_SIZE(lines); i++)
		if (!has_line(text, lines[i])) {
			diag("missing: %s", lines[i]);
			missing++;
		}
	ok(text && !missing, "the text holds the expected lines (host labels, probe medians and CI, exits, "
	   "status state sets, CR bit ownership, checks): %zu missing", missing);
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		types += !strncmp(p, "# TYPE ", 7);
		helps += !strncmp(p, "# HELP ", 7);
		bad_names += *p != '#' && strncmp(p, "exitscope_", 10);
	}
	ok(text && types >= 12 && types == helps && !bad_names,
	   "every family has HELP and TYPE (%zu, %zu) and every sample is exitscope_* (%zu not)", helps, types,
	   bad_names);
	openmetrics_clean(out, text, "the recorded lane results");
	ok(text && !has_prefix(text, "# TYPE exitscope_info info") &&
	   !has_prefix(text, "# TYPE exitscope_probe_status stateset"),
	   "every family is a gauge (node_exporter's 0.0.4 parser knows no info or stateset type)");
	ok(text && has_line(text, "# UNIT exitscope_probe_round_ci95_lower_cycles cycles") &&
	   has_prefix(text, "exitscope_probe_round_ci95_upper_cycles{run=\"run\",probe=\"cpuid\","),
	   "the round CI of a run with rounds is exported, with its unit");
	free(text);
}

#define PYTHON		"/usr/bin/python3"

/*
 * text (the file at path) is OpenMetrics 1.0.0: "# EOF" once, as its last
 * line; each family whose name ends in a unit has its UNIT line and no
 * other has one; and the strict parser of python3-prometheus-client takes
 * it (skipped when that is not installed).
 */
static void openmetrics_clean(const char *path, const char *text, const char *what)
{
	static const char script[] =
		"import sys\n"
		"from prometheus_client.openmetrics.parser import text_string_to_metric_families as f\n"
		"print(len(list(f(open(sys.argv[1]).read()))))\n";
	const char *eof = text ? strstr(text, "# EOF\n") : NULL;
	size_t families = 0, units = 0, want_units = 0;
	struct run_result r;

	ok(eof && !eof[6] && (eof == text || eof[-1] == '\n'), "%s: '# EOF' once, as the last line", what);
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, "# TYPE ", 7)) {
			static const char *const unit[] = { "_cycles", "_seconds", "_hertz", "_ratio" };
			size_t len = strcspn(p + 7, " \n");	/* the name (a shorter line has none) */

			families++;

			for (size_t u = 0; u < ARRAY_SIZE(unit); u++)
				want_units += len > strlen(unit[u]) &&
					      !strncmp(p + 7 + len - strlen(unit[u]), unit[u], strlen(unit[u]));
		}
		units += !strncmp(p, "# UNIT ", 7);
	}
	ok(families && units == want_units,
	   "%s: a UNIT line for each of the %zu families named after their unit (%zu)", what, want_units,
	   units);
	if (access(PYTHON, X_OK) ||
	    !run_works((const char *const[]){ PYTHON, "-c", "import prometheus_client", NULL })) {
		skip("python3-prometheus-client is not installed (its strict OpenMetrics parser)");
		return;
	}
	run_cmd(&r, (const char *const[]){ PYTHON, "-c", script, path, NULL });
	if (!ok(r.status == 0 && atoi(r.out) == (int)families, "%s: the OpenMetrics parser of "
		"python3-prometheus-client takes it (%d of %zu families)", what, atoi(r.out), families))
		diag("%s", r.err);
	run_free(&r);
}

/*
 * The round CI: a probe with rounds whose medians are 100 and 120 and a
 * round CI of 10% exports the mean 110 and the bounds 99 and 121; one
 * without rounds exports none; the HELP names the paired baseline.
 */
static void test_round_ci(void)
{
	json_t *probes = json_array(), *doc, *p, *rounds = json_array();
	const char *path, *a[] = { "-o", NULL, NULL, NULL };
	double s[5];
	char out[PATHLEN], *text;
	struct run_result r;

	fixture_samples(s, 5, 100, 2, 7);
	p = fixture_probe("cpuid", "insn", s, 5, 1.0);
	for (int i = 0; i < 2; i++)
		json_array_append_new(rounds, json_pack("{s:i,s:[f],s:f,s:f,s:f}", "batch", 1, "samples",
							100.0 + 20 * i, "median", 100.0 + 20 * i, "baseline_median",
							10.0, "raw_median", 110.0 + 20 * i));
	json_object_set_new(p, "rounds", rounds);
	json_object_set_new(p, "ci_rel_pct", json_real(10));
	json_array_append_new(probes, p);
	json_array_append_new(probes, fixture_probe("rdtsc", "insn", s, 5, 0.0));
	doc = fixture_result(fixture_host("6.1.0", "Xeon", "native"), probes);
	path = fixture_write(dir, "rounds.json", doc);
	json_decref(doc);
	snprintf(out, sizeof(out), "%s/rounds.prom", dir);
	a[1] = out;
	a[2] = path;
	run_export(&r, a, NULL);
	if (!ok(r.status == 0, "export of a probe with two rounds: exit 0"))
		diag("%s", r.err);
	run_free(&r);
	text = run_read_file(out, NULL);
#define CPUID_SERIES	"{run=\"rounds\",probe=\"cpuid\",group=\"insn\"}"
	ok(text && has_line(text, "exitscope_probe_round_mean_cycles" CPUID_SERIES " 110") &&
	   has_line(text, "exitscope_probe_round_ci95_lower_cycles" CPUID_SERIES " 99") &&
	   has_line(text, "exitscope_probe_round_ci95_upper_cycles" CPUID_SERIES " 121"),
	   "round medians 100 and 120 with a 10%% round CI: mean 110, CI 99 .. 121");
	ok(text && !strstr(text, "exitscope_probe_round_mean_cycles{run=\"rounds\",probe=\"rdtsc\""),
	   "a probe without rounds has no round CI");
	ok(text && strstr(text, "# HELP exitscope_probe_median_cycles ") &&
	   strstr(text, "paired baseline") && !strstr(text, "nop baseline"),
	   "the HELP of the median names the paired baseline, not a nop baseline");
	promtool_clean(out, "the round CI families");
	openmetrics_clean(out, text, "the round CI families");
	free(text);
}

static void test_corpus(void)
{
	const char *a[40] = { "-o" };
	char out[PATHLEN], *text;
	struct run_result r;
	size_t n = 2;
	DIR *d = opendir("fuzz/corpus");
	struct dirent *de;
	static char names[32][PATHLEN];
	size_t k = 0;

	snprintf(out, sizeof(out), "%s/corpus.prom", dir);
	a[1] = out;
	while (d && (de = readdir(d)) && k < 32)
		if (!strncmp(de->d_name, "valid-", 6)) {
			snprintf(names[k], sizeof(names[k]), "fuzz/corpus/%s", de->d_name);
			a[n++] = names[k++];
		}
	if (d)
		closedir(d);
	run_export(&r, a, NULL);
	ok(k >= 5 && r.status == 0, "export of the fuzz corpus's %zu valid files together: exit 0", k);
	if (r.status)
		diag("%s", r.err);
	run_free(&r);
	promtool_clean(out, "the fuzz corpus's valid files");
	text = run_read_file(out, NULL);
	ok(text && has_prefix(text, "exitscope_info{run=\"valid-run-map-checks\",") &&
	   has_prefix(text, "exitscope_info{run=\"valid-info\","),
	   "one exitscope_info series per file, told apart by run=<file name without .json>");
	free(text);
}

static void test_escaping(void)
{
	json_t *host = fixture_host("6.1 \"odd\" \\path\nline2", "CPU \"quoted\"", "native");
	json_t *probes = json_array(), *doc;
	double s[5];
	const char *path, *a[] = { "-o", NULL, NULL, NULL };
	char out[PATHLEN], *text;
	struct run_result r;

	fixture_samples(s, 5, 100, 2, 7);
	json_array_append_new(probes, fixture_probe("cpuid", "insn", s, 5, 1.0));
	json_array_append_new(probes, fixture_probe_status("odd\\probe", "g\"1", "failed",
							    "a reason\nover two lines"));
	doc = fixture_result(host, probes);
	path = fixture_write(dir, "odd.json", doc);
	json_decref(doc);
	snprintf(out, sizeof(out), "%s/odd.prom", dir);
	a[1] = out;
	a[2] = path;
	run_export(&r, a, NULL);
	ok(r.status == 0, "export of a file whose strings need escaping: exit 0");
	run_free(&r);
	promtool_clean(out, "escaped label values");
	text = run_read_file(out, NULL);
	ok(text && strstr(text, ",kernel=\"6.1 \\\"odd\\\" \\\\path\\nline2\",") &&
	   strstr(text, "cpu_model_name=\"CPU \\\"quoted\\\"\"") &&
	   has_line(text, "exitscope_probe_status{run=\"odd\",probe=\"odd\\\\probe\",group=\"g\\\"1\","
		    "status=\"failed\"} 1"),
	   "label values escape backslash, double quote and line feed");
	free(text);
}

/* A late-delivering interrupt probe, one whose interrupts never came, and a peer wait. */
static void test_delivery(void)
{
	json_t *probes = json_array(), *doc, *p;
	double s[5];
	const char *path, *a[] = { "-o", NULL, NULL, NULL };
	char out[PATHLEN], *text;
	struct run_result r;
	static const char *const lines[] = {
		"# TYPE exitscope_probe_interrupt_ops gauge",
		"exitscope_probe_interrupt_ops{run=\"irq\",probe=\"self_ipi\",group=\"irq\",delivery=\"in_window\"} 2",
		"exitscope_probe_interrupt_ops{run=\"irq\",probe=\"self_ipi\",group=\"irq\",delivery=\"late\"} 60",
		"exitscope_probe_interrupt_ops{run=\"irq\",probe=\"self_ipi\",group=\"irq\",delivery=\"never\"} 4",
		"exitscope_probe_interrupt_ops{run=\"irq\",probe=\"self_ipi_tpr\",group=\"irq\",delivery=\"never\"} 33",
		"exitscope_probe_interrupt_late_wait_cycles{run=\"irq\",probe=\"self_ipi\",group=\"irq\"} 7500000",
		"exitscope_probe_peer_wait_seconds{run=\"irq\",probe=\"ipi\",group=\"irq\"} 0.0125",
	};
	size_t missing = 0;

	fixture_samples(s, 5, 3e6, 1e5, 11);
	p = fixture_probe("self_ipi", "irq", s, 5, 1.0);
	json_object_set_new(p, "delivery", json_pack("{s:i, s:i, s:i, s:i, s:f, s:f}", "ops", 66,
						     "in_window", 2, "late", 60, "never", 4,
						     "late_limit_ms", 50.0, "late_wait_cycles", 7.5e6));
	json_array_append_new(probes, p);
	p = fixture_probe_status("self_ipi_tpr", "irq", "failed", "the interrupt never arrived");
	json_object_set_new(p, "delivery", json_pack("{s:i, s:i, s:i, s:i, s:f}", "ops", 33,
						     "in_window", 0, "late", 0, "never", 33,
						     "late_limit_ms", 50.0));
	json_array_append_new(probes, p);
	p = fixture_probe("ipi", "irq", s, 5, 1.0);
	json_object_set_new(p, "peer_wait_ms", json_real(12.5));
	json_array_append_new(probes, p);
	doc = fixture_result(fixture_host("6.1", "CPU", "emulated"), probes);
	path = fixture_write(dir, "irq.json", doc);
	json_decref(doc);
	snprintf(out, sizeof(out), "%s/irq.prom", dir);
	a[1] = out;
	a[2] = path;
	run_export(&r, a, NULL);
	ok(r.status == 0, "export of interrupt delivery counts and a peer wait: exit 0");
	if (r.status)
		diag("%s", r.err);
	run_free(&r);
	promtool_clean(out, "the delivery and peer-wait families");
	text = run_read_file(out, NULL);
	for (size_t i = 0; text && i < ARRAY_SIZE(lines); i++)
		if (!has_line(text, lines[i])) {
			diag("missing: %s", lines[i]);
			missing++;
		}
	ok(text && !missing, "in window / late / never per probe (a failed one too), the mean late wait, "
	   "the peer wait in seconds: %zu missing", missing);
	free(text);
}

static void test_duplicates(void)
{
	char a_dir[PATHLEN], b_dir[PATHLEN], out[PATHLEN];
	const char *pa, *pb, *path;
	struct run_result r;
	json_t *doc, *entries;

	snprintf(a_dir, sizeof(a_dir), "%s/a", dir);
	snprintf(b_dir, sizeof(b_dir), "%s/b", dir);
	mkdir(a_dir, 0700);
	mkdir(b_dir, 0700);
	doc = fixture_result(fixture_host("6.1", "CPU", "native"), json_array());
	pa = strdup(fixture_write(a_dir, "run.json", doc));
	pb = strdup(fixture_write(b_dir, "run.json", doc));
	json_decref(doc);
	snprintf(out, sizeof(out), "%s/dup.prom", dir);
	{
		const char *a[] = { "-o", out, pa, pb, NULL };

		run_export(&r, a, NULL);
		ok(r.status == 2 && one_line(&r, "export") && strstr(r.err, "run=\"run\"") && access(out, F_OK),
		   "two files named run.json: exit 2, one line naming the label, no output");
		run_free(&r);
	}
	entries = json_array();
	json_array_append_new(entries, fixture_map_entry("cr4", 7, "PGE", "toggle", "owned", 0));
	json_array_append_new(entries, fixture_map_entry("cr4", 7, "PGE", "toggle", "intercepted", 1));
	doc = fixture_result(fixture_host("6.1", "CPU", "native"), json_array());
	json_object_set_new(doc, "map", fixture_map(0, "host", entries));
	path = fixture_write(dir, "dupmap.json", doc);
	json_decref(doc);
	{
		const char *a[] = { "-o", out, path, NULL };

		run_export(&r, a, NULL);
		ok(r.status == 2 && one_line(&r, "export") && strstr(r.err, "cr4 bit 7") && access(out, F_OK),
		   "a map with one entry twice: exit 2, one line naming it, no output");
		run_free(&r);
	}
	free((char *)pa);
	free((char *)pb);
}

static void test_atomic(void)
{
	char sub[PATHLEN], out[PATHLEN], *after;
	struct run_result r;
	struct stat st0, st1;
	FILE *f;

	/* A directory that cannot take the file: nothing is read, nothing is made. */
	snprintf(out, sizeof(out), "%s/no-such-dir/x.prom", dir);
	{
		const char *a[] = { "-o", out, "lanes/samples/vmx/run.json", NULL };

		run_export(&r, a, NULL);
		ok(r.status == 2 && one_line(&r, "export") && strstr(r.err, "cannot write") && access(out, F_OK),
		   "-o into a missing directory: exit 2, one line, no file");
		run_free(&r);
	}
	snprintf(sub, sizeof(sub), "%s/ro", dir);
	mkdir(sub, 0555);
	chmod(sub, 0555);
	snprintf(out, sizeof(out), "%s/x.prom", sub);
	{
		/* root writes anywhere: take CAP_DAC_OVERRIDE away for the child. */
		const char *plain[] = { exe, "export", "-o", out, "lanes/samples/vmx/run.json", NULL };
		const char *priv[] = { "setpriv", "--bounding-set=-dac_override,-dac_read_search", exe,
				       "export", "-o", out, "lanes/samples/vmx/run.json", NULL };
		bool root = geteuid() == 0;

		if (root && access("/usr/bin/setpriv", X_OK)) {
			skip("running as root without setpriv: a read-only directory is writable to us");
		} else {
			run_cmd(&r, root ? priv : plain);
			ok(r.status == 2 && one_line(&r, "export") && strstr(r.err, "Permission denied") &&
			   dir_entries(sub) == 0,
			   "-o into an unwritable directory: exit 2, one line, nothing in the directory");
			run_free(&r);
		}
	}
	chmod(sub, 0755);
	/* An old file stays as it was when the input is bad or the write fails. */
	snprintf(sub, sizeof(sub), "%s/keep", dir);
	mkdir(sub, 0700);
	snprintf(out, sizeof(out), "%s/exitscope.prom", sub);
	f = fopen(out, "w");
	if (f) {
		fputs("# old\n", f);
		fclose(f);
	}
	{
		const char *a[] = { "-o", out, "fuzz/corpus/broken-truncated.json", NULL };

		run_export(&r, a, NULL);
		after = run_read_file(out, NULL);
		ok(r.status == 2 && after && !strcmp(after, "# old\n") && dir_entries(sub) == 1,
		   "bad input: exit 2, the old file untouched, no temporary left");
		free(after);
		run_free(&r);
	}
	{
		const char *a[] = { "-o", out, "lanes/samples/vmx/run.json", NULL };
		struct run_opts o = { .fsize_limit = 512 };

		run_export(&r, a, &o);
		after = run_read_file(out, NULL);
		ok(r.status == 1 && one_line(&r, "export") && strstr(r.err, "cannot write") && after &&
		   !strcmp(after, "# old\n") && dir_entries(sub) == 1,
		   "a write that fails (file size limit): exit 1, one line, the old file untouched, no temporary");
		if (r.status != 1)
			diag("exit %d: %s", r.status, r.err);
		free(after);
		run_free(&r);
	}
	stat(out, &st0);
	{
		const char *a[] = { "-o", out, "lanes/samples/vmx/run.json", NULL };

		run_export(&r, a, NULL);
		after = run_read_file(out, NULL);
		ok(r.status == 0 && !stat(out, &st1) && st1.st_ino != st0.st_ino && after &&
		   has_prefix(after, "exitscope_info{run=\"run\",") && dir_entries(sub) == 1,
		   "success replaces the file by a rename (a new inode), nothing else left in the directory");
		free(after);
		run_free(&r);
	}
}

static void test_run_openmetrics(void)
{
	char json[PATHLEN], prom[PATHLEN], again[PATHLEN], never[PATHLEN], bad[PATHLEN], want[512];
	char *t1 = NULL, *t2 = NULL;
	struct err err;
	struct result_file *rf = NULL;
	const struct run_probe *p = NULL;
	struct run_result r;
	struct utsname u;

	if (access("/dev/kvm", R_OK | W_OK)) {
		tap_skip(8, "/dev/kvm is not usable: run cannot measure");
		return;
	}
	snprintf(json, sizeof(json), "%s/today.json", dir);
	snprintf(prom, sizeof(prom), "%s/today.prom", dir);
	snprintf(again, sizeof(again), "%s/again.prom", dir);
	snprintf(never, sizeof(never), "%s/never.json", dir);
	snprintf(bad, sizeof(bad), "%s/no-such-dir/x.prom", dir);
	{
		const char *argv[] = { exe, "run", "--json", never, "--openmetrics", bad, "--quiet", "cpuid", NULL };

		run_cmd(&r, argv);
		ok(r.status == 2 && one_line(&r, "run") && strstr(r.err, bad) && access(never, F_OK),
		   "run --openmetrics into a missing directory: exit 2 before measuring, one line, no file");
		run_free(&r);
	}
	{
		const char *argv[] = { exe, "run", "--json", json, "--openmetrics", prom, "--samples", "3",
				       "--time-budget", "0.05", "--quiet", "cpuid", "nop", NULL };

		run_cmd(&r, argv);
		ok(r.status == 0 && !access(prom, R_OK), "run --json F --openmetrics P cpuid nop: exit 0, P written");
		if (r.status)
			diag("%s", r.err);
		run_free(&r);
	}
	promtool_clean(prom, "what run --openmetrics wrote");
	t1 = run_read_file(prom, NULL);
	rf = result_read_file(json, &err);
	if (rf)
		p = result_find_probe(rf, "cpuid");
	if (p && p->status == PROBE_OK)
		snprintf(want, sizeof(want), "exitscope_probe_median_cycles{run=\"today\",probe=\"cpuid\","
			 "group=\"insn\"} %.15g", p->cycles.median);
	else
		snprintf(want, sizeof(want), "exitscope_probe_status{run=\"today\",probe=\"cpuid\",group=\"insn\","
			 "status=\"%s\"} 1", p ? probe_status_name(p->status) : "?");
	ok(t1 && rf && has_line(t1, want), "the median of cpuid is the JSON's (run label 'today'): %s", want);
	uname(&u);
	{
		char info[512];

		snprintf(info, sizeof(info), "exitscope_info{run=\"today\",version=\"%s\",kernel=\"%s\",backend=\"%s\",",
			 EXITSCOPE_VERSION, u.release, rf ? rf->host.backend_module : "?");
		ok(t1 && rf && has_prefix(t1, info) &&
		   strstr(t1, rf->host.exec_mode == EXEC_EMULATED ? "execution_mode=\"emulated\"" :
			  rf->host.exec_mode == EXEC_NATIVE ? "execution_mode=\"native\"" :
			  "execution_mode=\"unknown\""),
		   "exitscope_info: this kernel (uname -r), the backend module and the execution mode of the record");
	}
	{
		char st[256];

		snprintf(st, sizeof(st), "exitscope_probe_status{run=\"today\",probe=\"nop\",group=\"%s\",status=\"ok\"} ",
			 rf && result_find_probe(rf, "nop") ? result_find_probe(rf, "nop")->group : "?");
		ok(t1 && has_prefix(t1, st), "nop has a status state set too");
	}
	if (p && p->status == PROBE_OK && p->n_rounds) {
		char st[256], rounds[256];

		snprintf(st, sizeof(st), "exitscope_probe_stop{run=\"today\",probe=\"cpuid\",group=\"insn\","
			 "stop=\"%s\"} 1", probe_stop_name(p->stop));
		snprintf(rounds, sizeof(rounds), "exitscope_probe_rounds{run=\"today\",probe=\"cpuid\","
			 "group=\"insn\"} %zu", p->n_rounds);
		ok(t1 && has_line(t1, st) && has_line(t1, rounds) &&
		   (p->ci_rel_pct < 0) == !strstr(t1, "exitscope_probe_ci95_relative_ratio{run=\"today\",probe=\"cpuid\""),
		   "v2: cpuid's stop reason (%s), its %zu rounds and its relative CI are exported",
		   probe_stop_name(p->stop), p->n_rounds);
	} else {
		tap_skip(1, "cpuid was not measured with rounds");
	}
	{
		const char *a[] = { "-o", again, json, NULL };

		run_export(&r, a, NULL);
		t2 = run_read_file(again, NULL);
		ok(r.status == 0 && t1 && t2 && !strcmp(t1, t2),
		   "exitscope export of the run's JSON gives the same text as run --openmetrics");
		run_free(&r);
	}
	result_free(rf);
	free(t1);
	free(t2);
}

static void test_systemd(void)
{
	char root[PATHLEN], cmd[4 * PATHLEN];
	char *svc = run_read_file("dist/systemd/exitscope-export.service", NULL), *tim = run_read_file("dist/systemd/exitscope.timer", NULL);
	struct run_result r;

	ok(svc && strstr(svc, "\nType=oneshot\n") &&
	   strstr(svc, "\nExecStart=/usr/bin/exitscope run --quiet --json /var/lib/exitscope/run.json "
		  "--openmetrics /var/lib/prometheus/node-exporter/exitscope.prom\n") &&
	   tim && strstr(tim, "\nOnCalendar=daily\n") && strstr(tim, "\nRandomizedDelaySec=") &&
	   strstr(tim, "\nUnit=exitscope-export.service\n"),
	   "the service runs the catalogue into Debian's node_exporter textfile directory; the timer is daily, "
	   "randomized");
	free(svc);
	free(tim);
	if (access("/usr/bin/systemd-analyze", X_OK) || access("/usr/lib/systemd/system/sysinit.target", R_OK)) {
		tap_skip(2, "systemd-analyze or the system's units are not installed (Debian systemd: scripts/install-deps --test)");
		return;
	}
	/* A root with the system's units and the binary where the service expects it. */
	snprintf(root, sizeof(root), "%s/sysroot", dir);
	snprintf(cmd, sizeof(cmd),
		 "set -e; r=\"$1\"; mkdir -p \"$r/usr/bin\" \"$r/usr/lib/systemd\" \"$r/etc/systemd/system\"; "
		 "cp -r /usr/lib/systemd/system \"$r/usr/lib/systemd/\"; cp \"$2\" \"$r/usr/bin/exitscope\"; "
		 "cp dist/systemd/exitscope-export.service dist/systemd/exitscope.timer \"$r/etc/systemd/system/\"; "
		 "systemd-analyze verify --man=no --root=\"$r\" \"$r/etc/systemd/system/exitscope-export.service\" "
		 "\"$r/etc/systemd/system/exitscope.timer\"");
	{
		const char *argv[] = { "sh", "-c", cmd, "sh", root, exe, NULL };

		run_cmd(&r, argv);
		ok(r.status == 0 && !*r.err, "systemd-analyze verify accepts the service and the timer");
		if (r.status || *r.err)
			diag("exit %d: %s", r.status, r.err);
		run_free(&r);
	}
	snprintf(cmd, sizeof(cmd),
		 "r=\"$1\"; sed -i 's/^OnCalendar=daily$/OnCalendar=every day/' \"$r/etc/systemd/system/exitscope.timer\"; "
		 "systemd-analyze verify --man=no --root=\"$r\" \"$r/etc/systemd/system/exitscope.timer\"");
	{
		const char *argv[] = { "sh", "-c", cmd, "sh", root, NULL };

		run_cmd(&r, argv);
		ok(r.status != 0 && strstr(r.err, "calendar"),
		   "and rejects a timer with a bad OnCalendar (the check can fail)");
		run_free(&r);
	}
}

static void test_rules(void)
{
	struct run_result r;

	{
		const char *argv[] = { PROMTOOL, "check", "rules", "dist/prometheus/exitscope-rules.yml", NULL };

		run_cmd(&r, argv);
		ok(r.status == 0 && strstr(r.out, "SUCCESS: 8 rules found"),
		   "promtool check rules accepts dist/prometheus/exitscope-rules.yml (8 rules)");
		if (r.status)
			diag("%s%s", r.out, r.err);
		run_free(&r);
	}
	{
		const char *argv[] = { PROMTOOL, "test", "rules", "dist/prometheus/exitscope-rules.test.yml", NULL };

		run_cmd(&r, argv);
		ok(r.status == 0 && strstr(r.out, "SUCCESS"),
		   "promtool test rules: a kernel update that adds an exit to toggle_cr4_pge fires "
		   "ExitscopeExitsPerOpIncreased with the new kernel for one day; a failed check fires; "
		   "a round-CI step fires ExitscopeProbeSlower on a native host, not on an emulated one, "
		   "and a step of the all-batch CI alone does not; check irq failing on an emulated "
		   "host alerts nothing");
		if (r.status)
			diag("%s%s", r.out, r.err);
		run_free(&r);
	}
}

/*
 * SIGTERM while `exitscope export` is blocked writing its output into a
 * FIFO whose reader stopped reading partway (the program's own state,
 * /proc/PID/wchan, says when): one line "stopped by SIGTERM", exit 143,
 * not killed by the signal.
 */
static void test_sigterm(void)
{
	char path[4096], fifo[4200];
	json_t *doc;
	struct run_result r;
	int blocked;

	if (!exe || access(exe, X_OK)) {
		tap_skip(2, "EXITSCOPE not set (run through make check)");
		return;
	}
	/* 400 probes: an output far beyond a pipe's 64 KiB */
	doc = fixture_result_large(400);
	snprintf(path, sizeof(path), "%s", fixture_write(dir, "many.json", doc));
	json_decref(doc);
	snprintf(fifo, sizeof(fifo), "%s/export.fifo", dir);
	/* Its first 5000 bytes read: the write that blocks has written part of its bytes. */
	blocked = run_stop_on_fifo_after(&r, (const char *const[]){ exe, "export", path, "-o", fifo, NULL },
					 fifo, SIGTERM, 5000);
	if (!fifo_stop_blocked(blocked, &r, "export", 2))
		return;
	ok(r.status == 128 + SIGTERM && !r.signal,
	   "SIGTERM while writing to a full FIFO: exit 143, not killed (%d, signal %d)", r.status,
	   r.signal);
	ok(one_line(&r, "export") && strstr(r.err, "exitscope export: stopped by SIGTERM"),
	   "one line: stopped by SIGTERM (%s)", r.err);
	run_free(&r);
}

/*
 * Written to a terminal (a pseudo-terminal here), a label value with an
 * OSC escape and an é shows the escape as \\x1b (valid text still: the
 * format's backslash escaped) and keeps the é; no raw ESC reaches it.
 */
static void test_tty_labels(void)
{
	json_t *host = fixture_host("6.1\033]0;x\007\303\251", "Xeon", "native"), *probes = json_array(), *doc;
	char *text, got[1 << 16];
	size_t n = 0;
	double s[5] = { 100, 101, 102, 103, 104 };
	struct result_file *rf;
	struct err err;
	int m, st;
	pid_t pid;

	json_array_append_new(probes, fixture_probe("cpuid", "insn", s, 5, 1.0));
	doc = fixture_result(host, probes);
	text = json_dumps(doc, 0);
	json_decref(doc);
	rf = text ? result_read_buffer("tty.json", text, strlen(text), &err) : NULL;
	free(text);
	m = posix_openpt(O_RDWR | O_NOCTTY);
	if (!rf || m < 0 || grantpt(m) || unlockpt(m) || !ptsname(m)) {
		tap_skip(2, "no pseudo-terminal or the file did not load");
		result_free(rf);
		if (m >= 0)
			close(m);
		return;
	}
	pid = fork();
	if (pid == 0) {	/* the writer: export onto the terminal, then end */
		FILE *f = fopen(ptsname(m), "w");
		struct export_run run = { rf, "tty" };

		_exit(!f || export_openmetrics(f, &run, 1, &err) || fclose(f));
	}
	for (ssize_t k; pid > 0 && n + 1 < sizeof(got) && (k = read(m, got + n, sizeof(got) - 1 - n)) > 0;)
		n += (size_t)k;	/* until EIO: the writer closed the terminal */
	got[n] = 0;
	st = -1;
	if (pid > 0)
		waitpid(pid, &st, 0);
	close(m);
	result_free(rf);
	ok(st == 0 && strstr(got, "exitscope_info{") && !strchr(got, '\033') && !strchr(got, '\007'),
	   "on a terminal: no raw ESC or BEL in the labels (%d, %zu bytes)", st, n);
	ok(strstr(got, "kernel=\"6.1\\\\x1b]0;x\\\\x07\303\251\""),
	   "the kernel label: \\\\x1b ... \\\\x07 and the é kept");
}

int main(void)
{
	exe = getenv("EXITSCOPE");
	if (!exe)
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	if (!run_works((const char *const[]){ PROMTOOL, "--version", NULL }))
		return tap_skip_all("promtool is not installed (Debian prometheus: scripts/install-deps --test)");
	dir = fixture_tmpdir();
	if (!dir)
		return tap_skip_all("no temp dir");
	test_promtool_is_real();
	test_usage();
	test_recorded();
	test_corpus();
	test_escaping();
	test_tty_labels();
	test_round_ci();
	test_delivery();
	test_duplicates();
	test_atomic();
	test_run_openmetrics();
	test_systemd();
	test_rules();
	test_sigterm();
	fixture_rmdir(dir);
	return done_testing();
}
