// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_run.c - `exitscope run [PROBE|GLOB ...]`: measure the VM-exit latency
 * catalogue (probes/) and print a table; optionally write the JSON result.
 */
#include <errno.h>
#include <fnmatch.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/check_table.h"
#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/run_repeat.h"
#include "harness/suite_env.h"
#include "results/check_model.h"
#include "cli/cmds.h"
#include "cli/opts.h"
#include "kvm/trace.h"
#include "method/method.h"
#include "method/repeat.h"
#include "probes/probe_out.h"
#include "probes/probe_table.h"
#include "host/text_wrap.h"
#include "probes/runner.h"
#include "results/result_doc.h"
#include "host/hostinfo.h"
#include "harness/profile.h"
#include "host/host_record.h"
#include "map/map.h"
#include "suites/suites.h"

struct run_args {
	const char *json_path, *kvm_opt, *xcr0_opt, *openmetrics;
	uint64_t guest_xcr0;		/* --guest-xcr0 (given when xcr0_opt is set) */
	struct method_opts m;		/* --method, --rounds, --samples, ... */
	int cpu, cpu2;			/* --cpu A[,B]; -1 not given */
	bool list, quiet, trace, all, wide, samples_given;
	bool *sel;			/* nr_probes entries, by catalogue index */
	size_t *order;			/* catalogue indexes of the nsel probes, in command-line order */
	size_t nsel;
	const char **names;		/* PROBE|GLOB operands, in command-line order */
	size_t nnames;
	struct run_repeat rep;		/* --repeat N, and where its options are in argv */
};

/* --time-budget's two defaults and the calibration's floor, as --help gives them. */
#define RUN_STR(x)	RUN_STR_(x)
#define RUN_STR_(x)	#x

static int run_cpus(void *args, const char *arg, const struct cli_parser *p);
static int run_xcr0(void *args, const char *arg, const struct cli_parser *p);
static int run_operand(void *args, const char *arg, const struct cli_parser *p);
static int run_seen(void *args, int key, const struct cli_parser *p);

