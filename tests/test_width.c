// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_width.c - the default terminal output fits 100 columns: no line of
 * `info`, `run`, `run --list`, `map`, `map --help`, `check`, `check --tap`
 * or `calibrate` (stdout and stderr) is wider, with probes that give notes,
 * skips and interrupt counts; each note of the run table is printed once,
 * under its mark (notes that differ in a few words as one, the words per
 * probe), and marks every row whose JSON has it; --wide puts the notes on
 * their rows; with --repeat the legend and the emulation warning are
 * printed once, as in map, check and calibrate; a tail several checks'
 * details share is printed once by check and check --tap (outside the
 * YAML evidence); TAP test lines stay one line; the CPU family, model and
 * stepping are the JSON's decimal figures in info and in the report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include "base/array_size.h"
#include "host/text_wrap.h"
#include "probes/probe_out.h"
#include "probes/probe_table.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define BUDGET_NOTE	"budget spent before the precision was reached"
#define EMULATED	"guest code is emulated"
#define GROUPED_SEP	" -- <"		/* a note of several near-identical ones: TMPL -- <...>: ... */
#define LEGEND_LINE	"\ncycles: "

static const char *exe;

/* Probes with notes (budget, irq counts, a skip reason on this kind of host, two vCPUs). */
static const char *const probes_run[] = { "nop", "cpuid", "toggle_cr4_pge", "tscdeadline_immed",
					  "x2apic_self_ipi_sti_nop", "ipi_halt", "rdpkru", "xsetbv", "rdtscp",
					  "wr_xss_msr", "self_ipi_tpr" };
#define ARRAY_LEN(a)	ARRAY_SIZE(a)
#define NPROBES		ARRAY_LEN(probes_run)

/* The widest line of s (columns = bytes: the output is ASCII); *where: its first bytes. */
static size_t widest(const char *s, char *where, size_t len)
{
	size_t max = 0;

	for (const char *p = s; *p;) {
		size_t n = strcspn(p, "\n");

		if (n > max) {
			max = n;
			snprintf(where, len, "%.*s", (int)(n < len - 1 ? n : len - 1), p);
		}
		p += n + (p[n] == '\n');
	}
	return max;
}

static void fits(const char *what, const char *s)
{
	char where[128] = "";
	size_t w = widest(s ? s : "", where, sizeof(where));

	if (!ok(w <= TEXT_WIDTH, "%s: no line wider than %d columns", what, TEXT_WIDTH))
		diag("%zu columns: '%s...'", w, where);
}

static size_t count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/*
 * The mark of the note text in the table's notes section ("  3  text",
 * continued on lines indented by 5), or 0.
 */
static int note_mark(const char *table, const char *text)
{
	const char *notes = strstr(table, "\nnotes:\n");
	char entry[1024];
	int mark = 0;
	size_t e = 0;

	for (const char *p = notes ? notes + 8 : NULL; p && *p && *p != '\n';) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, "     ", 5) && e) {
			e += (size_t)snprintf(entry + e, sizeof(entry) - e, " %.*s", (int)(n - 5), p + 5);
		} else {
			if (e && !strcmp(entry, text))
				return mark;
			mark = atoi(p);
			e = (size_t)snprintf(entry, sizeof(entry), "%.*s", n > 5 ? (int)(n - 5) : 0, p + 5);
		}
		if (e >= sizeof(entry))
			e = sizeof(entry) - 1;
		p += n + (p[n] == '\n');
	}
	return e && !strcmp(entry, text) ? mark : 0;
}

/*
 * Whether the grouped note entry ("TMPL -- <...>: a, b = MID; c = MID2",
 * or with "<1>", "<2>" ... in TMPL and "MID1, MID2" per variant) holds
 * text for probe name: TMPL with name's variant put in is text.
 */
