// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency.c - host side of the latency harness (harness/latency.h): run the
 * guest loop of harness/latency_guest.c for one op, count the exits of the
 * region between the two syncs that bracket the measured batches
 * (harness/region.h), and turn batches into cycles-per-op samples.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest/guest.h"
#include "guest/vm.h"
#include "harness/latency.h"
#include "harness/latency_guest.h"
#include "harness/profile.h"
#include "harness/region.h"

_Static_assert(LATENCY_CTL_SAMPLES == LATENCY_MAX_SAMPLES, "sample arrays differ");
_Static_assert(LATENCY_CTL_PAIRS == LATENCY_MAX_PAIRS, "pair arrays differ");
_Static_assert(LATENCY_MAX_ROUNDS * LATENCY_MAX_PAIRS <= LATENCY_MAX_SAMPLES,
	       "every round's pairs fit the flat samples");

void latency_setup_reason(uint64_t code, char *buf, size_t len)
{
	if (code & GUEST_FAULT)
		snprintf(buf, len, "the guest's setup for this probe raised %s (vector %u)",
			 vector_name(GUEST_FAULT_VECTOR(code)), (unsigned)GUEST_FAULT_VECTOR(code));
	else
		snprintf(buf, len, "the guest's setup for this probe refused to run (code %#llx)",
			 (unsigned long long)code);
}

int latency_pin(int cpu, int *pinned)
{
	cpu_set_t set;

	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return -errno;
	if (pinned)
		*pinned = cpu;
	return 0;
}

__attribute__((format(printf, 3, 4)))
static int finish(struct latency_result *res, enum probe_status st, const char *fmt, ...)
{
	va_list ap;

	res->status = st;
	va_start(ap, fmt);
	vsnprintf(res->reason, sizeof(res->reason), fmt, ap);
	va_end(ap);
	return 0;
}

/* A guest run that did not reach the expected sync: classify it. */
static int guest_outcome(struct latency_result *res, const struct guest_result *g)
{
	switch (g->kind) {
	case GUEST_HANG:
		return finish(res, PROBE_HANG, "%s", g->msg);
	case GUEST_STOPPED:
		return finish(res, PROBE_STOPPED, "%s", g->msg);
	case GUEST_EMULATION_FAILURE:
		return finish(res, PROBE_SKIPPED, "the host cannot emulate the op: %s", g->msg);
	case GUEST_DONE:
		res->setup_code = g->args[0];
		latency_setup_reason(g->args[0], res->reason, sizeof(res->reason));
		res->status = PROBE_SKIPPED;
		return 0;
	default:
		return finish(res, PROBE_FAILED, "%s: %s", guest_exit_name(g->kind), g->msg);
	}
}

/* The region's counts per op. */
static void per_op(struct latency_result *res, const struct region_counts *rc)
{
	double ops = (double)res->ops;
	struct latency_per_op *p = &res->per_op;

#define PER_OP(name, NAME) p->name = rc->name / ops;
	if (rc->has_stats) {
		RESULT_STATS_COUNTERS(PER_OP)
	}
	RESULT_USER_COUNTERS(PER_OP)
#undef PER_OP
}

static void samples_from_tsc(struct latency_result *res, const struct latency_ctl *c,
			     double overhead)
{
	double raw[LATENCY_MAX_SAMPLES];

	for (size_t i = 0; i < res->n; i++) {
		double v = (double)c->t[i] / (double)res->batch;

		raw[i] = v;
		v -= overhead;
		res->samples[i] = v > 0 ? v : 0;
	}
	res->raw_median = stats_median(raw, res->n);
	res->overhead_cycles = overhead;
}

/* env's budget (default 1 s) in ms and in TSC cycles (2 GHz when the TSC rate is unknown). */
static uint64_t env_budget_ms(const struct latency_env *env)
{
	return env->budget_ms ? env->budget_ms : 1000;
}

static uint64_t env_budget_cycles(const struct latency_env *env)
{
	return (env->tsc_khz ? env->tsc_khz : 2000000) * env_budget_ms(env);
}

uint64_t latency_watchdog_ms(const struct latency_env *env)
{
	return env->watchdog_ms ? env->watchdog_ms : 2 * env_budget_ms(env) + 1000;
}

