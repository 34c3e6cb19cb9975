// SPDX-License-Identifier: GPL-2.0-only
/* cmd_report.c - `exitscope report RUN.json [MORE.json ...] -o report.html`: one self-contained HTML report. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/text.h"
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "compare/walk_steps.h"
#include "report/report.h"
#include "results/compare_doc.h"
#include "results/noise.h"
#include "results/outfile.h"
#include "results/walk_model.h"

#define DEFAULT_OUT "exitscope-report.html"

struct report_in {
	const char *paths[REPORT_MAX_FILES];
	size_t n, n_base;		/* n_base: files before '--' (0: no '--') */
	const char *noise_path;
	struct compare_opts copts;
	int opts_given;			/* an option that a compare document sets */
	const char *out;		/* -o FILE */
	int split;			/* index of the first new-side file in the options' argv, -1 */
};

static int report_threshold(void *args, const char *arg, const struct cli_parser *p);
static int report_seed(void *args, const char *arg, const struct cli_parser *p);
static int report_operand(void *args, const char *arg, const struct cli_parser *p);
static int report_seen(void *args, int key, const struct cli_parser *p);
static void report_about(FILE *f);

static const struct cli_row report_rows[] = {
	CLI_ROW_STR("output", 'o', "FILE", struct report_in, out, DEFAULT_OUT,
		    "where to write the report, '-': stdout"),
	CLI_ROW_CALL("threshold", CLI_LONG('t'), "PCT", report_threshold,
		     "smallest relative change that counts "
		     "(default " CLI_STR(COMPARE_THRESHOLD_PCT) "%)"),
	CLI_ROW_CALL("seed", CLI_LONG('s'), "N", report_seed,
		     "bootstrap seed for the comparisons (default " CLI_STR(COMPARE_SEED) ")"),
	CLI_ROW_ENUM("normalize", CLI_LONG('N'), "MODE", struct report_in, copts.normalize,
		     compare_normalize_names, COMPARE_NORMALIZE_AUTO,
		     "what the comparisons compare, as `exitscope compare`:\n"
		     "auto, speed or none"),
	CLI_ROW_STR("noise", CLI_LONG('n'), "FILE", struct report_in, noise_path, NULL,
		    "the host's noise floor (exitscope calibrate), as\n"
		    "`exitscope compare --noise`: a floor of another host,\n"
		    "exitscope or method is refused (exit 2)"),
	CLI_ROW_HELP,
	{ 0 },
};

const struct cli_cmd_spec report_spec = {
	.name = "report",
	.usage = "[options] RUN.json [MORE.json ...]\n"
		 "[options] A1.json [A2.json ...] -- B1.json [B2.json ...]\n"
		 "[options] COMPARE.json\n"
		 "[options] WALK.json",
	.about_print = report_about,
	.rows = report_rows,
	.operand = report_operand,
	.seen = report_seen,
	.col = 22,
	.order = '-',	/* files in order among the options */
	.tail = CLI_TAIL_WRITE_FROM_RESULTS,
};

