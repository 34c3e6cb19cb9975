/* SPDX-License-Identifier: GPL-2.0-only */
/* cmds.h - entry points of the `exitscope <command>` subcommands (cli/cmd_*.c). */
#ifndef EXITSCOPE_CLI_CMDS_H
#define EXITSCOPE_CLI_CMDS_H

int cmd_info(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_profile(int argc, char **argv);
int cmd_query(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_walk(int argc, char **argv);
int cmd_kernels(int argc, char **argv);
int cmd_expect(int argc, char **argv);

struct result_doc;
/*
 * run --openmetrics: the result document (results/result_doc.h, as written
 * to json_path, NULL or "-": none) as Prometheus text in path
 * (cli/cmd_export.c). EXIT_OK, or EXIT_FAIL after one line.
 */
int export_doc_write(const char *cmd, const struct result_doc *doc, const char *json_path,
		     const char *path);

/* Each command's option table and --help texts (cli/opts.h), beside its cmd_*() in cli/cmd_*.c. */
struct cli_cmd_spec;
extern const struct cli_cmd_spec info_spec, run_spec, map_spec, check_spec, calibrate_spec,
	compare_spec, report_spec, export_spec, profile_spec, query_spec, walk_spec, kernels_spec,
	expect_spec, merge_spec;

#endif
