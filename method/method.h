/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * method.h - how `exitscope run` measures the catalogue, below the CLI: the
 * two methods (v1: one nop baseline, then each probe in one pass; v2: the
 * probes round-robin, each round in a VM of its own, until the adaptive
 * stop), their defaults, and the settings a run records. The CLI parses
 * the options into struct method_opts, sets up a probe_runner, calls
 * method_measure and prints; progress and warnings come back through
 * callbacks, so nothing here prints or depends on cli/.
 */
#ifndef EXITSCOPE_METHOD_METHOD_H
#define EXITSCOPE_METHOD_METHOD_H

#include <stdbool.h>
#include <stddef.h>

#include "harness/rounds.h"
#include "results/schema.h"

struct probe_runner;
struct probe_outcome;
struct run_settings;

#define METHOD_DEFAULT_SAMPLES		15
#define METHOD_DEFAULT_BUDGET_V1_S	1.0
/*
 * v2: 8 rounds (8 VMs) of at most 0.2 s per probe in all, chosen with
 * scripts/bench-method against 5 rounds and 0.15 s (README: fewer false
 * A/A verdicts at the same run time); 20 probes x 0.2 s still leave room
 * for the VM setup in a 5 s default run.
 */
#define METHOD_DEFAULT_BUDGET_V2_S	0.2
#define METHOD_DEFAULT_ROUNDS		8
#define METHOD_DEFAULT_PRECISION_PCT	1.0
#define METHOD_DEFAULT_FLOOR_CYCLES	1.0
/* Pairs per round: odd, so a round's median is one pair; many short
 * batches, so the median skips those a host interrupt hit. */
#define METHOD_PAIRS			31

/* What the options ask of the method (run --help). */
struct method_opts {
	enum run_method method;
	unsigned int samples;		/* v1: batches per probe */
	unsigned int rounds;		/* v2: round-robin passes at most */
	double budget_s;		/* seconds per probe */
	double precision_pct;		/* v2: CI half-width wanted, % of the median */
	double floor_cycles;		/* v2: ... or at most this many cycles */
	double run_limit_s;		/* v2: seconds for the whole measurement; 0 none */
};

/* opts with every default, budget_s as for method m. */
void method_opts_init(struct method_opts *o, enum run_method m);
/* The default --time-budget of method m. */
double method_budget_default(enum run_method m);

/*
 * How far a measurement is: done of total units, label the one under way.
 * The first call (done 0, label NULL) gives the total before any unit
 * starts; v1 counts probes (the nop baseline first), v2 probe-rounds.
 */
typedef void method_progress_fn(void *ctx, unsigned done, unsigned total, const char *label);
/* A warning the run records (and shows unless quiet). */
typedef void method_warn_fn(void *ctx, const char *msg);

struct method_hooks {
	method_progress_fn *progress;	/* may be NULL */
	method_warn_fn *warn;		/* may be NULL */
	void *ctx;
};

/*
 * Measure out[0..n-1] (probe set, results cleared here) with pr (set up by
 * probe_runner_init; its env's samples, budget and v2 fields are set from
 * o). *pr->stop (Ctrl-C) ends it early: what was measured stays, the rest
 * is marked stopped. *overhead: v1's nop baseline (0 in v2). 0, or -ENOMEM
 * when nothing could be measured.
 */
int method_measure(const struct method_opts *o, struct probe_runner *pr, struct probe_outcome *out,
		   size_t n, const struct method_hooks *h, double *overhead);

/* The two methods (method_measure calls the one o asks for, pr->env's samples and budget set). */
void method_v1(const struct method_opts *o, struct probe_runner *pr, struct probe_outcome *out,
	       size_t n, const struct method_hooks *h, double *overhead);
int method_v2(const struct method_opts *o, struct probe_runner *pr, struct probe_outcome *out,
	      size_t n, const struct method_hooks *h);

/*
 * What v2's --time-budget counts: the CPU seconds of the calling thread
 * (CLOCK_THREAD_CPUTIME_ID), the one that runs vCPU 0's KVM_RUN. Guest
 * execution is that thread's CPU time (on kvm_pvm, the host's emulation
 * of every guest instruction), so the rounds a budget buys do not shrink
 * while the thread waits for a CPU on a loaded host; the hang watchdog
 * stays wall-clock. Falls back to CLOCK_MONOTONIC where the thread clock
 * is missing.
 */
double method_budget_clock(void);

/*
 * The method's part of a run's "settings" (method, budget; v1 samples and
 * overhead, v2 rounds...).
 */
void method_settings(const struct method_opts *o, double overhead, struct run_settings *s);

/* warn through h (a formatted message of at most 511 bytes). */
void method_warn(const struct method_hooks *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void method_progress(const struct method_hooks *h, unsigned done, unsigned total, const char *label);

/*
 * A probe that needs two vCPUs runs its second where cpu2 says (-1: on any
 * CPU but vCPU 0's, cpu): when any of out[0..n-1] needs one and that CPU
 * (every such CPU) is busy over a short window, or is not there, the
 * warning in msg and true.
 */
bool method_cpu2_warning(const struct probe_outcome *out, size_t n, int cpu, int cpu2,
			 char *msg, size_t len);

#endif