static bool group_has(const char *entry, const char *text, const char *name)
{
	const char *g = strstr(entry, GROUPED_SEP), *list = g ? strstr(g, ": ") : NULL;
	char tmpl[1024], item[512];

	if (!list)
		return false;
	snprintf(tmpl, sizeof(tmpl), "%.*s", (int)(g - entry), entry);
	for (const char *p = list + 2; *p;) {
		size_t n = strcspn(p, ";"), np;
		const char *eq;
		char names[512], got[1024], mids[256], *m = mids;
		size_t o = 0;

		snprintf(item, sizeof(item), "%.*s", (int)n, p);
		p += n + (p[n] == ';');
		while (*p == ' ')
			p++;
		eq = strstr(item, " = ");
		if (!eq)
			continue;
		np = (size_t)(eq - item);
		snprintf(names, sizeof(names), ", %.*s,", (int)np - (item[0] == ' '), item + (item[0] == ' '));
		snprintf(mids, sizeof(mids), "%s", eq + 3);
		{
			char want[96];

			snprintf(want, sizeof(want), ", %s,", name);
			if (!strstr(names, want))
				continue;
		}
		/* TMPL with the variant put in. */
		for (const char *t = tmpl; *t && o < sizeof(got) - 1;) {
			bool span = !strncmp(t, "<...>", 5);
			bool word = t[0] == '<' && t[1] >= '1' && t[1] <= '9' && t[2] == '>';

			if (span || word) {
				size_t l = span ? strlen(m) : strcspn(m, ",");

				o += (size_t)snprintf(got + o, sizeof(got) - o, "%.*s", (int)l, m);
				m += l;
				if (!span && *m == ',')
					m += 2;
				t += span ? 5 : 3;
			} else {
				got[o++] = *t++;
			}
		}
		got[o < sizeof(got) ? o : sizeof(got) - 1] = 0;
		if (!strcmp(got, text))
			return true;
	}
	return false;
}

/* The mark of note text (of probe name) in a grouped entry of the notes section, or 0. */
static int group_mark(const char *table, const char *text, const char *name)
{
	const char *notes = strstr(table, "\nnotes:\n");
	char entry[4096];
	int mark = 0;
	size_t e = 0;

	for (const char *p = notes ? notes + 8 : NULL; p;) {
		size_t n = strcspn(p, "\n");
		bool cont = !strncmp(p, "     ", 5) && e;

		if (!cont && e && group_has(entry, text, name))
			return mark;
		if (!cont)
			e = 0;
		if (!*p || *p == '\n')
			break;
		if (cont) {
			e += (size_t)snprintf(entry + e, sizeof(entry) - e, " %.*s", (int)(n - 5), p + 5);
		} else {
			mark = atoi(p);
			e = (size_t)snprintf(entry, sizeof(entry), "%.*s", n > 5 ? (int)(n - 5) : 0, p + 5);
		}
		if (e >= sizeof(entry))
			e = sizeof(entry) - 1;
		p += n + (p[n] == '\n');
	}
	return 0;
}

/* Whether the row of probe name in the table carries mark among its marks. */
static bool row_has_mark(const char *table, const char *name, int mark)
{
	char key[64], line[256], *marks;
	const char *p;

	snprintf(key, sizeof(key), "\n%s ", name);
	p = strstr(table, key);
	if (!p)
		return false;
	p++;
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
	marks = strrchr(line, ' ');
	for (char *m = marks ? strtok(marks + 1, ",") : NULL; m; m = strtok(NULL, ","))
		if (atoi(m) == mark)
			return true;
	return false;
}

static void run_argv(struct run_result *r, const char *json, const char *extra, const char *extra2)
{
	const char *argv[32];
	size_t a = 0;

	argv[a++] = exe;
	argv[a++] = "run";
	for (size_t i = 0; i < NPROBES; i++)
		argv[a++] = probes_run[i];
	argv[a++] = "--time-budget";
	argv[a++] = "0.05";
	argv[a++] = "--json";
	argv[a++] = json;
	if (extra)
		argv[a++] = extra;
	if (extra2)
		argv[a++] = extra2;
	argv[a] = NULL;
	run_cmd(r, argv);
}

static void test_info(const char *dir)
{
	struct run_result r;
	char path[512], want[160];
	json_t *root, *cpu;

	snprintf(path, sizeof(path), "%s/info.json", dir);
	run_cmd(&r, (const char *const[]){ exe, "info", "--json", path, NULL });
	ok(r.status == 0, "info: exit 0");
	fits("info", r.out);
	fits("info stderr", r.err);
	tap_like(r.out, "\ncapabilities    ", "info: the capabilities under their label");
	root = json_load_file(path, 0, NULL);
	cpu = json_object_get(json_object_get(root, "host"), "cpu");
	snprintf(want, sizeof(want), " family %lld model %lld stepping %lld ",
		 (long long)fixture_num(cpu, "family"), (long long)fixture_num(cpu, "model"),
		 (long long)fixture_num(cpu, "stepping"));
	tap_like(r.out, want, "info: the CPU family, model and stepping in decimal, as the JSON has them");
	run_free(&r);
	json_decref(root);
}

