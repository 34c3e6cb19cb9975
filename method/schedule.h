/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * schedule.h - method v2's schedule, apart from what a round is: the probes
 * visited round-robin in the order given, each leaving the rotation when
 * the adaptive stop (latency_stop_decide), a failure, the run limit or
 * Ctrl-C says so, and its figures settled from the rounds it has. One
 * round is a callback (method/vm_rounds.c: a VM opened, measured and closed), and
 * so is the clock the run limit reads, so tests/test_schedule.c drives the
 * schedule with synthetic rounds, without KVM.
 */
#ifndef EXITSCOPE_METHOD_SCHEDULE_H
#define EXITSCOPE_METHOD_SCHEDULE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "method/method.h"

struct probe_outcome;
struct latency_result;

struct schedule {
	unsigned int rounds;		/* passes at most, 1..LATENCY_MAX_ROUNDS */
	double precision_pct, floor_cycles;	/* the stop rule's precision */
	double budget_s;		/* CPU seconds of guest runs per probe (method_budget_clock) */
	double run_limit_s;		/* seconds for all of it; 0: none */
	uint64_t tsc_khz;		/* for the settled figures' ns */
	volatile sig_atomic_t *stop;	/* Ctrl-C */
	/*
	 * Measure round `round` (0-based) of o into o->res (appending to
	 * o->res.rounds, or setting a status other than ok when it failed, hung
	 * or was stopped); the seconds it counts against the probe's budget.
	 */
	double (*round)(void *ctx, struct probe_outcome *o, unsigned int round);
	double (*now)(void *ctx);	/* monotonic seconds: the run limit's clock */
	void *ctx;			/* of round and now */
	const struct method_hooks *hooks;	/* progress (NULL: none) */
};

/*
 * Run the schedule over out[0..n-1] (their res cleared here). 0, or
 * -ENOMEM before anything was measured.
 */
int schedule_run(const struct schedule *s, struct probe_outcome *out, size_t n);

#endif
