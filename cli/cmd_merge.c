// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_merge.c - `exitscope merge [--rename OLD=NEW] [--rounds N] [-o FILE]
 * FILE...`: result files made into one (results/result_merge.h): a lane's
 * blocks as one file for report and compare, a probe renamed, a run's
 * rounds cut.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "results/result_merge.h"

struct merge_args {
	const char *out, *rename;
	unsigned int rounds;
};

static const struct cli_row merge_rows[] = {
	CLI_ROW_STR("output", 'o', "FILE", struct merge_args, out, "-",
		    "write the merged result file to FILE ('-': stdout)"),
	CLI_ROW_STR("rename", CLI_LONG('r'), "OLD=NEW", struct merge_args, rename, NULL,
		    "probe OLD is called NEW, the probe NEW there was is\n"
		    "dropped (a known difference made: OLD compared as NEW)"),
	CLI_ROW_UINT("rounds", CLI_LONG('n'), "N", struct merge_args, rounds, 0, 1000000, 0,
		     "a count", "each probe keeps its first N rounds (0: all)"),
	CLI_ROW_HELP,
	{ 0 },
};

const struct cli_cmd_spec merge_spec = {
	.name = "merge",
	.usage = "[options] FILE [FILE ...]",
	.about = "Write the result files FILE as one result file, each read and validated as\n"
		 "every command reads one. The first run file (else the first with probes,\n"
		 "else the first FILE) is kept whole, every number exactly, with the probes of\n"
		 "all the files in their order, those of the other files named NAME@BLOCK\n"
		 "(BLOCK: the file's name without its directory and .json, as a lane names\n"
		 "its blocks: run.json, tsc.json), the map of the first file with one and the\n"
		 "checks of the first file with them: a lane side's blocks as one file for\n"
		 "report and compare. --rename and --rounds then edit the probes, on one FILE\n"
		 "too. The file written is checked as a result file before it is written.\n",
	.rows = merge_rows,
	.col = 21,
	.order = 0,
	.tail = "  exitscope merge -o a.json lane-a/results/run.json lane-a/results/tsc.json\n"
		"  exitscope merge --rename invd=wbinvd -o relabelled.json b.json\n"
		"\n"
		"Exit status: 0 written, 1 FILE not written (out of memory, a write error),\n"
		"2 usage error, an unreadable or invalid FILE, two files of one BLOCK,\n"
		"--rename of a probe no file has, or a merged file that would be invalid.\n",
};

int cmd_merge(int argc, char **argv)
{
	struct result_merge m = { 0 };
	struct result_merged *r;
	struct merge_args a;
	struct cli_parser p;
	struct err err;
	const char *eq;
	char *from = NULL;
	int rc;

	rc = cli_parse(&p, &merge_spec, &a, argc, argv);
	if (rc)
		return rc == CLI_PARSE_HELP ? EXIT_OK : rc;
	if (argc == optind)
		return cli_usage_error("merge", "need a result FILE");
	if (a.rename) {
		eq = strchr(a.rename, '=');
		if (!eq || eq == a.rename || !eq[1] || strchr(eq + 1, '='))
			return cli_usage_error("merge", "--rename '%.64s': want OLD=NEW", a.rename);
		from = strndup(a.rename, (size_t)(eq - a.rename));
		if (!from)
			return cli_error("merge", EXIT_FAIL, "out of memory");
		m.rename_from = from;
		m.rename_to = eq + 1;
	}
	m.rounds = a.rounds;
	rc = cli_output_distinct("merge", "-o", a.out, (const char *const *)argv + optind,
				 (size_t)(argc - optind), "input");
	if (!rc)
		rc = cli_output_check("merge", a.out);
	if (rc) {
		free(from);
		return rc;
	}
	r = result_merge_read((const char *const *)argv + optind, (size_t)(argc - optind), &m, &err);
	free(from);
	if (!r)
		return cli_error("merge", err.code == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s",
				 err.msg);
	rc = EXIT_OK;
	if (result_merged_write(r, a.out, &err))
		rc = cli_error("merge", EXIT_FAIL, "cannot write %s", err.msg);
	result_merged_free(r);
	return rc;
}