uint64_t latency_cpu_watchdog_ms(const struct latency_env *env)
{
	uint64_t ms = env_budget_ms(env);

	return ms > LATENCY_CPU_WATCHDOG_MIN_MS ? ms : LATENCY_CPU_WATCHDOG_MIN_MS;
}

static unsigned int op_reps(const struct latency_op *op)
{
	return op->reps ? op->reps : 1;
}

/* Fill the control block for op; target: TSC cycles one batch should span. */
static struct latency_ctl *ctl_fill(struct vcpu *v, const struct latency_op *op, uint64_t target)
{
	struct latency_ctl *c = vm_global(v->vm, latency_ctl);

	if (!c)
		return NULL;
	memset(c, 0, sizeof(*c));
	c->setup = (uint64_t)(uintptr_t)op->setup;
	c->op = (uint64_t)(uintptr_t)op->op;
	c->teardown = (uint64_t)(uintptr_t)op->teardown;
	c->arg = op->arg;
	c->max_batch = LATENCY_MAX_BATCH;
	c->target_cycles = target ? target : 1;
	return c;
}

int latency_measure(const struct latency_env *env, const struct latency_op *op,
		    struct latency_result *res)
{
	struct vcpu *v = env ? env->vcpu : NULL;
	struct region_counts rc;
	struct latency_ctl *c;
	struct guest_result g;
	struct region rg;
	uint64_t wd;
	unsigned int n;

	if (!v || !op || !op->op || !res)
		return -EINVAL;
	n = env->samples ? env->samples : 1;
	if (n > LATENCY_MAX_SAMPLES)
		return -EINVAL;
	latency_result_clear(res);
	res->cpu_before = sched_getcpu();
	/* Calibration and warm-up take about two batches' worth. */
	c = ctl_fill(v, op, env_budget_cycles(env) / (n + 2));
	if (!c)
		return -EFAULT;
	c->samples = n;
	wd = latency_watchdog_ms(env);

	/* A failed snapshot allocation only means no stats-fd figures. */
	region_init(&rg, v);
	vcpu_call_run(v, latency_guest_main, 0, wd, &g);
	if (g.kind != GUEST_SYNC || g.args[0] != LATENCY_SYNC_START) {
		guest_outcome(res, &g);
		goto out;
	}
	/* Ops per sample: the guest's calls per batch times the op's reps. */
	res->batch = (g.args[1] ? g.args[1] : 1) * op_reps(op);
	region_begin(&rg, env->trace);
	vcpu_run(v, wd, &g);
	region_end(&rg, &rc);
	res->has_trace = rc.has_trace;
	if (rc.has_trace)
		res->trace = rc.trace;
	snprintf(res->trace_note, sizeof(res->trace_note), "%s", rc.trace_note);
	res->cpu_after = sched_getcpu();
	res->migrated = res->cpu_before >= 0 && res->cpu_after >= 0 &&
			res->cpu_before != res->cpu_after;
	if (g.kind != GUEST_SYNC || g.args[0] != LATENCY_SYNC_END) {
		guest_outcome(res, &g);
		goto out;
	}
	res->n = n;
	res->ops = res->trace_ops = res->batch * n;
	res->has_stats = rc.has_stats;
	per_op(res, &rc);
	/* The overhead is per call: shared by the reps operations of a call. */
	samples_from_tsc(res, c, env->overhead_cycles / (double)op_reps(op));
	if (stats_summarize(res->samples, res->n, &res->cycles)) {
		finish(res, PROBE_FAILED, "samples are not finite numbers");
		goto out;
	}
	res->ns_median = env->tsc_khz ? res->cycles.median * 1e6 / (double)env->tsc_khz : 0;
	/* Let the guest run its teardown and return. */
	vcpu_run(v, wd, &g);
	if (g.kind == GUEST_STOPPED)
		res->status = PROBE_OK;	/* measured; only the teardown was cut */
	else if (g.kind != GUEST_DONE)
		finish(res, PROBE_FAILED, "teardown: %s: %s", guest_exit_name(g.kind), g.msg);
	else if (g.args[0]) {
		res->check_code = g.args[0];
		finish(res, PROBE_FAILED, "the probe's check after the samples failed (code %#llx)",
		       (unsigned long long)g.args[0]);
	} else
		res->status = PROBE_OK;
out:
	if (res->status == PROBE_OK)
		res->stop = PROBE_STOP_SAMPLES;
	region_free(&rg);
	return 0;
}