/* The text a JSON note has in the table: the budget, run-limit and Ctrl-C notes without their figures. */
static const char *table_text(const char *note)
{
	static const char *const generic[][2] = {
		{ BUDGET_NOTE, BUDGET_NOTE },
		{ "budget spent after ", "budget spent before the rounds gave a CI" },
		{ "the run limit ended it", "the run limit ended it" },
		{ "Ctrl-C ended it", "Ctrl-C ended it" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(generic); i++)
		if (!strncmp(note, generic[i][0], strlen(generic[i][0])))
			return generic[i][1];
	return note;
}

/* The line of probe name's row (from "\nNAME "), into buf. */
static bool row_of(const char *table, const char *name, char *buf, size_t len)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "\n%s ", name);
	p = strstr(table, key);
	if (!p)
		return false;
	snprintf(buf, len, "%.*s", (int)strcspn(p + 1, "\n"), p + 1);
	return true;
}

static void test_run(const char *dir)
{
	struct run_result r;
	char path[512], html_path[512], why[600], row[1024], want[160];
	size_t budget = 0, marked = 0, unmarked = 0;
	json_t *root, *cpu;
	char *html;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	run_argv(&r, path, NULL, NULL);
	ok(r.status == 0, "run: exit 0");
	fits("run", r.out);
	fits("run stderr", r.err);
	/* Every note of the JSON (a reason too) is in the notes section, and its probe's row has its mark. */
	root = json_load_file(path, 0, NULL);
	for (size_t i = 0; root && i < NPROBES; i++) {
		json_t *p = fixture_probe_json(root, probes_run[i]), *notes = json_object_get(p, "notes");

		for (size_t k = 0; k <= json_array_size(notes); k++) {
			const char *t;
			int mark;

			if (k < json_array_size(notes)) {
				t = table_text(json_string_value(json_array_get(notes, k)));
			} else if (p && strcmp(fixture_str(p, "status"), "ok")) {
				snprintf(why, sizeof(why), "%s: %s", fixture_str(p, "status"),
					 fixture_str(p, "reason"));
				t = why;
			} else {
				break;
			}
			budget += !strcmp(t, BUDGET_NOTE);
			mark = note_mark(r.out, t);
			if (!mark)
				mark = group_mark(r.out, t, probes_run[i]);
			if (mark && row_has_mark(r.out, probes_run[i], mark)) {
				marked++;
			} else {
				unmarked++;
				diag("%s: note '%s' not under a mark of its row (mark %d)", probes_run[i], t, mark);
			}
		}
	}
	ok(marked && !unmarked, "run: each of the %zu notes of the JSON below the table, marked on its row",
	   marked);
	if (budget > 1)
		ok(count(r.out, BUDGET_NOTE) == 1, "run: the budget note of %zu probes printed once", budget);
	else
		tap_skip(1, "fewer than two probes spent their budget here");
	/*
	 * Notes that differ in a word (a feature) are one note. Whether two
	 * late-interrupt notes of a run differ in a few words only depends on
	 * what the host delivered (a note with interrupts never delivered has
	 * other words), so their grouping is asserted on made-up outcomes in
	 * test_group_synth, not on this run.
	 */
	ok(count(r.out, ": not in KVM_GET_SUPPORTED_CPUID") <= 1,
	   "run: the CPUID skip notes are one note (%zu)", count(r.out, ": not in KVM_GET_SUPPORTED_CPUID"));
	diag("late-interrupt notes in this run: %zu", count(r.out, " late (mean wait "));
	/* The report gives the CPU as info does: decimal. */
	cpu = json_object_get(json_object_get(root, "host"), "cpu");
	snprintf(want, sizeof(want), " family %lld model %lld stepping %lld",
		 (long long)fixture_num(cpu, "family"), (long long)fixture_num(cpu, "model"),
		 (long long)fixture_num(cpu, "stepping"));
	snprintf(html_path, sizeof(html_path), "%s/report.html", dir);
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "report", path, "-o", html_path, NULL });
	html = run_read_file(html_path, NULL);
	tap_like(html, want, "report: the CPU family, model and stepping in decimal, as info gives them");
	free(html);
	json_decref(root);
	run_free(&r);

	run_argv(&r, path, "--wide", NULL);
	ok(r.status == 0, "run --wide: exit 0");
	root = json_load_file(path, 0, NULL);
	{
		json_t *notes = json_object_get(fixture_probe_json(root, "cpuid"), "notes");
		const char *t = json_string_value(json_array_get(notes, 0));

		if (t)
			ok(row_of(r.out, "cpuid", row, sizeof(row)) && strstr(row, t),
			   "run --wide: cpuid's first note, in full, on its row");
		else
			tap_skip(1, "cpuid has no note here");
	}
	json_decref(root);
	run_free(&r);
}