static const struct cli_row run_rows[] = {
	CLI_ROW_FLAG("list", CLI_LONG('l'), struct run_args, list,
		     "list the probes with their group and what they need"),
	CLI_ROW_STR("json", CLI_LONG('j'), "FILE", struct run_args, json_path, NULL,
		    "write the result file ('-': to stdout, instead of the table)"),
	CLI_ROW_STR("openmetrics", CLI_LONG('O'), "FILE", struct run_args, openmetrics, NULL,
		    "also write it as Prometheus text, atomically (as\n"
		    "'exitscope export'), e.g. for node_exporter's textfile collector"),
	CLI_ROW_ENUM("method", CLI_LONG('m'), "v1|v2", struct run_args, m.method, run_method_names,
		     RUN_METHOD_V2, "measurement method"),
	CLI_ROW_UINT("rounds", CLI_LONG('r'), "N", struct run_args, m.rounds, 1, LATENCY_MAX_ROUNDS,
		     METHOD_DEFAULT_ROUNDS, "an integer", "v2: round-robin passes at most"),
	CLI_ROW_DBL("precision", CLI_LONG('p'), "PCT", struct run_args, m.precision_pct, 0.001, 100,
		    METHOD_DEFAULT_PRECISION_PCT, "a percentage",
		    "v2: stop a probe when its CI half-width is within PCT % of\n"
		    "its median"),
	CLI_ROW_DBL("precision-floor", CLI_LONG('f'), "CYCLES", struct run_args, m.floor_cycles,
		    0, 1e9, METHOD_DEFAULT_FLOOR_CYCLES, "cycles",
		    "v2: ... or within CYCLES cycles, for near-zero costs"),
	{ .name = "time-budget", .key = CLI_LONG('t'), .arg = "S", .type = CLI_T_DBL,
	  .off = CLI_FIELD(struct run_args, m.budget_s, double),
	  .min = 0.01, .max = 600, .what = "seconds",
	  .def.d = METHOD_DEFAULT_BUDGET_V2_S, .no_default = true,	/* v1's differs: parse_args */
	  .help = "seconds per probe, an upper bound (default " RUN_STR(METHOD_DEFAULT_BUDGET_V2_S)
		  " in v2, " RUN_STR(METHOD_DEFAULT_BUDGET_V1_S) " in v1);\n"
		  "v2 counts the CPU time of its rounds' guest runs, so a busy\n"
		  "host does not cut its rounds (--run-limit caps wall time);\n"
		  "a guest run still going after 2 x S + 1 s is reported as a hang,\n"
		  "and in v2 a calibration (the op's first runs) that took S\n"
		  "(at least " RUN_STR(LATENCY_CPU_WATCHDOG_MIN_MS) " ms) of CPU time" },
	{ .name = "run-limit", .key = CLI_LONG('L'), .arg = "S", .type = CLI_T_DBL,
	  .off = CLI_FIELD(struct run_args, m.run_limit_s, double), .min = 0.01, .max = 86400,
	  .what = "seconds", .def.d = 0, .no_default = true,
	  .help = "v2: seconds for the whole measurement; probes not done then\n"
		  "stop (default: no limit)" },
	CLI_ROW_UINT("samples", CLI_LONG('s'), "N", struct run_args, m.samples, 1,
		     LATENCY_MAX_SAMPLES, METHOD_DEFAULT_SAMPLES, "an integer",
		     "v1: samples per probe"),
	CLI_ROW_CALL("cpu", CLI_LONG('c'), "A[,B]", run_cpus,
		     "pin vCPU 0's thread to CPU A (default: the current CPU) and\n"
		     "a second vCPU's to B (default: any CPU but A); run warns when\n"
		     "B (or every CPU but A) is busy"),
	CLI_ROW_FLAG("quiet", 'q', struct run_args, quiet, "no progress or warnings on stderr"),
	CLI_ROW_FLAG("wide", CLI_LONG('W'), struct run_args, wide,
		     "the table in full, wider than 100 columns: the CI range of all\n"
		     "batches and each probe's notes on its row"),
	CLI_ROW_FLAG("trace", CLI_LONG('T'), struct run_args, trace,
		     "attribute exits by reason through tracefs kvm_exit events\n"
		     "(v2: in a round of its own before each probe's first)"),
	CLI_ROW_FLAG("all", CLI_LONG('a'), struct run_args, all,
		     "also run the CR ownership map and the check suites (their\n"
		     "results go to the table and JSON; a failed check does not\n"
		     "change the exit status: use 'exitscope check' for that)"),
	CLI_ROW_CALL("guest-xcr0", CLI_LONG('x'), "MASK", run_xcr0,
		     "before any probe (the baseline too) runs, set CR4.OSXSAVE\n"
		     "and XCR0 = MASK (decimal, or hexadecimal after 0x: e.g. 0x3)\n"
		     "in its guest; MASK needs bit 0 (x87), the architectural pairs,\n"
		     "and only bits of KVM's supported XCR0 (else exit 2). Probes\n"
		     "whose own setup loads XCR0 (xsetbv, invd_xcr0_differs,\n"
		     "invd_xss_differs) still do. Without XSAVE in KVM's supported\n"
		     "CPUID every probe is skipped with that reason. Recorded as\n"
		     "settings.guest_xcr0"),
	CLI_ROW_KVM_DEV(struct run_args, kvm_opt),
	{ .name = "repeat", .key = CLI_LONG('R'), .arg = "N", .type = CLI_T_UINT,
	  .off = CLI_FIELD(struct run_args, rep.n, unsigned int), .min = 1, .max = REPEAT_MAX,
	  .what = "a number of runs", .def.u = 0, .no_default = true,	/* 0: no series */
	  .help = "N independent runs of this command, one after the other,\n"
		  "each a process of its own (what varies from run to\n"
		  "run, such as memory placement, is drawn once per process);\n"
		  "needs --json FILE: FILE.json gives FILE-1.json ... FILE-N.json,\n"
		  "to compare as 'exitscope compare A-*.json -- B-*.json'" },
	CLI_ROW_HELP,
	{ 0 },
};

