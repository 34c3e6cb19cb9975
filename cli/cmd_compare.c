// SPDX-License-Identifier: GPL-2.0-only
/* cmd_compare.c - `exitscope compare BASE NEW` or `A1 [A2..] -- B1 [B2..]`: A/B verdicts with statistics. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "compare/compare.h"
#include "results/noise.h"
#include "results/outfile.h"
#include "results/result_read.h"

struct compare_cmd_args {
	struct compare_opts copts;
	const char *json_path, *noise_path;
	bool fail_on_regression, wide;
	const char **files;	/* the files in order, both sides */
	size_t nfiles, na;	/* na: those before the '--' */
	int split;		/* index in the options' argv of the first file after '--', -1 */
};

static int compare_threshold(void *args, const char *arg, const struct cli_parser *p);
static int compare_seed(void *args, const char *arg, const struct cli_parser *p);
static int compare_operand(void *args, const char *arg, const struct cli_parser *p);

static const struct cli_row compare_rows[] = {
	CLI_ROW_CALL("threshold", CLI_LONG('t'), "PCT", compare_threshold,
		     "smallest relative change that counts "
		     "(default " CLI_STR(COMPARE_THRESHOLD_PCT) "%)"),
	CLI_ROW_ENUM("normalize", CLI_LONG('N'), "MODE", struct compare_cmd_args, copts.normalize,
		     compare_normalize_names, COMPARE_NORMALIZE_AUTO,
		     "what is compared: 'speed': each round's net cycles put\n"
		     "at the base side's guest speed (less the probe's own\n"
		     "slope on its harness loop, fitted within runs, times\n"
		     "the loop's distance from the base side's mean);\n"
		     "'none': the net cycles as measured; 'auto': speed when\n"
		     "every run's guest code was emulated (host record), none\n"
		     "otherwise"),
	CLI_ROW_FLAG("fail-on-regression", CLI_LONG('f'), struct compare_cmd_args,
		     fail_on_regression, "exit 1 if any probe is significantly slower\n"
		     "('too noisy' and 'not judged' are not\n"
		     "regressions)"),
	CLI_ROW_FLAG("wide", CLI_LONG('w'), struct compare_cmd_args, wide,
		     "the full table (difference and CI in cycles, each probe's\n"
		     "model and runs), how the figures were put at speed, and\n"
		     "every note on one line; default: lines of at most 100\n"
		     "columns"),
	CLI_ROW_STR("json", CLI_LONG('j'), "FILE", struct compare_cmd_args, json_path, NULL,
		    "also write the comparison as JSON to FILE ('-': stdout,\n"
		    "instead of the text)"),
	CLI_ROW_CALL("seed", CLI_LONG('s'), "N", compare_seed,
		     "seed of the samples' bootstrap "
		     "(default " CLI_STR(COMPARE_SEED) "; same seed,\n"
		     "same intervals)"),
	CLI_ROW_STR("noise", CLI_LONG('n'), "FILE", struct compare_cmd_args, noise_path, NULL,
		    "the host's noise floor (exitscope-noise JSON, from K\n"
		    "runs of this host): its between-run variance is added\n"
		    "to the interval of each probe it has, for the sides\n"
		    "measured by rounds; a floor of another host, exitscope\n"
		    "or method is refused (exit 2)"),
	CLI_ROW_HELP,
	{ 0 },
};

