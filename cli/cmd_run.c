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
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "suites/suite_env.h"
#include "results/check.h"
#include "cli/cmds.h"
#include "kvm/trace.h"
#include "probes/probe_out.h"
#include "probes/runner.h"
#include "harness/cpuload.h"
#include "results/result_write.h"
#include "host/hostinfo.h"
#include "host/host_record.h"
#include "suites/map.h"
#include "suites/suites.h"

#define RUN_DEFAULT_SAMPLES	15
#define RUN_DEFAULT_BUDGET_S	1.0	/* v1 */
/*
 * v2: 8 rounds (8 VMs) of at most 0.2 s per probe in all, chosen with
 * scripts/bench-method against 5 rounds and 0.15 s (README: fewer false
 * A/A verdicts at the same run time); 20 probes x 0.2 s still leave room
 * for the VM setup in a 5 s default run.
 */
#define RUN_DEFAULT_BUDGET_V2_S	0.2
#define RUN_DEFAULT_ROUNDS	8
#define RUN_DEFAULT_PRECISION_PCT 1.0
#define RUN_DEFAULT_FLOOR_CYCLES 1.0
#define RUN_PAIRS		31	/* pairs per round: odd, so a round's median is one pair; many short
				   batches, so the median skips those a host interrupt hit */
/* Test hook: PROBE[@MS]: that probe's op never returns; its watchdog is MS (default: as any probe's). */
#define RUN_HANG_ENV		"EXITSCOPE_TEST_HANG"

static void run_usage(FILE *f)
{
	fprintf(f,
		"usage: exitscope run [PROBE|GLOB ...] [--list] [--json FILE] [--method v1|v2]\n"
		"                     [--rounds N] [--precision PCT] [--precision-floor CYCLES]\n"
		"                     [--time-budget S] [--run-limit S] [--samples N] [--cpu A[,B]]\n"
		"                     [--quiet] [--trace] [--all] [--guest-xcr0 MASK] [--kvm-dev PATH]\n"
		"                     [--openmetrics FILE]\n"
		"\n"
		"Measure what each class of VM exit costs on this host: every probe runs one\n"
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
		"notes it). Method v1: one nop baseline per run, then each probe in one\n"
		"pass of --samples batches.\n"
		"\n"
		"  --list            list the probes with their group and what they need\n"
		"  --json FILE       write the result file ('-' for stdout)\n"
		"  --openmetrics FILE also write it as Prometheus text, atomically (as\n"
		"                    'exitscope export'), e.g. for node_exporter's textfile collector\n"
		"  --method v1|v2    measurement method (default v2)\n"
		"  --rounds N        v2: round-robin passes at most (1-%d, default %d)\n"
		"  --precision PCT   v2: stop a probe when its CI half-width is within PCT %% of\n"
		"                    its median (default %g)\n"
		"  --precision-floor CYCLES\n"
		"                    v2: ... or within CYCLES cycles, for near-zero costs (default %g)\n"
		"  --time-budget S   seconds per probe, an upper bound (default %g in v2, %g in v1);\n"
		"                    a guest run still going after 2 x S + 1 s is reported as a hang\n"
		"  --run-limit S     v2: seconds for the whole measurement; probes not done then\n"
		"                    stop (default: no limit)\n"
		"  --samples N       v1: samples per probe (1-%d, default %d)\n"
		"  --cpu A[,B]       pin vCPU 0's thread to CPU A (default: the current CPU) and\n"
		"                    a second vCPU's to B (default: any CPU but A); run warns when\n"
		"                    B (or every CPU but A) is busy\n"
		"  --quiet           no progress or warnings on stderr\n"
		"  --trace           attribute exits by reason through tracefs kvm_exit events\n"
		"                    (v2: in a round of its own before each probe's first)\n"
		"  --all             also run the CR ownership map and the check suites (their\n"
		"                    results go to the table and JSON; a failed check does not\n"
		"                    change the exit status: use 'exitscope check' for that)\n"
		"  --guest-xcr0 MASK before any probe (the nop baseline too) runs, set CR4.OSXSAVE\n"
		"                    and XCR0 = MASK (e.g. 0x3) in its guest; MASK needs bit 0\n"
		"                    (x87), the architectural pairs, and only bits of KVM's\n"
		"                    supported XCR0 (else exit 2). Probes whose own setup loads\n"
		"                    XCR0 (xsetbv, invd_xcr0_differs, invd_xss_differs) still do.\n"
		"                    Without XSAVE in KVM's supported CPUID every probe is\n"
		"                    skipped with that reason. Recorded as settings.guest_xcr0\n"
		"  --kvm-dev PATH    KVM device (default /dev/kvm, or $EXITSCOPE_KVM_DEV)\n"
		"  -h, --help        this text\n"
		"\n"
		"Exit status: 0 the run completed (skips are fine), 1 internal failure,\n"
		"2 usage error, 3 KVM not available, 130 stopped by Ctrl-C (results so far\n"
		"are still printed and written).\n",
		RUN_PAIRS, LATENCY_MAX_ROUNDS, RUN_DEFAULT_ROUNDS, RUN_DEFAULT_PRECISION_PCT,
		RUN_DEFAULT_FLOOR_CYCLES, RUN_DEFAULT_BUDGET_V2_S, RUN_DEFAULT_BUDGET_S,
		LATENCY_MAX_SAMPLES, RUN_DEFAULT_SAMPLES);
}

