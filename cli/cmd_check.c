// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_check.c - `exitscope check [SUITE...]`: run check suites, report
 * pass/fail/skip as a table or as TAP (--tap), with a progress line on a
 * terminal.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "cli/check_table.h"
#include "cli/cli.h"
#include "cli/opts.h"
#include "cli/progress.h"
#include "cli/tap_out.h"
#include "harness/suite_env.h"
#include "cli/cmds.h"
#include "results/result_doc.h"
#include "host/hostinfo.h"
#include "host/host_record.h"
#include "host/text_wrap.h"
#include "suites/suites.h"

struct check_args {
	const char *json_path, *kvm_opt;
	bool tap, verbose;
};

static const struct cli_row check_rows[] = {
	CLI_ROW_FLAG("tap", CLI_LONG('t'), struct check_args, tap,
		     "print TAP version 13 instead of the table (for prove and\n"
		     "kselftest-style harnesses): one test per check, named\n"
		     "SUITE/NAME; a skip is \"ok N - SUITE/NAME # SKIP reason\",\n"
		     "a check stopped by Ctrl-C is \"not ok\" with the reason;\n"
		     "detail, expected and observed values in a YAML block"),
	CLI_ROW_STR("json", CLI_LONG('j'), "FILE", struct check_args, json_path, NULL,
		    "also write the results as JSON ('-': to stdout, instead of\n"
		    "the table)"),
	CLI_ROW_KVM_DEV(struct check_args, kvm_opt),
	CLI_ROW_FLAG("verbose", 'v', struct check_args, verbose,
		     "while running, print each check on stderr as its suite\n"
		     "finishes, with the expected and observed values"),
	CLI_ROW_HELP,
	{ 0 },
};

/* The about paragraph, a line per suite. */
static void check_about(FILE *f)
{
	fputs("Run conformance checks against the host KVM. Each check passes, fails\n"
	      "with the evidence, or is skipped with the reason. Without SUITE, all run.\n"
	      "\n"
	      "suites:\n", f);
	for (size_t i = 0; i < nr_check_suites; i++)
		fprintf(f, "  %-9s %s\n", check_suites[i].name, check_suites[i].summary);
}

const struct cli_cmd_spec check_spec = {
	.name = "check",
	.usage = "[options] [SUITE ...]",
	.about_print = check_about,
	.rows = check_rows,
	.col = 19,
	.tail = "Exit status: 0 no check failed, 1 a check failed or the results could not\n"
		"be written, 2 usage error, 3 KVM not available, 130 stopped by Ctrl-C,\n"
		"143 by SIGTERM, 129 by SIGHUP (the checks that ran are still printed and\n"
		"written; before any ran, an existing FILE is left as it was). The same\n"
		"with --tap, but when KVM is not available --tap prints the plan\n"
		"\"1..0 # SKIP\" and exits 4 (kselftest's KSFT_SKIP: the whole file skipped).\n"
		"On a terminal, stderr shows a progress line with the time left.\n",
};

/* --verbose: the checks one suite added (rep->r[from..]), with their evidence. */
static void check_verbose(const struct check_report *rep, size_t from)
{
	for (size_t i = from; i < rep->n; i++) {
		const struct check_result *c = &rep->r[i];

		char lead[160], ev[1024];

		snprintf(lead, sizeof(lead), "%-4s  %s.%s  ", check_status_name(c->status),
			 c->suite, c->name);
		text_wrap_print(stderr, lead, 6, c->detail);
		if (c->expected[0] || c->observed[0]) {
			snprintf(ev, sizeof(ev), "expected %s, observed %s",
				 c->expected[0] ? c->expected : "-",
				 c->observed[0] ? c->observed : "-");
			text_wrap_print(stderr, "      ", 6, ev);
		}
	}
	fflush(stderr);
}

/* The progress line: suite k of nsel (an item), the check under way (a part of it). */
struct check_progress {
	struct progress p;
	unsigned suite;		/* index of the suite running */
	char label[128];
};

static void check_progress(void *ctx, const char *suite, size_t i, size_t n, const char *name)
{
	struct check_progress *cp = ctx;

	snprintf(cp->label, sizeof(cp->label), "%s %zu/%zu %s", suite, i + 1, n, name ? name : "");
	progress_step_part(&cp->p, cp->suite, n ? (double)i / n : 0, cp->label);
}

/*
 * The checks as TAP: one test per check, evidence in a YAML block. A tail
 * that several checks' skip or stop reasons share (check_shared_tail) is a
 * "# note N:" diagnostic before its first use, and "see note N" in them.
 */
