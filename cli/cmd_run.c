/*
 * cmd_run.c - `exitscope run [PROBE|GLOB ...]`: measure the VM-exit latency
 * catalogue (probes/) and print a table; optionally write the JSON result.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "suites/suite_env.h"
#include "results/check.h"
#include "cli/cmds.h"
#include "kvm/trace.h"
#include "probes/probe_out.h"
#include "probes/runner.h"
#include "results/result_write.h"
#include "host/hostinfo.h"
#include "host/host_record.h"
#include "suites/map.h"
#include "suites/suites.h"

#define RUN_DEFAULT_SAMPLES	15
#define RUN_DEFAULT_BUDGET_S	1.0
/* Test hook: PROBE[@MS]: that probe's op never returns; its watchdog is MS (default: as any probe's). */
#define RUN_HANG_ENV		"EXITSCOPE_TEST_HANG"

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: exitscope run [PROBE|GLOB ...] [--list] [--json FILE] [--samples N]\n"
		"                     [--time-budget S] [--cpu N] [--quiet] [--trace] [--all]\n"
		"                     [--guest-xcr0 MASK] [--kvm-dev PATH] [--openmetrics FILE]\n"
		"\n"
		"Measure what each class of VM exit costs on this host: every probe runs one\n"
		"operation (CPUID, a CR4 toggle, an MSR write, an I/O round trip, an IPI...)\n"
		"in batches inside a test guest, timed with serialized TSC reads; the nop\n"
		"baseline is subtracted. Per op it reports cycles (median, 95%% CI), ns, and\n"
		"exits from the vCPU stats fd and from exitscope's own run loop. Without\n"
		"PROBE, the whole catalogue runs; GLOB is a shell pattern ('toggle_*').\n"
		"A probe the host cannot run is skipped with the reason.\n"
		"\n"
		"  --list            list the probes with their group and what they need\n"
		"  --json FILE       write the result file ('-' for stdout)\n"
		"  --openmetrics FILE also write it as Prometheus text, atomically (as\n"
		"                    'exitscope export'), e.g. for node_exporter's textfile collector\n"
		"  --samples N       samples per probe (1-%d, default %d)\n"
		"  --time-budget S   seconds per probe for calibration and samples (default %.1f);\n"
		"                    a guest run still going after 2 x S + 1 s is reported as a hang\n"
		"  --cpu N           pin the vCPU thread to CPU N (default: the current CPU)\n"
		"  --quiet           no progress or warnings on stderr\n"
		"  --trace           attribute exits by reason through tracefs kvm_exit events\n"
		"  --all             also run the CR ownership map and the check suites (their\n"
		"                    results go to the table and JSON; a failed check does not\n"
		"                    change the exit status: use 'exitscope check' for that)\n"
		"  --guest-xcr0 MASK before any probe (the nop baseline too) runs, set CR4.OSXSAVE\n"
		"                    and XCR0 = MASK (e.g. 0x3) in its guest; MASK needs bit 0\n"
		"                    (x87), the architectural pairs, and only bits of KVM's\n"
		"                    supported XCR0 (else exit 2). Probes whose own setup loads\n"
		"                    XCR0 (xsetbv, invd_xcr0_differs, the XSS ones) still do.\n"
		"                    Without XSAVE in KVM's supported CPUID every probe is\n"
		"                    skipped with that reason. Recorded as settings.guest_xcr0\n"
		"  --kvm-dev PATH    KVM device (default /dev/kvm, or $EXITSCOPE_KVM_DEV)\n"
		"  -h, --help        this text\n"
		"\n"
		"Exit status: 0 the run completed (skips are fine), 1 internal failure,\n"
		"2 usage error, 3 KVM not available, 130 stopped by Ctrl-C (results so far\n"
		"are still printed and written).\n",
		LATENCY_MAX_SAMPLES, RUN_DEFAULT_SAMPLES, RUN_DEFAULT_BUDGET_S);
}

