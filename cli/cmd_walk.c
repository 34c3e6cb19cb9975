// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_walk.c - `exitscope walk [--json FILE] WALK.json`: the steps of a walk
 * scripts/lane-walk made over a kernel tree's commits (compare/walk_steps.h):
 * per lane and one-vCPU probe, the commits where its lane cycles moved.
 * `exitscope walk --from LIST --write WALK.json`: the walk file of the walk
 * list lane-walk keeps (results/walk_list.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "compare/walk_steps.h"
#include "results/walk_list.h"
#include "results/walk_model.h"

struct walk_args {
	const char *json_path;
	const char *from, *write;
};

static const struct cli_row walk_rows[] = {
	CLI_ROW_STR("json", CLI_LONG('j'), "FILE", struct walk_args, json_path, NULL,
		    "also write the steps as JSON to FILE ('-': stdout, which\n"
		    "then carries the JSON alone)"),
	CLI_ROW_STR("from", CLI_LONG('f'), "LIST", struct walk_args, from, NULL,
		    "read a walk list (the tab-separated lines lane-walk\n"
		    "keeps) and write its walk file with --write; no steps"),
	CLI_ROW_STR("write", CLI_LONG('w'), "FILE", struct walk_args, write, NULL,
		    "with --from: the walk file to write ('-': stdout)"),
	CLI_ROW_HELP,
	{ 0 },
};

/* The about paragraph: its thresholds are walk_steps.h's. */
static void walk_about(FILE *f)
{
	fprintf(f, "Print the steps of a walk: the lanes measured commit by commit on a kernel\n"
		   "tree (scripts/lane-walk writes WALK.json and each commit's run.json). "
		   "Per lane\n"
		   "and per one-vCPU probe, a step is a commit whose median lane cycles differ\n"
		   "from those of the lane's previous measured commit by more than %.2f%% (what\n"
		   "boots of one kernel differ by) and %.0f cycles; "
		   "each step gives the commit, the\n"
		   "probe, before -> after and, when both runs have exit paths, the kernel\n"
		   "functions and census rows that changed. Skipped commits are listed; a probe\n"
		   "that did not run at a commit breaks its chain (no step judged across); the\n"
		   "two-vCPU probes are not judged.\n\n"
		   "With --from LIST --write WALK.json, write the walk file of a walk list\n"
		   "instead (a line per fact: repository, range, first_parent, every, lanes,\n"
		   "profile, tool, commands, then subject REV TEXT and commit REV LANE STATUS RUN\n"
		   "[REASON]; man exitscope-walk), checked as a walk file is read.\n",
		LANE_SPREAD_1VCPU_PCT, LANE_CHANGE_FLOOR_CYCLES);
}

const struct cli_cmd_spec walk_spec = {
	.name = "walk",
	.usage = "[options] WALK.json\n--from LIST --write WALK.json",
	.about_print = walk_about,
	.rows = walk_rows,
	.col = 15,
	.order = 0,
	.tail = "Exit status: 0 printed (with or without steps) or written, 1 --json FILE or\n"
		"--write FILE not written, 2 usage error, or an unreadable or invalid WALK.json,\n"
		"run file or LIST.\n",
};

/* --from LIST --write WALK.json: the walk list's walk file. */
static int walk_from_list(const struct walk_args *a, int nargs)
{
	struct walk_file *w;
	struct err err;
	int rc;

	if (!a->write)
		return cli_usage_error("walk",
				       "--from LIST writes a walk file: give --write WALK.json");
	if (a->json_path)
		return cli_usage_error("walk", "--from LIST writes no steps: no --json");
	if (nargs)
		return cli_usage_error("walk", "--from LIST takes no WALK.json operand (got %d)",
				       nargs);
	rc = cli_output_distinct("walk", "--write", a->write, &a->from, 1, "input");
	if (!rc)
		rc = cli_output_check("walk", a->write);
	if (rc)
		return rc;
	w = walk_list_read(a->from, &err);
	if (!w)
		return cli_error("walk", EXIT_USAGE, "%s", err.msg);
	rc = EXIT_OK;
	if (walk_write(w, a->write, &err))
		rc = cli_error("walk", EXIT_FAIL, "cannot write %s", err.msg);
	walk_free(w);
	return rc;
}

int cmd_walk(int argc, char **argv)
{
	struct walk_args a;
	const char *path;
	struct walk_steps steps;
	struct walk_file *w;
	struct cli_parser p;
	struct err err;
	int rc;

	rc = cli_parse(&p, &walk_spec, &a, argc, argv);
	if (rc)
		return rc == CLI_PARSE_HELP ? EXIT_OK : rc;
	if (a.from)
		return walk_from_list(&a, argc - optind);
	if (a.write)
		return cli_usage_error("walk", "--write FILE writes the walk file of --from LIST");
	if (argc - optind != 1)
		return cli_usage_error("walk", argc == optind ? "need a WALK.json" :
								"one WALK.json only (got %d files)",
				       argc - optind);
	path = argv[optind];
	rc = cli_output_distinct("walk", "--json", a.json_path, &path, 1, "input");
	if (!rc)
		rc = cli_output_check("walk", a.json_path);
	if (rc)
		return rc;
	w = walk_read_file(path, &err);
	if (!w)
		return cli_error("walk", EXIT_USAGE, "%s", err.msg);
	if (walk_read_runs(w, &err)) {
		walk_free(w);
		return cli_error("walk", EXIT_USAGE, "%s", err.msg);
	}
	if (walk_steps_build(w, &steps)) {
		walk_free(w);
		return cli_error("walk", EXIT_FAIL, "out of memory");
	}
	rc = EXIT_OK;
	if (!a.json_path || strcmp(a.json_path, "-"))
		walk_steps_print(stdout, &steps);
	if (a.json_path && walk_steps_write(&steps, a.json_path, &err))
		rc = cli_error("walk", EXIT_FAIL, "cannot write %s", err.msg);
	walk_steps_free(&steps);
	walk_free(w);
	return rc;
}
