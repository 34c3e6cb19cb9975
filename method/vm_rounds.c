// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm_rounds.c - method v2 on KVM: the schedule (method/schedule.c) with its real
 * round, one round of a probe in a VM of its own. A fresh VM per round is
 * what makes the rounds independent: a VM's memory placement gives every
 * batch in it the same offset (measured on kvm_pvm: the run-to-run spread
 * of the net medians halved, docs/method.md), so a VM kept over the rounds
 * would give them one shared offset the round-level interval could not
 * see. It also keeps a two-vCPU probe's second vCPU from spinning through
 * the other probes' rounds. The budget counts the CPU time of the rounds'
 * guest runs (method_budget_clock), so the rounds a probe gets do not
 * depend on how busy the host is; the run limit reads the wall clock.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "method/method.h"
#include "method/schedule.h"
#include "probes/probe_out.h"
#include "probes/runner.h"

struct v2_ctx {
	struct probe_runner *pr;
	struct probe_session s;
};

static double v2_now(void *ctx)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double method_budget_clock(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return v2_now(NULL);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * One round of o in a VM of its own: build and set it up, measure the
 * round, tear it down (the probe's teardown check runs on each VM).
 * Returns the CPU seconds of the round's guest run on this thread (vCPU
 * 0's, method_budget_clock), what the budget counts: not the VM setup and
 * calibration, nor the trace round (trace: the first round runs one
 * before it).
 */
static double v2_round(void *ctx, struct probe_outcome *o, unsigned int round)
{
	struct v2_ctx *c = ctx;
	struct probe_runner *pr = c->pr;
	struct probe_session *s = &c->s;
	bool traced = pr->env.trace && round == 0;
	double t0, guest_s = 0;

	probe_session_open(pr, o->probe, s, &o->res);
	if (s->ls.open) {
		t0 = method_budget_clock();
		probe_session_round(pr, s, &o->res);
		if (!traced)
			guest_s = method_budget_clock() - t0;
	}
	probe_session_close(pr, s, &o->res);	/* nothing left to do when the round ended it */
	return guest_s;
}

int method_v2(const struct method_opts *o, struct probe_runner *pr, struct probe_outcome *out,
	      size_t n, const struct method_hooks *h)
{
	struct v2_ctx *c = calloc(1, sizeof(*c));
	struct schedule s = {
		.rounds = o->rounds, .precision_pct = o->precision_pct, .floor_cycles = o->floor_cycles,
		.budget_s = o->budget_s, .run_limit_s = o->run_limit_s, .tsc_khz = pr->env.tsc_khz,
		.stop = pr->stop, .round = v2_round, .now = v2_now, .ctx = c, .hooks = h,
	};
	int rc;

	if (!c)
		return -ENOMEM;
	c->pr = pr;
	pr->env.rounds = o->rounds;
	pr->env.pairs = METHOD_PAIRS;
	rc = schedule_run(&s, out, n);
	free(c);
	return rc;
}