static void test_repeat(const char *dir)
{
	struct run_result r;
	char path[512], f1[512], f2[512];
	const char *const argv[] = { exe, "run", "cpuid", "--time-budget", "0.05", "--repeat", "2", "--json",
				     path, NULL };
	json_t *a, *b;

	snprintf(path, sizeof(path), "%s/rep.json", dir);
	snprintf(f1, sizeof(f1), "%s/rep-1.json", dir);
	snprintf(f2, sizeof(f2), "%s/rep-2.json", dir);
	run_cmd(&r, argv);
	ok(r.status == 0, "run --repeat 2: exit 0");
	fits("run --repeat 2", r.out);
	fits("run --repeat 2 stderr", r.err);
	is_int((long long)count(r.out, LEGEND_LINE), 1, "run --repeat 2: the legend once");
	is_int((long long)count(r.out, "\nprobe "), 2, "run --repeat 2: two tables");
	a = json_load_file(f1, 0, NULL);
	b = json_load_file(f2, 0, NULL);
	if (strstr(r.err, "warning: guest code is emulated")) {
		is_int((long long)count(r.err, "warning: guest code is emulated"), 1,
		       "run --repeat 2: the emulation warning once");
		ok(a && b && json_array_size(json_object_get(a, "warnings")) &&
		   json_array_size(json_object_get(b, "warnings")) &&
		   strstr(json_string_value(json_array_get(json_object_get(b, "warnings"), 0)) ?: "",
			  "guest code is emulated"),
		   "run --repeat 2: every file records the warning");
	} else {
		tap_skip(2, "guest code is not emulated here: no emulation warning");
	}
	json_decref(a);
	json_decref(b);
	run_free(&r);
}

/* text with each run of whitespace (line breaks, wrap indents) one space; lines in YAML blocks and "# " left out when tap. */
static char *flatten(const char *text, bool tap)
{
	char *out = malloc(strlen(text) + 2);
	size_t o = 0;
	bool yaml = false;

	for (const char *p = text; out && *p;) {
		size_t n = strcspn(p, "\n");
		const char *l = p;

		p += n + (p[n] == '\n');
		if (tap && (!strncmp(l, "  ---", 5) || !strncmp(l, "  ...", 5))) {
			yaml = l[2] == '-';
			continue;
		}
		if (tap && yaml)
			continue;
		if (tap && l[0] == '#') {
			l++;
			n--;
		}
		for (size_t i = 0; i < n; i++) {
			if (l[i] == ' ' && o && out[o - 1] == ' ')
				continue;
			out[o++] = l[i];
		}
		if (o && out[o - 1] != ' ')
			out[o++] = ' ';
	}
	if (out)
		out[o] = 0;
	return out;
}

/* Whether s starts a clause of detail d: d itself, or after ": " or "; ". */
static bool clause_at(const char *d, const char *s)
{
	return s == d || (s - d >= 2 && s[-1] == ' ' && (s[-2] == ':' || s[-2] == ';'));
}

/*
 * Each clause-long tail (60 characters or more) that two checks' details
 * of the JSON end with is in the flattened output once (TAP: at most once).
 */
