// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_export.c - `exitscope export --format openmetrics [-o FILE] RUN.json...`:
 * result files as OpenMetrics text that node_exporter's textfile collector
 * also reads (export/openmetrics.h), written atomically; and the same text from
 * the document `run --openmetrics FILE` has just made (export_root_write).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "export/openmetrics.h"
#include "results/outfile.h"
#include "results/result_read.h"
#include "results/result_write.h"

static const struct cli_opt export_opts[] = {
	{ "format", CLI_LONG('f'), "FMT", "openmetrics (the default; also 'prometheus'): OpenMetrics\n"
					  "1.0.0 text, gauges only, so also Prometheus text 0.0.4" },
	{ "output", 'o', "FILE", "where to write (default '-': stdout); for node_exporter\n"
				 "a name ending in .prom in its textfile directory" },
	CLI_OPT_HELP,
	{ 0 },
};

const struct cli_cmd_spec export_spec = {
	.name = "export",
	.usage = "[options] RESULT.json [MORE.json ...]",
	.about = "Write result files (run, map, check, info) as OpenMetrics text, which\n"
		 "node_exporter's textfile collector also reads: per probe its status, the\n"
		 "median and 95%% CI of cycles/op (over all batches, and of the round medians),\n"
		 "exits/op and the exact userspace exits/op; per CR bit and CPUID profile its\n"
		 "ownership; per check its status; the host record as the labels of\n"
		 "exitscope_info. Every series has a label run=NAME, NAME being the file's name\n"
		 "without .json: files with the same NAME are refused. FILE is written to a\n"
		 "temporary in its directory and renamed, so a collector never reads half a\n"
		 "file and a failed export leaves the old one.\n",
	.opts = export_opts,
	.col = 22,
	.order = '-',	/* files in order among the options */
	.tail = CLI_TAIL_WRITE_FROM_RESULTS,
};

static void export_usage(FILE *f)
{
	cli_help(f, &export_spec);
}

/*
 * Write the runs through a checked outfile: all or nothing. stoppable (the
 * export command; not run --openmetrics, which writes what a stopped run
 * measured): a stop signal ends it with one line (cli_stopped).
 */
static int export_write(const char *cmd, const char *path, const struct export_run *runs, size_t n,
			bool stoppable)
{
	struct err err;
	struct outfile of;
	int rc = stoppable ? cli_stopped(cmd, "nothing written") : EXIT_OK;

	if (rc)
		return rc;
	if (outfile_open(&of, path, &err))
		return cli_error(cmd, EXIT_FAIL, "cannot write %s", err.msg);
	if (stoppable)
		cli_stop_output(&of);
	rc = export_openmetrics(of.f, runs, n, &err);
	if (rc) {
		outfile_abort(&of);
		cli_stop_output(NULL);
		return cli_error(cmd, EXIT_USAGE, "%s", err.msg);
	}
	rc = outfile_commit(&of, &err);
	cli_stop_output(NULL);
	if (rc) {
		if (stoppable && *cli_stop_flag())	/* a write blocked on a FIFO, ended by the stop */
			return cli_stopped(cmd, "the metrics cut short");
		return cli_error(cmd, EXIT_FAIL, "cannot write %s", err.msg);
	}
	return stoppable ? cli_stopped(cmd, "after the metrics were written") : EXIT_OK;
}

int export_root_write(const char *cmd, json_t *root, const char *json_path, const char *path)
{
	char label[EXPORT_RUN_LABEL_LEN];
	struct err err;
	struct result_file *rf;
	struct export_run run;
	char *text;
	int rc;

	/* Serialized as the file is and read back, so the text says what the file says. */
	text = json_dumps(root, RESULT_DUMP_FLAGS);
	if (!text)
		return cli_error(cmd, EXIT_FAIL, "--openmetrics: out of memory");
	rf = result_read_buffer(json_path && strcmp(json_path, "-") ? json_path : "run", text,
				strlen(text), &err);
	free(text);
	if (!rf)
		return cli_error(cmd, EXIT_FAIL, "--openmetrics: %s", err.msg);
	export_run_label(json_path, label, sizeof(label));
	run = (struct export_run){ rf, label };
	rc = export_write(cmd, path, &run, 1, false);
	result_free(rf);
	return rc == EXIT_OK ? EXIT_OK : EXIT_FAIL;
}

int cmd_export(int argc, char **argv)
{
	char labels[EXPORT_MAX_FILES][EXPORT_RUN_LABEL_LEN];
	struct result_file *files[EXPORT_MAX_FILES] = { 0 };
	struct export_run runs[EXPORT_MAX_FILES];
	const char *paths[EXPORT_MAX_FILES], *out = "-";
	size_t n = 0, i;
	struct cli_parser p;
	int c, rc;

	cli_opts_init(&p, &export_spec, argc, argv);
	while ((c = cli_opts_next(&p)) != -1) {
		switch (c) {
		case 1:
			if (cli_operand_add("export", paths, &n, EXPORT_MAX_FILES, optarg))
				return EXIT_USAGE;
			break;
		case CLI_LONG('f'):
			if (strcmp(optarg, "openmetrics") && strcmp(optarg, "prometheus"))
				return cli_usage_error("export", "--format: '%s' is not openmetrics",
						       optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			export_usage(stdout);
			return EXIT_OK;
		default:
			return cli_opts_bad(&p);
		}
	}
	if (cli_operands_end("export", argc, argv, paths, &n, EXPORT_MAX_FILES))
		return EXIT_USAGE;
	rc = cli_output_distinct("export", "-o", out, paths, n, "input");
	if (!rc)
		rc = cli_output_check("export", out);
	if (rc)
		return rc;
	/* A stop ends it with one line and 128 + the signal (the file is whole or untouched). */
	cli_install_sigint();
	rc = cli_read_results("export", paths, n, files);
	if (rc)
		goto out;
	for (i = 0; i < n; i++) {
		export_run_label(paths[i], labels[i], sizeof(labels[i]));
		runs[i] = (struct export_run){ files[i], labels[i] };
	}
	rc = export_write("export", out, runs, n, true);
out:
	for (i = 0; i < n; i++)
		result_free(files[i]);
	return rc;
}
