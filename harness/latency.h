/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency.h - measure what one guest operation costs: cycles per op (TSC,
 * serialized reads around batches of ops, inside the guest), the nop
 * baseline subtracted, and exits per op from the vCPU stats fd and from the
 * run loop's own userspace-exit counters over the measured region.
 *
 * Use (host side, on a VM the caller built):
 *
 *	struct latency_env env = { .vcpu = &vm->vcpus[0], .tsc_khz = khz,
 *				   .samples = 15, .budget_ms = 1500 };
 *	struct latency_op op = { .name = "cr4.pge", .op = my_guest_toggle };
 *	struct latency_result *res = calloc(1, sizeof(*res));
 *
 *	latency_overhead(&env, &ovh);		// optional: nop baseline
 *	env.overhead_cycles = ovh;
 *	latency_measure(&env, &op, res);	// res->status, cycles, per_op...
 *
 * The guest side runs in vcpu's VM: op->setup (once), a warm-up and
 * calibration that pick the batch size so one batch spans about
 * budget/(samples + 2) of TSC time, then samples batches of op->op(arg)
 * with lfence;rdtsc;lfence around each batch. A guest that faults, hangs
 * (watchdog_ms), or makes the host fail to emulate it ends the measurement
 * with a status and a one-line reason; nothing is printed.
 */
#ifndef EXITSCOPE_HARNESS_LATENCY_H
#define EXITSCOPE_HARNESS_LATENCY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "guest/status.h"
#include "harness/region.h"
#include "harness/rounds.h"
#include "kvm/trace.h"
#include "results/schema.h"
#include "stats/stats.h"

struct vcpu;

#define LATENCY_MAX_SAMPLES	1000
#define LATENCY_MAX_BATCH	(1ULL << 24)
#define LATENCY_REASON_LEN	512

/* Guest functions of one measured operation (all run in the guest). */
struct latency_op {
	const char *name;
	/*
	 * Once before warm-up (may be NULL): returns 0 when the op can run,
	 * else a code latency_setup_reason() explains: GUEST_FAULT | vector
	 * (an instruction the op needs faulted) or GUEST_SKIP(index) of the
	 * caller's own reasons (guest/status.h).
	 */
	guest_fn_t setup;
	guest_fn_t op;		/* reps operations; gets arg */
	uint64_t arg;
	unsigned int reps;	/* operations per call of op (0: 1); figures are per operation */
	/*
	 * After the samples (may be NULL): returns 0, or GUEST_CHECK(index)
	 * when the op did not do what it must (the measurement then fails,
	 * res->check_code says which; the caller words the reason).
	 */
	guest_fn_t teardown;
};

struct latency_env {
	struct vcpu *vcpu;		/* runs the loop, on the calling thread */
	uint64_t tsc_khz;		/* 0: ns figures are 0 */
	unsigned int samples;		/* 1..LATENCY_MAX_SAMPLES */
	uint64_t budget_ms;		/* calibration + warm-up + samples */
	uint64_t watchdog_ms;		/* a guest run longer than this is a hang; 0: 2 x budget + 1 s */
	/*
	 * v2: calibration (the op's first runs, after its setup) is also a hang
	 * once the vCPU thread spent this much CPU time in it; 0: no such limit.
	 */
	uint64_t cpu_watchdog_ms;
	double overhead_cycles;		/* per-op harness cost to subtract (nop baseline) */
	bool trace;			/* attribute exits by reason through tracefs */
	/*
	 * Mark v2's measured batches for an exit-path profile of the lane's
	 * emulator (harness/profile.h): the caller opened the marks' port.
	 */
	bool profile;
	/* Method v2 (latency_session_*): budget_ms is spread over rounds x pairs. */
	unsigned int rounds;		/* rounds planned, 1..LATENCY_MAX_ROUNDS */
	unsigned int pairs;		/* pairs per round, 1..LATENCY_MAX_PAIRS */
};

/* Per-op counters over the measured region, harness ucalls subtracted. */
struct latency_per_op {
	/*
	 * The per-op counters (results/schema.h, via harness/region.h): the
	 * vCPU binary stats fd's (0 when the backend does not keep them), the
	 * run loop's.
	 */
#define LATENCY_PER_OP(name, NAME) double name;
	RESULT_STATS_COUNTERS(LATENCY_PER_OP)
	RESULT_USER_COUNTERS(LATENCY_PER_OP)
#undef LATENCY_PER_OP
};

/*
 * Interrupt delivery of an op that takes one interrupt per operation, as the
 * probe's guest counted it (summed over the VMs of its rounds; ops 0: none).
 */
struct latency_irq {
	uint64_t ops;			/* operations that sent (or armed) their interrupt */
	uint64_t in_window;		/* taken in the op's window */
	uint64_t late;			/* taken after it, within the op's late phase */
	uint64_t late_cycles;		/* TSC cycles from the window's end to the late ones, summed */
};

