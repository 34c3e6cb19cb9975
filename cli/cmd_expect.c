// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_expect.c - `exitscope expect [--tol T] EXPECT_FILE RESULTS_DIR`: a
 * lane's results judged against an expectations file (expect/expect.h,
 * man exitscope-expect); scripts/lane-assert runs it. With --ab DIR, an
 * A/B file judged on an A/B output directory; scripts/lane-ab runs that.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "expect/expect.h"

#define EXPECT_TOL_DEFAULT	0.1

static const struct cli_opt expect_opts[] = {
	{ "tol", CLI_LONG('t'), "T", "a NUM \"N\" holds for a value within T of N; >=N and <=N\n"
				     "allow T too (default 0.1)" },
	{ "ab", CLI_LONG('a'), "DIR", "an A/B file judged on the comparisons in DIR, an A/B output\n"
				      "directory (scripts/lane-ab); no RESULTS_DIR" },
	{ "pairs", CLI_LONG('p'), "LIST", "with --ab: the pairs compared, \"BASE:NEW ...\", the first\n"
					  "the one lines are about until a pair line (default a:b)" },
	CLI_OPT_HELP,
	{ 0 },
};

const struct cli_cmd_spec expect_spec = {
	.name = "expect",
	.usage = "[options] EXPECT_FILE RESULTS_DIR\n"
		 "[--tol T] --ab DIR [--pairs LIST] EXPECT_FILE",
	.about = "Judge the results a lane brought back (RESULTS_DIR: NAME.json and NAME.rc\n"
		 "for each block) against an expectations file: one line per expectation,\n"
		 "\"  ok    ...\", \"  FAIL  ...\" or \"  skip  ...\" with the measured figures,\n"
		 "then \"lane-assert: N passed, M failed, K skipped\". Every figure is read\n"
		 "as `exitscope query` reads it. The language: man exitscope-expect.\n"
		 "With --ab, the A/B kinds on DIR's compare-BASE-NEW-BLOCK.json and the sides'\n"
		 "SIDE/results/, the lines \"  ok    BASE->NEW: ...\", then \"lane-ab:\n"
		 "expectations: N passed, M failed, K skipped\".\n",
	.opts = expect_opts,
	.col = 15,
	.order = '+',
	.tail = "  exitscope expect lanes/expect-vmx.txt build-lanes/vmx/results\n"
		"  exitscope expect --ab build-lanes/ab-aa-vmx lanes/ab/aa.expect\n"
		"\n"
		"Exit status: 0 every expectation held (and at least one passed), 1 one\n"
		"failed or none passed, 2 usage error, or an expectations file that cannot\n"
		"be read or does not parse (each bad line named FILE:LINE on stderr).\n",
};

int cmd_expect(int argc, char **argv)
{
	struct expect_opts o = { .tol = EXPECT_TOL_DEFAULT, .out = stdout, .errs = stderr,
				 .who = "exitscope expect" };
	const char *ab = NULL, *pairs = "a:b";
	char *plist = NULL, *pv[64], *t;
	struct expect_file ef;
	struct cli_parser cp;
	size_t npairs = 0;
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
		case CLI_LONG('a'):
			ab = optarg;
			break;
		case CLI_LONG('p'):
			pairs = optarg;
			break;
		case 'h':
			cli_help(stdout, &expect_spec);
			return cli_stdout_check_code("expect", EXIT_OK, EXIT_USAGE);
		default:
			return cli_opts_bad(&cp);
		}
	}
	if (ab && argc - optind != 1)
		return cli_usage_error("expect", argc - optind < 1 ? "--ab: need an EXPECT_FILE" :
					"--ab: too many operands: EXPECT_FILE only");
	if (!ab && argc - optind != 2)
		return cli_usage_error("expect", argc - optind < 2 ?
					"need an EXPECT_FILE and a RESULTS_DIR" :
					"too many operands: EXPECT_FILE RESULTS_DIR");
	o.ab = ab != NULL;
	if (ab) {
		plist = strdup(pairs);
		if (!plist)
			return cli_error("expect", EXIT_FAIL, "out of memory");
		for (t = strtok(plist, " \t"); t; t = strtok(NULL, " \t")) {
			if (!strchr(t, ':') || npairs == ARRAY_SIZE(pv)) {
				free(plist);
				return cli_usage_error("expect", "--pairs: '%s' is not BASE:NEW (at most "
							"64 pairs)", t);
			}
			pv[npairs++] = t;
		}
		if (!npairs) {
			free(plist);
			return cli_usage_error("expect", "--pairs: no BASE:NEW pair");
		}
	}
	err_init(&err);
	rc = expect_parse(argv[optind], &ef, &o, &err);
	if (rc) {
		expect_file_free(&ef);
		free(plist);
		return cli_error("expect", rc == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s", err.msg);
	}
	rc = ab ? expect_judge_ab(&ef, ab, pv, npairs, &o) : expect_judge(&ef, argv[optind + 1], &o);
	expect_file_free(&ef);
	free(plist);
	if (rc < 0)
		return cli_error("expect", EXIT_FAIL, "out of memory");
	return cli_stdout_check_code("expect", rc ? EXIT_FAIL : EXIT_OK, EXIT_USAGE);
}