struct run_args {
	const char *json_path, *kvm_opt, *xcr0_opt, *openmetrics;
	uint64_t guest_xcr0;		/* --guest-xcr0 (given when xcr0_opt is set) */
	unsigned int samples;
	double budget_s;
	int cpu;
	bool list, quiet, trace, all;
	bool *sel;			/* nr_probes entries, by catalogue index */
	size_t nsel;
};

static int parse_uint(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int select_probes(struct run_args *a, int argc, char **argv)
{
	a->sel = calloc(nr_probes, sizeof(*a->sel));
	if (!a->sel)
		return cli_error("run", EXIT_FAIL, "out of memory");
	for (int i = optind; i < argc; i++) {
		bool any = false;

		for (size_t k = 0; k < nr_probes; k++) {
			if (fnmatch(argv[i], probes[k].name, 0))
				continue;
			any = true;
			if (!a->sel[k])
				a->nsel++;
			a->sel[k] = true;
		}
		if (!any)
			return cli_usage_error("run", "no probe matches '%s' (see 'exitscope run --list')",
					       argv[i]);
	}
	if (!a->nsel) {
		for (size_t k = 0; k < nr_probes; k++)
			a->sel[k] = true;
		a->nsel = nr_probes;
	}
	return 0;
}

static int parse_args(struct run_args *a, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "json", required_argument, NULL, 'j' },
		{ "openmetrics", required_argument, NULL, 'O' },
		{ "samples", required_argument, NULL, 's' },
		{ "time-budget", required_argument, NULL, 't' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "trace", no_argument, NULL, 'T' },
		{ "all", no_argument, NULL, 'a' },
		{ "kvm-dev", required_argument, NULL, 'k' },
		{ "guest-xcr0", required_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char *end;
	long v;
	int c;

	a->samples = RUN_DEFAULT_SAMPLES;
	a->budget_s = RUN_DEFAULT_BUDGET_S;
	a->cpu = -1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "hq", opts, NULL)) != -1) {
		switch (c) {
		case 'l': a->list = true; break;
		case 'j': a->json_path = optarg; break;
		case 'O': a->openmetrics = optarg; break;
		case 'q': a->quiet = true; break;
		case 'T': a->trace = true; break;
		case 'a': a->all = true; break;
		case 'k': a->kvm_opt = optarg; break;
		case 'x':
			errno = 0;
			a->guest_xcr0 = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end || *optarg == '-')
				return cli_usage_error("run", "--guest-xcr0 wants an XCR0 mask like 0x3, "
						       "not '%s'", optarg);
			a->xcr0_opt = optarg;
			break;
		case 's':
			if (parse_uint(optarg, 1, LATENCY_MAX_SAMPLES, &v))
				return cli_usage_error("run", "--samples wants an integer 1-%d, not '%s'",
						       LATENCY_MAX_SAMPLES, optarg);
			a->samples = (unsigned int)v;
			break;
		case 't':
			errno = 0;
			a->budget_s = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(a->budget_s) ||
			    a->budget_s < 0.01 || a->budget_s > 600)
				return cli_usage_error("run", "--time-budget wants seconds 0.01-600, not '%s'",
						       optarg);
			break;
		case 'c':
			if (parse_uint(optarg, 0, CPU_SETSIZE - 1, &v))
				return cli_usage_error("run", "--cpu wants a CPU number, not '%s'", optarg);
			a->cpu = (int)v;
			break;
		case 'h':
			run_usage(stdout);
			return -1;
		default:
			return cli_usage_error("run", "unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	return select_probes(a, argc, argv);
}

static void progress(bool on, size_t i, size_t n, const char *name)
{
	if (on)
		fprintf(stderr, "\r\033[K[%zu/%zu] %s", i, n, name);
}

static void warn(bool quiet, json_t *warnings, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void warn(bool quiet, json_t *warnings, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!quiet)
		fprintf(stderr, "warning: %s\n", buf);
	json_array_append_new(warnings, json_string(buf));
}