/* The about paragraphs: v2's pairs per round is method.h's. */
static void run_about(FILE *f)
{
	fprintf(f, "Measure what each class of VM exit costs on this host: every probe runs one\n"
		   "operation (CPUID, a CR4 toggle, an MSR write, an I/O round trip, an IPI...)\n"
		   "in batches inside a test guest, timed with serialized TSC reads. Per op it\n"
		   "reports cycles (median, 95%% CI), ns, and exits from the vCPU stats fd and\n"
		   "from exitscope's own run loop. Probes run in the order named; without PROBE,\n"
		   "the whole catalogue runs; GLOB is a shell pattern ('toggle_*'). A probe the\n"
		   "host cannot run is skipped with the reason.\n"
		   "\n"
		   "Method v2 (default): the probes are visited round-robin, --rounds times at\n"
		   "most, each round of a probe in a VM of its own; in it the guest alternates\n"
		   "%d pairs of a baseline batch (its own loop calling an empty function) and a\n"
		   "probe batch, and each pair gives one net figure. A probe stops once the\n"
		   "95%% CI of its round medians is within --precision (or --precision-floor\n"
		   "cycles), else when its rounds or its --time-budget are spent (the table\n"
		   "notes it). Method v1: one baseline per run (the empty call), then each\n"
		   "probe in one pass of --samples batches.\n", METHOD_PAIRS);
}

const struct cli_cmd_spec run_spec = {
	.name = "run",
	.usage = "[options] [PROBE|GLOB ...]",
	.about_print = run_about,
	.rows = run_rows,
	.operand = run_operand,
	.seen = run_seen,
	.col = 20,
	.order = '-',	/* operands in order, argv as given, so --repeat's runs can copy it */
	.tail = "Exit status: 0 the run completed (skips are fine), 1 internal failure,\n"
		"2 usage error, 3 KVM not available, 130 stopped by Ctrl-C, 143 by SIGTERM,\n"
		"129 by SIGHUP (results so far are still printed and written; before any\n"
		"probe measured anything, an existing FILE is left as it was; a second\n"
		"Ctrl-C while measuring ends it at once, nothing written). With --repeat:\n"
		"the first run that fails ends the series with its exit status; a stop\n"
		"keeps every file written.\n",
};

/* A decimal integer in [min, max], digits only (cli_parse_u64): 0 or -EINVAL. */
static int parse_uint(const char *s, long min, long max, long *out)
{
	uint64_t v;

	if (cli_parse_u64(s, false, (uint64_t)max, &v) || v < (uint64_t)min)
		return -EINVAL;
	*out = (long)v;
	return 0;
}

/* Probes in the order the command line names them (a glob: catalogue order), each once. */
static int select_probes(struct run_args *a)
{
	a->sel = calloc(nr_probes, sizeof(*a->sel));
	a->order = calloc(nr_probes, sizeof(*a->order));
	if (!a->sel || !a->order)
		return cli_error("run", EXIT_FAIL, "out of memory");
	for (size_t i = 0; i < a->nnames; i++) {
		bool any = false;

		for (size_t k = 0; k < nr_probes; k++) {
			if (fnmatch(a->names[i], probes[k].name, 0))
				continue;
			any = true;
			if (!a->sel[k])
				a->order[a->nsel++] = k;
			a->sel[k] = true;
		}
		if (!any)
			return cli_usage_error("run",
					       "no probe matches '%s' (see 'exitscope run --list')",
					       a->names[i]);
	}
	if (!a->nsel) {
		for (size_t k = 0; k < nr_probes; k++) {
			a->sel[k] = true;
			a->order[k] = k;
		}
		a->nsel = nr_probes;
	}
	return 0;
}

