// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_expect.c - `exitscope expect [--tol T] EXPECT_FILE RESULTS_DIR`: a
 * lane's results judged against an expectations file (expect/expect.h,
 * man exitscope-expect); scripts/lane-assert runs it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "expect/expect.h"

#define EXPECT_TOL_DEFAULT	0.1

static const struct cli_opt expect_opts[] = {
	{ "tol", CLI_LONG('t'), "T", "a NUM \"N\" holds for a value within T of N; >=N and <=N\n"
				     "allow T too (default 0.1)" },
	CLI_OPT_HELP,
	{ 0 },
};

const struct cli_cmd_spec expect_spec = {
	.name = "expect",
	.usage = "[options] EXPECT_FILE RESULTS_DIR",
	.about = "Judge the results a lane brought back (RESULTS_DIR: NAME.json and NAME.rc\n"
		 "for each block) against an expectations file: one line per expectation,\n"
		 "\"  ok    ...\", \"  FAIL  ...\" or \"  skip  ...\" with the measured figures,\n"
		 "then \"lane-assert: N passed, M failed, K skipped\". Every figure is read\n"
		 "as `exitscope query` reads it. The language: man exitscope-expect.\n",
	.opts = expect_opts,
	.col = 13,
	.order = '+',
	.tail = "  exitscope expect lanes/expect-vmx.txt build-lanes/vmx/results\n"
		"\n"
		"Exit status: 0 every expectation held (and at least one passed), 1 one\n"
		"failed or none passed, 2 usage error, or an expectations file that cannot\n"
		"be read or does not parse (each bad line named FILE:LINE on stderr).\n",
};

int cmd_expect(int argc, char **argv)
{
	struct expect_opts o = { .tol = EXPECT_TOL_DEFAULT, .out = stdout, .errs = stderr,
				 .who = "exitscope expect" };
	struct expect_file ef;
	struct cli_parser cp;
	struct err err;
	int c, rc;

	cli_opts_init(&cp, &expect_spec, argc, argv);
	while ((c = cli_opts_next(&cp)) != -1) {
		switch (c) {
		case CLI_LONG('t'):
			if (cli_parse_num(optarg, 0, 1e300, &o.tol))
				return cli_usage_error("expect", "--tol: '%s' is not a number >= 0",
						       optarg);
			break;
		case 'h':
			cli_help(stdout, &expect_spec);
			return cli_stdout_check_code("expect", EXIT_OK, EXIT_USAGE);
		default:
			return cli_opts_bad(&cp);
		}
	}
	if (argc - optind != 2)
		return cli_usage_error("expect", argc - optind < 2 ?
					"need an EXPECT_FILE and a RESULTS_DIR" :
					"too many operands: EXPECT_FILE RESULTS_DIR");
	err_init(&err);
	rc = expect_parse(argv[optind], &ef, &o, &err);
	if (rc) {
		expect_file_free(&ef);
		return cli_error("expect", rc == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s", err.msg);
	}
	rc = expect_judge(&ef, argv[optind + 1], &o);
	expect_file_free(&ef);
	if (rc < 0)
		return cli_error("expect", EXIT_FAIL, "out of memory");
	return cli_stdout_check_code("expect", rc ? EXIT_FAIL : EXIT_OK, EXIT_USAGE);
}
