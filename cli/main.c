// SPDX-License-Identifier: GPL-2.0-only
/* main.c - `exitscope <command>`: dispatch to the subcommands in cli/cmd_*.c. */
#include <stdio.h>
#include <string.h>

#include "base/array_size.h"
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "results/result_write.h"

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{ "info", cmd_info, "describe the host's KVM and how guest code executes" },
	{ "run", cmd_run, "VM-exit latency catalogue: cycles and exits per operation" },
	{ "map", cmd_map, "CR0/CR4 ownership map: which bits a guest flips without an exit" },
	{ "check", cmd_check, "conformance checks: XSAVE state isolation, CET, save/restore, "
			      "interrupts" },
	{ "calibrate", cmd_calibrate, "this host's run-to-run noise floor, for compare --noise" },
	{ "compare", cmd_compare, "A/B verdicts between two result files, with confidence "
				  "intervals" },
	{ "report", cmd_report, "one self-contained HTML report from result files" },
	{ "export", cmd_export, "result files as Prometheus metrics for node_exporter" },
	{ "profile", cmd_profile, "add a profiling lane's exit paths (functions per exit) "
				  "to a run" },
	{ "merge", cmd_merge, "result files as one: a lane's blocks, a probe renamed, rounds cut" },
	{ "query", cmd_query, "figures from result, compare, noise and walk files, for scripts" },
	{ "expect", cmd_expect, "a lane's results judged against an expectations file" },
	{ "walk", cmd_walk, "a kernel tree's commits measured in the lanes: where the cycles "
			    "stepped" },
	{ "kernels", cmd_kernels, "docs/kernels.md's tables: lane cycles and the CR map across "
				  "kernels" },
};

#define NR_COMMANDS ARRAY_SIZE(commands)

/* The option tables that `exitscope help --options CMD` lists (what completion reads). */
static const struct cli_cmd_spec *const specs[] = {
	&info_spec, &run_spec, &map_spec, &check_spec, &calibrate_spec,
	&compare_spec, &report_spec, &export_spec, &profile_spec, &query_spec, &expect_spec,
	&walk_spec, &kernels_spec, &merge_spec,
};

/* `exitscope help --options CMD`: CMD's options one spelling a line (cli_opts_list). */
static int list_options(const char *name)
{
	struct err err;

	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		if (strcmp(specs[i]->name, name))
			continue;
		if (cli_spec_check(specs[i], &err))
			return cli_error("help", EXIT_FAIL, "option table of %s: %s", name,
					 err.msg);
		cli_opts_list(stdout, specs[i]);
		return cli_stdout_check("help", EXIT_OK);
	}
	cli_error("help", EXIT_USAGE, "--options: no command '%s' with an option table", name);
	fprintf(stderr, "Try 'exitscope --help'.\n");
	return EXIT_USAGE;
}

static void main_usage(FILE *f)
{
	fprintf(f, "usage: exitscope <command> [options]\n\n"
		   "Run tiny test guests on /dev/kvm to measure and check the host KVM's\n"
		   "VM-entry/VM-exit path.\n\ncommands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'exitscope <command> --help' describes each command.\n"
		   "'exitscope help [COMMAND]' prints this text or the command's;\n"
		   "'exitscope help --options COMMAND' its options, one a line (for completion).\n"
		   "Exit status: 0 ok, 1 failure, 2 usage error or bad input file, 3 KVM not\n"
		   "available, 4 --tap without KVM, 130 stopped by Ctrl-C, 143 by SIGTERM,\n"
		   "129 by SIGHUP (what was measured is still written).\n");
}

/* `exitscope help --help`. */
static void help_usage(void)
{
	printf("usage: exitscope help [COMMAND]\n"
	       "       exitscope help --options COMMAND\n\n"
	       "Without COMMAND, the list of commands ('exitscope --help'); with one, its\n"
	       "--help. --options COMMAND lists COMMAND's options, one spelling a line (what\n"
	       "shell completion reads).\n"
	       "Exit status: 0 printed, 1 standard output could not be written, 2 usage\n"
	       "error (an unknown command, --options without one).\n");
}

int main(int argc, char **argv)
{
	char *help_args[] = { NULL, "--help", NULL };
	char **args = argv + 1;
	int nargs = argc - 1;
	const char *name;

	if (argc < 2) {
		main_usage(stderr);
		return EXIT_USAGE;
	}
	name = argv[1];
	if (!strcmp(name, "-h") || !strcmp(name, "--help") ||
	    (!strcmp(name, "help") && argc == 2)) {
		main_usage(stdout);
		return cli_stdout_check("--help", EXIT_OK);
	}
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("exitscope %s\n", EXITSCOPE_VERSION);
		return cli_stdout_check("--version", EXIT_OK);
	}
	if (!strcmp(name, "help") && argc == 3 &&
	    (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		help_usage();
		return cli_stdout_check("help", EXIT_OK);
	}
	if (!strcmp(name, "help") && argc == 3 && !strcmp(argv[2], "--options")) {
		cli_error("help", EXIT_USAGE,
			  "--options needs a command: 'exitscope help --options COMMAND'");
		fprintf(stderr, "Try 'exitscope help --help'.\n");
		return EXIT_USAGE;
	}
	if (!strcmp(name, "help") && argc == 4 && !strcmp(argv[2], "--options"))
		return list_options(argv[3]);
	if (!strcmp(name, "help") && argc > 3) {
		cli_error("help", EXIT_USAGE, "unexpected argument '%s' (help takes one command)",
			  argv[3]);
		fprintf(stderr, "Try 'exitscope --help'.\n");
		return EXIT_USAGE;
	}
	/* `help CMD` is `CMD --help`. */
	if (!strcmp(name, "help") && argc == 3) {
		help_args[0] = argv[2];
		name = argv[2];
		args = help_args;
		nargs = 2;
	}
	/* A command that reported no failure may still have lost its stdout (--help > /dev/full). */
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name)) {
			int rc = commands[i].fn(nargs, args);

			return rc == EXIT_OK ? cli_stdout_check(name, rc) : rc;
		}
	cli_error(NULL, EXIT_USAGE, "unknown command '%s'", name);
	fputc('\n', stderr);
	main_usage(stderr);
	return EXIT_USAGE;
}
