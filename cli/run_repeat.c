// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_repeat.c - `exitscope run --repeat N` at the edge (cli/run_repeat.h):
 * the checks before anything runs, the series (method/repeat.h), a header
 * on stdout before each run's table, and at the end one line per file
 * written, or one line on stderr saying why the series ended early.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/run_repeat.h"
#include "method/repeat.h"

static void repeat_on_started(void *ctx, const struct repeat_run *r)
{
	printf("%srun %u/%u: %s\n", r->i > 1 ? "\n" : "", r->i, r->n, r->path);
}

/* Which files the series wrote, as the end of a sentence. */
static void repeat_written(char *buf, size_t len, const struct repeat_run *runs, unsigned int started)
{
	const struct repeat_run *first = NULL, *last = NULL;
	unsigned int count = 0;

	for (unsigned int i = 0; i < started; i++)
		if (runs[i].written) {
			first = first ? first : &runs[i];
			last = &runs[i];
			count++;
		}
	if (!count)
		snprintf(buf, len, "no result file was written");
	else if (count == 1)
		snprintf(buf, len, "%s was written", first->path);
	else
		snprintf(buf, len, "%u result files were written, %s to %s", count, first->path,
			 last->path);
}

/* The runs' files before anything starts: named, and each could be written. */
static int repeat_check_outputs(const struct run_repeat *rep, const char *json_path,
				const char *openmetrics)
{
	char path[PATH_MAX];

	if (!json_path)
		return cli_usage_error("run", "--repeat writes a result file per run: it needs "
					      "--json FILE");
	if (!strcmp(json_path, "-"))
		return cli_usage_error("run",
				       "--repeat writes a result file per run: --json - (standard "
				       "output) cannot hold them");
	if (openmetrics)
		return cli_usage_error("run",
				       "--repeat: --openmetrics writes one run's textfile; export "
				       "the result files instead ('exitscope export')");
	for (unsigned int i = 1; i <= rep->n; i++) {
		int rc;

		if (repeat_path(path, sizeof(path), json_path, i))
			return cli_usage_error("run", "--json %s: run %u's file name is too long",
					       json_path, i);
		rc = cli_output_check("run", path);
		if (rc)
			return rc;
	}
	return EXIT_OK;
}

/* After a series that ended early: the planned files that are there but older. */
static void repeat_note_stale(const struct run_repeat *rep, const char *json_path,
			      const struct repeat_run *runs, unsigned int started)
{
	char path[PATH_MAX];

	for (unsigned int i = 1; i <= rep->n; i++) {
		if (i <= started && runs[i - 1].written)
			continue;
		if (!repeat_path(path, sizeof(path), json_path, i) && !access(path, F_OK))
			cli_error("run", 0, "note: %s is older, not from these runs", path);
	}
}

/*
 * The exit status and the line for a series that did not complete (stop:
 * the signal that stopped it, 0 when a run died of a terminal's SIGINT).
 */
static int repeat_end(const struct run_repeat *rep, int end, const struct repeat_run *runs,
		      unsigned int started, int stop)
{
	const struct repeat_run *r = started ? &runs[started - 1] : NULL;
	char written[2 * PATH_MAX + 64], how[64];

	repeat_written(written, sizeof(written), runs, started);
	if (end == REPEAT_STOPPED) {
		if (r)
			return cli_error("run", cli_stop_code(stop ? stop : SIGINT),
					 "stopped by %s in run %u/%u: %s", cli_stop_name(stop),
					 r->i, rep->n, written);
		return cli_error("run", cli_stop_code(stop ? stop : SIGINT),
				 "stopped by %s before run 1/%u: %s", cli_stop_name(stop), rep->n,
				 written);
	}
	if (!r || r->pid < 0)
		snprintf(how, sizeof(how), "could not be started");
	else if (r->signal)
		snprintf(how, sizeof(how), "was ended by signal %d (%s)", r->signal,
			 strsignal(r->signal));
	else
		snprintf(how, sizeof(how), "failed (exit status %d)", r->status);
	cli_error("run", EXIT_FAIL, "run %u/%u %s, so no more runs: %s", r ? r->i : 1, rep->n, how,
		  written);
	if (r && r->pid > 0 && !r->signal && (r->status == EXIT_USAGE || r->status == EXIT_NOKVM ||
					       r->status == EXIT_STOPPED))
		return r->status;
	return EXIT_FAIL;
}

int run_repeat(const struct run_repeat *rep, const char *json_path, const char *openmetrics,
	       int argc, char **argv)
{
	struct repeat_opts o = {
		.path_prefix = rep->json_inline ? "--json=" : "", .path = json_path, .n = rep->n,
		.stop = cli_stop_flag(), .started = repeat_on_started,
	};
	struct repeat_run *runs = NULL;
	char **cargv = NULL;
	unsigned int started = 0;
	size_t k = 0;
	int rc = repeat_check_outputs(rep, json_path, openmetrics), end;

	if (rc)
		return rc;
	cargv = calloc((size_t)argc + 2, sizeof(*cargv));
	runs = calloc(rep->n, sizeof(*runs));
	if (!cargv || !runs) {
		rc = cli_error("run", EXIT_FAIL, "out of memory");
		goto out;
	}
	/* A run is this command, its --repeat left out and its --json FILE replaced. */
	cargv[k++] = "exitscope";
	for (int i = 0; i < argc; i++) {
		if (rep->drop[i])
			continue;
		if (i == rep->json_arg)
			o.path_arg = k;
		cargv[k++] = argv[i];
	}
	o.argv = cargv;
	cli_install_sigint();
	end = repeat_series(&o, runs, &started);
	if (end < 0) {
		rc = cli_error("run", EXIT_FAIL, "--repeat: %s", strerror(-end));
		goto out;
	}
	printf("\n");
	for (unsigned int i = 0; i < started; i++)
		if (runs[i].written)
			printf("wrote %s\n", runs[i].path);
	rc = cli_stdout_check("run", EXIT_OK);
	if (end != REPEAT_DONE) {
		rc = repeat_end(rep, end, runs, started, *o.stop);
		repeat_note_stale(rep, json_path, runs, started);
	}
out:
	free(cargv);
	free(runs);
	return rc;
}
