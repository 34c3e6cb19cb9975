// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_expect.c - `exitscope expect [--tol T] EXPECT_FILE RESULTS_DIR`: a
 * lane's results judged against an expectations file (expect/expect.h,
 * man exitscope-expect); scripts/lane-assert runs it. With --ab DIR, an
 * A/B file judged on an A/B output directory; scripts/lane-ab runs that.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "expect/expect.h"
#include "base/words.h"

#define EXPECT_TOL_DEFAULT	0.1
#define EXPECT_PAIRS_MAX	64	/* --pairs: pairs judged at most */

struct expect_args {
	double tol;
	const char *ab, *pairs;
	const char *across, *lanes, *sources;
};

static int expect_tol(void *args, const char *arg, const struct cli_parser *p);

static const struct cli_row expect_rows[] = {
	CLI_ROW_CALL("tol", CLI_LONG('t'), "T", expect_tol,
		     "a NUM \"N\" holds for a value within T of N; >=N and <=N\n"
		     "allow T too (default 0.1)"),
	CLI_ROW_STR("ab", CLI_LONG('a'), "DIR", struct expect_args, ab, NULL,
		    "an A/B file judged on the comparisons in DIR, an A/B output\n"
		    "directory (scripts/lane-ab); no RESULTS_DIR"),
	CLI_ROW_STR("pairs", CLI_LONG('p'), "LIST", struct expect_args, pairs, "a:b",
		    "with --ab: the pairs compared, \"BASE:NEW ...\", the first\n"
		    "the one lines are about until a pair line"),
	CLI_ROW_STR("across", CLI_LONG('x'), "DIR", struct expect_args, across, NULL,
		    "a file of facts between kernels judged on DIR's runs,\n"
		    "LANE-SOURCE/results/ (scripts/lane-kernels); no RESULTS_DIR"),
	CLI_ROW_STR("lanes", CLI_LONG('l'), "LIST", struct expect_args, lanes, NULL,
		    "with --across: the lanes run, \"LANE ...\" (default: those\n"
		    "of DIR's LANE-SOURCE directories)"),
	CLI_ROW_STR("sources", CLI_LONG('s'), "LIST", struct expect_args, sources, NULL,
		    "with --across: the kernel sources run, \"SOURCE ...\"\n"
		    "(default: those of DIR's LANE-SOURCE directories)"),
	CLI_ROW_HELP,
	{ 0 },
};

const struct cli_cmd_spec expect_spec = {
	.name = "expect",
	.usage = "[options] EXPECT_FILE RESULTS_DIR\n"
		 "[--tol T] --ab DIR [--pairs LIST] EXPECT_FILE\n"
		 "--across DIR [--lanes LIST] [--sources LIST] EXPECT_FILE",
	.about = "Judge the results a lane brought back (RESULTS_DIR: NAME.json and NAME.rc\n"
		 "for each block) against an expectations file: one line per expectation,\n"
		 "\"  ok    ...\", \"  FAIL  ...\" or \"  skip  ...\" with the measured figures,\n"
		 "then \"lane-assert: N passed, M failed, K skipped\". Every figure is read\n"
		 "as `exitscope query` reads it. The language: man exitscope-expect.\n"
		 "With --ab, the A/B kinds on DIR's compare-BASE-NEW-BLOCK.json and the sides'\n"
		 "SIDE/results/, the lines \"  ok    BASE->NEW: ...\", then \"lane-ab:\n"
		 "expectations: N passed, M failed, K skipped\".\n"
		 "With --across, the kinds between kernels on DIR's LANE-SOURCE/results/, then\n"
		 "\"lane-kernels: across: N passed, M failed, K skipped\".\n",
	.rows = expect_rows,
	.col = 15,
	.order = '+',
	.tail = "  exitscope expect lanes/expect-vmx.txt build-lanes/vmx/results\n"
		"  exitscope expect --ab build-lanes/ab-aa-vmx lanes/ab/aa.expect\n"
		"  exitscope expect --across build-lanes/kernels lanes/kernels/expect-across.txt\n"
		"\n"
		"Exit status: 0 every expectation held (and at least one passed), 1 one\n"
		"failed or none passed, or the output could not be written, 2 usage error,\n"
		"an expectations file that cannot be read or does not parse (each bad line\n"
		"named FILE:LINE on stderr), or a RESULTS_DIR (--across: DIR) that is no\n"
		"directory.\n",
};

/* --tol T: a number >= 0. */
static int expect_tol(void *args, const char *arg, const struct cli_parser *p)
{
	struct expect_args *a = args;

	if (cli_parse_num(arg, 0, 1e300, &a->tol))
		return cli_usage_error("expect", "--tol: '%s' is not a number >= 0", arg);
	return 0;
}