/* `report WALK.json`: the walk, its runs and steps, through a checked outfile. */
static int report_walk(const char *path, const char *out)
{
	char shown[PATH_MAX * 4];
	struct walk_steps steps;
	struct walk_file *w;
	struct outfile of;
	struct err err;
	int rc = EXIT_OK;
	size_t n = 0;

	w = walk_read_file(path, &err);
	if (!w)
		return cli_error("report", EXIT_USAGE, "%s", err.msg);
	if (walk_read_runs(w, &err)) {
		walk_free(w);
		return cli_error("report", EXIT_USAGE, "%s", err.msg);
	}
	if (walk_steps_build(w, &steps)) {
		walk_free(w);
		return cli_error("report", EXIT_FAIL, "out of memory");
	}
	rc = cli_stopped("report", "nothing written");
	if (!rc && outfile_open(&of, out, &err)) {
		rc = cli_error("report", EXIT_FAIL, "cannot write %s", err.msg);
	} else if (!rc && (cli_stop_output(&of), report_write_walk_html(of.f, &steps, &err))) {
		int e = of.err;

		outfile_abort(&of);
		rc = e && *cli_stop_flag() ? cli_stopped("report", "the report cut short")
		   : e ? cli_error("report", EXIT_FAIL, "cannot write %s: %s", out, strerror(e))
		       : cli_error("report", EXIT_FAIL, "%s: %s", out, err.msg);
	} else if (!rc && outfile_commit(&of, &err)) {
		rc = *cli_stop_flag() ? cli_stopped("report", "the report cut short")
				      : cli_error("report", EXIT_FAIL, "cannot write %s", err.msg);
	} else if (!rc) {
		rc = cli_stopped("report", "after the report was written");
	}
	cli_stop_output(NULL);
	for (size_t i = 0; i < steps.n_lanes; i++)
		for (size_t j = 0; j < steps.lanes[i].n_probes; j++)
			n += steps.lanes[i].probes[j].n_steps;
	if (rc == EXIT_OK && strcmp(out, "-"))
		printf("exitscope report: wrote %s (walk: %zu commits, %zu step%s)\n",
		       text_esc(shown, sizeof(shown), out), w->n_commits, n, n == 1 ? "" : "s");
	walk_steps_free(&steps);
	walk_free(w);
	return cli_stdout_check("report", rc);
}

/* The about paragraph: the files it takes at most are report.h's. */
static void report_about(FILE *f)
{
	fprintf(f, "Write one self-contained HTML file (inline CSS and SVG, no scripts, nothing\n"
		   "fetched) from result files: the host records at the top; per-probe cost\n"
		   "charts (median, 95%% confidence interval, sample spread) grouped by probe\n"
		   "group, with why each probe stopped when the file says (precision, or budget\n"
		   "highlighted: its CI did not reach --precision); the ownership map as a grid\n"
		   "of bits x CPUID profiles; the check results; published hardware figures for\n"
		   "a host's CPU family; and, for two or more files, A/B comparisons of each file\n"
		   "against the first with verdicts (as `exitscope compare`: faster, slower, no\n"
		   "significant change, too noisy) and what each interval is. With '--' the\n"
		   "files before it are the runs of the base side and those after it the runs\n"
		   "of the new, pooled as `exitscope compare A1 A2 -- B1 B2` pools them: one\n"
		   "comparison. A compare --json document, alone, is drawn from the files it\n"
		   "names, read again and compared again with its options (threshold, seed,\n"
		   "normalize, noise floor); a file that is missing or no longer gives the\n"
		   "document's figures is refused (exit 2), and options given with it too.\n"
		   "Files are labelled A, B, ... in the order given (at most %d). A walk file\n"
		   "(exitscope walk) is reported alone: per lane its steps, and per one-vCPU\n"
		   "probe a chart of its lane cycles over the commits with the steps marked and,\n"
		   "under it, the exit-path functions that changed (--threshold, --seed,\n"
		   "--normalize and --noise do not apply).\n", REPORT_MAX_FILES);
}

/* Through a checked outfile: a failed write leaves no half report and an old one intact. */
static int write_report(const char *path, struct result_file **files, size_t n,
			const struct report_how *how)
{
	struct err err;
	struct outfile of;
	int r;

	r = cli_stopped("report", "nothing written");
	if (r)
		return r;
	r = outfile_open(&of, path, &err);
	if (r)
		return cli_error("report", EXIT_FAIL, "cannot write %s", err.msg);
	cli_stop_output(&of);
	if (report_write(of.f, files, n, how, &err)) {
		int e = of.err;

		outfile_abort(&of);
		cli_stop_output(NULL);
		if (e && *cli_stop_flag())	/* a write blocked on a FIFO, ended by the stop */
			return cli_stopped("report", "the report cut short");
		if (e)	/* the write failed: that is the reason, not what report saw */
			return cli_error("report", EXIT_FAIL, "cannot write %s: %s", path,
					 strerror(e));
		return cli_error("report", EXIT_FAIL, "%s: %s", path, err.msg);
	}
	r = outfile_commit(&of, &err);
	cli_stop_output(NULL);
	if (r) {
		if (*cli_stop_flag())
			return cli_stopped("report", "the report cut short");
		return cli_error("report", EXIT_FAIL, "cannot write %s", err.msg);
	}
	return cli_stopped("report", "after the report was written");
}

