// SPDX-License-Identifier: GPL-2.0-only
/* cmd_info.c - `exitscope info`: the host record as text or JSON. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "results/result_doc.h"
#include "host/hostinfo.h"
#include "host/host_record.h"

struct info_args {
	const char *json_path, *kvm_opt;
};

/* --json [FILE]: FILE as a word of its own too, '-' as well ('-' alone is never an option). */
static int info_json(void *args, const char *arg, const struct cli_parser *p)
{
	struct info_args *a = args;

	a->json_path = arg ? arg : "-";
	if (!arg && optind < p->argc &&
	    (p->argv[optind][0] != '-' || !strcmp(p->argv[optind], "-")))
		a->json_path = p->argv[optind++];
	return 0;
}

static const struct cli_row info_rows[] = {
	CLI_ROW_CALL("json", CLI_LONG('j'), "[FILE]", info_json,
		     "write the record as JSON to FILE, or to stdout without FILE"),
	CLI_ROW_KVM_DEV(struct info_args, kvm_opt),
	CLI_ROW_HELP,
	{ 0 },
};

const struct cli_cmd_spec info_spec = {
	.name = "info",
	.usage = "[options]",
	.about = "Describe this host's KVM: kernel, backend module and its parameters, CPU,\n"
		 "KVM API and capabilities, supported CPUID features (XSAVE*, PKU, SHSTK, IBT,\n"
		 "x2APIC, TSC deadline), supported XCR0 and XSS, whether IA32_XSS and the CET\n"
		 "MSRs are in the MSR save list, the TSC frequency, and the guest execution\n"
		 "mode: a known loop runs in a guest and the vCPU stats tell whether its\n"
		 "instructions ran natively or were emulated by the host.\n",
	.rows = info_rows,
	.col = 19,
	.order = '+',
	.tail = "Exit status: 0 ok, 1 failure (or the record could not be written),\n"
		"2 usage error, 3 KVM not available.\n",
};

int cmd_info(int argc, char **argv)
{
	struct info_args a = { 0 };
	struct hostinfo_record rec;
	struct result_doc doc;
	const char *kvm_path;
	struct hostinfo hi;
	struct err err;
	struct cli_parser p;
	int r;

	r = cli_parse(&p, &info_spec, &a, argc, argv);
	if (r)
		return r == CLI_PARSE_HELP ? EXIT_OK : r;
	if (optind < argc)
		return cli_usage_error("info", "unexpected argument '%s'", argv[optind]);
	r = cli_output_check("info", a.json_path);
	if (r)
		return r;
	r = cli_kvm_path("info", a.kvm_opt, &kvm_path);
	if (!r)
		r = cli_kvm_check("info", kvm_path);
	if (r)
		return r;
	cli_ignore_sigpipe();
	r = hostinfo_collect(&hi, kvm_path, &err);
	if (r)
		return cli_kvm_error("info", kvm_path, r, err.msg);
	r = cli_host_lane("info", &hi);
	if (r)
		return r;
	/* With --json - stdout carries the JSON alone. */
	if (!a.json_path || strcmp(a.json_path, "-"))
		hostinfo_print(stdout, &hi);
	result_doc_init(&doc, "info", argc, argv);
	hostinfo_record(&hi, &rec);
	doc.host = &rec.rec;
	r = cli_finish("info", &doc, a.json_path, false, EXIT_OK);
	result_doc_release(&doc);
	return r;
}