/* RESULTS_DIR is a directory: 0, or its one usage line (not a FAIL per expectation). */
static int expect_dir_check(const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return cli_error("expect", EXIT_USAGE, "RESULTS_DIR %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_error("expect", EXIT_USAGE, "RESULTS_DIR %s: %s", dir,
				 strerror(ENOTDIR));
	return 0;
}

/* --across DIR [--lanes LIST] [--sources LIST] EXPECT_FILE */
static int expect_across(const struct expect_args *a, struct expect_opts *o, int argc,
			 char **argv)
{
	struct expect_file ef;
	struct stat st;
	struct err err;
	int rc;

	if (!a->across)
		return cli_usage_error("expect", "--lanes and --sources go with --across");
	if (a->ab)
		return cli_usage_error("expect", "--across and --ab: one or the other");
	if (argc - optind != 1)
		return cli_usage_error("expect", argc - optind < 1 ?
					"--across: need an EXPECT_FILE" :
					"--across: too many operands: EXPECT_FILE only");
	o->tol = a->tol;
	o->across = true;
	err_init(&err);
	rc = expect_parse(argv[optind], &ef, o, &err);
	if (rc) {
		expect_file_free(&ef);
		return cli_error("expect", rc == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s", err.msg);
	}
	rc = stat(a->across, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (rc) {
		expect_file_free(&ef);
		return cli_error("expect", EXIT_USAGE, "--across DIR %s: %s", a->across,
				 strerror(rc));
	}
	rc = expect_judge_across(&ef, a->across, a->lanes, a->sources, o);
	expect_file_free(&ef);
	if (rc < 0)
		return cli_error("expect", EXIT_FAIL, "out of memory");
	return cli_stdout_check("expect", rc ? EXIT_FAIL : EXIT_OK);
}

int cmd_expect(int argc, char **argv)
{
	struct expect_opts o = { .out = stdout, .errs = stderr, .who = "exitscope expect" };
	struct expect_args a = { .tol = EXPECT_TOL_DEFAULT };
	struct words pairs = { 0 };
	struct expect_file ef;
	struct cli_parser cp;
	struct err err;
	size_t i;
	int rc;

	rc = cli_parse(&cp, &expect_spec, &a, argc, argv);
	if (rc)
		return rc == CLI_PARSE_HELP ? cli_stdout_check("expect", EXIT_OK) : rc;
	if (a.across || a.lanes || a.sources)
		return expect_across(&a, &o, argc, argv);
	o.tol = a.tol;
	if (a.ab && argc - optind != 1)
		return cli_usage_error("expect", argc - optind < 1 ? "--ab: need an EXPECT_FILE" :
					"--ab: too many operands: EXPECT_FILE only");
	if (!a.ab && argc - optind != 2)
		return cli_usage_error("expect", argc - optind < 2 ?
					"need an EXPECT_FILE and a RESULTS_DIR" :
					"too many operands: EXPECT_FILE RESULTS_DIR");
	o.ab = a.ab != NULL;
	if (a.ab) {
		if (words_split(&pairs, a.pairs)) {
			words_free(&pairs);
			return cli_error("expect", EXIT_FAIL, "out of memory");
		}
		for (i = 0; i < pairs.n; i++)
			if (!strchr(pairs.v[i], ':') || i == EXPECT_PAIRS_MAX) {
				rc = cli_usage_error("expect", "--pairs: '%s' is not BASE:NEW "
						     "(at most %d pairs)", pairs.v[i],
						     EXPECT_PAIRS_MAX);
				words_free(&pairs);
				return rc;
			}
		if (!pairs.n)
			return cli_usage_error("expect", "--pairs: no BASE:NEW pair");
	}
	err_init(&err);
	rc = expect_parse(argv[optind], &ef, &o, &err);
	if (rc) {
		expect_file_free(&ef);
		words_free(&pairs);
		return cli_error("expect", rc == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s", err.msg);
	}
	rc = a.ab ? 0 : expect_dir_check(argv[optind + 1]);
	if (rc) {
		expect_file_free(&ef);
		return rc;
	}
	rc = a.ab ? expect_judge_ab(&ef, a.ab, pairs.v, pairs.n, &o)
		  : expect_judge(&ef, argv[optind + 1], &o);
	expect_file_free(&ef);
	words_free(&pairs);
	if (rc < 0)
		return cli_error("expect", EXIT_FAIL, "out of memory");
	return cli_stdout_check("expect", rc ? EXIT_FAIL : EXIT_OK);
}
