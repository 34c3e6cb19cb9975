// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_profile.c - `exitscope profile --counts FILE --symbols System.map RUN.json`:
 * give each probe of a run made in a profiling lane its exit path (the
 * instrumented emulator's counts between the probe's batch marks, by
 * function of the lane kernel), written into the run file (or -o FILE).
 * A symbol table that is missing or not the running kernel's gives one
 * line and no profile, never a wrong one.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "profile/attribute.h"
#include "profile/counts.h"
#include "profile/symtab.h"
#include "results/result_edit.h"

struct profile_args {
	const char *counts, *symbols, *label, *out;
};

static const struct cli_row profile_rows[] = {
	CLI_ROW_STR("counts", CLI_LONG('c'), "FILE", struct profile_args, counts, NULL,
		    "the emulator's profile file"),
	CLI_ROW_STR("symbols", CLI_LONG('s'), "SYSTEM.MAP", struct profile_args, symbols, NULL,
		    "the lane kernel's System.map; it must be the running\n"
		    "kernel's: every VM entry the emulator saw must lie in\n"
		    "the function that enters the guest, else no profile"),
	CLI_ROW_STR("label", CLI_LONG('l'), "LABEL", struct profile_args, label, NULL,
		    "the run's dump in FILE (the JSON path the run wrote\n"
		    "inside the lane; default: the dump whose label has\n"
		    "RUN.json's file name)"),
	CLI_ROW_STR("output", 'o', "FILE", struct profile_args, out, NULL,
		    "where to write the run (default: RUN.json itself;\n"
		    "'-': stdout, the JSON alone)"),
	CLI_ROW_HELP,
	{ 0 },
};

const struct cli_cmd_spec profile_spec = {
	.name = "profile",
	.usage = "--counts FILE --symbols SYSTEM.MAP [options] RUN.json",
	.about = "Add each probe's exit path to a run made in a profiling lane (LANE_PROFILE=1):\n"
		 "the L1 kernel's instructions and calls by function, the L2 guest's and L1 user\n"
		 "space's instructions, and the VM exits by reason, counted exactly by the lane's\n"
		 "instrumented emulator in the probe's op batches minus its baseline batches,\n"
		 "over the same operations. Functions are the lane kernel's text symbols;\n"
		 "code inlined into a function counts as that function's.\n",
	.rows = profile_rows,
	.col = 22,
	.tail = "Exit status: 0 written, 1 no profile (the line says why; nothing written),\n"
		"2 usage error or unreadable/invalid input (also counts or a System.map that\n"
		"is no regular file: a FIFO, a device, a directory); 130, 143, 129 stopped\n"
		"by Ctrl-C, SIGTERM, SIGHUP (one line says so; the run file whole or\n"
		"untouched, an output FIFO or stdout cut short).\n",
};

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static const struct prof_dump *dump_for(const struct prof_file *pf, const char *label,
					const char *run_path)
{
	if (label)
		return prof_file_dump(pf, label);
	for (size_t i = pf->n; i-- > 0;)
		if (!strcmp(base_name(pf->dumps[i].label), base_name(run_path)))
			return &pf->dumps[i];
	return NULL;
}

/* Attach the profiles to rf's probes: the number attached, or -errno with err set. */
static int profile_attach(struct result_file *rf, const struct prof_dump *d, const struct symtab *st,
			  enum profile_vendor v, int version, const char *symbols, struct err *err)
{
	int n = 0;

	for (size_t i = 0; i < rf->n_probes; i++) {
		const struct run_probe *rp = &rf->probes[i];
		const struct prof_probe *p = prof_dump_probe(d, rp->name);
		struct exit_path e;
		int r;

		if (!p || rp->status != PROBE_OK) {
			r = result_set_exit_path(rf, rp->name, NULL, err);
			if (r)
				return r;
			continue;
		}
		r = profile_exit_path(p, st, v, version, &e, err);
		if (r)
			return r;
		e.symbols = symbols;
		r = result_set_exit_path(rf, rp->name, &e, err);
		exit_path_free(&e);
		if (r)
			return r;
		n++;
	}
	return n;
}

