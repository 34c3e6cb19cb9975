// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_calibrate.c - `exitscope calibrate [--runs K] [-o FILE] [--keep DIR]
 * [-- RUN-ARGUMENT ...]`: measure this host's noise floor. K independent
 * runs of `exitscope run RUN-ARGUMENT ...` (a process each, method/repeat.h),
 * then per probe what its figure varies by from one run to the next beyond
 * what each run's own rounds show (results/noise.h, noise_estimate), written
 * as a noise file for `compare --noise FILE`. With --from the same from
 * run files made before, and --spread prints what each probe's figure
 * varies by within and between them (results/noise.h, noise_spread),
 * --matched two series of them matched run by run (noise_matched);
 * --verdicts counts the verdicts of compare documents
 * (results/verdict_tally.h), --show prints a noise file's floor.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/array_size.h"
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "cli/progress.h"
#include "compare/compare.h"
#include "host/text_wrap.h"
#include "method/repeat.h"
#include "results/bench_runs.h"
#include "results/noise.h"
#include "results/result_read.h"
#include "results/verdict_tally.h"

#define CALIBRATE_DEFAULT_RUNS	10	/* the floor's df grows with the runs: 3 give almost none */
#define CALIBRATE_DEFAULT_OUT	"exitscope-noise.json"
#define CALIBRATE_MAX_ARGS	256

struct calibrate_args {
	unsigned int runs;
	const char *out, *keep;
	bool from, spread, runs_set, out_set;
	bool verdicts, matched, show, bench;
	char **run_argv;	/* after "--"; with --from the run files */
	int run_argc;
};

static const struct cli_row calibrate_rows[] = {
	CLI_ROW_UINT("runs", CLI_LONG('r'), "K", struct calibrate_args, runs, NOISE_MIN_RUNS,
		     REPEAT_MAX, CALIBRATE_DEFAULT_RUNS, "a number of runs",
		     "independent runs; a floor of few runs has few degrees\n"
		     "of freedom and widens intervals"),
	CLI_ROW_STR("output", 'o', "FILE", struct calibrate_args, out, CALIBRATE_DEFAULT_OUT,
		    "the noise file to write, '-' for stdout"),
	CLI_ROW_STR("keep", CLI_LONG('k'), "DIR", struct calibrate_args, keep, NULL,
		    "keep the runs' result files in DIR (run-1.json ... run-K.json;\n"
		    "created if missing; refused when one of them is there\n"
		    "already or is -o FILE); without it they go to a temporary\n"
		    "directory, removed once the floor is written"),
	CLI_ROW_FLAG("from", CLI_LONG('f'), struct calibrate_args, from,
		     "no runs: the floor of the run files given (FILE ..., at\n"
		     "least " CLI_STR(NOISE_MIN_RUNS) ")"),
	CLI_ROW_FLAG("spread", CLI_LONG('s'), struct calibrate_args, spread,
		     "with --from: print per probe the spread of its rounds within\n"
		     "and between the runs (2 or more), and each run's shift (the\n"
		     "host's speed), instead of writing a floor"),
	CLI_ROW_FLAG("matched", CLI_LONG('m'), struct calibrate_args, matched,
		     "with --from: the files are two series of K runs, first\n"
		     "the one then the other; print per probe the SD of the\n"
		     "difference of run i of each against what their rounds\n"
		     "predict, and how far their shifts agree"),
	CLI_ROW_FLAG("show", CLI_LONG('w'), struct calibrate_args, show,
		     "no runs: print the floor of the noise file given (FILE)\n"
		     "and the range of its figures over the probes"),
	CLI_ROW_FLAG("verdicts", CLI_LONG('v'), struct calibrate_args, verdicts,
		     "no runs: count the verdicts of the compare --json\n"
		     "documents given (FILE ...; an A/A series, where every\n"
		     "faster or slower is false), in all, per file, per probe"),
	CLI_ROW_FLAG("bench", CLI_LONG('b'), struct calibrate_args, bench,
		     "no runs: print the runs table of a scripts/bench-method\n"
		     "directory (DIR: its runs.tsv and stops.tsv)"),
	{ .name = "-- RUN-ARGUMENT ...",
	  .help = "probes and options of each run, as 'exitscope run' takes them\n"
		  "(default: the whole catalogue with run's defaults); calibrate\n"
		  "writes the runs' files itself, so --json, --repeat,\n"
		  "--openmetrics, --list, --all and --method v1 are refused" },
	CLI_ROW_HELP,
	{ 0 },
};

const struct cli_cmd_spec calibrate_spec = {
	.name = "calibrate",
	.usage = "[options] [-- RUN-ARGUMENT ...]\n"
		 "--from [--spread | --matched] [-o FILE] FILE ...\n"
		 "--verdicts COMPARE.json ...\n"
		 "--show NOISE.json\n"
		 "--bench DIR",
	.about = "Measure this host's noise floor: run 'exitscope run RUN-ARGUMENT ...' K times,\n"
		 "each run a process of its own (what differs from one run to the next, such as\n"
		 "memory and CPU placement or the host's speed, is drawn once per process), and\n"
		 "write per probe the run-to-run standard deviation that the rounds of one run\n"
		 "cannot see. 'exitscope compare --noise FILE A.json B.json' adds it to the\n"
		 "intervals of a comparison of one run per side. Measure the floor with the\n"
		 "same run options as the runs it will serve (compare warns when they differ),\n"
		 "on the host (and emulator) they ran on.\n",
	.rows = calibrate_rows,
	.col = 17,
	.order = '+',	/* the run's arguments after "--" are left alone */
	.tail = "Exit status: 0 the floor was written (--spread, --matched, --verdicts, --show,\n"
		"--bench: the table printed), 1 a run failed or the floor (or table) could not be\n"
		"made or written, 2 usage error (a run's usage error too), 3 KVM not available,\n"
		"130 stopped by Ctrl-C, 143 by SIGTERM, 129 by SIGHUP (the runs' files so\n"
		"far are kept and named; no floor).\n",
	.bad_hint = " (run options go after '--')",
};

struct calibrate_refusal {
	const char *why;	/* NULL: every run argument can be passed on */
	int at;			/* its index in the run arguments */
	const char *opt;	/* the option it is, as run reads it */
};

/* One run argument as run's rows read it (cli_scan): 1 when it is refused. */
static int calibrate_refuse(void *ctx, const struct cli_row *r, const char *arg, int at)
{
	static const struct { int key; const char *why; } refused[] = {
		{ CLI_LONG('j'),
		  "calibrate writes the runs' result files itself (--keep DIR keeps them)" },
		{ CLI_LONG('R'), "calibrate makes the runs itself (--runs K)" },
		{ CLI_LONG('O'), "a floor is not a run: export the kept runs instead" },
		{ CLI_LONG('l'), "nothing would be measured" },
		{ CLI_LONG('a'), "the map and the checks have no floor" },
		{ 'h', "see 'exitscope run --help'" },
	};
	struct calibrate_refusal *c = ctx;

	c->at = at - 1;	/* argv[0] is "run" */
	c->opt = r ? r->name : NULL;
	if (!r)
		c->why = "no option of 'exitscope run' (unknown, ambiguous, or without its "
			 "argument)";
	for (size_t k = 0; r && k < ARRAY_SIZE(refused); k++)
		if (r->key == refused[k].key)
			c->why = refused[k].why;
	if (r && r->key == CLI_LONG('m') && strcmp(arg, "v2"))
		c->why = "a floor needs rounds (method v2)";
	return c->why != NULL;
}

/*
 * A run argument calibrate cannot pass on: c->why NULL, or why, c->at and
 * c->opt. The arguments are read by run's own rows (cli_scan), so an
 * abbreviation (--al, --open, --li) is the option it abbreviates, and an
 * option run does not know is refused here, before any run.
 */
static void calibrate_refused(char **args, int argc, struct calibrate_refusal *c)
{
	char **argv = calloc((size_t)argc + 2, sizeof(*argv));

	*c = (struct calibrate_refusal){ NULL, 0, NULL };
	if (!argv) {
		c->why = "out of memory";
		return;
	}
	argv[0] = "run";
	memcpy(argv + 1, args, (size_t)argc * sizeof(*argv));
	if (cli_scan(&run_spec, argc + 1, argv, calibrate_refuse, c) < 0)
		c->why = "run's option table is not well formed";
	free(argv);
}

/* With --from: the arguments left are run files; nothing is run. */
static int calibrate_parse_from(struct calibrate_args *a, int argc, char **argv)
{
	if (a->runs_set || a->keep)
		return cli_usage_error("calibrate", "--from reads run files made before: no --%s",
				       a->keep ? "keep" : "runs");
	if (a->spread && a->out_set)
		return cli_usage_error("calibrate",
				       "--spread prints a table and writes no floor: no -o");
	if (a->matched && (a->spread || a->out_set))
		return cli_usage_error("calibrate",
				       "--matched prints a table and writes no floor: no %s",
				       a->spread ? "--spread" : "-o");
	if (a->matched && (argc < 4 || argc % 2))
		return cli_usage_error("calibrate",
				       "--from --matched wants two series of at least 2 run files "
				       "each (an even number), got %d", argc);
	if (argc < (a->spread ? 2 : NOISE_MIN_RUNS))
		return cli_usage_error("calibrate", "--from%s wants at least %d run files, got %d",
				       a->spread ? " --spread" : "", a->spread ? 2 : NOISE_MIN_RUNS,
				       argc);
	for (int i = 0; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1])
			return cli_usage_error("calibrate", "options go before the run files: '%s'",
					       argv[i]);
	a->run_argv = argv;
	a->run_argc = argc;
	return 0;
}

/* With --verdicts: the arguments left are compare documents (--show: one noise file); nothing is run. */
static int calibrate_parse_verdicts(struct calibrate_args *a, int argc, char **argv)
{
	const char *what = a->show ? "--show reads a noise file"
			   : a->bench ? "--bench reads a bench directory"
				      : "--verdicts reads compare documents";

	if (a->from || a->spread || a->runs_set || a->keep || a->out_set || a->matched ||
	    a->show + a->verdicts + a->bench > 1)
		return cli_usage_error("calibrate", "%s: no --%s", what,
				       a->from ? "from" : a->spread ? "spread" :
				       a->runs_set ? "runs" : a->keep ? "keep" :
				       a->out_set ? "output" : a->matched ? "matched" :
				       a->bench ? "verdicts" : "bench");
	if (a->bench && argc != 1)
		return cli_usage_error("calibrate", "--bench wants one directory, got %d", argc);
	if (a->show && argc != 1)
		return cli_usage_error("calibrate", "--show wants one noise file, got %d", argc);
	if (argc < 1)
		return cli_usage_error("calibrate", "--verdicts wants at least 1 compare document");
	for (int i = 0; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1])
			return cli_usage_error("calibrate",
					       "options go before the compare documents: '%s'",
					       argv[i]);
	a->run_argv = argv;
	a->run_argc = argc;
	return 0;
}

static int calibrate_parse(struct calibrate_args *a, int argc, char **argv)
{
	struct calibrate_refusal c;
	struct cli_parser p;
	const char *arg;
	int rc = cli_parse(&p, &calibrate_spec, a, argc, argv);

	if (rc)
		return rc == CLI_PARSE_HELP ? -1 : rc;
	a->runs_set = cli_given(&p, CLI_LONG('r'));
	a->out_set = cli_given(&p, 'o');
	if (a->verdicts || a->show || a->bench)
		return calibrate_parse_verdicts(a, argc - optind, argv + optind);
	if (a->spread && !a->from)
		return cli_usage_error("calibrate",
				       "--spread reads run files: give --from FILE ...");
	if (a->matched && !a->from)
		return cli_usage_error("calibrate",
				       "--matched reads run files: give --from FILE ...");
	if (a->from)
		return calibrate_parse_from(a, argc - optind, argv + optind);
	if (optind < argc && strcmp(argv[optind - 1], "--"))
		return cli_usage_error("calibrate", "'%s': probes and run options go after '--'",
				       argv[optind]);
	a->run_argv = argv + optind;
	a->run_argc = argc - optind;
	if (a->run_argc > CALIBRATE_MAX_ARGS)
		return cli_usage_error("calibrate", "more than %d run arguments",
				       CALIBRATE_MAX_ARGS);
	calibrate_refused(a->run_argv, a->run_argc, &c);
	if (!c.why)
		return 0;
	arg = a->run_argv[c.at];
	/* An abbreviation or a short option: say which option it is. */
	if (c.opt && (strncmp(arg, "--", 2) || strncmp(arg + 2, c.opt, strcspn(arg + 2, "=")) ||
		      strcspn(arg + 2, "=") != strlen(c.opt)))
		return cli_usage_error("calibrate", "run argument '%s' (--%s): %s", arg, c.opt,
				       c.why);
	return cli_usage_error("calibrate", "run argument '%s': %s", arg, c.why);
}

/* Run i's file in dir (from 1), as the series names it (method/repeat.h): 0, or -ENAMETOOLONG. */
static int calibrate_run_path(char *buf, size_t len, const char *dir, unsigned int i)
{
	char pattern[PATH_MAX];

	if ((size_t)snprintf(pattern, sizeof(pattern), "%s/run.json", dir) >= sizeof(pattern))
		return -ENAMETOOLONG;
	return repeat_path(buf, len, pattern, i);
}

/*
 * Before any run: the floor (-o) is none of the files --keep keeps (a run
 * would write it, then the floor replace it).
 */
static int calibrate_out_distinct(const struct calibrate_args *a)
{
	char path[PATH_MAX];
	const char *p = path;

	if (!a->keep || !*a->keep)
		return EXIT_OK;
	for (unsigned int i = 1; i <= a->runs; i++) {
		int rc;

		if (calibrate_run_path(path, sizeof(path), a->keep, i))
			return cli_usage_error("calibrate",
					       "--keep %s: run %u's file name is too long",
					       a->keep, i);
		rc = cli_output_distinct("calibrate", "-o", a->out, &p, 1, "the kept run");
		if (rc)
			return rc;
	}
	return EXIT_OK;
}

/* The directory of the runs' files: --keep DIR (made if missing), else a new temporary one. */
static int calibrate_dir(const struct calibrate_args *a, char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	if (a->keep) {
		char path[PATH_MAX];
		struct stat st;

		if (!*a->keep)
			return cli_usage_error("calibrate",
					       "--keep wants a directory, not an empty string");
		if (mkdir(a->keep, 0755) && errno != EEXIST)
			return cli_usage_error("calibrate", "--keep %s: %s", a->keep,
					       strerror(errno));
		if (stat(a->keep, &st) || !S_ISDIR(st.st_mode))
			return cli_usage_error("calibrate", "--keep %s: %s", a->keep,
					       strerror(S_ISDIR(st.st_mode) ? errno : ENOTDIR));
		/* A result already there is never overwritten: refuse before any run. */
		for (unsigned int i = 1; i <= a->runs; i++) {
			if (calibrate_run_path(path, sizeof(path), a->keep, i))
				return cli_usage_error("calibrate",
						       "--keep %s: run %u's file name is too long",
						       a->keep, i);
			if (!lstat(path, &st))
				return cli_error("calibrate", EXIT_USAGE,
						 "--keep %s: %s exists: refusing to overwrite it "
						 "(give a new or empty directory)", a->keep, path);
		}
		snprintf(dir, len, "%s", a->keep);
		return 0;
	}
	snprintf(dir, len, "%s/exitscope-calibrate-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return cli_error("calibrate", EXIT_FAIL,
				 "cannot make a directory for the runs: %s: %s", dir,
				 strerror(errno));
	return 0;
}

/* The progress line (on a terminal only): "calibrate 3/10 run ~40s left". */
static void calibrate_started(void *ctx, const struct repeat_run *r)
{
	progress_step(ctx, r->i - 1, "run");
}

/*
 * After a series that did not complete: one line, the exit status. The
 * files written stay, and the line says where; when none was, it says so
 * (and the caller removes the temporary directory).
 */
static int calibrate_incomplete(int end, const struct repeat_run *runs, unsigned int started,
				unsigned int n, const char *dir, int stop)
{
	const struct repeat_run *r = started ? &runs[started - 1] : NULL;
	unsigned int written = 0;
	char kept[PATH_MAX + 64];

	for (unsigned int i = 0; i < started; i++)
		written += runs[i].written;
	if (written)
		snprintf(kept, sizeof(kept), "the %u result file%s written %s kept in %s", written,
			 written == 1 ? "" : "s", written == 1 ? "is" : "are", dir);
	else
		snprintf(kept, sizeof(kept), "no result file was written");
	if (end == REPEAT_STOPPED) {
		if (r)
			return cli_error("calibrate", cli_stop_code(stop),
					 "stopped by %s in run %u/%u: no floor written; %s",
					 cli_stop_name(stop), r->i, n, kept);
		return cli_error("calibrate", cli_stop_code(stop),
				 "stopped by %s before run 1/%u: no floor written; %s",
				 cli_stop_name(stop), n, kept);
	}
	if (!r || r->pid < 0)
		cli_error("calibrate", EXIT_FAIL,
			  "run %u/%u could not be started: no floor written; %s",
			  r ? r->i : 1, n, kept);
	else if (r->signal)
		cli_error("calibrate", EXIT_FAIL,
			  "run %u/%u was ended by signal %d (%s): no floor written; %s",
			  r->i, n, r->signal, strsignal(r->signal), kept);
	else
		cli_error("calibrate", EXIT_FAIL,
			  "run %u/%u failed (exit status %d, its message above): no floor "
			  "written; %s", r->i, n, r->status, kept);
	if (r && r->pid > 0 && !r->signal &&
	    (r->status == EXIT_USAGE || r->status == EXIT_NOKVM || r->status == EXIT_STOPPED))
		return r->status;
	return EXIT_FAIL;
}

/* Whether any run of the series wrote its file. */
static bool calibrate_any_written(const struct repeat_run *runs, unsigned int started)
{
	for (unsigned int i = 0; i < started; i++)
		if (runs[i].written)
			return true;
	return false;
}

/* The runs' directory without a --keep: its files, then itself. */
static void calibrate_rmdir(const char *dir, const struct repeat_run *runs, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		unlink(runs[i].path);
	rmdir(dir);
}

/* A relative between-run SD in %, "-" without one. */
/*
 * v with `decimals` decimals in at most `width` characters (a cell of the
 * floor's table): in exponent form when the plain one is wider (a mean near
 * 0 makes a relative SD of millions of percent), so no row passes 100
 * columns.
 */
static const char *cell_text(double v, int decimals, int width, char *buf, size_t len)
{
	int prec = 3;

	if (snprintf(buf, len, "%.*f", decimals, v) <= width)
		return buf;
	while (snprintf(buf, len, "%.*e", prec, v) > width && prec > 0)
		prec--;
	return buf;
}

static const char *rel_text(const struct noise_est *e, char *buf, size_t len)
{
	if (e && e->between_sd_rel >= 0)
		return cell_text(100 * e->between_sd_rel, 2, 9, buf, len);
	snprintf(buf, len, "-");
	return buf;
}

/* The probes with no floor, in one note: their names by how many runs measured them. */
static void calibrate_print_omitted(FILE *f, const struct noise_floor *nf)
{
	char text[4096];
	size_t o;

	if (!nf->n_omitted)
		return;
	o = (size_t)snprintf(text, sizeof(text),
			     "measured (ok, 2 rounds or more) in fewer than %d runs:",
			     NOISE_MIN_RUNS);
	for (long long runs = 0, groups = 0; runs < NOISE_MIN_RUNS; runs++) {
		bool any = false;

		for (size_t i = 0; i < nf->n_omitted && o < sizeof(text); i++) {
			if (nf->omitted[i].runs != runs)
				continue;
			if (!any)
				o += (size_t)snprintf(text + o, sizeof(text) - o,
						      "%s in %lld run%s: %s", groups++ ? ";" : "",
						      runs, runs == 1 ? "" : "s",
						      nf->omitted[i].name);
			else
				o += (size_t)snprintf(text + o, sizeof(text) - o, ", %s",
						      nf->omitted[i].name);
			any = true;
		}
	}
	text_wrap_print(f, "no floor: ", 10, text);
}

static void calibrate_print(FILE *f, const struct noise_floor *nf)
{
	fprintf(f, "%-28s %5s %12s %12s %9s %7s %12s %7s\n", "probe", "runs", "mean cycles",
		"between sd", "between %", "df", "at speed %", "df");
	for (size_t i = 0; i < nf->n_probes; i++) {
		const struct noise_probe *p = &nf->probes[i];
		const struct noise_est *s = noise_probe_est(p, 1);
		char rel[32], srel[32], sdf[32] = "-", mean[32], sd[32], df[32];

		if (s)
			cell_text(s->df, 1, 7, sdf, sizeof(sdf));
		fprintf(f, "%-28s %5lld %12s %12s %9s %7s %12s %7s\n", p->name, p->runs,
			cell_text(p->cycles.mean_cycles, 1, 12, mean, sizeof(mean)),
			cell_text(p->cycles.between_sd_cycles, 1, 12, sd, sizeof(sd)),
			rel_text(&p->cycles, rel, sizeof(rel)), cell_text(p->cycles.df, 1, 7, df, sizeof(df)),
			rel_text(s, srel, sizeof(srel)), sdf);
	}
	calibrate_print_omitted(f, nf);
	text_wrap_print(f, "between %: ", 11,
			"what a run's figure varies by from one run to the next beyond its rounds, "
			"in % of the mean");
	text_wrap_print(f, "at speed %: ", 12,
			"the same with every round put at the runs' mean guest speed (compare "
			"--normalize speed, docs/method.md)");
}

/* The spread table's columns: run count, then per figure its width and header. */
static void calibrate_print_spread_row(FILE *f, const struct stats_spread *s)
{
	const double v[] = { s->within, s->se, s->run_sd, s->floor };
	char buf[32];

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		if (s->mean > 0)
			fprintf(f, " %7s%%",
				cell_text(100 * v[i] / s->mean, 2, 7, buf, sizeof(buf)));
		else
			fprintf(f, " %8s", "-");
	}
}

/* --spread's third table: each run's shift and loop shift, then what they say together. */
static void calibrate_print_shifts(FILE *f, const struct noise_spread *ns)
{
	char a[32], b[32];

	fprintf(f, "\n%5s %8s %8s\n", "run", "shift", "loop");
	for (size_t i = 0; i < ns->n_runs; i++) {
		if (isfinite(ns->run_shift[i]))
			snprintf(a, sizeof(a), "%+.2f%%", 100 * ns->run_shift[i]);
		else
			snprintf(a, sizeof(a), "-");
		if (isfinite(ns->run_loop_shift[i]))
			snprintf(b, sizeof(b), "%+.2f%%", 100 * ns->run_loop_shift[i]);
		else
			snprintf(b, sizeof(b), "-");
		fprintf(f, "%5zu %8s %8s\n", i + 1, a, b);
	}
	if (ns->loop_shift_sd >= 0)
		fprintf(f, "loop shift: SD %.2f%%", 100 * ns->loop_shift_sd);
	else
		fprintf(f, "loop shift: -");
	if (isfinite(ns->shift_corr))
		fprintf(f, ", correlation with the shift %.2f", ns->shift_corr);
	if (ns->left_sd >= 0)
		fprintf(f, "; left per probe: median SD %.2f%%", 100 * ns->left_sd);
	fprintf(f, "\n");
}

/* --spread: the host's speed inside a run, per round (its SD over a run's rounds, its lag-1 correlation). */
static void calibrate_print_round_speed(FILE *f, const struct noise_spread *ns)
{
	if (ns->round_sd < 0) {
		fprintf(f, "round speed: - (no run of 3 rounds or more)\n");
		return;
	}
	fprintf(f, "round speed: SD over a run's rounds %.2f%% (mean over %zu runs), lag-1 "
		"autocorrelation ", 100 * ns->round_sd, ns->round_runs);
	if (isfinite(ns->round_ac))
		fprintf(f, "%+.2f\n", ns->round_ac);
	else
		fprintf(f, "-\n");
}

/* --spread: the probes' spread as measured, then at equal guest speed, then per run. */
static void calibrate_print_spread(FILE *f, const struct noise_spread *ns)
{
	fprintf(f, "%-20s %5s %6s %10s %8s %8s %8s %8s\n", "probe", "runs", "rounds", "mean",
		"within", "se(run)", "between", "floor");
	for (size_t i = 0; i < ns->n_probes; i++) {
		const struct noise_spread_probe *p = &ns->probes[i];
		char mean[32];

		fprintf(f, "%-20s %5zu %6.1f %10s", p->name, p->cycles.runs, p->cycles.rounds,
			cell_text(p->cycles.mean, 0, 10, mean, sizeof(mean)));
		calibrate_print_spread_row(f, &p->cycles);
		fprintf(f, "\n");
	}
	if (ns->shift_sd >= 0)
		fprintf(f, "shift: SD %.2f%% over %zu runs\n", 100 * ns->shift_sd, ns->shift_runs);
	fprintf(f, "\n%-20s %5s %8s %7s %8s %8s %8s %8s %8s\n", "probe", "runs", "share", "loop",
		"within", "se(run)", "between", "floor", "ratio");
	for (size_t i = 0; i < ns->n_probes; i++) {
		const struct noise_spread_probe *p = &ns->probes[i];
		const struct stats_spread *s = &p->at_speed;

		if (!p->has_at_speed)
			continue;
		fprintf(f, "%-20s %5zu %8.2f %6.2f%%", p->name, s->runs, p->share,
			100 * p->loop_rel);
		calibrate_print_spread_row(f, s);
		fprintf(f, " %8.2f\n", s->se > 0 ? s->run_sd / s->se : 0);
	}
	calibrate_print_shifts(f, ns);
	calibrate_print_round_speed(f, ns);
	fprintf(f, "\n");
	text_wrap_print(f, "", 0, "within: SD of a run's round medians (pooled); se(run): within / "
			"sqrt(rounds); between: SD of the run means; floor: the SD left beyond "
			"se(run); shift: SD over runs of the median over probes of a run mean / "
			"its probe mean - 1; the second table at the runs' mean guest speed "
			"(compare --normalize speed), share: the probe's slope on its loop x mean "
			"loop / mean, loop: SD of the runs' mean loops, ratio: between / se(run); "
			"in % of the probe's mean; the third per run in the order given, its shift "
			"and the same of the probes' loops (the host's speed), left: per "
			"probe the SD over runs of a run mean / its probe mean - 1 - the run's "
			"shift; round speed: per round the median over probes of its loop / the "
			"probe's mean loop in the run - 1");
}

/* n of all in %, as a tally's cells show it ("0.0%" of none). */
static double tally_pct(size_t n, size_t all)
{
	return all ? 100.0 * (double)n / (double)all : 0;
}

/* A median of a tally in %: "-" without one, ">1000%" past it (no interval). */
static const char *tally_med(double v, const char *fmt, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v >= 1000)
		snprintf(buf, len, ">1000%%");
	else
		snprintf(buf, len, fmt, v);
	return buf;
}

/* One verdict count as a row: n, then each verdict's count and share, then the medians. */
static void calibrate_print_count(FILE *f, const struct verdict_count *c)
{
	char m[32], d[32], h[32];

	fprintf(f, " %4zu %3zu %5.1f%% %3zu %5.1f%% %3zu %5.1f%% %3zu %5.1f%% %3zu %5.1f%% %7s "
		"%7s %6s\n", c->n, c->faster, tally_pct(c->faster, c->n), c->slower,
		tally_pct(c->slower, c->n), c->noisy, tally_pct(c->noisy, c->n), c->same,
		tally_pct(c->same, c->n), c->unjudged, tally_pct(c->unjudged, c->n),
		tally_med(c->mdc, "%.1f%%", m, sizeof(m)),
		tally_med(c->diff, "%+.2f%%", d, sizeof(d)),
		tally_med(c->half, "%.2f%%", h, sizeof(h)));
}

/* --verdicts: the tally of the compare documents at paths[0..k-1]. */
static int calibrate_verdicts(const char *const *paths, unsigned int k)
{
	static const char head[] = " %4s %10s %10s %10s %10s %10s %7s %7s %6s\n";
	struct verdict_tally t;
	struct err err;

	if (verdict_tally(paths, k, &t, &err))
		return cli_error("calibrate", EXIT_FAIL, "no tally of these comparisons: %s",
				 err.msg);
	printf("%-17s", "");
	printf(head, "n", "faster", "slower", "too noisy", "no change", "not judged", "mdc", "diff",
	       "half");
	printf("%-17s", "all");
	calibrate_print_count(stdout, &t.all);
	printf("faster or slower: %zu (%.1f%%) in %zu of %zu files; baseline warning in %zu "
	       "of %zu\n", t.all.faster + t.all.slower,
	       tally_pct(t.all.faster + t.all.slower, t.all.n), t.moved, t.n_files, t.warned,
	       t.n_files);
	printf("\n%-17s", "file");
	printf(head, "n", "faster", "slower", "too noisy", "no change", "not judged", "mdc", "diff",
	       "half");
	for (size_t i = 0; i < t.n_files; i++) {
		printf("%-17zu", i + 1);
		calibrate_print_count(stdout, &t.files[i].c);
	}
	printf("\n%-17s", "probe");
	printf(head, "n", "faster", "slower", "too noisy", "no change", "not judged", "mdc", "diff",
	       "half");
	for (size_t i = 0; i < t.n_probes; i++) {
		printf("%-17s", t.probes[i].name);
		calibrate_print_count(stdout, &t.probes[i].c);
	}
	printf("\n");
	text_wrap_print(stdout, "", 0,
			"n: the probes compared; each verdict's count and share of them; "
			"mdc, diff, half: the medians of the smallest detectable change, the "
			"difference and the interval's half width, in % (mdc >1000%: none); files "
			"in the order given");
	verdict_tally_release(&t);
	return cli_stdout_check("calibrate", EXIT_OK);
}

/* --bench: the runs table of the bench-method directory dir. */
static int calibrate_bench(const char *dir)
{
	struct bench_runs b;
	struct err err;

	if (bench_runs_read(dir, &b, &err))
		return cli_error("calibrate", EXIT_FAIL, "no runs table: %s", err.msg);
	printf("  %-10s %5s %7s %7s %7s %11s %7s %12s %6s %6s %6s %6s  %s\n", "variant", "runs",
	       "wall s", "max s", "cpu s", "load1", "rounds", "all rounds", "busy", "nice", "idle",
	       "steal", "stops");
	for (size_t i = 0; i < b.n; i++) {
		const struct bench_runs_row *r = &b.rows[i];

		printf("  %-10s %5zu %7.2f %7.2f %7.2f %5.2f-%-5.2f %7.1f %5.1f%% of %-2.0f "
		       "%5.0f%% %5.0f%% %5.0f%% %5.1f%% ", r->variant, r->runs, r->wall,
		       r->wall_max, r->cpu, r->load_lo, r->load_hi, r->rounds, tally_pct(r->full, r->probe_runs),
		       r->rounds_max, r->busy, r->nice, r->idle, r->steal);
		for (size_t j = 0; j < b.n_stops; j++)
			if (r->stops[j])
				printf(" %s %zu", b.stop_names[j], r->stops[j]);
		printf("\n");
	}
	bench_runs_release(&b);
	return cli_stdout_check("calibrate", EXIT_OK);
}

/* --matched: the first k runs against the last k, run by run. 0, or -errno with err set. */
static int calibrate_print_matched(FILE *f, const struct result_file *const *files, unsigned int k,
				   struct err *err)
{
	struct noise_matched m;
	int rc = noise_matched(files, files + k / 2, k / 2, &m, err);

	if (rc)
		return rc;
	fprintf(f, "%-20s %5s %8s %9s %8s %8s\n", "probe", "pairs", "diff SD", "expected", "ratio",
		"floor");
	for (size_t i = 0; i < m.n_probes; i++) {
		const struct noise_matched_probe *p = &m.probes[i];

		fprintf(f, "%-20s %5zu %7.2f%% %8.2f%% %8.2f %7.2f%%\n", p->name, p->pairs,
			100 * p->diff_sd, 100 * p->expected,
			p->expected > 0 ? p->diff_sd / p->expected : 0, 100 * p->floor);
	}
	if (m.shift_runs)
		fprintf(f, "common shift over %zu runs: SD %.2f%% (first), %.2f%% (second), "
			"difference %.2f%%; correlation ", m.shift_runs, 100 * m.shift_sd_a,
			100 * m.shift_sd_b, 100 * m.shift_diff_sd);
	else
		fprintf(f, "common shift: - (fewer than 3 runs with a shift in both)");
	if (m.shift_runs && isfinite(m.shift_corr))
		fprintf(f, "%.2f\n", m.shift_corr);
	else
		fprintf(f, m.shift_runs ? "-\n" : "\n");
	fprintf(f, "\n");
	text_wrap_print(f, "", 0,
			"per probe over the pairs of run i of the first series and run i of the "
			"second: diff SD: the SD of the difference of their run means; expected: "
			"what their rounds predict of it (the root of the sum of both runs' "
			"squared standard errors); ratio: the one over the other; floor: the SD of "
			"a per-run component the rounds do not explain; in % of the probe's mean; "
			"common shift: each series' shift per run (as --spread's) compared");
	noise_matched_release(&m);
	return 0;
}

/* One figure's range over the floor's probes: in % (pct) or as it is, "-" without one. */
static void calibrate_print_range(FILE *f, const char *label, const struct noise_range *r, int pct)
{
	const double k = pct ? 100 : 1;
	const char *u = pct ? "%" : "";

	if (!r->n) {
		fprintf(f, "%s: -\n", label);
		return;
	}
	fprintf(f, "%s: min %.*f%s, median %.*f%s, max %.*f%s over %zu probes\n", label,
		pct ? 2 : 1, k * r->min, u, pct ? 2 : 1, k * r->median, u, pct ? 2 : 1, k * r->max,
		u, r->n);
}

/* --show: the noise file's floor as calibrate prints it, then its figures' ranges over the probes. */
static int calibrate_show(const char *path)
{
	struct noise_ranges r;
	struct noise_floor *nf;
	struct err err;

	nf = noise_read_file(path, &err);
	if (!nf)
		return cli_error("calibrate", EXIT_FAIL, "%s", err.msg);
	if (noise_ranges(nf, &r)) {
		noise_free(nf);
		return cli_error("calibrate", EXIT_FAIL, "out of memory");
	}
	printf("%s: %lld runs, %s to %s\n\n", path, nf->runs,
	       nf->first_started ? nf->first_started : "-",
	       nf->last_finished ? nf->last_finished : "-");
	calibrate_print(stdout, nf);
	printf("\n");
	calibrate_print_range(stdout, "range of between %", &r.rel, 1);
	calibrate_print_range(stdout, "range of df", &r.df, 0);
	calibrate_print_range(stdout, "range of at speed %", &r.speed_rel, 1);
	calibrate_print_range(stdout, "range of at speed df", &r.speed_df, 0);
	noise_free(nf);
	return cli_stdout_check("calibrate", EXIT_OK);
}

/* Read the k files at paths[]; with --spread print their spread, else write their floor to a->out. */
static int calibrate_floor(const struct calibrate_args *a, const char **paths, unsigned int k)
{
	struct result_file **files = calloc(k, sizeof(*files));
	struct noise_floor nf = { 0 };
	struct noise_spread ns;
	struct err err;
	int rc;

	if (!files)
		return cli_error("calibrate", EXIT_FAIL, "out of memory");
	rc = cli_read_results("calibrate", paths, k, files);
	if (rc)
		goto out;
	/* A run given twice would count as two runs that agree: a floor of nothing. */
	if (compare_runs_distinct((const struct result_file *const *)files, k, NULL, 0, &err)) {
		rc = cli_error("calibrate", EXIT_USAGE, "%s", err.msg);
		goto out;
	}
	if (a->matched) {
		if (calibrate_print_matched(stdout, (const struct result_file *const *)files, k, &err))
			rc = cli_error("calibrate", EXIT_FAIL,
				       "no matched table from these runs: %s", err.msg);
		else
			rc = cli_stdout_check("calibrate", EXIT_OK);
		goto out;
	}
	if (a->spread) {
		if (noise_spread((const struct result_file *const *)files, k, &ns, &err)) {
			rc = cli_error("calibrate", EXIT_FAIL, "no spread from these runs: %s",
				       err.msg);
			goto out;
		}
		calibrate_print_spread(stdout, &ns);
		noise_spread_release(&ns);
		rc = cli_stdout_check("calibrate", EXIT_OK);
		goto out;
	}
	if (noise_estimate((const struct result_file *const *)files, k, &nf, &err)) {
		rc = cli_error("calibrate", EXIT_FAIL, "no floor from these runs: %s", err.msg);
		goto out;
	}
	/*
	 * Without --keep (or --from) the files are gone once the floor is
	 * written. nf owns its sources array (noise_release frees it): fill it,
	 * do not swap ours in.
	 */
	if (a->keep || a->from)
		for (unsigned int i = 0; i < k && i < nf.n_sources; i++)
			nf.sources[i] = paths[i];
	if (noise_write(&nf, a->out, &err)) {
		rc = cli_error("calibrate", EXIT_FAIL, "cannot write the floor: %s", err.msg);
		noise_release(&nf);
		goto out;
	}
	if (strcmp(a->out, "-")) {
		if (!a->from)
			printf("\n");
		calibrate_print(stdout, &nf);
		printf("\nwrote %s (%u runs)\n", a->out, k);
	}
	noise_release(&nf);
	rc = strcmp(a->out, "-") ? cli_stdout_check("calibrate", EXIT_OK) : EXIT_OK;
out:
	for (unsigned int i = 0; i < k; i++)
		result_free(files[i]);
	free(files);
	return rc;
}

/* The floor of the series' k runs. */
static int calibrate_series_floor(const struct calibrate_args *a, const struct repeat_run *runs,
				  unsigned int k)
{
	const char **paths = calloc(k, sizeof(*paths));
	int rc;

	if (!paths)
		return cli_error("calibrate", EXIT_FAIL, "out of memory");
	for (unsigned int i = 0; i < k; i++)
		paths[i] = runs[i].path;
	rc = calibrate_floor(a, paths, k);
	free(paths);
	return rc;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_args a = { 0 };
	struct progress pg = { .on = false };
	struct repeat_opts o = {
		.stop = cli_stop_flag(), .started = calibrate_started, .ctx = &pg, .quiet = true,
	};
	struct repeat_run *runs = NULL;
	char dir[PATH_MAX - 16], pattern[PATH_MAX], **cargv = NULL;
	unsigned int started = 0;
	size_t k = 0;
	int rc = calibrate_parse(&a, argc, argv), end;

	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	if (a.show)
		return calibrate_show(a.run_argv[0]);
	if (a.bench)
		return calibrate_bench(a.run_argv[0]);
	if (a.verdicts)
		return calibrate_verdicts((const char *const *)a.run_argv, (unsigned int)a.run_argc);
	if (a.from) {
		rc = a.spread || a.matched ? EXIT_OK : cli_output_distinct("calibrate", "-o", a.out,
							      (const char **)a.run_argv,
							      (size_t)a.run_argc, "a run file");
		if (!rc && !a.spread && !a.matched)
			rc = cli_output_check("calibrate", a.out);
		return rc ? rc : calibrate_floor(&a, (const char **)a.run_argv, (unsigned int)a.run_argc);
	}
	rc = calibrate_out_distinct(&a);
	if (!rc)
		rc = cli_output_check("calibrate", a.out);
	if (rc)
		return rc;
	rc = calibrate_dir(&a, dir, sizeof(dir));
	if (rc)
		return rc;
	snprintf(pattern, sizeof(pattern), "%s/run.json", dir);
	cargv = calloc((size_t)a.run_argc + 6, sizeof(*cargv));
	runs = calloc(a.runs, sizeof(*runs));
	if (!cargv || !runs) {
		rc = cli_error("calibrate", EXIT_FAIL, "out of memory");
		goto out;
	}
	/* Each run: exitscope run RUN-ARGUMENT ... --quiet --json DIR/run-I.json */
	cargv[k++] = "exitscope";
	cargv[k++] = "run";
	for (int i = 0; i < a.run_argc; i++)
		cargv[k++] = a.run_argv[i];
	cargv[k++] = "--quiet";
	cargv[k++] = "--json";
	o.path_arg = k;
	cargv[k++] = pattern;
	o.argv = cargv;
	o.path_prefix = "";
	o.path = pattern;
	o.n = a.runs;
	cli_install_sigint();
	progress_init(&pg, "calibrate", a.runs);
	end = repeat_series(&o, runs, &started);
	progress_done(&pg);
	if (end < 0)
		rc = cli_error("calibrate", EXIT_FAIL, "the runs: %s", strerror(-end));
	else if (end != REPEAT_DONE)
		rc = calibrate_incomplete(end, runs, started, a.runs, dir, *o.stop);
	else
		rc = calibrate_series_floor(&a, runs, started);
	/* The temporary directory goes when the floor is written, or when it holds nothing. */
	if (!a.keep && (rc == EXIT_OK || !calibrate_any_written(runs, started)))
		calibrate_rmdir(dir, runs, started);
	else if (!a.keep && end == REPEAT_DONE)
		cli_error("calibrate", rc, "the runs' result files are kept in %s", dir);
out:
	free(cargv);
	free(runs);
	return rc;
}