/* --cpu A[,B]: each a CPU number of any length (no copy to cut it). */
static int parse_cpus(struct run_args *a, const char *s)
{
	const char *comma = strchr(s, ',');
	size_t la = comma ? (size_t)(comma - s) : strlen(s);
	char *first = strndup(s, la);
	long v;
	int r;

	if (!first)
		return -ENOMEM;
	r = parse_uint(first, 0, CPU_SETSIZE - 1, &v);
	free(first);
	if (r)
		return r;
	a->cpu = (int)v;
	if (comma) {
		if (parse_uint(comma + 1, 0, CPU_SETSIZE - 1, &v) || v == a->cpu)
			return -EINVAL;
		a->cpu2 = (int)v;
	}
	return 0;
}

/* --cpu A[,B] */
static int run_cpus(void *args, const char *arg, const struct cli_parser *p)
{
	if (parse_cpus(args, arg))
		return cli_usage_error("run", "--cpu wants a CPU number or two different ones "
				       "(A,B), not '%s'", arg);
	return 0;
}

/* --guest-xcr0 MASK: the mask, and the spelling its errors quote. */
static int run_xcr0(void *args, const char *arg, const struct cli_parser *p)
{
	struct run_args *a = args;

	if (cli_parse_u64(arg, true, UINT64_MAX, &a->guest_xcr0))
		return cli_usage_error("run", "--guest-xcr0 wants an XCR0 mask like 0x3, not '%s'",
				       arg);
	a->xcr0_opt = arg;
	return 0;
}

/* PROBE|GLOB, in command-line order. */
static int run_operand(void *args, const char *arg, const struct cli_parser *p)
{
	struct run_args *a = args;

	a->names[a->nnames++] = arg;
	return 0;
}

/*
 * Where --repeat and --json are in argv (p->at, the option's index; the
 * option took argv[at .. optind - 1]): a run of the series is this
 * command without --repeat, its --json path replaced.
 */
static int run_seen(void *args, int key, const struct cli_parser *p)
{
	struct run_args *a = args;

	if (key == CLI_LONG('R')) {
		for (int k = p->at; k < optind; k++)
			a->rep.drop[k] = true;
	} else if (key == CLI_LONG('j')) {
		a->rep.json_inline = optind - p->at == 1;	/* --json=FILE */
		a->rep.json_arg = a->rep.json_inline ? p->at : p->at + 1;
	}
	return 0;
}

/* The command line into a: 0, CLI_PARSE_HELP, or an exit status (said). */
static int parse_args(struct run_args *a, int argc, char **argv)
{
	struct cli_parser p;
	int r;

	method_opts_init(&a->m, RUN_METHOD_V2);
	a->cpu = a->cpu2 = -1;
	a->rep.json_arg = -1;
	a->names = calloc((size_t)argc + 1, sizeof(*a->names));
	a->rep.drop = calloc((size_t)argc + 1, sizeof(*a->rep.drop));
	if (!a->names || !a->rep.drop)
		return cli_error("run", EXIT_FAIL, "out of memory");
	r = cli_parse(&p, &run_spec, a, argc, argv);
	if (r)
		return r;
	while (optind < argc)	/* after "--" */
		a->names[a->nnames++] = argv[optind++];
	a->samples_given = cli_given(&p, CLI_LONG('s'));
	if (!cli_given(&p, CLI_LONG('t')))
		a->m.budget_s = method_budget_default(a->m.method);
	return select_probes(a);
}

/* A warning: on stderr (unless quiet), and in the result's warnings. */
static void warn(bool quiet, struct result_doc *doc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void warn(bool quiet, struct result_doc *doc, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!quiet)
		text_wrap_print(stderr, "warning: ", 9, buf);
	result_doc_warn(doc, buf);
}

/*
 * --all: the ownership map (*map, NULL when there is none) and the check
 * suites (checks), into doc, and their tables (table NULL: none). The
 * caller frees *map and checks after doc's last write.
 */