struct run_args {
	const char *json_path, *kvm_opt, *xcr0_opt, *openmetrics;
	uint64_t guest_xcr0;		/* --guest-xcr0 (given when xcr0_opt is set) */
	enum run_method method;
	unsigned int samples, rounds;
	double budget_s, precision_pct, floor_cycles, run_limit_s;
	int cpu, cpu2;			/* --cpu A[,B]; -1 not given */
	bool list, quiet, trace, all, budget_given, samples_given;
	bool *sel;			/* nr_probes entries, by catalogue index */
	size_t *order;			/* catalogue indexes of the nsel probes, in command-line order */
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

/* Probes in the order the command line names them (a glob: catalogue order), each once. */
static int select_probes(struct run_args *a, int argc, char **argv)
{
	a->sel = calloc(nr_probes, sizeof(*a->sel));
	a->order = calloc(nr_probes, sizeof(*a->order));
	if (!a->sel || !a->order)
		return cli_error("run", EXIT_FAIL, "out of memory");
	for (int i = optind; i < argc; i++) {
		bool any = false;

		for (size_t k = 0; k < nr_probes; k++) {
			if (fnmatch(argv[i], probes[k].name, 0))
				continue;
			any = true;
			if (!a->sel[k])
				a->order[a->nsel++] = k;
			a->sel[k] = true;
		}
		if (!any)
			return cli_usage_error("run", "no probe matches '%s' (see 'exitscope run --list')",
					       argv[i]);
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

/* A number of seconds or cycles in [min, max]: 0 or -1. */
static int parse_num(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* --cpu A[,B] */
static int parse_cpus(struct run_args *a, const char *s)
{
	char buf[64], *comma;
	long v;

	snprintf(buf, sizeof(buf), "%s", s);
	comma = strchr(buf, ',');
	if (comma)
		*comma++ = 0;
	if (parse_uint(buf, 0, CPU_SETSIZE - 1, &v))
		return -1;
	a->cpu = (int)v;
	if (comma) {
		if (parse_uint(comma, 0, CPU_SETSIZE - 1, &v) || v == a->cpu)
			return -1;
		a->cpu2 = (int)v;
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
		{ "method", required_argument, NULL, 'm' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "precision", required_argument, NULL, 'p' },
		{ "precision-floor", required_argument, NULL, 'f' },
		{ "run-limit", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char *end;
	long v;
	int c;

	a->method = RUN_METHOD_V2;
	a->samples = RUN_DEFAULT_SAMPLES;
	a->rounds = RUN_DEFAULT_ROUNDS;
	a->precision_pct = RUN_DEFAULT_PRECISION_PCT;
	a->floor_cycles = RUN_DEFAULT_FLOOR_CYCLES;
	a->cpu = a->cpu2 = -1;
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
			a->samples_given = true;
			break;
		case 't':
			if (parse_num(optarg, 0.01, 600, &a->budget_s))
				return cli_usage_error("run", "--time-budget wants seconds 0.01-600, not '%s'",
						       optarg);
			a->budget_given = true;
			break;
		case 'L':
			if (parse_num(optarg, 0.01, 86400, &a->run_limit_s))
				return cli_usage_error("run", "--run-limit wants seconds 0.01-86400, not '%s'",
						       optarg);
			break;
		case 'p':
			if (parse_num(optarg, 0.001, 100, &a->precision_pct))
				return cli_usage_error("run", "--precision wants a percentage 0.001-100, not '%s'",
						       optarg);
			break;
		case 'f':
			if (parse_num(optarg, 0, 1e9, &a->floor_cycles))
				return cli_usage_error("run", "--precision-floor wants cycles >= 0, not '%s'",
						       optarg);
			break;
		case 'r':
			if (parse_uint(optarg, 1, LATENCY_MAX_ROUNDS, &v))
				return cli_usage_error("run", "--rounds wants an integer 1-%d, not '%s'",
						       LATENCY_MAX_ROUNDS, optarg);
			a->rounds = (unsigned int)v;
			break;
		case 'm':
			v = schema_enum_find(run_method_names, RUN_METHOD_N, optarg);
			if (v < 0)
				return cli_usage_error("run", "--method wants v1 or v2, not '%s'", optarg);
			a->method = (enum run_method)v;
			break;
		case 'c':
			if (parse_cpus(a, optarg))
				return cli_usage_error("run", "--cpu wants a CPU number or two different ones "
						       "(A,B), not '%s'", optarg);
			break;
		case 'h':
			run_usage(stdout);
			return -1;
		default:
			return cli_usage_error("run", "unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (!a->budget_given)
		a->budget_s = a->method == RUN_METHOD_V1 ? RUN_DEFAULT_BUDGET_S : RUN_DEFAULT_BUDGET_V2_S;
	return select_probes(a, argc, argv);
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
	s.method = a->method;
	s.time_budget_s = a->budget_s;
	s.cpu = cpu;
	s.trace = a->trace;
	if (a->xcr0_opt)
		s.guest_xcr0 = (long long)a->guest_xcr0;
	if (a->method == RUN_METHOD_V1) {
		s.samples = a->samples;
		s.overhead_cycles = overhead;
	} else {
		s.rounds = a->rounds;
		s.precision_pct = a->precision_pct;
		s.precision_floor_cycles = a->floor_cycles;
		if (a->run_limit_s > 0)
			s.run_limit_s = a->run_limit_s;
	}
	if (cpu >= 0) {
		s.cpus[s.n_cpus++] = cpu;
		if (a->cpu2 >= 0)
			s.cpus[s.n_cpus++] = a->cpu2;
	}
	return run_settings_json(&s);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The progress line on a terminal, none with --quiet (fd -1 is no terminal). */
static void run_progress_init(const struct run_args *a, struct progress *pg, unsigned total)
{
	if (a->quiet)
		progress_init_fd(pg, -1, "run", total);
	else
		progress_init(pg, "run", total);
}

/* Method v1, as before rounds: the nop baseline once, then each probe in one pass. */
static void measure_v1(const struct run_args *a, struct probe_runner *pr, struct probe_outcome *out,
		       struct progress *pg, json_t *warnings, double *overhead)
{
	struct latency_result *base = calloc(1, sizeof(*base));
	int r;

	*overhead = 0;
	if (!base) {
		warn(a->quiet, warnings, "out of memory: nop baseline not measured");
	} else {
		/* The nop baseline first: its median is every other probe's overhead. */
		run_progress_init(a, pg, (unsigned)a->nsel + 1);
		progress_step(pg, 0, "nop baseline");
		r = probe_run(pr, probe_find("nop"), base);
		if (!r && base->status == PROBE_OK)
			*overhead = base->raw_median;
		else if (!*pr->stop)
			warn(a->quiet, warnings, "nop baseline not measured (%s): nothing subtracted",
			     r ? strerror(-r) : base->reason);
	}
	pr->env.overhead_cycles = *overhead;
	for (size_t i = 0; i < a->nsel; i++) {
		struct probe_outcome *o = &out[i];

		if (*pr->stop) {
			o->res.status = PROBE_STOPPED;
			continue;
		}
		progress_step(pg, (unsigned)i + 1, o->probe->name);
		if (!strcmp(o->probe->name, "nop") && base && base->status == PROBE_OK) {
			o->res = *base;		/* the baseline itself, nothing subtracted */
			continue;
		}
		r = probe_run(pr, o->probe, &o->res);
		if (r) {
			o->res.status = PROBE_FAILED;
			snprintf(o->res.reason, sizeof(o->res.reason), "runner: %s", strerror(-r));
		}
	}
	free(base);
}

/* A v2 probe's measurement ended with stop: its figures from the rounds it has. */
static void v2_settle(struct probe_outcome *o, enum probe_stop stop, uint64_t tsc_khz)
{
	struct latency_result *res = &o->res;

	if (res->status != PROBE_OK)
		return;
	if (!res->n_rounds) {
		res->status = stop == PROBE_STOP_RUN_LIMIT ? PROBE_SKIPPED : PROBE_STOPPED;
		snprintf(res->reason, sizeof(res->reason), "the run limit was reached before it was measured");
		return;
	}
	res->stop = stop;
	latency_session_result(res, tsc_khz);
}

/*
 * Progress of v2 in probe-rounds: a probe that is done counts all its
 * rounds, the others this round's visits so far (before probe i).
 */
static unsigned v2_units_done(const struct run_args *a, const bool *done, unsigned round, size_t i)
{
	unsigned units = 0;

	for (size_t j = 0; j < a->nsel; j++)
		units += done[j] ? a->rounds : round + (j < i);
	return units;
}

/*
 * One round of probe p in a VM of its own: build and set it up, measure the
 * round, tear it down (the probe's teardown check runs on each VM). Returns
 * the seconds of the round's guest run, what the budget counts: not the VM
 * setup and calibration, nor the trace round (trace: the first round runs
 * one before it).
 */
static double v2_round(struct probe_runner *pr, const struct probe *p, struct probe_session *s,
		       struct latency_result *res, bool traced)
{
	double t0, guest_s = 0;

	probe_session_open(pr, p, s, res);
	if (s->ls.open) {
		t0 = now_s();
		probe_session_round(pr, s, res);
		if (!traced)
			guest_s = now_s() - t0;
	}
	probe_session_close(pr, s, res);	/* nothing left to do when the round ended it */
	return guest_s;
}

/*
 * Method v2: round-robin over the probes in command-line order, each round
 * of a probe in a VM of its own, and a probe leaves the rotation when
 * latency_stop_decide says so. A fresh VM per round is what makes the
 * rounds independent: a VM's memory placement gives every batch in it the
 * same offset (measured on kvm_pvm: the run-to-run spread of the net
 * medians halved, docs/method.md), so a VM kept over the rounds would give
 * them one shared offset the round-level interval could not see. It also
 * keeps a two-vCPU probe's second vCPU from spinning through the other
 * probes' rounds.
 */
static int measure_v2(const struct run_args *a, struct probe_runner *pr, struct probe_outcome *out,
		      struct progress *pg)
{
	struct probe_session *s = calloc(1, sizeof(*s));
	double *spent = calloc(a->nsel, sizeof(*spent));
	bool *done = calloc(a->nsel, sizeof(*done));
	struct latency_stop_rule rule = {
		.precision_pct = a->precision_pct, .floor_cycles = a->floor_cycles,
		.min_rounds = a->rounds < LATENCY_MIN_ROUNDS ? a->rounds : LATENCY_MIN_ROUNDS,
		.max_rounds = a->rounds, .budget_s = a->budget_s,
	};
	double t_start = now_s(), medians[LATENCY_MAX_ROUNDS];
	uint64_t tsc_khz = pr->env.tsc_khz;
	char label[96];
	int rc = 0;

	if (!s || !spent || !done) {
		rc = -ENOMEM;
		goto out;
	}
	run_progress_init(a, pg, (unsigned)(a->nsel * a->rounds));
	pr->env.rounds = a->rounds;
	pr->env.pairs = RUN_PAIRS;
	pr->env.budget_ms = (uint64_t)(a->budget_s * 1000);
	for (size_t i = 0; i < a->nsel; i++)
		latency_result_clear(&out[i].res);
	for (unsigned int round = 0; round < a->rounds; round++) {
		for (size_t i = 0; i < a->nsel; i++) {
			struct probe_outcome *o = &out[i];
			struct latency_result *res = &o->res;
			enum probe_stop st;

			if (done[i])
				continue;
			if (*pr->stop || (a->run_limit_s > 0 && now_s() - t_start >= a->run_limit_s)) {
				done[i] = true;
				v2_settle(o, *pr->stop ? PROBE_STOP_STOPPED : PROBE_STOP_RUN_LIMIT, tsc_khz);
				continue;
			}
			snprintf(label, sizeof(label), "%s, round %u/%u", o->probe->name, round + 1,
				 a->rounds);
			progress_step(pg, v2_units_done(a, done, round, i), label);
			spent[i] += v2_round(pr, o->probe, s, res, pr->env.trace && round == 0);
			if (res->status == PROBE_STOPPED && res->n_rounds) {
				/* Ctrl-C in this round (its guest run or its VM's setup): the rounds before it stand. */
				res->status = PROBE_OK;
				res->reason[0] = 0;
				done[i] = true;
				v2_settle(o, PROBE_STOP_STOPPED, tsc_khz);
				continue;
			}
			if (res->status != PROBE_OK) {
				/* A failure, hang or Ctrl-C in the guest, or its teardown check failed. */
				done[i] = true;
				continue;
			}
			for (size_t k = 0; k < res->n_rounds; k++)
				medians[k] = res->rounds[k].median;
			st = latency_stop_decide(&rule, medians, res->n_rounds, spent[i], &res->ci_rel_pct);
			if (st != PROBE_STOP_NONE) {
				done[i] = true;
				res->stop = st;
				latency_session_result(res, tsc_khz);
			}
		}
	}
	/* Probes still going when the rounds ran out (a Ctrl-C between the last ones). */
	for (size_t i = 0; i < a->nsel; i++)
		if (!done[i])
			v2_settle(&out[i], *pr->stop ? PROBE_STOP_STOPPED : PROBE_STOP_BUDGET, tsc_khz);
out:
	free(s);
	free(spent);
	free(done);
	return rc;
}

/*
 * A probe that needs two vCPUs runs the second where --cpu B says (else on
 * any CPU but vCPU 0's): warn when that CPU (every such CPU) is busy.
 */
static void check_cpu2(const struct run_args *a, int cpu, json_t *warnings)
{
	double idle[CPU_SETSIZE > 1024 ? 1024 : CPU_SETSIZE];
	double best = -1;
	bool any = false;
	int n, best_cpu = -1;

	for (size_t i = 0; i < a->nsel; i++)
		any = any || (probes[a->order[i]].needs & PROBE_NEED_2VCPUS);
	if (!any)
		return;
	n = cpuload_idle(CPULOAD_WINDOW_MS, idle, sizeof(idle) / sizeof(idle[0]));
	if (n <= 0)
		return;
	for (int c = 0; c < n; c++) {
		if (a->cpu2 >= 0 ? c != a->cpu2 : c == cpu)
			continue;
		if (idle[c] > best) {
			best = idle[c];
			best_cpu = c;
		}
	}
	if (best_cpu < 0 && a->cpu2 < 0)
		warn(a->quiet, warnings, "one CPU only: a second vCPU shares CPU %d with the first", cpu);
	else if (best_cpu < 0)
		warn(a->quiet, warnings, "--cpu: CPU %d is not listed in /proc/stat", a->cpu2);
	else if (best < CPULOAD_BUSY_IDLE)
		warn(a->quiet, warnings, "CPU %d, where a second vCPU runs, is busy (%.0f%% idle over %d ms): "
		     "two-vCPU probes may be noisy", best_cpu, 100 * best, CPULOAD_WINDOW_MS);
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { 0 };
	struct probe_runner pr = { .kvm_fd = -1 };
	struct probe_outcome *out = NULL;
	const char *kvm_path, *hang;
	char hang_name[64];
	json_t *root = NULL, *jprobes, *warnings;
	struct hostinfo hi;
	struct suite_env henv = { 0 };
	size_t nout = 0;
	struct progress pg = { .on = false };
	bool stopped;
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
	if (a.cpu2 >= 0 && a.cpu2 >= sysconf(_SC_NPROCESSORS_ONLN)) {
		r = cli_usage_error("run", "--cpu %d,%d: there is no CPU %d online", a.cpu, a.cpu2, a.cpu2);
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
	pr.pin_cpu2 = a.cpu2 >= 0;
	pr.cpu2 = a.cpu2;
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
	if (!out) {
		rc = cli_error("run", EXIT_FAIL, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < a.nsel; i++)
		out[i].probe = &probes[a.order[i]];
	nout = a.nsel;
	check_cpu2(&a, cpu, warnings);
	if (a.samples_given && a.method != RUN_METHOD_V1)
		warn(a.quiet, warnings, "--samples applies to --method v1; v2 measures %d pairs per round",
		     RUN_PAIRS);
	if (a.method == RUN_METHOD_V1) {
		measure_v1(&a, &pr, out, &pg, warnings, &overhead);
	} else if (measure_v2(&a, &pr, out, &pg)) {
		rc = cli_error("run", EXIT_FAIL, "out of memory");
		goto done;
	}
	progress_done(&pg);
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
	probe_runner_free(&pr);
	r = rc;
out:
	free(a.sel);
	free(a.order);
	return r < 0 ? EXIT_OK : r;
}
