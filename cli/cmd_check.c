/* cmd_check.c - `exitscope check [SUITE...]`: run check suites, report pass/fail/skip. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "suites/suite_env.h"
#include "cli/cmds.h"
#include "results/result_write.h"
#include "host/hostinfo.h"
#include "host/host_record.h"
#include "suites/suites.h"

static void check_usage(FILE *f)
{
	fprintf(f, "usage: exitscope check [SUITE ...] [--json FILE] [--kvm-dev PATH] [-v]\n\n"
		   "Run conformance checks against the host KVM. Each check passes, fails\n"
		   "with the evidence, or is skipped with the reason. Without SUITE, all run.\n\n"
		   "suites:\n");
	for (size_t i = 0; i < nr_check_suites; i++)
		fprintf(f, "  %-9s %s\n", check_suites[i].name, check_suites[i].summary);
	fprintf(f, "\n  --json FILE      also write the results as JSON ('-' for stdout)\n"
		   "  --kvm-dev PATH   KVM device (default /dev/kvm, or $EXITSCOPE_KVM_DEV)\n"
		   "  -v, --verbose    while running, print each check on stderr as its suite\n"
		   "                   finishes, with the expected and observed values\n"
		   "  -h, --help       this text\n\n"
		   "Exit status: 0 no check failed, 1 a check failed or the results could not\n"
		   "be written, 2 usage error, 3 KVM not available, 130 stopped by Ctrl-C\n"
		   "(the checks that ran are still printed and written).\n");
}

/* --verbose: the checks one suite added (rep->r[from..]), with their evidence. */
static void check_verbose(const struct check_report *rep, size_t from)
{
	for (size_t i = from; i < rep->n; i++) {
		const struct check_result *c = &rep->r[i];

		fprintf(stderr, "%-4s  %s.%s  %s\n", check_status_name(c->status), c->suite, c->name,
			c->detail);
		if (c->expected[0] || c->observed[0])
			fprintf(stderr, "      expected %s, observed %s\n",
				c->expected[0] ? c->expected : "-", c->observed[0] ? c->observed : "-");
	}
	fflush(stderr);
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
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "kvm-dev", required_argument, NULL, 'k' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *json_path = NULL, *kvm_opt = NULL;
	const struct check_suite *sel[16];
	struct check_report rep = { 0 };
	struct suite_env env = { 0 };
	struct hostinfo hi;
	size_t nsel = 0;
	json_t *root;
	bool stopped;
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hv", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json_path = optarg; break;
		case 'k': kvm_opt = optarg; break;
		case 'v': env.verbose = true; break;
		case 'h': check_usage(stdout); return EXIT_OK;
		default:
			return cli_usage_error("check", "unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	for (; optind < argc; optind++) {
		const struct check_suite *s = suite_find(argv[optind]);

		if (!s)
			return cli_usage_error("check", "unknown suite '%s'", argv[optind]);
		if (nsel < sizeof(sel) / sizeof(sel[0]))
			sel[nsel++] = s;
	}
	if (!nsel)
		for (size_t i = 0; i < nr_check_suites && nsel < sizeof(sel) / sizeof(sel[0]); i++)
			sel[nsel++] = &check_suites[i];
	r = cli_output_check("check", json_path);
	if (r)
		return r;
	r = cli_host_init("check", kvm_opt, &hi, &env);
	if (r)
		return r;
	if (hostinfo_emulation_warning(&hi))
		fprintf(stderr, "warning: %s\n", hostinfo_emulation_warning(&hi));
	/* After Ctrl-C every suite still runs: it records its checks as stopped. */
	for (size_t i = 0; i < nsel; i++) {
		size_t from = rep.n;

		sel[i]->run(&env, &rep);
		if (env.verbose)
			check_verbose(&rep, from);
	}
	check_report_print(stdout, &rep);
	root = result_new("check", argc, argv);
	json_object_set_new(root, "host", hostinfo_record_json(&hi));
	json_object_set_new(root, "checks", check_report_json(&rep));
	stopped = *env.stop;
	r = cli_finish("check", root, json_path, stopped,
		       check_count(&rep, CHECK_FAIL) ? EXIT_FAIL : EXIT_OK);
	json_decref(root);
	check_report_free(&rep);
	return r;
}