void latency_result_clear(struct latency_result *res)
{
	memset(res, 0, sizeof(*res));
	res->cpu_before = res->cpu_after = -1;
	res->cpus[0] = res->cpus[1] = -1;
	res->ci_rel_pct = -1;
}

static void session_end(struct latency_session *s)
{
	if (s->open)
		region_free(&s->rg);
	s->open = false;
}

int latency_session_open(struct latency_session *s, const struct latency_env *env,
			 const struct latency_op *op, struct latency_result *res)
{
	struct vcpu *v = env ? env->vcpu : NULL;
	uint64_t batches;
	struct guest_result g;

	if (!v || !op || !op->op || !res || !env->rounds || env->rounds > LATENCY_MAX_ROUNDS ||
	    !env->pairs || env->pairs > LATENCY_MAX_PAIRS)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	/* Every round's 2 x pairs batches, plus calibration and the two warm-ups. */
	batches = (uint64_t)env->rounds * 2 * env->pairs + 3;
	s->ctl = ctl_fill(v, op, env_budget_cycles(env) / batches);
	if (!s->ctl)
		return -EFAULT;
	s->v = v;
	s->pairs = env->pairs;
	s->reps = op_reps(op);
	s->trace = env->trace;
	s->profile = env->profile;
	s->name = op->name;
	s->wd = latency_watchdog_ms(env);
	if (res->cpu_before < 0)
		res->cpu_before = sched_getcpu();
	region_init(&s->rg, v);
	s->open = true;
	/* The setup (an IPI peer's wait among it) on the wall clock; calibration also on CPU time. */
	vcpu_call_run(v, latency_guest_paired_main, 0, s->wd, &g);
	if (g.kind == GUEST_SYNC && g.args[0] == LATENCY_SYNC_SETUP)
		vcpu_run_cpu(v, s->wd, env->cpu_watchdog_ms, &g);
	if (g.kind != GUEST_SYNC || g.args[0] != LATENCY_SYNC_START) {
		guest_outcome(res, &g);
		session_end(s);
		return 0;
	}
	s->batch = g.args[1] ? g.args[1] : 1;
	res->batch = s->batch * s->reps;
	res->status = PROBE_OK;
	return 0;
}

/*
 * One guest round from the START sync to the END sync, its region counted
 * (traced when trace is set). 0, or 1 when the guest ended otherwise
 * (res says how; the session is over).
 */
static int session_guest_round(struct latency_session *s, struct latency_result *res, bool trace,
			       struct region_counts *rc)
{
	struct guest_result g;
	int cpu;

	if (s->at_end) {	/* let the guest come back round to its START sync */
		vcpu_run(s->v, s->wd, &g);
		if (g.kind != GUEST_SYNC || g.args[0] != LATENCY_SYNC_START) {
			guest_outcome(res, &g);
			session_end(s);
			return 1;
		}
		s->at_end = false;
	}
	s->ctl->pairs = s->pairs;
	/* The traced round's exits are dearer: only the measured rounds are profiled. */
	s->ctl->profile_reps = s->profile && !trace ? s->reps : 0;
	if (s->ctl->profile_reps)
		profile_marks_probe(s->name);
	region_begin(&s->rg, trace);
	vcpu_run(s->v, s->wd, &g);
	region_end(&s->rg, rc);
	cpu = sched_getcpu();
	if (cpu >= 0) {
		if (res->cpu_after >= 0 && res->cpu_after != cpu)
			res->migrated = true;
		res->cpu_after = cpu;
	}
	if (res->cpu_before >= 0 && res->cpu_after >= 0 && res->cpu_before != res->cpu_after)
		res->migrated = true;
	if (g.kind != GUEST_SYNC || g.args[0] != LATENCY_SYNC_END) {
		guest_outcome(res, &g);
		session_end(s);
		return 1;
	}
	s->at_end = true;
	return 0;
}