/* Two figures the same as a document wrote them (10 significant digits) and read them back. */
static int same_figure(double a, double b)
{
	return fabs(a - b) <= 1e-8 * fmax(fabs(a), fabs(b)) + 1e-12;
}

/*
 * Does the comparison made again give the document's figures? Every probe
 * of the document with its verdict and, compared, its two figures. 0, or
 * EXIT_USAGE after one line saying what differs.
 */
static int doc_check(const struct compare_doc *d, struct result_file **files, size_t n,
		     const struct compare_opts *o)
{
	struct compare_result *cr;
	struct err err;
	size_t i, j;
	int rc = EXIT_OK;

	cr = compare_results_multi((const struct result_file *const *)files, d->n_base,
				   (const struct result_file *const *)files + d->n_base, n - d->n_base,
				   o, &err);
	if (!cr)
		return cli_error("report", EXIT_FAIL, "%s", err.msg);
	for (i = 0; i < d->n_probes && !rc; i++) {
		const struct compare_doc_probe *dp = &d->probes[i];
		const struct compare_probe *p = NULL;

		for (j = 0; j < cr->n_probes && !p; j++)
			if (!strcmp(cr->probes[j].name, dp->name))
				p = &cr->probes[j];
		if (!p)
			rc = cli_error("report", EXIT_USAGE,
				       "%s: probe %s is not on both sides of its files now: a file "
				       "changed since the comparison", d->name, dp->name);
		else if ((unsigned)p->verdict >= COMPARE_VERDICT_N ||
			 strcmp(compare_verdict_names[p->verdict], dp->verdict) ||
			 (dp->has_figures && (!same_figure(p->d.median_a, dp->base_median) ||
					      !same_figure(p->d.median_b, dp->new_median))))
			rc = cli_error("report", EXIT_USAGE, "%s: probe %s: %.1f -> %.1f (%s) now, "
				       "%.1f -> %.1f (%s) in the document: a file changed "
				       "since the comparison", d->name, dp->name, p->d.median_a,
				       p->d.median_b, (unsigned)p->verdict < COMPARE_VERDICT_N ?
				       compare_verdict_names[p->verdict] : "?",
				       dp->has_figures ? dp->base_median : NAN,
				       dp->has_figures ? dp->new_median : NAN, dp->verdict);
	}
	if (!rc && cr->n_probes != d->n_probes)
		rc = cli_error("report", EXIT_USAGE, "%s: %zu probes on both sides now, %zu in the "
			       "document: a file changed since the comparison", d->name,
			       cr->n_probes, d->n_probes);
	compare_free(cr);
	return rc;
}

/*
 * A compare --json document: its files (checked to exist first), its
 * options into in. EXIT_OK, or EXIT_USAGE after one line.
 */
static int doc_inputs(const struct compare_doc *d, struct report_in *in)
{
	size_t i, n = d->n_base + d->n_new;

	if (in->opts_given)
		return cli_usage_error("report", "%s: a compare document brings its own options "
				       "(--threshold, --seed, --normalize, --noise)", d->name);
	if (n > REPORT_MAX_FILES)
		return cli_error("report", EXIT_USAGE,
				 "%s: %zu files, more than the %d a report labels", d->name, n,
				 REPORT_MAX_FILES);
	if (d->noise_used && !d->noise_file)
		return cli_error("report", EXIT_USAGE, "%s: its noise floor names no file",
				 d->name);
	for (i = 0; i < n; i++) {
		const char *f = i < d->n_base ? d->base_files[i] : d->new_files[i - d->n_base];

		if (access(f, R_OK))
			return cli_error("report", EXIT_USAGE, "%s: its file %s: %s", d->name, f,
					       strerror(errno));
		in->paths[i] = f;
	}
	if (d->noise_file && access(d->noise_file, R_OK))
		return cli_error("report", EXIT_USAGE, "%s: its noise floor %s: %s", d->name,
				 d->noise_file, strerror(errno));
	in->n = n;
	in->n_base = d->n_base;
	in->noise_path = d->noise_file;
	in->copts.threshold_pct = d->threshold_pct;
	in->copts.seed = (uint64_t)d->seed;
	/* Before the document said what it asked, compare compared the cycles as measured. */
	if (compare_normalize_parse(d->normalize ? d->normalize : "none", &in->copts.normalize))
		return cli_error("report", EXIT_USAGE,
				 "%s: normalize.asked: '%s' is not auto, speed or none",
				 d->name, d->normalize);
	return EXIT_OK;
}

