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
#include "harness/region.h"

_Static_assert(LATENCY_CTL_SAMPLES == LATENCY_MAX_SAMPLES, "sample arrays differ");

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

	if (rc->has_stats) {
		p->exits = rc->exits / ops;
		p->io_exits = rc->io_exits / ops;
		p->mmio_exits = rc->mmio_exits / ops;
		p->halt_exits = rc->halt_exits / ops;
		p->hypercalls = rc->hypercalls / ops;
		p->insn_emulation = rc->insn_emulation / ops;
		p->signal_exits = rc->signal_exits / ops;
		p->irq_exits = rc->irq_exits / ops;
	}
	p->user_io = rc->user_io / ops;
	p->user_mmio = rc->user_mmio / ops;
	p->user_msr = rc->user_msr / ops;
	p->user_intr = rc->user_intr / ops;
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

int latency_measure(const struct latency_env *env, const struct latency_op *op,
		    struct latency_result *res)
{
	struct vcpu *v = env ? env->vcpu : NULL;
	struct region_counts rc;
	struct latency_ctl *c;
	struct guest_result g;
	struct region rg;
	uint64_t wd, budget_cycles;
	unsigned int n;

	if (!v || !op || !op->op || !res)
		return -EINVAL;
	n = env->samples ? env->samples : 1;
	if (n > LATENCY_MAX_SAMPLES)
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	res->cpu_before = sched_getcpu();
	res->cpu_after = -1;
	c = vm_global(v->vm, latency_ctl);
	if (!c)
		return -EFAULT;
	memset(c, 0, sizeof(*c));
	c->setup = (uint64_t)(uintptr_t)op->setup;
	c->op = (uint64_t)(uintptr_t)op->op;
	c->teardown = (uint64_t)(uintptr_t)op->teardown;
	c->arg = op->arg;
	c->samples = n;
	c->max_batch = LATENCY_MAX_BATCH;
	/* Calibration and warm-up take about two batches' worth. */
	budget_cycles = (env->tsc_khz ? env->tsc_khz : 2000000) * (env->budget_ms ? env->budget_ms : 1000);
	c->target_cycles = budget_cycles / (n + 2);
	if (!c->target_cycles)
		c->target_cycles = 1;
	wd = env->watchdog_ms ? env->watchdog_ms : 2 * (env->budget_ms ? env->budget_ms : 1000) + 1000;

	/* A failed snapshot allocation only means no stats-fd figures. */
	region_init(&rg, v);
	vcpu_call_run(v, latency_guest_main, 0, wd, &g);
	if (g.kind != GUEST_SYNC || g.args[0] != LATENCY_SYNC_START) {
		guest_outcome(res, &g);
		goto out;
	}
	res->batch = g.args[1] ? g.args[1] : 1;
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
	res->ops = res->batch * n;
	res->has_stats = rc.has_stats;
	per_op(res, &rc);
	samples_from_tsc(res, c, env->overhead_cycles);
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
	region_free(&rg);
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