static void run_all(const struct run_args *a, const struct hostinfo *hi, const char *kvm_path,
		    struct result_doc *doc, struct result_map **map, struct check_report *checks,
		    FILE *table)
{
	struct suite_env env = { .kvm_path = kvm_path, .hi = hi, .stop = cli_stop_flag() };
	struct err err;
	int r = map_collect(&env, NULL, 0, map, &err);

	if (*map) {	/* also when stopped (-EINTR): it says which entries were not measured */
		if (table) {
			fprintf(table, "\n");
			map_print(table, *map);
		}
		doc->map = *map;
	}
	if (r && r != -EINTR)
		warn(a->quiet, doc, "ownership map: %s", err.msg);
	for (size_t i = 0; i < nr_check_suites && !*env.stop; i++)
		check_suites[i].run(&env, checks);
	if (table) {
		fprintf(table, "\n");
		check_table_print(table, checks);
	}
	doc->checks = checks;
}

/* How the run measured, into s. */
static void run_settings_fill(const struct run_args *a, int cpu, double overhead, struct run_settings *s)
{
	run_settings_init(s);
	method_settings(&a->m, overhead, s);
	s->cpu = cpu;
	s->trace = a->trace;
	if (a->xcr0_opt)
		s->guest_xcr0 = (long long)a->guest_xcr0;
	if (cpu >= 0) {
		s->cpus[s->n_cpus++] = cpu;
		if (a->cpu2 >= 0)
			s->cpus[s->n_cpus++] = a->cpu2;
	}
}

/* What the method reports through its hooks: the progress line and the warnings. */
struct run_report {
	bool quiet;
	const char *what;		/* "run", or "run I/N:" in a run of --repeat */
	struct progress pg;
	bool begun;
	struct result_doc *doc;		/* where the warnings go */
};

/* The progress line on a terminal, none with --quiet (fd -1 is no terminal). */
static void run_on_progress(void *ctx, unsigned done, unsigned total, const char *label)
{
	struct run_report *rp = ctx;

	if (!rp->begun) {
		if (rp->quiet)
			progress_init_fd(&rp->pg, -1, rp->what, total);
		else
			progress_init(&rp->pg, rp->what, total);
		rp->begun = true;
	}
	if (label)
		progress_step(&rp->pg, done, label);
}

static void run_on_warn(void *ctx, const char *msg)
{
	struct run_report *rp = ctx;

	warn(rp->quiet, rp->doc, "%s", msg);
}

/* A test hook set in the environment changes what probes do: say so, in the result too. */
static void run_test_hooks(bool quiet, struct result_doc *doc)
{
	for (size_t i = 0; i < nr_probe_test_hooks; i++) {
		const char *v = getenv(probe_test_hooks[i]);

		if (v && *v)
			warn(quiet, doc, "test hook %s=%.64s is set: probes do not measure as they "
			     "would (it is for exitscope's own tests)", probe_test_hooks[i], v);
	}
}

/*
 * The hang test hook, PROBE[@MS], into pr (name: its buffer for the probe's
 * name): EXIT_OK (also when unset), or EXIT_USAGE after one line when MS is
 * no number of milliseconds.
 */
static int run_hang_hook(struct probe_runner *pr, char *name, size_t len)
{
	const char *hang = getenv(PROBE_HANG_ENV), *at;
	uint64_t ms = 0;

	if (!hang || !*hang)
		return EXIT_OK;
	at = strchr(hang, '@');
	if (at && cli_parse_u64(at + 1, false, UINT32_MAX, &ms))
		return cli_error("run", EXIT_USAGE,
				 "%s wants PROBE[@MS] (MS: milliseconds), not '%.64s'",
				 PROBE_HANG_ENV, hang);
	snprintf(name, len, "%.*s", at ? (int)(at - hang) : (int)strlen(hang), hang);
	pr->hang_probe = name;
	pr->hang_watchdog_ms = ms;
	return EXIT_OK;
}