static void shared_once(const char *what, json_t *checks, const char *flat, bool tap)
{
	size_t shared = 0, twice = 0;

	for (size_t i = 0; i < json_array_size(checks); i++) {
		const char *a = json_string_value(json_object_get(json_array_get(checks, i), "detail")) ?: "";

		for (size_t j = i + 1; j < json_array_size(checks); j++) {
			const char *b = json_string_value(json_object_get(json_array_get(checks, j),
									 "detail")) ?: "";
			size_t la = strlen(a), lb = strlen(b), q = 0, best = 0;

			while (q < la && q < lb && a[la - 1 - q] == b[lb - 1 - q]) {
				q++;
				if (q >= 60 && clause_at(a, a + la - q) && clause_at(b, b + lb - q))
					best = q;
			}
			if (!best)
				continue;
			shared++;
			/* TAP: a failure's detail is whole in its YAML block, left out of flat. */
			if (count(flat, a + la - best) > 1 || (!tap && count(flat, a + la - best) != 1)) {
				twice++;
				diag("%s: '%.60s...' %zu times", what, a + la - best, count(flat, a + la - best));
			}
		}
	}
	ok(!twice, "%s: each tail several checks share (%zu pairs) printed once%s", what, shared,
	   tap ? " at most" : "");
}

static void test_list_help(void)
{
	struct run_result r;

	run_cmd(&r, (const char *const[]){ exe, "run", "--list", NULL });
	ok(r.status == 0, "run --list: exit 0");
	fits("run --list", r.out);
	run_free(&r);
	run_cmd(&r, (const char *const[]){ exe, "map", "--help", NULL });
	ok(r.status == 0, "map --help: exit 0");
	fits("map --help", r.out);
	tap_like(r.out, "minimal = ", "map --help: the minimal profile's content");
	run_free(&r);
}

static void test_map(void)
{
	struct run_result r;
	char *all;

	run_cmd(&r, (const char *const[]){ exe, "map", "--ops", "20", "--rounds", "1", NULL });
	ok(r.status == 0, "map: exit 0");
	fits("map", r.out);
	fits("map stderr", r.err);
	if (asprintf(&all, "%s%s", r.out, r.err) < 0)
		all = NULL;
	ok(all && count(all, EMULATED) <= 1, "map: the emulation warning at most once (%zu)",
	   all ? count(all, EMULATED) : 0);
	free(all);
	run_free(&r);
}

static void test_check(const char *dir)
{
	struct run_result r;
	char path[512], *flat;
	json_t *root;

	snprintf(path, sizeof(path), "%s/check.json", dir);
	run_cmd(&r, (const char *const[]){ exe, "check", "--json", path, NULL });
	ok(r.status == 0 || r.status == 1, "check: exit 0 or 1 (%d)", r.status);
	fits("check", r.out);
	fits("check stderr", r.err);
	ok(count(r.err, EMULATED) <= 1, "check: the emulation warning at most once");
	root = json_load_file(path, 0, NULL);
	flat = flatten(r.out, false);
	shared_once("check", json_object_get(root, "checks"), flat ?: "", false);
	free(flat);
	run_free(&r);

	/* Its own JSON: a detail with a measured figure differs between two runs. */
	json_decref(root);
	snprintf(path, sizeof(path), "%s/check-tap.json", dir);
	run_cmd(&r, (const char *const[]){ exe, "check", "--tap", "--json", path, NULL });
	ok(r.status == 0 || r.status == 1, "check --tap: exit 0 or 1 (%d)", r.status);
	fits("check --tap", r.out);
	root = json_load_file(path, 0, NULL);
	flat = flatten(r.out, true);
	shared_once("check --tap (outside YAML)", json_object_get(root, "checks"), flat ?: "", true);
	free(flat);
	{	/* Every test line is whole: a line after it is a test, a "# ", YAML, or the end. */
		size_t bad = 0;

		for (const char *p = r.out; *p;) {
			size_t n = strcspn(p, "\n");

			if (n && strncmp(p, "ok ", 3) && strncmp(p, "not ok ", 7) && strncmp(p, "# ", 2) &&
			    strncmp(p, "  ", 2) && strncmp(p, "TAP version", 11) && strncmp(p, "1..", 3)) {
				bad++;
				diag("a line of no TAP kind: '%.60s'", p);
			}
			p += n + (p[n] == '\n');
		}
		ok(!bad, "check --tap: every line is a test, a # diagnostic, YAML, the version or the plan");
	}
	json_decref(root);
	run_free(&r);
}

