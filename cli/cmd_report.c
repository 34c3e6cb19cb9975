// SPDX-License-Identifier: GPL-2.0-only
/* cmd_report.c - `exitscope report RUN.json [MORE.json ...] -o report.html`: one self-contained HTML report. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/text.h"
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "compare/walk_steps.h"
#include "report/report.h"
#include "results/outfile.h"
#include "results/walk_model.h"

#define DEFAULT_OUT "exitscope-report.html"

static const struct cli_opt report_opts[] = {
	{ "output", 'o', "FILE", "where to write the report (default " DEFAULT_OUT "; '-': stdout)" },
	CLI_OPT_THRESHOLD,
	{ "seed", CLI_LONG('s'), "N", "bootstrap seed for the comparisons (default %d)" },
	{ "normalize", CLI_LONG('N'), "MODE", "what the comparisons compare, as `exitscope compare`:\n"
					      "auto (default), speed or none" },
	CLI_OPT_HELP,
	{ 0 },
};

const struct cli_cmd_spec report_spec = {
	.name = "report",
	.usage = "[options] RUN.json [MORE.json ...]\n"
		 "[options] WALK.json",
	.about = "Write one self-contained HTML file (inline CSS and SVG, no scripts, nothing\n"
		 "fetched) from result files: the host records at the top; per-probe cost\n"
		 "charts (median, 95%% confidence interval, sample spread) grouped by probe\n"
		 "group, with why each probe stopped when the file says (precision, or budget\n"
		 "highlighted: its CI did not reach --precision); the ownership map as a grid\n"
		 "of bits x CPUID profiles; the check results; and, for two or more files,\n"
		 "A/B comparisons of each file against the first with verdicts (as `exitscope\n"
		 "compare`: faster, slower, no significant change, too noisy). Files are\n"
		 "labelled A, B, ... in the order given (at most %d). A walk file (exitscope\n"
		 "walk) is reported alone: per lane its steps, and per one-vCPU probe a chart\n"
		 "of its lane cycles over the commits with the steps marked and, under it, the\n"
		 "exit-path functions that changed (--threshold, --seed and --normalize do not\n"
		 "apply).\n",
	.opts = report_opts,
	.col = 22,
	.order = '-',	/* files in order among the options */
	.tail = CLI_TAIL_WRITE_FROM_RESULTS,
};

/* `report WALK.json`: the walk, its runs and steps, through a checked outfile. */
static int report_walk(const char *path, const char *out)
{
	char shown[PATH_MAX * 4];
	struct walk_steps steps;
	struct walk_file *w;
	struct outfile of;
	struct err err;
	int rc = EXIT_OK;
	size_t n = 0;

	w = walk_read_file(path, &err);
	if (!w)
		return cli_error("report", EXIT_USAGE, "%s", err.msg);
	if (walk_read_runs(w, &err)) {
		walk_free(w);
		return cli_error("report", EXIT_USAGE, "%s", err.msg);
	}
	if (walk_steps_build(w, &steps)) {
		walk_free(w);
		return cli_error("report", EXIT_FAIL, "out of memory");
	}
	rc = cli_stopped("report", "nothing written");
	if (!rc && outfile_open(&of, out, &err)) {
		rc = cli_error("report", EXIT_FAIL, "cannot write %s", err.msg);
	} else if (!rc && (cli_stop_output(&of), report_write_walk_html(of.f, &steps, &err))) {
		int e = of.err;

		outfile_abort(&of);
		rc = e && *cli_stop_flag() ? cli_stopped("report", "the report cut short")
		   : e ? cli_error("report", EXIT_FAIL, "cannot write %s: %s", out, strerror(e))
		       : cli_error("report", EXIT_FAIL, "%s: %s", out, err.msg);
	} else if (!rc && outfile_commit(&of, &err)) {
		rc = *cli_stop_flag() ? cli_stopped("report", "the report cut short")
				      : cli_error("report", EXIT_FAIL, "cannot write %s", err.msg);
	} else if (!rc) {
		rc = cli_stopped("report", "after the report was written");
	}
	cli_stop_output(NULL);
	for (size_t i = 0; i < steps.n_lanes; i++)
		for (size_t j = 0; j < steps.lanes[i].n_probes; j++)
			n += steps.lanes[i].probes[j].n_steps;
	if (rc == EXIT_OK && strcmp(out, "-"))
		printf("exitscope report: wrote %s (walk: %zu commits, %zu step%s)\n",
		       text_esc(shown, sizeof(shown), out), w->n_commits, n, n == 1 ? "" : "s");
	walk_steps_free(&steps);
	walk_free(w);
	return cli_stdout_check("report", rc);
}

