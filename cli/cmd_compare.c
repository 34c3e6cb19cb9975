/* cmd_compare.c - `exitscope compare BASE NEW`: A/B verdicts with statistics. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "compare/compare.h"
#include "results/outfile.h"
#include "results/result_read.h"

static void compare_usage(FILE *f)
{
	fprintf(f,
		"usage: exitscope compare BASE.json NEW.json [--threshold PCT] [--fail-on-regression]\n"
		"                         [--json FILE] [--seed N]\n"
		"\n"
		"Compare two result files (from `exitscope run --json`): host differences\n"
		"first (with a loud warning when the CPUs or the execution modes differ),\n"
		"then for every probe in both files the median cycles/op of each, the\n"
		"difference in cycles and percent, its 95%% confidence interval (a seeded,\n"
		"reproducible bootstrap over the raw samples) and a verdict: faster, slower\n"
		"or no significant change. A change is significant when the interval\n"
		"excludes 0 and the difference is at least the threshold. Changes of\n"
		"exits/op and the other per-op counters, ownership-map changes, and probes\n"
		"found in only one file are listed too.\n"
		"\n"
		"  --threshold PCT       smallest relative change that counts (default %.0f%%)\n"
		"  --fail-on-regression  exit 1 if any probe is significantly slower\n"
		"  --json FILE           also write the comparison as JSON to FILE ('-': stdout,\n"
		"                        instead of the text)\n"
		"  --seed N              bootstrap seed (default %d; same seed, same intervals)\n"
		"  -h, --help            this text\n"
		"\n"
		"Exit status: 0 compared, 1 regression with --fail-on-regression or the\n"
		"output could not be written, 2 usage error (an output file that cannot be\n"
		"written is found before anything is read) or unreadable/invalid input file.\n",
		COMPARE_THRESHOLD_PCT, COMPARE_SEED);
}

static int parse_threshold(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end != s && *end == '%')
		end++;
	if (errno || end == s || *end || !isfinite(v) || v < 0 || v > 1000)
		return -1;
	*out = v;
	return 0;
}

static int parse_seed(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (*s == '-' || *s == '\0')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* The comparison as JSON, through a checked (atomic for regular files) outfile. */
static int write_json(const char *path, const struct compare_result *cr)
{
	json_t *doc = compare_to_json(cr);
	char err[PATH_MAX + 128];
	struct outfile o;
	int r;

	if (!doc)
		return cli_error("compare", EXIT_FAIL, "out of memory");
	r = outfile_open(&o, path, err, sizeof(err));
	if (!r && (json_dumpf(doc, o.f, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) ||
		   fputc('\n', o.f) == EOF)) {
		int e = o.err ? o.err : ENOMEM;

		outfile_abort(&o);
		snprintf(err, sizeof(err), "%s: %s", path, strerror(e));
		r = -e;
	} else if (!r) {
		r = outfile_commit(&o, err, sizeof(err));
	}
	json_decref(doc);
	if (r)
		return cli_error("compare", EXIT_FAIL, "cannot write %s", err);
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "threshold", required_argument, NULL, 't' },
		{ "fail-on-regression", no_argument, NULL, 'f' },
		{ "json", required_argument, NULL, 'j' },
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct result_file *a = NULL, *b = NULL;
	struct compare_result *cr = NULL;
	struct compare_opts copts;
	const char *json_path = NULL, *files[2];
	int c, nfiles = 0, fail_on_regression = 0, rc = EXIT_USAGE;
	char err[RESULT_ERR_MAX];

	compare_opts_init(&copts);
	optind = 0;	/* full getopt reinit: "-" keeps files in order among options */
	opterr = 0;
	/* Options may come before, between or after the two files. */
	while (optind < argc) {
		c = getopt_long(argc, argv, "-h", opts, NULL);
		if (c == -1)
			break;
		switch (c) {
		case 1:
			if (nfiles == 2)
				return cli_usage_error("compare", "too many files: '%s' (want BASE NEW)", optarg);
			files[nfiles++] = optarg;
			break;
		case 't':
			if (parse_threshold(optarg, &copts.threshold_pct))
				return cli_usage_error("compare", "--threshold: '%s' is not a percentage "
						       "in 0..1000", optarg);
			break;
		case 'f':
			fail_on_regression = 1;
			break;
		case 'j':
			json_path = optarg;
			break;
		case 's':
			if (parse_seed(optarg, &copts.seed))
				return cli_usage_error("compare", "--seed: '%s' is not a non-negative integer",
						       optarg);
			break;
		case 'h':
			compare_usage(stdout);
			return EXIT_OK;
		default:
			return cli_usage_error("compare", "unknown or incomplete option '%s'",
					       argv[optind - 1]);
		}
	}
	while (optind < argc && nfiles < 2)
		files[nfiles++] = argv[optind++];
	if (optind < argc)
		return cli_usage_error("compare", "too many files: '%s' (want BASE NEW)", argv[optind]);
	if (nfiles != 2)
		return cli_usage_error("compare", "need two result files: BASE.json NEW.json");
	rc = cli_output_check("compare", json_path);
	if (rc)
		return rc;
	rc = EXIT_USAGE;

	a = result_read_file(files[0], err, sizeof(err));
	if (!a) {
		cli_error("compare", EXIT_USAGE, "%s", err);
		goto out;
	}
	b = result_read_file(files[1], err, sizeof(err));
	if (!b) {
		cli_error("compare", EXIT_USAGE, "%s", err);
		goto out;
	}
	cr = compare_results(a, b, &copts, err, sizeof(err));
	if (!cr) {
		rc = cli_error("compare", EXIT_FAIL, "%s", err);
		goto out;
	}
	/* With --json - stdout carries the JSON alone. */
	if (!json_path || strcmp(json_path, "-"))
		compare_print(stdout, cr);
	rc = cli_stdout_check("compare", EXIT_OK);
	if (!rc && json_path && write_json(json_path, cr))
		rc = EXIT_FAIL;
	else if (!rc && fail_on_regression && compare_regressed(cr))
		rc = EXIT_FAIL;
out:
	compare_free(cr);
	result_free(a);
	result_free(b);
	return rc;
}