const struct cli_cmd_spec compare_spec = {
	.name = "compare",
	.usage = "[options] BASE.json NEW.json\n"
		 "[options] A1.json [A2.json ...] -- B1.json [B2.json ...]",
	.about = "Compare result files (from `exitscope run --json`): host differences\n"
		 "first (with a loud warning when the CPUs or the execution modes differ),\n"
		 "then for every probe in both sides its cycles/op on each, the difference\n"
		 "in cycles and percent, its 95% confidence interval and a verdict: faster,\n"
		 "slower, no significant change, too noisy (the interval is wider than\n"
		 "the threshold: a change of that size could not have been detected; the\n"
		 "smallest one that could is shown) or not judged (the interval lacks the\n"
		 "variation from one run to the next). A change is significant when the\n"
		 "interval excludes 0 and the difference is at least the threshold. Files\n"
		 "with rounds (`run --method v2`) are compared by their round medians: a\n"
		 "side's figure is the mean of its round medians, the interval Welch's t\n"
		 "interval on them, which sees the drift between rounds. With several runs\n"
		 "per side (before and after '--') the run is the unit: a side's figure is\n"
		 "the mean of its run means and its variance the spread of those, so the\n"
		 "interval sees what varies from one run (process, boot) to the next. One\n"
		 "run cannot see that: its probes are not judged (the difference and the\n"
		 "run's interval shown), unless --noise adds the host's between-run variance\n"
		 "on a host that runs guest code natively, or both sides are Bochs lane runs\n"
		 "(a one-vCPU probe's interval widened by the lanes' boot-to-boot spread,\n"
		 "0.16%; docs/method.md). Where the guest's code is emulated\n"
		 "the host's speed moves every op's cost from round to round and run to run;\n"
		 "each round also timed the harness loop beside the op, so its net cost is\n"
		 "put at the base side's guest speed (--normalize), and a 'guest speed' line\n"
		 "compares the loop itself. Without rounds (v1, older\n"
		 "recordings) or with fewer than 2 on a side, the medians of the samples\n"
		 "are compared with a seeded, reproducible bootstrap over them, with a note\n"
		 "that run-to-run variance is not seen. Changes of exits/op and the other per-op\n"
		 "counters (each side's mean over its runs; a change when every run is the same\n"
		 "whole number per op, none on one side against at least one per op on the\n"
		 "other, or by Welch t on the run values with 2 runs or more a side; with one\n"
		 "run a side when the counts exclude chance (p < 0.001) and the step exceeds\n"
		 "the host's own interrupts per op, guest code not emulated; other\n"
		 "differences are listed as not judged),\n"
		 "ownership-map and check changes (of each side's first file), and\n"
		 "probes found on one side only are listed too.\n",
	.rows = compare_rows,
	.operand = compare_operand,
	.col = 24,
	.order = '-',	/* files in order among the options: the '--' is taken out before */
	.tail = "Exit status: 0 compared (also when probes are too noisy or not judged), 1\n"
		"regression with --fail-on-regression or the output could not be written, 2\n"
		"usage error (an output file that cannot be written is found before anything\n"
		"is read), unreadable/invalid input file, a noise floor that does not fit the\n"
		"runs, or one run given twice (on a side, or on both: the same start, end and\n"
		"process); 130, 143, 129 stopped by Ctrl-C, SIGTERM, SIGHUP (one line says so;\n"
		"a file is written whole or not at all).\n",
};

/* --threshold PCT: a trailing '%' allowed. */
static int compare_threshold(void *args, const char *arg, const struct cli_parser *p)
{
	struct compare_cmd_args *a = args;

	if (cli_parse_pct(arg, 0, COMPARE_THRESHOLD_MAX_PCT, &a->copts.threshold_pct))
		return cli_usage_error("compare", "--threshold: '%s' is not a percentage in 0..%g",
				       arg, COMPARE_THRESHOLD_MAX_PCT);
	return 0;
}

/* --seed N, at most CLI_SEED_MAX: the JSON writes the seed as the integer it is. */
static int compare_seed(void *args, const char *arg, const struct cli_parser *p)
{
	struct compare_cmd_args *a = args;

	if (cli_parse_u64(arg, false, CLI_SEED_MAX, &a->copts.seed))
		return cli_usage_error("compare", "--seed: '%s' is not an integer 0-%lld", arg,
				       (long long)CLI_SEED_MAX);
	return 0;
}

/* A file, at argv[optind - 1]: a base file when before the '--'. */
static int compare_operand(void *args, const char *arg, const struct cli_parser *p)
{
	struct compare_cmd_args *a = args;

	a->files[a->nfiles++] = arg;
	if (a->split < 0 || optind - 1 < a->split)
		a->na = a->nfiles;
	return 0;
}

/* The comparison as JSON, through a checked (atomic for regular files) outfile. */
static int write_json(const char *path, const struct compare_result *cr)
{
	struct err err;
	int r = cli_stopped("compare", "the --json file not written");

	if (r)
		return r;
	r = compare_result_write(cr, path, cli_stop_output, &err);
	if (r && *cli_stop_flag())	/* a write blocked on a FIFO, ended by the stop */
		return cli_stopped("compare", "the --json output cut short");
	if (r)
		return cli_error("compare", EXIT_FAIL, "cannot write %s", err.msg);
	return 0;
}

static void free_side(struct result_file **rf, size_t n)
{
	for (size_t i = 0; rf && i < n; i++)
		result_free(rf[i]);
	free(rf);
}

