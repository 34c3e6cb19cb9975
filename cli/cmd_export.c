// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_export.c - `exitscope export --format openmetrics [-o FILE] RUN.json...`:
 * result files as OpenMetrics text that node_exporter's textfile collector
 * also reads (export/openmetrics.h), written atomically; and the same text from
 * the document `run --openmetrics FILE` has just made (export_doc_write).
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
#include "results/result_doc.h"
#include "results/result_read.h"

/* What export's command line gives. */
struct export_args {
	const char *paths[EXPORT_MAX_FILES];
	size_t n;
	const char *out;
	int format;		/* export_formats[]: both the same text */
};

static const char *const export_formats[] = { "openmetrics", "prometheus" };

/* Each RESULT.json, in order among the options. */
static int export_operand(void *args, const char *arg, const struct cli_parser *p)
{
	struct export_args *a = args;

	return cli_operand_add("export", a->paths, &a->n, EXPORT_MAX_FILES, arg) ? EXIT_USAGE : 0;
}

static const struct cli_row export_rows[] = {
	CLI_ROW_ENUM("format", CLI_LONG('f'), "FMT", struct export_args, format, export_formats, 0,
		     "OpenMetrics 1.0.0 text, gauges only, so also Prometheus\n"
		     "text 0.0.4: 'prometheus' is the same text"),
	CLI_ROW_STR("output", 'o', "FILE", struct export_args, out, "-",
		    "where to write ('-': stdout); for node_exporter a name\n"
		    "ending in .prom in its textfile directory"),
	CLI_ROW_HELP,
	{ 0 },
};

const struct cli_cmd_spec export_spec = {
	.name = "export",
	.usage = "[options] RESULT.json [MORE.json ...]",
	.about = "Write result files (run, map, check, info) as OpenMetrics text, which\n"
		 "node_exporter's textfile collector also reads: per probe its status, the\n"
		 "median and 95% CI of cycles/op (over all batches, and of the round medians),\n"
		 "exits/op and the exact userspace exits/op; per CR bit and CPUID profile its\n"
		 "ownership; per check its status; the host record as the labels of\n"
		 "exitscope_info. Every series has a label run=NAME, NAME being the file's name\n"
		 "without .json: files with the same NAME are refused. FILE is written to a\n"
		 "temporary in its directory and renamed, so a collector never reads half a\n"
		 "file and a failed export leaves the old one.\n",
	.rows = export_rows,
	.operand = export_operand,
	.col = 22,
	.order = '-',	/* files in order among the options */
	.tail = CLI_TAIL_WRITE_FROM_RESULTS,
};

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

int export_doc_write(const char *cmd, const struct result_doc *doc, const char *json_path,
		     const char *path)
{
	char label[EXPORT_RUN_LABEL_LEN];
	struct err err;
	struct result_file *rf;
	struct export_run run;
	char *text;
	int rc;

	/* Serialized as the file is and read back, so the text says what the file says. */
	text = result_doc_text(doc);
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
	struct export_args a = { .n = 0 };
	struct cli_parser p;
	size_t i;
	int rc;

	rc = cli_parse(&p, &export_spec, &a, argc, argv);
	if (rc)
		return rc == CLI_PARSE_HELP ? EXIT_OK : rc;
	if (cli_operands_end("export", argc, argv, a.paths, &a.n, EXPORT_MAX_FILES))
		return EXIT_USAGE;
	rc = cli_output_distinct("export", "-o", a.out, a.paths, a.n, "input");
	if (!rc)
		rc = cli_output_check("export", a.out);
	if (rc)
		return rc;
	/* A stop ends it with one line and 128 + the signal (the file is whole or untouched). */
	cli_install_sigint();
	rc = cli_read_results("export", a.paths, a.n, files);
	if (rc)
		goto out;
	for (i = 0; i < a.n; i++) {
		export_run_label(a.paths[i], labels[i], sizeof(labels[i]));
		runs[i] = (struct export_run){ files[i], labels[i] };
	}
	rc = export_write("export", a.out, runs, a.n, true);
out:
	for (i = 0; i < a.n; i++)
		result_free(files[i]);
	return rc;
}
