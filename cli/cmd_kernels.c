// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_kernels.c - `exitscope kernels [--lanes L] [--sources S] DIR
 * [REPEAT...]`: docs/kernels.md's tables (compare/kernels_table.h) from
 * the results scripts/lane-kernels wrote, DIR/<lane>-<source>/results/
 * {info,map,run}.json, every file read by the result reader first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/array_size.h"
#include "base/words.h"
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "compare/kernels_table.h"
#include "compare/lane_spread.h"
#include "probes/probes.h"

#define KERNELS_WORDS_MAX	16

struct kernels_args {
	const char *lanes, *sources;
};

static const struct cli_row kernels_rows[] = {
	CLI_ROW_STR("lanes", CLI_LONG('l'), "LIST", struct kernels_args, lanes, "vmx svm",
		    "the lanes in table order: vmx, svm, svm-qemu"),
	CLI_ROW_STR("sources", CLI_LONG('s'), "LIST", struct kernels_args, sources, "6.1 6.12 7.2",
		    "the kernel sources, oldest first"),
	CLI_ROW_HELP,
	{ 0 },
};

static void kernels_about(FILE *f)
{
	fprintf(f, "Print the Markdown tables of docs/kernels.md from "
		   "scripts/lane-kernels' results:\n"
		   "DIR/<lane>-<source>/results/{info,map,run}.json for each lane and source (a\n"
		   "missing or empty file is a \"-\" cell). "
		   "The runs; per lane each probe's median\n"
		   "lane cycles and exits/op per kernel with the change from the kernel before,\n"
		   "bold when larger than the probe's spread (%.2f%% with one vCPU, %.1f%% with\n"
		   "two) and than %.0f cycles; the CR0/CR4 map per bit; the list of changes.\n"
		   "REPEAT directories, more runs of the same lanes, raise a probe's spread to\n"
		   "twice the largest difference of its median there from DIR's.\n",
		LANE_SPREAD_1VCPU_PCT, LANE_SPREAD_2VCPU_PCT, LANE_CHANGE_FLOOR_CYCLES);
}

const struct cli_cmd_spec kernels_spec = {
	.name = "kernels",
	.usage = "[options] DIR [REPEAT...]",
	.about_print = kernels_about,
	.rows = kernels_rows,
	.col = 16,
	.order = 0,
	.tail = "Exit status: 0 printed, 1 output not written, 2 usage error, or an unreadable\n"
		"or invalid result file.\n",
};

/* list's words (base/words.h) into w: at least one, at most KERNELS_WORDS_MAX. */
static int kernels_words(const char *opt, const char *list, struct words *w)
{
	if (words_split(w, list))
		return cli_error("kernels", EXIT_FAIL, "out of memory");
	if (w->n > KERNELS_WORDS_MAX)
		return cli_usage_error("kernels", "--%s: at most %d", opt, KERNELS_WORDS_MAX);
	if (!w->n)
		return cli_usage_error("kernels", "--%s: empty", opt);
	return 0;
}

/* A result file, NULL when missing or empty; *rc set when it cannot be read. */
static struct result_file *kernels_read(const char *dir, const char *lane, const char *src,
					const char *what, int *rc)
{
	struct result_file *rf;
	struct stat st;
	struct err err;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s-%s/results/%s.json", dir, lane, src, what);
	if (*rc || stat(path, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return NULL;
	rf = result_read_file(path, &err);
	if (!rf)
		*rc = cli_error("kernels", EXIT_USAGE, "%s", err.msg);
	return rf;
}

/* DIR/<lane>-<source>/reused-from without its trailing newlines, "" when missing. */
static char *kernels_reused(const char *dir, const char *lane, const char *src)
{
	char path[4096], buf[1024];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s-%s/reused-from", dir, lane, src);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	while (n && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return strdup(buf);
}

int cmd_kernels(int argc, char **argv)
{
	const char *two[64];
	struct words lanes = { 0 }, sources = { 0 };
	struct kernels_run *runs = NULL;
	struct result_file **files = NULL;	/* info, map, run of runs[i]: 3 * i... */
	char **reused = NULL;
	struct kernels_table t = { 0 };
	struct kernels_args a;
	struct cli_parser p;
	struct stat st;
	size_t i, n;
	int rc;

	rc = cli_parse(&p, &kernels_spec, &a, argc, argv);
	if (rc)
		return rc == CLI_PARSE_HELP ? EXIT_OK : rc;
	if (argc == optind)
		return cli_usage_error("kernels", "need a DIR (scripts/lane-kernels' output)");
	for (i = optind; i < (size_t)argc; i++)
		if (stat(argv[i], &st) || !S_ISDIR(st.st_mode))
			return cli_usage_error("kernels", "%s: no such directory", argv[i]);
	rc = kernels_words("lanes", a.lanes, &lanes);
	if (!rc)
		rc = kernels_words("sources", a.sources, &sources);
	t.lanes = (const char *const *)lanes.v;
	t.n_lanes = lanes.n;
	t.sources = (const char *const *)sources.v;
	t.n_sources = sources.n;
	t.n_dirs = argc - optind;
	n = t.n_dirs * t.n_lanes * t.n_sources;
	if (!rc) {
		runs = calloc(n, sizeof(*runs));
		files = calloc(3 * n, sizeof(*files));
		reused = calloc(n, sizeof(*reused));
		if (!runs || !files || !reused)
			rc = cli_error("kernels", EXIT_FAIL, "out of memory");
	}
	for (i = 0; !rc && i < n; i++) {
		const char *dir = argv[optind + i / (t.n_lanes * t.n_sources)];
		const char *lane = t.lanes[i / t.n_sources % t.n_lanes];
		const char *src = t.sources[i % t.n_sources];

		runs[i].info = files[3 * i] = kernels_read(dir, lane, src, "info", &rc);
		runs[i].map = files[3 * i + 1] = kernels_read(dir, lane, src, "map", &rc);
		runs[i].run = files[3 * i + 2] = kernels_read(dir, lane, src, "run", &rc);
		runs[i].reused = reused[i] = kernels_reused(dir, lane, src);
		if (!rc && !reused[i])
			rc = cli_error("kernels", EXIT_FAIL, "out of memory");
	}
	/* The catalogue's two-vCPU probes. */
	for (i = 0; i < nr_probes && t.n_two_vcpus < ARRAY_SIZE(two); i++)
		if (probes[i].needs & PROBE_NEED_2VCPUS)
			two[t.n_two_vcpus++] = probes[i].name;
	t.two_vcpus = two;
	t.runs = runs;
	if (!rc && kernels_table_print(stdout, &t))
		rc = cli_error("kernels", EXIT_FAIL, "cannot write the table");
	for (i = 0; files && i < 3 * n; i++)
		result_free(files[i]);
	for (i = 0; reused && i < n; i++)
		free(reused[i]);
	free(files);
	free(reused);
	free(runs);
	words_free(&lanes);
	words_free(&sources);
	return rc;
}