struct latency_result {
	enum probe_status status;
	char reason[LATENCY_REASON_LEN];	/* unless PROBE_OK */
	uint64_t setup_code;		/* the op's setup return value when it refused */
	uint64_t check_code;		/* the teardown's non-zero return (PROBE_FAILED) */
	uint64_t batch;			/* ops per sample */
	size_t n;			/* samples measured */
	double samples[LATENCY_MAX_SAMPLES];	/* cycles/op, overhead subtracted, >= 0 */
	double raw_median;		/* cycles/op before subtracting the overhead */
	double overhead_cycles;		/* what was subtracted */
	struct stats_summary cycles;	/* of samples[] */
	double ns_median;
	bool has_stats;			/* per_op stats-fd figures are real */
	struct latency_per_op per_op;
	uint64_t ops;			/* batch * n */
	bool has_trace;
	struct trace_counts trace;	/* exits by reason in the measured region */
	uint64_t trace_ops;		/* operations the trace covers (v2: the first round's) */
	char trace_note[160];		/* why there is no trace, when asked for */
	char setup_note[160];		/* what the probe's host setup chose (e.g. which
					 * sequence its op runs), for its notes; "" none */
	int cpu_before, cpu_after;	/* host CPU of the vCPU thread (-1 unknown) */
	bool migrated;
	/* Method v2: n_rounds 0 in v1 (latency_measure). */
	struct latency_round rounds[LATENCY_MAX_ROUNDS];
	size_t n_rounds;
	enum probe_stop stop;		/* why it ended (v1: PROBE_STOP_SAMPLES when measured) */
	double ci_rel_pct;		/* -1 unknown */
	int cpus[2];			/* host CPUs of vCPU 0 and 1 (two-vCPU probes), -1 unknown */
	struct region_counts acc;	/* region counts summed over the rounds (trace: first round) */
	struct latency_irq irq;		/* interrupt probes (probes/): where each op's interrupt was taken */
	bool has_peer_wait;		/* two-vCPU probes: vCPU 0 waited for vCPU 1 to be ready, */
	double peer_wait_ms;		/* ... at most this long over the rounds */
};

/* Nothing measured yet: zero, the CPUs and ci_rel_pct unknown (-1). */
void latency_result_clear(struct latency_result *res);

/*
 * Measure op on env->vcpu. Returns 0 when a status was determined (see
 * res->status, which may be skipped/failed/hang), or -errno when the
 * measurement could not be attempted (bad env).
 */
int latency_measure(const struct latency_env *env, const struct latency_op *op,
		    struct latency_result *res);

/*
 * The nop baseline on env->vcpu: cycles per op of the harness itself (a
 * call to an empty guest function). 0 or -errno; *cycles set on success.
 * res (may be NULL) receives the full nop measurement.
 */
int latency_overhead(const struct latency_env *env, double *cycles, struct latency_result *res);

/*
 * Method v2: a probe's op and its baseline measured in rounds, the guest
 * kept alive between them (harness/latency_guest.c, the paired loop):
 *
 *	latency_result_clear(res);
 *	latency_session_open(&s, &env, &op, res);	// setup, calibration
 *	while (s.open && ...) latency_session_round(&s, res);	// adds res->rounds[]
 *	latency_session_close(&s, res);			// teardown and its check
 *	latency_session_result(res, tsc_khz);		// flat samples, summary, per op
 *
 * Each returns 0 with res->status saying how it went (a guest failure
 * closes the session: s.open false), or -errno for a bad call. A session
 * may be closed and another opened on a new VM for the same res: its rounds
 * are appended (the batch is calibrated again; with trace, only the first
 * session runs the trace round). Method v2 opens one per round.
 */
struct latency_session {
	struct vcpu *v;
	struct latency_ctl *ctl;
	struct region rg;
	uint64_t wd, batch;		/* batch: calls of op per batch */
	unsigned int pairs, reps;
	const char *name;		/* the op's, for the profile marks */
	bool trace, profile, open, at_end;	/* at_end: the guest waits at its END sync */
};

int latency_session_open(struct latency_session *s, const struct latency_env *env,
			 const struct latency_op *op, struct latency_result *res);
int latency_session_round(struct latency_session *s, struct latency_result *res);
int latency_session_close(struct latency_session *s, struct latency_result *res);
/*
 * From res->rounds: the flat samples (every pair's net, clamped at 0), their
 * summary, raw_median / overhead_cycles (medians of the rounds' raw and
 * baseline medians), ns_median, ops and per_op from res->acc. 0, or
 * -EINVAL when there is no round.
 */
int latency_session_result(struct latency_result *res, uint64_t tsc_khz);

/* How long one guest run of env may take before it is a hang: watchdog_ms, else 2 x budget + 1 s. */
uint64_t latency_watchdog_ms(const struct latency_env *env);
/* The CPU-time limit of calibration that fits env's budget: the budget, at least LATENCY_CPU_WATCHDOG_MIN_MS. */
#define LATENCY_CPU_WATCHDOG_MIN_MS	100
uint64_t latency_cpu_watchdog_ms(const struct latency_env *env);

/* The guest nop op, for callers that list it themselves. */
uint64_t latency_guest_nop(uint64_t arg);

/* Text for a setup code that is not 0 (GUEST_FAULT | vector, or else generic). */
void latency_setup_reason(uint64_t code, char *buf, size_t len);

/* Pin the calling thread to cpu (< 0: the CPU it is on now). 0 or -errno; *pinned set. */
int latency_pin(int cpu, int *pinned);


#endif