static void check_tap(FILE *f, const struct check_report *rep)
{
	const char **notes = calloc(rep->n ? rep->n : 1, sizeof(*notes));
	struct tap_out t;
	char desc[256], why[1024];
	size_t nn = 0;

	tap_out_begin(&t, f, (unsigned)rep->n);
	for (size_t i = 0; i < rep->n; i++) {
		const struct check_result *c = &rep->r[i];
		/* A test's YAML block has its detail in full: the notes serve skip and stop reasons. */
		bool reason = c->status == CHECK_SKIP || c->status == CHECK_STOPPED;
		const char *tail = notes && reason ? check_shared_tail(rep, i) : NULL;
		size_t mark = 0;

		if (tail) {
			while (mark < nn && strcmp(notes[mark], tail))
				mark++;
			if (mark == nn) {
				notes[nn++] = tail;
				tap_out_comment(&t, "note %zu: %s", mark + 1, tail);
			}
			snprintf(why, sizeof(why), "%.*ssee note %zu", (int)(tail - c->detail),
				 c->detail, mark + 1);
		} else {
			snprintf(why, sizeof(why), "%s", c->detail);
		}
		snprintf(desc, sizeof(desc), "%s/%s", c->suite, c->name);
		if (c->status == CHECK_SKIP) {
			tap_out_skip(&t, desc, why);
			continue;
		}
		if (c->status == CHECK_STOPPED)
			snprintf(desc, sizeof(desc), "%s/%s (stopped: %s)", c->suite, c->name,
				 why[0] ? why : "stopped by request");
		tap_out_test(&t, c->status == CHECK_PASS, desc);
		tap_out_yaml(&t, "status", check_status_name(c->status));
		tap_out_yaml(&t, "detail", c->detail);
		tap_out_yaml(&t, "expected", c->expected);
		tap_out_yaml(&t, "observed", c->observed);
	}
	free(notes);
	tap_out_comment(&t, "%zu passed, %zu failed, %zu skipped, %zu stopped",
			check_count(rep, CHECK_PASS), check_count(rep, CHECK_FAIL),
			check_count(rep, CHECK_SKIP), check_count(rep, CHECK_STOPPED));
}

static const struct check_suite *suite_find(const char *name)
{
	for (size_t i = 0; i < nr_check_suites; i++)
		if (!strcmp(check_suites[i].name, name))
			return &check_suites[i];
	return NULL;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a = { 0 };
	const struct check_suite *sel[16];
	struct check_report rep = { 0 };
	struct suite_env env = { 0 };
	struct check_progress cp;
	struct hostinfo_record rec;
	struct result_doc doc;
	struct hostinfo hi;
	size_t nsel = 0;
	int stopped;
	struct cli_parser p;
	int r;

	r = cli_parse(&p, &check_spec, &a, argc, argv);
	if (r)
		return r == CLI_PARSE_HELP ? EXIT_OK : r;
	env.verbose = a.verbose;
	for (; optind < argc; optind++) {
		const struct check_suite *s = suite_find(argv[optind]);

		bool dup = false;

		if (!s)
			return cli_usage_error("check", "unknown suite '%s'", argv[optind]);
		for (size_t i = 0; i < nsel; i++)	/* each suite once, as first named */
			dup |= sel[i] == s;
		if (!dup && nsel < ARRAY_SIZE(sel))
			sel[nsel++] = s;
	}
	if (!nsel)
		for (size_t i = 0; i < nr_check_suites && nsel < ARRAY_SIZE(sel); i++)
			sel[nsel++] = &check_suites[i];
	if (a.tap && a.json_path && !strcmp(a.json_path, "-"))
		return cli_usage_error("check", "--tap and --json - both want stdout");
	r = cli_output_check("check", a.json_path);
	if (r)
		return r;
	r = cli_host_init("check", a.kvm_opt, &hi, &env);
	if (r) {
		/* A TAP consumer gets a valid stream saying why nothing ran, and KSFT_SKIP. */
		if (a.tap && r == EXIT_NOKVM) {
			tap_out_skip_all(stdout, "KVM is not available (the reason is on stderr)");
			return cli_stdout_check("check", EXIT_SKIP);
		}
		return r;
	}
	if (hostinfo_emulation_warning(&hi))
		text_wrap_print(stderr, "warning: ", 9, hostinfo_emulation_warning(&hi));
	progress_init(&cp.p, "check", (unsigned)nsel);
	env.progress = check_progress;
	env.progress_ctx = &cp;
	/* After Ctrl-C every suite still runs: it records its checks as stopped. */
	for (size_t i = 0; i < nsel; i++) {
		size_t from = rep.n;

		cp.suite = (unsigned)i;
		sel[i]->run(&env, &rep);
		if (a.verbose) {
			progress_clear(&cp.p);
			check_verbose(&rep, from);
		}
	}
	progress_done(&cp.p);
	/* With --json - stdout carries the JSON alone: no table. */
	if (a.tap)
		check_tap(stdout, &rep);
	else if (!a.json_path || strcmp(a.json_path, "-"))
		check_table_print(stdout, &rep);
	result_doc_init(&doc, "check", argc, argv);
	hostinfo_record(&hi, &rec);
	doc.host = &rec.rec;
	doc.checks = &rep;
	stopped = *env.stop;
	r = stopped && check_count(&rep, CHECK_STOPPED) == rep.n ?
	    cli_finish_unmeasured("check", a.json_path, stopped) : -1;
	if (r < 0)
		r = cli_finish("check", &doc, a.json_path, stopped,
			       check_count(&rep, CHECK_FAIL) ? EXIT_FAIL : EXIT_OK);
	result_doc_release(&doc);
	check_report_free(&rep);
	return r;
}