int latency_session_round(struct latency_session *s, struct latency_result *res)
{
	struct region_counts rc;
	bool first = res->n_rounds == 0;

	if (!s->open || res->n_rounds >= LATENCY_MAX_ROUNDS)
		return -EINVAL;
	/*
	 * With tracing, a round of its own first: the kvm_exit tracepoints make
	 * every exit dearer (about 800 cycles each in the VMX lane), so that
	 * round gives the exits by reason and nothing else. Once per result,
	 * not per session: a probe's next rounds may run in new sessions.
	 */
	if (s->trace && !res->trace_ops) {
		if (session_guest_round(s, res, true, &rc))
			return 0;
		res->trace_ops = s->batch * s->reps * s->pairs;
		res->has_trace = rc.has_trace;
		if (rc.has_trace)
			res->trace = rc.trace;
		snprintf(res->trace_note, sizeof(res->trace_note), "%s", rc.trace_note);
	}
	if (session_guest_round(s, res, false, &rc))
		return 0;
	if (latency_round_from_tsc(&res->rounds[res->n_rounds], s->batch * s->reps, s->ctl->tb, s->ctl->t,
				   s->pairs))
		return finish(res, PROBE_FAILED, "a round without pairs");
	res->n_rounds++;
	if (first)
		res->acc = rc;
	else
		region_counts_add(&res->acc, &rc);
	res->ops += s->batch * s->reps * s->pairs;
	return 0;
}

int latency_session_close(struct latency_session *s, struct latency_result *res)
{
	struct guest_result g;

	if (!s->open)
		return 0;
	if (s->at_end) {
		vcpu_run(s->v, s->wd, &g);
		if (g.kind != GUEST_SYNC || g.args[0] != LATENCY_SYNC_START)
			goto teardown_done;
	}
	s->ctl->pairs = 0;	/* no more rounds: the guest runs the teardown and returns */
	vcpu_run(s->v, s->wd, &g);
teardown_done:
	if (res->status == PROBE_OK) {
		if (g.kind == GUEST_STOPPED)
			;	/* measured; only the teardown was cut */
		else if (g.kind != GUEST_DONE)
			finish(res, PROBE_FAILED, "teardown: %s: %s", guest_exit_name(g.kind),
			       g.msg);
		else if (g.args[0]) {
			res->check_code = g.args[0];
			finish(res, PROBE_FAILED,
			       "the probe's check after the samples failed (code %#llx)",
			       (unsigned long long)g.args[0]);
		}
	}
	session_end(s);
	return 0;
}

int latency_session_result(struct latency_result *res, uint64_t tsc_khz)
{
	double med[LATENCY_MAX_ROUNDS], base[LATENCY_MAX_ROUNDS];
	size_t n = 0;

	if (!res->n_rounds)
		return -EINVAL;
	for (size_t r = 0; r < res->n_rounds; r++) {
		const struct latency_round *rd = &res->rounds[r];

		for (size_t i = 0; i < rd->n && n < LATENCY_MAX_SAMPLES; i++)
			res->samples[n++] = rd->net[i] > 0 ? rd->net[i] : 0;
		med[r] = rd->raw_median;
		base[r] = rd->baseline_median;
	}
	res->n = n;
	res->raw_median = stats_median(med, res->n_rounds);
	res->overhead_cycles = stats_median(base, res->n_rounds);
	if (stats_summarize(res->samples, res->n, &res->cycles))
		return finish(res, PROBE_FAILED, "samples are not finite numbers");
	res->ns_median = tsc_khz ? res->cycles.median * 1e6 / (double)tsc_khz : 0;
	res->has_stats = res->acc.has_stats;
	if (res->ops)
		per_op(res, &res->acc);
	return 0;
}

int latency_overhead(const struct latency_env *env, double *cycles, struct latency_result *res)
{
	struct latency_op nop = { .name = "nop", .op = latency_guest_nop };
	struct latency_env e;
	struct latency_result *r = res;
	int err;

	if (!env)
		return -EINVAL;
	e = *env;
	e.overhead_cycles = 0;
	if (!r)
		r = malloc(sizeof(*r));	/* big: keep it off the stack */
	if (!r)
		return -ENOMEM;
	err = latency_measure(&e, &nop, r);
	if (!err && r->status != PROBE_OK)
		err = r->status == PROBE_STOPPED ? -EINTR : -EIO;
	if (!err)
		*cycles = r->raw_median;
	if (r != res)
		free(r);
	return err;
}