static void report_usage(FILE *f)
{
	cli_help(f, &report_spec, REPORT_MAX_FILES, COMPARE_THRESHOLD_PCT, COMPARE_SEED);
}

/* Through a checked outfile: a failed write leaves no half report and an old one intact. */
static int write_report(const char *path, struct result_file **files, size_t n,
			const struct compare_opts *o)
{
	struct err err;
	struct outfile of;
	int r;

	r = cli_stopped("report", "nothing written");
	if (r)
		return r;
	r = outfile_open(&of, path, &err);
	if (r)
		return cli_error("report", EXIT_FAIL, "cannot write %s", err.msg);
	cli_stop_output(&of);
	if (report_write_html(of.f, files, n, o, &err)) {
		int e = of.err;

		outfile_abort(&of);
		cli_stop_output(NULL);
		if (e && *cli_stop_flag())	/* a write blocked on a FIFO, ended by the stop */
			return cli_stopped("report", "the report cut short");
		if (e)	/* the write failed: that is the reason, not what report saw */
			return cli_error("report", EXIT_FAIL, "cannot write %s: %s", path, strerror(e));
		return cli_error("report", EXIT_FAIL, "%s: %s", path, err.msg);
	}
	r = outfile_commit(&of, &err);
	cli_stop_output(NULL);
	if (r) {
		if (*cli_stop_flag())
			return cli_stopped("report", "the report cut short");
		return cli_error("report", EXIT_FAIL, "cannot write %s", err.msg);
	}
	return cli_stopped("report", "after the report was written");
}

int cmd_report(int argc, char **argv)
{
	struct result_file *files[REPORT_MAX_FILES] = { 0 };
	const char *paths[REPORT_MAX_FILES], *out = DEFAULT_OUT;
	struct compare_opts copts;
	size_t n = 0, i;
	struct cli_parser p;
	int c, rc = EXIT_USAGE;

	compare_opts_init(&copts);
	cli_opts_init(&p, &report_spec, argc, argv);
	while ((c = cli_opts_next(&p)) != -1) {
		switch (c) {
		case 1:
			if (cli_operand_add("report", paths, &n, REPORT_MAX_FILES, optarg))
				return EXIT_USAGE;
			break;
		case 'o':
			out = optarg;
			break;
		case CLI_LONG('t'):
			if (cli_parse_pct(optarg, 0, COMPARE_THRESHOLD_MAX_PCT, &copts.threshold_pct))
				return cli_usage_error("report", "--threshold: '%s' is not a percentage "
						       "in 0..%g", optarg, COMPARE_THRESHOLD_MAX_PCT);
			break;
		case CLI_LONG('s'):
			if (cli_parse_u64(optarg, false, CLI_SEED_MAX, &copts.seed))
				return cli_usage_error("report", "--seed: '%s' is not an integer 0-%lld",
						       optarg, (long long)CLI_SEED_MAX);
			break;
		case CLI_LONG('N'):
			if (compare_normalize_parse(optarg, &copts.normalize))
				return cli_usage_error("report", "--normalize: '%s' is not auto, speed or "
						       "none", optarg);
			break;
		case 'h':
			report_usage(stdout);
			return EXIT_OK;
		default:
			return cli_opts_bad(&p);
		}
	}
	if (cli_operands_end("report", argc, argv, paths, &n, REPORT_MAX_FILES))
		return EXIT_USAGE;
	rc = cli_output_distinct("report", "-o", out, paths, n, "input");
	if (!rc)
		rc = cli_output_check("report", out);
	if (rc)
		return rc;
	/* A stop ends it with one line and 128 + the signal (the report is whole or untouched). */
	cli_install_sigint();
	for (i = 0; i < n; i++) {
		if (!walk_file_is_walk(paths[i]))
			continue;
		if (n > 1)
			return cli_usage_error("report", "%s: a walk file is reported alone", paths[i]);
		return report_walk(paths[0], out);
	}
	rc = cli_read_results("report", paths, n, files);
	if (rc)
		goto out;
	rc = write_report(out, files, n, &copts);
	if (rc == EXIT_OK && strcmp(out, "-")) {
		char shown[PATH_MAX * 4];

		printf("exitscope report: wrote %s\n", text_esc(shown, sizeof(shown), out));
	}
	rc = cli_stdout_check("report", rc);
out:
	for (i = 0; i < n; i++)
		result_free(files[i]);
	return rc;
}