int cmd_profile(int argc, char **argv)
{
	struct profile_args a;
	const char *run;
	char what[PATH_MAX + 64], name[PATH_MAX];
	struct err err;
	struct result_file *rf = NULL;
	const struct prof_dump *d;
	struct prof_file pf = { 0 };
	struct symtab st = { 0 };
	enum profile_vendor v;
	struct cli_parser p;
	int n, r, rc;

	rc = cli_parse(&p, &profile_spec, &a, argc, argv);
	if (rc)
		return rc == CLI_PARSE_HELP ? EXIT_OK : rc;
	if (!a.counts || !a.symbols)
		return cli_usage_error("profile", "need --counts FILE and --symbols SYSTEM.MAP");
	if (optind != argc - 1)
		return cli_usage_error("profile", "need exactly one run file");
	run = argv[optind];
	/* -o RUN.json is the default: the profile is added to the run in place. */
	a.out = a.out ? a.out : run;
	rc = cli_output_distinct("profile", "-o", a.out, &a.counts, 1, "--counts");
	if (!rc)
		rc = cli_output_distinct("profile", "-o", a.out, &a.symbols, 1, "--symbols");
	if (!rc)
		rc = cli_output_check("profile", a.out);
	if (rc)
		return rc;
	/* A stop ends it with one line and 128 + the signal (the run file is whole or untouched). */
	cli_install_sigint();
	rc = cli_read_results("profile", &run, 1, &rf);
	if (rc)
		return rc;
	if (rf->kind != RESULT_KIND_RUN || !rf->host.lane.present) {
		rc = cli_usage_error("profile", "%s: not a run made in a lane", run);
		goto out;
	}
	v = rf->host.lane.name == HOST_LANE_SVM ? PROFILE_SVM : PROFILE_VMX;
	if (prof_file_read(&pf, a.counts, &err)) {
		rc = cli_error("profile", EXIT_USAGE, "%s", err.msg);
		goto out;
	}
	r = symtab_load(&st, a.symbols, &err);
	if (r == -EIO) {	/* not a file to read (a FIFO, a directory...): bad input */
		rc = cli_error("profile", EXIT_USAGE, "%s", err.msg);
		goto out;
	}
	if (r) {		/* missing, or no System.map: no profile */
		rc = cli_error("profile", EXIT_FAIL, "no profile: %s", err.msg);
		goto out;
	}
	d = dump_for(&pf, a.label, run);
	if (!d) {
		rc = cli_error("profile", EXIT_FAIL,
			       "no profile for %s: %s has no dump labelled %s", run, a.counts,
			       a.label ? a.label : base_name(run));
		goto out;
	}
	if (profile_check_symbols(d, &st, v, &err)) {
		rc = cli_error("profile", EXIT_FAIL, "no profile: %s: %s", a.symbols, err.msg);
		goto out;
	}
	/* Into the file as a JSON string: the file's name escaped (\xNN), so that it is UTF-8. */
	text_esc(name, sizeof(name), base_name(a.symbols));
	snprintf(what, sizeof(what), "%s (%zu text symbols)",
		 symtab_utf8(name, strlen(name)) ? name : "System.map", st.n);
	n = profile_attach(rf, d, &st, v, pf.version, what, &err);
	if (n < 0) {
		rc = cli_error("profile", EXIT_FAIL, "no profile: %s", err.msg);
		goto out;
	}
	rc = cli_stopped("profile", "nothing written");
	if (rc)
		goto out;
	/* A FIFO written in place is made non-blocking by a stop: a write blocked on it ends. */
	if (result_file_write(rf, a.out, cli_stop_output, &err)) {
		/* a write blocked on a FIFO, ended by the stop: RUN.json is another file, untouched */
		rc = *cli_stop_flag() ?
		     cli_stopped("profile", "the output cut short, the run file untouched") :
		     cli_error("profile", EXIT_FAIL, "cannot write %s", err.msg);
		goto out;
	}
	rc = cli_stopped("profile", "after the run was written");
	if (rc)
		goto out;
	/* With -o - stdout carries the JSON alone. */
	if (strcmp(a.out, "-"))
		printf("%s: exit paths of %d of %zu probes (%s)\n", a.out, n, rf->n_probes, what);
	rc = cli_stdout_check("profile", EXIT_OK);
out:
	symtab_free(&st);
	prof_file_free(&pf);
	result_free(rf);
	return rc;
}