/* Whether any probe has a figure or an outcome of its own (not stopped, not skipped). */
static bool run_measured(const struct probe_outcome *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (out[i].res.status != PROBE_STOPPED && out[i].res.status != PROBE_SKIPPED)
			return true;
	return false;
}

/* The progress line's command: "run", or "run 2/3:" in run 2 of a --repeat 3 (method/repeat.h). */
static void run_progress_what(char *buf, size_t len)
{
	unsigned int i, n;

	if (!repeat_position(&i, &n))
		snprintf(buf, len, "run %u/%u:", i, n);
	else
		snprintf(buf, len, "run");
}

/* A run of --repeat after the first: the legend and the host's warning were printed by run 1. */
static bool run_later_in_series(void)
{
	unsigned int i, n;

	return !repeat_position(&i, &n) && i > 1;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { 0 };
	struct probe_runner pr = { .kvm_fd = -1 };
	struct probe_outcome *out = NULL;
	struct probe_records recs = { 0 };
	struct hostinfo_record hrec;
	struct result_doc doc = { 0 };
	struct result_map *map = NULL;
	struct check_report checks = { 0 };
	const char *kvm_path;
	char hang_name[64], what[32], msg[512];
	struct hostinfo hi;
	FILE *table;
	struct suite_env henv = { 0 };
	size_t nout = 0;
	struct run_report rp = { .pg = { .on = false } };
	struct method_hooks hooks = { .progress = run_on_progress, .warn = run_on_warn, .ctx = &rp };
	int stopped;
	struct err err;
	double overhead = 0;
	int r, cpu = -1, rc = EXIT_OK;

	r = parse_args(&a, argc, argv);
	if (!r && a.list) {
		probe_list_print(stdout);
		r = cli_stdout_check("run", EXIT_OK);
		goto out;
	}
	if (!r)
		r = cli_output_distinct("run", "--openmetrics", a.openmetrics, &a.json_path, 1,
					"--json");
	if (!r && a.rep.n) {
		r = run_repeat(&a.rep, a.json_path, a.openmetrics, argc, argv);
		goto out;
	}
	if (!r)
		r = cli_output_check("run", a.json_path);
	if (!r)
		r = cli_output_check("run", a.openmetrics);
	if (!r)
		r = run_hang_hook(&pr, hang_name, sizeof(hang_name));
	if (!r)
		r = cli_host_init("run", a.kvm_opt, &hi, &henv);
	if (r)
		goto out;
	kvm_path = henv.kvm_path;
	if (a.xcr0_opt && guest_xcr0_check(a.guest_xcr0, &hi, &err)) {
		r = cli_usage_error("run", "--guest-xcr0 %s: %s", a.xcr0_opt, err.msg);
		goto out;
	}
	r = latency_pin(a.cpu, &cpu);
	if (r && a.cpu >= 0) {
		r = cli_usage_error("run", "cannot pin to CPU %d: %s", a.cpu, strerror(-r));
		goto out;
	}
	if (a.cpu2 >= 0 && a.cpu2 >= sysconf(_SC_NPROCESSORS_ONLN)) {
		r = cli_usage_error("run", "--cpu %d,%d: there is no CPU %d online", a.cpu, a.cpu2,
				    a.cpu2);
		goto out;
	}
	result_doc_init(&doc, "run", argc, argv);
	rp.quiet = a.quiet;
	rp.doc = &doc;
	run_progress_what(what, sizeof(what));
	rp.what = what;
	if (r)
		warn(a.quiet, &doc, "could not pin the vCPU thread: %s", strerror(-r));
	if (hostinfo_emulation_warning(&hi))
		warn(a.quiet || run_later_in_series(), &doc, "%s", hostinfo_emulation_warning(&hi));
	pr.kvm_path = kvm_path;
	pr.stop = cli_stop_flag();
	pr.hi = &hi;
	pr.env.tsc_khz = hi.tsc_khz > 0 ? (uint64_t)hi.tsc_khz : 0;
	pr.pin_cpu2 = a.cpu2 >= 0;
	pr.cpu2 = a.cpu2;
	run_test_hooks(a.quiet, &doc);
	pr.guest_xcr0 = a.guest_xcr0;
	if (hi.lane.profile) {
		r = profile_marks_open();
		if (r)
			warn(a.quiet, &doc, "no exit-path profile marks: the marks' I/O port: %s",
			     strerror(-r));
		pr.env.profile = !r;
	}
	if (a.trace) {
		char why[256];

		if (trace_available(why, sizeof(why)))
			pr.env.trace = true;
		else if (!a.quiet)
			fprintf(stderr, "note: --trace: no exit attribution: %s\n", why);
	}
	r = probe_runner_init(&pr, &err);
	if (r) {
		rc = cli_kvm_error("run", kvm_path, r, err.msg);
		goto done;
	}
	out = calloc(a.nsel, sizeof(*out));
	if (!out) {
		rc = cli_error("run", EXIT_FAIL, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < a.nsel; i++)
		out[i].probe = &probes[a.order[i]];
	nout = a.nsel;
	if (method_cpu2_warning(out, nout, cpu, a.cpu2, msg, sizeof(msg)))
		warn(a.quiet, &doc, "%s", msg);
	if (a.samples_given && a.m.method != RUN_METHOD_V1)
		warn(a.quiet, &doc,
		     "--samples applies to --method v1; v2 measures %d pairs per round",
		     METHOD_PAIRS);
	if (method_measure(&a.m, &pr, out, nout, &hooks, &overhead)) {
		rc = cli_error("run", EXIT_FAIL, "out of memory");
		goto done;
	}
	progress_done(&rp.pg);
	if (pr.env.profile)
		profile_marks_dump(a.json_path ? a.json_path : "-");
	stopped = *pr.stop;
	for (size_t i = 0; i < nout; i++)
		if (out[i].res.migrated) {
			warn(a.quiet, &doc, "the vCPU thread migrated between CPUs during %s",
			     out[i].probe->name);
			break;
		}
	/* With --json - stdout carries the JSON alone: no table. */
	table = a.json_path && !strcmp(a.json_path, "-") ? NULL : stdout;
	if (table)
		probe_table_print(table, out, nout, &(struct probe_table_opts){
			.emulated = hi.exec_mode == EXEC_EMULATED, .legend = !run_later_in_series(),
			.wide = a.wide });
	if (a.all && !stopped)
		run_all(&a, &hi, kvm_path, &doc, &map, &checks, table);
	stopped = *pr.stop;
	/* In the file; the line on stderr comes from cli_finish, even with --quiet. */
	if (stopped)
		warn(true, &doc, "stopped by %s: probes not measured are listed as stopped",
		     cli_stop_name(stopped));
	/* Nothing measured: a result already in the file stays (nor is --openmetrics replaced). */
	if (stopped && !run_measured(out, nout)) {
		rc = cli_finish_unmeasured("run", a.json_path, stopped);
		if (rc >= 0)
			goto done;
		rc = EXIT_OK;
	}

	if (probe_outcome_records(out, nout, &recs)) {
		rc = cli_error("run", EXIT_FAIL, "out of memory");
		goto done;
	}
	doc.probes = recs.probes;
	doc.n_probes = recs.n;
	hostinfo_record(&hi, &hrec);
	doc.host = &hrec.rec;
	run_settings_fill(&a, cpu, overhead, &doc.settings);
	rc = cli_finish("run", &doc, a.json_path, stopped, rc);
	if (a.openmetrics && export_doc_write("run", &doc, a.json_path, a.openmetrics) &&
	    rc == EXIT_OK)
		rc = EXIT_FAIL;
done:
	result_doc_release(&doc);
	probe_records_free(&recs);
	result_map_free(map);
	check_report_free(&checks);
	free(out);
	probe_runner_free(&pr);
	r = rc;
out:
	free(a.sel);
	free(a.order);
	free(a.names);
	free(a.rep.drop);
	return r < 0 ? EXIT_OK : r;
}
