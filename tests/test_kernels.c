// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kernels.c - the kernels table (compare/kernels_table.h) on made-up
 * lane results of two kernel sources: a one-vCPU change beyond the spread
 * and the change floor (bold, listed), one within the spread, one beyond
 * the spread but within the floor (neither), two-vCPU probes (by their
 * record and by the catalogue) held to the two-vCPU spread, a status
 * change, a map entry that becomes intercepted, a missing result, and a
 * repeat run that widens a probe's spread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "compare/kernels_table.h"
#include "compare/lane_spread.h"
#include "tests/tap.h"

#define NP 7

/* name, median on source "a", on "b"; two-vCPU by record (cpus pair) or peer_wait_ms */
static const struct {
	const char *name;
	double a, b;
	int cpus, peer;
} made[NP] = {
	{ "cpuid", 1000, 1050, 0, 0 },		/* +5%: beyond */
	{ "small", 1000, 1001, 0, 0 },		/* +0.1%: within the spread */
	{ "tiny", 1, 1.5, 0, 0 },		/* +50% but 0.5 cycles: within the floor */
	{ "ipi_halt", 20000, 23000, 1, 0 },	/* +15% with two vCPUs: within */
	{ "peer", 20000, 24000, 0, 1 },		/* +20% with two vCPUs: beyond */
	{ "ple", 1000, 1100, 0, 0 },		/* +10%, two vCPUs by the catalogue: within */
	{ "gone", 500, 500, 0, 0 },		/* skipped on "b" */
};

static void run_make(struct result_file *rf, struct run_probe *p, int b, double cpuid)
{
	int i;

	memset(rf, 0, sizeof(*rf));
	rf->kind = RESULT_KIND_RUN;
	rf->started = b ? "2026-01-02T00:00:00Z" : "2026-01-01T00:00:00Z";
	rf->probes = p;
	rf->n_probes = NP;
	for (i = 0; i < NP; i++) {
		run_probe_init(&p[i]);
		p[i].name = made[i].name;
		p[i].status = b && !strcmp(made[i].name, "gone") ? PROBE_SKIPPED : PROBE_OK;
		p[i].cycles.median = b ? made[i].b : made[i].a;
		p[i].per_op[RESULT_OP_EXITS] = 1;
		if (made[i].cpus)
			p[i].cpus[0] = 0, p[i].cpus[1] = 1;
		if (made[i].peer)
			p[i].peer_wait_ms = 0.5;
	}
	p[0].cycles.median = cpuid;
	p[1].per_op[RESULT_OP_EXITS] = b ? 2 : 1;	/* exits/op changes within the spread */
}

static struct result_map *map_make(enum map_status pge)
{
	struct result_map *m = result_map_new();
	struct result_map_cpuid_profile *p = m ? result_map_cpuid_profile_add(m, "host", NULL) : NULL;
	struct result_map_entry *e = p ? result_map_entry_add(p) : NULL;

	if (!e)
		exit(1);
	strcpy(e->reg, "cr4");
	strcpy(e->name, "PGE");
	strcpy(e->op, "toggle");
	e->status = pge;
	e->exits_per_op = pge == MAP_INTERCEPTED ? 1 : -1;
	return m;
}

/* The table of t in a string (free it). */
static char *table_text(const struct kernels_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || kernels_table_print(f, t)) {
		diag("cannot print the table");
		exit(1);
	}
	fclose(f);
	return buf;
}

/* Does text have line as one of its lines? */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *s;

	for (s = text; (s = strstr(s, line)); s++)
		if ((s == text || s[-1] == '\n') && s[n] == '\n')
			return true;
	diag("no line '%s'", line);
	return false;
}

/* A line the table must have, and what it shows. */
struct row {
	const char *line, *what;
};