/* --threshold PCT, as compare reads it: a trailing '%' allowed. */
static int report_threshold(void *args, const char *arg, const struct cli_parser *p)
{
	struct report_in *in = args;

	if (cli_parse_pct(arg, 0, COMPARE_THRESHOLD_MAX_PCT, &in->copts.threshold_pct))
		return cli_usage_error("report", "--threshold: '%s' is not a percentage in 0..%g",
				       arg, COMPARE_THRESHOLD_MAX_PCT);
	return 0;
}

/* --seed N: the comparisons' bootstrap seed. */
static int report_seed(void *args, const char *arg, const struct cli_parser *p)
{
	struct report_in *in = args;

	if (cli_parse_u64(arg, false, CLI_SEED_MAX, &in->copts.seed))
		return cli_usage_error("report", "--seed: '%s' is not an integer 0-%lld", arg,
				       (long long)CLI_SEED_MAX);
	return 0;
}

/* A file, in order; those before the '--' (split) are the base side. */
static int report_operand(void *args, const char *arg, const struct cli_parser *p)
{
	struct report_in *in = args;

	if (cli_operand_add("report", in->paths, &in->n, REPORT_MAX_FILES, arg))
		return EXIT_USAGE;
	if (in->split < 0 || optind - 1 < in->split)
		in->n_base = in->n;
	return 0;
}

/* Every option but -o is one a compare document sets too. */
static int report_seen(void *args, int key, const struct cli_parser *p)
{
	struct report_in *in = args;

	if (key != 'o')
		in->opts_given = 1;
	return 0;
}