int cmd_compare(int argc, char **argv)
{
	struct result_file **a = NULL, **b = NULL;
	struct compare_result *cr = NULL;
	struct compare_cmd_args ca = { .split = -1 };
	const char **files = NULL;
	struct noise_floor *noise = NULL;
	char **args = NULL;
	int i, nargs = 0, split = -1, rc = EXIT_USAGE;
	size_t nb = 0;
	struct err err;
	struct cli_parser p;

	/*
	 * The one '--' between the sides is taken out before getopt (which would
	 * end option parsing there), so options may still follow it; split is
	 * the index of the first file after it.
	 */
	args = calloc((size_t)argc + 1, sizeof(*args));
	files = calloc((size_t)argc + 1, sizeof(*files));
	if (!args || !files) {
		rc = cli_error("compare", EXIT_FAIL, "out of memory");
		goto out;
	}
	for (i = 0; i < argc; i++) {
		if (i > 0 && strcmp(argv[i], "--") == 0) {
			if (split >= 0) {
				rc = cli_usage_error("compare", "more than one '--' (want A1.json "
						     "[A2.json ...] -- B1.json [B2.json ...])");
				goto out;
			}
			split = nargs;
			continue;
		}
		args[nargs++] = argv[i];
	}
	/* Options may come before, between or after the files (the operands, in order). */
	compare_opts_init(&ca.copts);
	ca.files = files;
	ca.split = split;
	rc = cli_parse(&p, &compare_spec, &ca, nargs, args);
	if (rc) {
		rc = rc == CLI_PARSE_HELP ? EXIT_OK : rc;
		goto out;
	}
	rc = EXIT_USAGE;
	if (split < 0) {
		if (ca.nfiles != 2) {
			rc = cli_usage_error("compare", ca.nfiles < 2 ?
					     "need two result files: BASE.json NEW.json (or "
					     "A1.json [A2.json ...] -- B1.json [B2.json ...])" :
					     "%zu files without '--': separate the sides (A1.json "
					     "[A2.json ...] -- B1.json [B2.json ...])", ca.nfiles);
			goto out;
		}
		ca.na = 1;
	}
	nb = ca.nfiles - ca.na;
	if (!ca.na || !nb) {
		rc = cli_usage_error("compare",
				     "no %s files %s '--' (want A1.json [A2.json ...] -- B1.json "
				     "[B2.json ...])", ca.na ? "new" : "base",
				     ca.na ? "after" : "before");
		goto out;
	}
	rc = cli_output_distinct("compare", "--json", ca.json_path, files, ca.nfiles, "input");
	if (!rc)
		rc = cli_output_distinct("compare", "--json", ca.json_path, &ca.noise_path, 1,
					 "--noise");
	if (!rc)
		rc = cli_output_check("compare", ca.json_path);
	if (rc)
		goto out;
	/* A stop ends it with one line and 128 + the signal (a file it writes is whole or untouched). */
	cli_install_sigint();
	rc = EXIT_USAGE;
	a = calloc(ca.na, sizeof(*a));
	b = calloc(nb, sizeof(*b));
	if (!a || !b) {
		rc = cli_error("compare", EXIT_FAIL, "out of memory");
		goto out;
	}
	if (cli_read_results("compare", files, ca.na, a) ||
	    cli_read_results("compare", files + ca.na, nb, b))
		goto out;
	if (compare_runs_distinct((const struct result_file *const *)a, ca.na,
				  (const struct result_file *const *)b, nb, &err)) {
		rc = cli_error("compare", EXIT_USAGE, "%s", err.msg);
		goto out;
	}
	if (ca.noise_path) {
		noise = noise_read_file(ca.noise_path, &err);
		if (!noise || compare_noise_check(noise, (const struct result_file *const *)a, ca.na,
						  (const struct result_file *const *)b, nb, &err)) {
			rc = cli_error("compare", EXIT_USAGE, "%s", err.msg);
			goto out;
		}
		ca.copts.noise = noise;
	}
	rc = cli_stopped("compare", "nothing compared");
	if (rc)
		goto out;
	cr = compare_results_multi((const struct result_file *const *)a, ca.na,
				   (const struct result_file *const *)b, nb, &ca.copts, &err);
	if (!cr) {
		rc = cli_error("compare", EXIT_FAIL, "%s", err.msg);
		goto out;
	}
	rc = cli_stopped("compare", "nothing written");
	if (rc)
		goto out;
	/* With --json - stdout carries the JSON alone. */
	if (!ca.json_path || strcmp(ca.json_path, "-")) {
		compare_print(stdout, cr, ca.wide);
	}
	rc = *cli_stop_flag() ?
	     cli_stopped("compare", ca.json_path ? "the --json file not written" : NULL) :
	     cli_stdout_check("compare", EXIT_OK);
	if (!rc && ca.json_path)
		rc = write_json(ca.json_path, cr);
	if (!rc && ca.json_path)
		rc = cli_stopped("compare", "after the --json file was written");
	if (!rc && ca.fail_on_regression && compare_regressed(cr))
		rc = EXIT_FAIL;
out:
	compare_free(cr);
	noise_free(noise);
	free_side(a, ca.na);
	free_side(b, nb);
	free(args);
	free(files);
	return rc;
}