static void test_calibrate(const char *dir)
{
	struct run_result r;
	char path[512];

	snprintf(path, sizeof(path), "%s/noise.json", dir);
	run_cmd(&r, (const char *const[]){ exe, "calibrate", "--runs", "3", "-o", path, "--", "nop", "cpuid",
					   "rdtscp", "xsetbv", "--time-budget", "0.02", NULL });
	ok(r.status == 0, "calibrate: exit 0 (%d)", r.status);
	fits("calibrate", r.out);
	fits("calibrate stderr", r.err);
	ok(count(r.out, "no floor") <= 1, "calibrate: the probes without a floor in one note (%zu)",
	   count(r.out, "no floor"));
	run_free(&r);
}

/*
 * The run table of made-up outcomes: interrupt notes that differ in their
 * late count and wait, and skips that differ in the feature they need, are
 * one note each that gives every probe's words; a note of its own stays.
 */
static void test_group_synth(void)
{
	static const struct probe pr[] = {
		{ .name = "irq_a", .group = "irq", .description = "d" },
		{ .name = "irq_b", .group = "irq", .description = "d" },
		{ .name = "irq_c", .group = "irq", .description = "d" },
		{ .name = "need_x", .group = "insn", .description = "d" },
		{ .name = "need_y", .group = "insn", .description = "d" },
	};
	static const char *const why[] = { "needs CPUID xsave: not in KVM_GET_SUPPORTED_CPUID",
					   "needs CPUID shstk or ibt: not in KVM_GET_SUPPORTED_CPUID" };
	const uint64_t late[] = { 33, 66, 33 }, wait[] = { 33000000, 99000000, 66000000 };
	struct probe_outcome *o = calloc(ARRAY_LEN(pr), sizeof(*o));
	char *buf = NULL, note[256];
	size_t len = 0, found = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!o || !f) {
		tap_skip(3, "out of memory");
		free(o);
		return;
	}
	for (size_t i = 0; i < ARRAY_LEN(pr); i++) {
		o[i].probe = &pr[i];
		o[i].res.cpu_before = o[i].res.cpu_after = -1;
		if (i < 3) {
			o[i].res.status = PROBE_OK;
			o[i].res.irq = (struct latency_irq){ .ops = 99, .in_window = 99 - late[i], .late = late[i],
							     .late_cycles = wait[i] };
		} else {
			o[i].res.status = PROBE_SKIPPED;
			snprintf(o[i].res.reason, sizeof(o[i].res.reason), "%s", why[i - 3]);
		}
	}
	probe_table_print(f, o, ARRAY_LEN(pr), &(struct probe_table_opts){ .legend = false });
	fclose(f);
	ok(count(buf, " late (mean wait ") == 1 && count(buf, ": not in KVM_GET") == 1,
	   "made-up run: three interrupt notes as one, two skip notes as one");
	for (size_t i = 0; i < ARRAY_LEN(pr); i++) {
		if (i < 3)
			snprintf(note, sizeof(note), "irq: %llu in window, %llu late (mean wait %.3g cycles, "
				 "not in the cost)", (unsigned long long)(99 - late[i]),
				 (unsigned long long)late[i], (double)wait[i] / (double)late[i]);
		else
			snprintf(note, sizeof(note), "skipped: %s", why[i - 3]);
		if (group_mark(buf, note, pr[i].name))
			found++;
		else
			diag("%s: '%s' not in a group note", pr[i].name, note);
	}
	is_int((long long)found, ARRAY_LEN(pr), "made-up run: each probe's words in its group note");
	fits("made-up run", buf);
	free(buf);
	free(o);
}

int main(void)
{
	char *dir;

	exe = getenv("EXITSCOPE");
	if (!exe || access(exe, X_OK))
		return tap_skip_all("EXITSCOPE is not set (run through make check)");
	test_list_help();
	test_group_synth();
	if (access("/dev/kvm", R_OK | W_OK)) {
		diag("/dev/kvm is not usable: info, run, map, check and calibrate not run");
		return done_testing();
	}
	dir = fixture_tmpdir();
	test_info(dir);
	test_run(dir);
	test_repeat(dir);
	test_map();
	test_check(dir);
	test_calibrate(dir);
	fixture_rmdir(dir);
	return done_testing();
}