/* The options and files; the '--' between the sides taken out first, as compare does. */
static int parse_args(int argc, char **argv, struct report_in *in)
{
	char **args = calloc((size_t)argc + 1, sizeof(*args));
	int i, nargs = 0, split = -1, rc = -1;
	struct cli_parser p;

	if (!args)
		return cli_error("report", EXIT_FAIL, "out of memory");
	for (i = 0; i < argc; i++) {
		if (i > 0 && !strcmp(argv[i], "--")) {
			if (split >= 0) {
				rc = cli_usage_error("report", "more than one '--' (want A1.json "
						     "[A2.json ...] -- B1.json [B2.json ...])");
				goto out;
			}
			split = nargs;
			continue;
		}
		args[nargs++] = argv[i];
	}
	in->split = split;
	rc = cli_parse(&p, &report_spec, in, nargs, args);
	if (rc) {
		rc = rc == CLI_PARSE_HELP ? EXIT_OK : rc;
		goto out;
	}
	for (; optind < nargs && !rc; optind++) {
		rc = cli_operand_add("report", in->paths, &in->n, REPORT_MAX_FILES, args[optind]);
		if (split < 0 || optind < split)
			in->n_base = in->n;
	}
	if (!rc && !in->n)
		rc = cli_usage_error("report", "need at least one result file");
	if (!rc && split < 0)
		in->n_base = 0;
	else if (!rc && (!in->n_base || in->n_base == in->n))
		rc = cli_usage_error("report", "no %s files %s '--' (want A1.json [A2.json ...] -- "
				     "B1.json [B2.json ...])", in->n_base ? "new" : "base",
				     in->n_base ? "after" : "before");
	if (!rc)
		rc = -1;	/* go on */
out:
	free(args);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct result_file *files[REPORT_MAX_FILES] = { 0 };
	struct report_in in = { .n = 0 };
	struct report_how how = { .cmp = &in.copts };
	struct compare_doc *doc = NULL;
	struct noise_floor *noise = NULL;
	char schema[64];
	struct err err;
	size_t i, nread = 0;
	int rc;

	compare_opts_init(&in.copts);
	rc = parse_args(argc, argv, &in);
	if (rc >= 0)
		return rc;
	rc = cli_output_distinct("report", "-o", in.out, in.paths, in.n, "input");
	if (!rc && in.noise_path)
		rc = cli_output_distinct("report", "-o", in.out, &in.noise_path, 1, "--noise");
	if (!rc)
		rc = cli_output_check("report", in.out);
	if (rc)
		return rc;
	/* A stop ends it with one line and 128 + the signal (the report is whole or untouched). */
	cli_install_sigint();
	for (i = 0; i < in.n; i++) {
		if (walk_file_is_walk(in.paths[i])) {
			if (in.n > 1)
				return cli_usage_error("report",
						       "%s: a walk file is reported alone",
						       in.paths[i]);
			return report_walk(in.paths[0], in.out);
		}
		if (compare_doc_schema(in.paths[i], schema, sizeof(schema)) ||
		    strcmp(schema, COMPARE_SCHEMA))
			continue;
		if (in.n > 1)
			return cli_usage_error("report", "%s: a compare document is reported alone",
					       in.paths[i]);
		doc = compare_doc_read(in.paths[0], &err);
		if (!doc)
			return cli_error("report", EXIT_USAGE, "%s", err.msg);
		if (doc->version > COMPARE_SCHEMA_VERSION) {
			rc = cli_error("report", EXIT_USAGE,
				       "%s: schema_version %lld (this exitscope reads 2 to %d)",
				       doc->name, doc->version, COMPARE_SCHEMA_VERSION);
			goto out;
		}
		rc = doc_inputs(doc, &in);
		/* -o is none of the files the document names either */
		if (!rc)
			rc = cli_output_distinct("report", "-o", in.out, in.paths, in.n, "input");
		if (!rc && in.noise_path)
			rc = cli_output_distinct("report", "-o", in.out, &in.noise_path, 1,
						 "--noise");
		if (rc)
			goto out;
		how.doc = doc->name;
		break;
	}
	nread = in.n;	/* those read are freed, also when one fails */
	rc = cli_read_results("report", in.paths, in.n, files);
	if (rc)
		goto out;
	how.n_base = in.n_base;
	/* Pooled, the sides' runs; else the first, which every other file is compared with, and those. */
	if (in.n > 1 && compare_runs_distinct((const struct result_file *const *)files,
					      in.n_base ? in.n_base : 1,
					      (const struct result_file *const *)files +
					      (in.n_base ? in.n_base : 1),
					      in.n - (in.n_base ? in.n_base : 1), &err)) {
		rc = cli_error("report", EXIT_USAGE, "%s", err.msg);
		goto out;
	}
	if (in.noise_path) {
		/* The sides compare would take: pooled, or A against each file after it. */
		size_t na = in.n_base ? in.n_base : 1;

		noise = noise_read_file(in.noise_path, &err);
		if (!noise || compare_noise_check(noise, (const struct result_file *const *)files, na,
						  (const struct result_file *const *)files + na,
						  in.n - na, &err)) {
			rc = cli_error("report", EXIT_USAGE, "%s", err.msg);
			goto out;
		}
		in.copts.noise = noise;
	}
	if (doc) {
		rc = doc_check(doc, files, in.n, &in.copts);
		if (rc)
			goto out;
	}
	rc = write_report(in.out, files, in.n, &how);
	if (rc == EXIT_OK && strcmp(in.out, "-")) {
		char shown[PATH_MAX * 4];

		printf("exitscope report: wrote %s\n", text_esc(shown, sizeof(shown), in.out));
	}
	rc = cli_stdout_check("report", rc);
out:
	for (i = 0; i < nread; i++)
		result_free(files[i]);
	noise_free(noise);
	compare_doc_free(doc);
	return rc;
}