/* --all: the ownership map and the check suites, into root. */
static void run_all(const struct run_args *a, const struct hostinfo *hi, const char *kvm_path,
		    json_t *root, json_t *warnings)
{
	struct suite_env env = { .kvm_path = kvm_path, .hi = hi, .stop = cli_stop_flag() };
	struct check_report rep = { 0 };
	struct result_map *map = NULL;
	char err[256];
	int r = map_collect(&env, NULL, 0, &map, err, sizeof(err));

	if (map) {	/* also when stopped (-EINTR): it says which entries were not measured */
		printf("\n");
		map_print(stdout, map);
		json_object_set_new(root, "map", result_map_json(map));
		result_map_free(map);
	}
	if (r && r != -EINTR)
		warn(a->quiet, warnings, "ownership map: %s", err);
	for (size_t i = 0; i < nr_check_suites && !*env.stop; i++)
		check_suites[i].run(&env, &rep);
	printf("\n");
	check_report_print(stdout, &rep);
	json_object_set_new(root, "checks", check_report_json(&rep));
	check_report_free(&rep);
}

static json_t *settings_json(const struct run_args *a, int cpu, double overhead)
{
	struct run_settings s;

	run_settings_init(&s);
	s.samples = a->samples;
	s.time_budget_s = a->budget_s;
	s.cpu = cpu;
	s.overhead_cycles = overhead;
	s.trace = a->trace;
	if (a->xcr0_opt)
		s.guest_xcr0 = (long long)a->guest_xcr0;
	return run_settings_json(&s);
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { 0 };
	struct probe_runner pr = { .kvm_fd = -1 };
	struct probe_outcome *out = NULL;
	struct latency_result *base = NULL;
	const char *kvm_path, *hang;
	char hang_name[64];
	json_t *root = NULL, *jprobes, *warnings;
	struct hostinfo hi;
	struct suite_env henv = { 0 };
	size_t nout = 0, idx = 0;
	bool tty, stopped;
	char err[512];
	double overhead = 0;
	int r, cpu = -1, rc = EXIT_OK;

	r = parse_args(&a, argc, argv);
	if (!r && a.list) {
		probe_list_print(stdout);
		r = cli_stdout_check("run", EXIT_OK);
		goto out;
	}
	if (!r)
		r = cli_output_check("run", a.json_path);
	if (!r)
		r = cli_output_check("run", a.openmetrics);
	if (!r)
		r = cli_host_init("run", a.kvm_opt, &hi, &henv);
	if (r)
		goto out;
	kvm_path = henv.kvm_path;
	if (a.xcr0_opt && guest_xcr0_check(a.guest_xcr0, &hi, err, sizeof(err))) {
		r = cli_usage_error("run", "--guest-xcr0 %s: %s", a.xcr0_opt, err);
		goto out;
	}
	r = latency_pin(a.cpu, &cpu);
	if (r && a.cpu >= 0) {
		r = cli_usage_error("run", "cannot pin to CPU %d: %s", a.cpu, strerror(-r));
		goto out;
	}
	root = result_new("run", argc, argv);
	warnings = json_array();
	if (r)
		warn(a.quiet, warnings, "could not pin the vCPU thread: %s", strerror(-r));
	if (hostinfo_emulation_warning(&hi))
		warn(a.quiet, warnings, "%s", hostinfo_emulation_warning(&hi));
	pr.kvm_path = kvm_path;
	pr.stop = cli_stop_flag();
	pr.hi = &hi;
	pr.env.tsc_khz = hi.tsc_khz > 0 ? (uint64_t)hi.tsc_khz : 0;
	pr.env.samples = a.samples;
	pr.env.budget_ms = (uint64_t)(a.budget_s * 1000);
	hang = getenv(RUN_HANG_ENV);
	if (hang && *hang) {
		const char *at = strchr(hang, '@');

		snprintf(hang_name, sizeof(hang_name), "%.*s", at ? (int)(at - hang) : (int)strlen(hang), hang);
		pr.hang_probe = hang_name;
		pr.hang_watchdog_ms = at ? strtoull(at + 1, NULL, 10) : 0;
	}
	pr.guest_xcr0 = a.guest_xcr0;
	if (a.trace) {
		char why[256];

		if (trace_available(why, sizeof(why)))
			pr.env.trace = true;
		else if (!a.quiet)
			fprintf(stderr, "note: --trace: no exit attribution: %s\n", why);
	}
	r = probe_runner_init(&pr, err, sizeof(err));
	if (r) {
		rc = cli_kvm_error("run", kvm_path, r, err);
		goto done;
	}
	out = calloc(a.nsel, sizeof(*out));
	base = calloc(1, sizeof(*base));
	if (!out || !base) {
		rc = cli_error("run", EXIT_FAIL, "out of memory");
		goto done;
	}
	tty = !a.quiet && isatty(STDERR_FILENO);

	/* The nop baseline first: its median is every other probe's overhead. */
	progress(tty, 0, a.nsel, "nop baseline");
	r = probe_run(&pr, probe_find("nop"), base);
	if (!r && base->status == PROBE_OK)
		overhead = base->raw_median;
	else if (!*pr.stop)
		warn(a.quiet, warnings, "nop baseline not measured (%s): nothing subtracted",
		     r ? strerror(-r) : base->reason);
	pr.env.overhead_cycles = overhead;

	for (size_t k = 0; k < nr_probes; k++) {
		struct probe_outcome *o;

		if (!a.sel[k])
			continue;
		o = &out[nout++];
		o->probe = &probes[k];
		idx++;
		if (*pr.stop) {
			o->res.status = PROBE_STOPPED;
			continue;
		}
		progress(tty, idx, a.nsel, probes[k].name);
		if (!strcmp(probes[k].name, "nop") && base->status == PROBE_OK) {
			o->res = *base;		/* the baseline itself, nothing subtracted */
			continue;
		}
		r = probe_run(&pr, &probes[k], &o->res);
		if (r) {
			o->res.status = PROBE_FAILED;
			snprintf(o->res.reason, sizeof(o->res.reason), "runner: %s", strerror(-r));
		}
	}
	if (tty)
		fprintf(stderr, "\r\033[K");
	stopped = *pr.stop;
	for (size_t i = 0; i < nout; i++)
		if (out[i].res.migrated) {
			warn(a.quiet, warnings, "the vCPU thread migrated between CPUs during %s",
			     out[i].probe->name);
			break;
		}
	probe_table_print(stdout, out, nout, hi.exec_mode == EXEC_EMULATED);
	if (a.all && !stopped)
		run_all(&a, &hi, kvm_path, root, warnings);
	stopped = *pr.stop;
	/* In the file; the line on stderr comes from cli_finish, even with --quiet. */
	if (stopped)
		warn(true, warnings, "stopped by Ctrl-C: probes not measured are listed as stopped");

	jprobes = json_array();
	for (size_t i = 0; i < nout; i++)
		json_array_append_new(jprobes, probe_outcome_json(&out[i]));
	json_object_set_new(root, "host", hostinfo_record_json(&hi));
	json_object_set_new(root, "settings", settings_json(&a, cpu, overhead));
	json_object_set_new(root, "probes", jprobes);
	json_object_set_new(root, "warnings", warnings);
	warnings = NULL;
	rc = cli_finish("run", root, a.json_path, stopped, rc);
	if (a.openmetrics && export_root_write("run", root, a.json_path, a.openmetrics) && rc == EXIT_OK)
		rc = EXIT_FAIL;
done:
	json_decref(warnings);
	json_decref(root);
	free(out);
	free(base);
	probe_runner_free(&pr);
	r = rc;
out:
	free(a.sel);
	return r < 0 ? EXIT_OK : r;
}