/* The table of one run per source. */
static const struct row one_run[] = {
	{ "| probe | a | b | b vs a | exits a | exits b | spread |", "header: no repeat column" },
	{ "| `cpuid` | 1000 | 1050 | **+5%** | 1 | 1 | 0.16% |", "+5% of a one-vCPU probe: bold" },
	{ "| `small` | 1000 | 1001 | +0.1% | 1 | 2 | 0.16% |",
	  "+0.1% within the spread: not bold" },
	{ "| `tiny` | 1 | 1.5 | +50% | 1 | 1 | 0.16% |",
	  "+50% but 0.5 cycles, within the floor: not bold" },
	{ "| `ipi_halt` | 20000 | 23000 | +15% | 1 | 1 | 18.6% |",
	  "two vCPUs by its record: +15% within its 18.6% spread" },
	{ "| `peer` | 20000 | 24000 | **+20%** | 1 | 1 | 18.6% |",
	  "two vCPUs by peer_wait_ms: +20% beyond" },
	{ "| `ple` | 1000 | 1100 | +10% | 1 | 1 | 18.6% |", "two vCPUs by the catalogue" },
	{ "| `gone` | 500 | skipped | - | 1 | - | 0.16% |",
	  "a skipped probe: its status, no change" },
	{ "| cr4.PGE | toggle | owned | exit 1 |", "map row: owned, then one exit per op" },
	{ "- vmx `cpuid`: a 1000, b 1050 (a → b **+5%**)", "changes: the bold one listed" },
	{ "- vmx `small`: a 1000, b 1001 (a → b +0.1%, exits/op 1 → 2)",
	  "changes: within the spread, listed for its exits/op" },
	{ "- vmx `gone`: a 500, b skipped (a → b -, ok → skipped)", "changes: a status" },
	{ "- vmx map cr4.PGE toggle: a owned, b exit 1", "changes: the map entry" },
};

/* With a repeat of each source. */
static const struct row with_repeat[] = {
	{ "| probe | a | b | b vs a | exits a | exits b | spread | repeat |",
	  "with a repeat: its column" },
	{ "| `cpuid` | 1000 | 1050 | +5% | 1 | 1 | 8% | 4% |",
	  "a repeat 4% off widens cpuid's spread to 8%: +5% no longer bold" },
	{ "| `small` | 1000 | 1001 | +0.1% | 1 | 2 | 0.16% | 0% |",
	  "the other probes keep their spread" },
};

/* One test per row: text has its line. */
static void rows_check(const char *text, const struct row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ok(has_line(text, rows[i].line), "%s", rows[i].what);
}

int main(void)
{
	static const char *const lanes[] = { "vmx" }, *const sources[] = { "a", "b" };
	static const char *const two[] = { "ple" };
	struct run_probe probes[3][NP];
	struct result_file runs[3], maps[2];
	struct kernels_run kr[4] = { { 0 } };
	struct kernels_table t = {
		.lanes = lanes, .n_lanes = 1, .sources = sources, .n_sources = 2, .n_dirs = 1,
		.runs = kr, .two_vcpus = two, .n_two_vcpus = 1,
	};
	char *text;

	tap_plan(3 + ARRAY_SIZE(one_run) + ARRAY_SIZE(with_repeat));
	run_make(&runs[0], probes[0], 0, 1000);
	run_make(&runs[1], probes[1], 1, 1050);
	run_make(&runs[2], probes[2], 0, 1040);		/* repeat of "a": cpuid +4% */
	memset(maps, 0, sizeof(maps));
	maps[0].map = map_make(MAP_OWNED);
	maps[1].map = map_make(MAP_INTERCEPTED);
	kr[0] = (struct kernels_run){ .run = &runs[0], .map = &maps[0], .reused = "" };
	kr[1] = (struct kernels_run){ .run = &runs[1], .map = &maps[1], .reused = "/x" };
	kr[2] = (struct kernels_run){ .run = &runs[2], .reused = "" };
	kr[3] = (struct kernels_run){ .reused = "" };	/* repeat of "b": missing */

	text = table_text(&t);
	ok(has_line(text, "| vmx | a | - | - | 2026-01-01T00:00:00Z |") &&
	   has_line(text, "| vmx | b | - | - | 2026-01-02T00:00:00Z (check-lanes run) |"),
	   "runs: a missing info is '-', a reused run is marked");
	rows_check(text, one_run, ARRAY_SIZE(one_run));
	ok(strstr(text, "with two: `ipi_halt`, `peer`, `ple`; docs/kernels.md") != NULL,
	   "the two-vCPU probes named in the lane's paragraph");
	ok(!strstr(text, "`tiny`:") && !strstr(text, "`ipi_halt`:") && !strstr(text, "`ple`:"),
	   "changes: none within the spread or the floor");
	free(text);

	t.n_dirs = 2;
	text = table_text(&t);
	rows_check(text, with_repeat, ARRAY_SIZE(with_repeat));
	free(text);
	result_map_free(maps[0].map);
	result_map_free(maps[1].map);
	return tap_done();
}
