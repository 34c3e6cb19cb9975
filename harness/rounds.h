/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rounds.h - the pure arithmetic of method v2 (run --method v2): one round's
 * pairs of (baseline batch, probe batch) TSC deltas turned into net
 * cycles/op and medians, the CI of a probe's round medians, and the
 * adaptive stop decision after each round. Nothing here touches a VM, so
 * tests/test_latency.c checks it on hand-computed series.
 */
#ifndef EXITSCOPE_HARNESS_ROUNDS_H
#define EXITSCOPE_HARNESS_ROUNDS_H

#include <stddef.h>
#include <stdint.h>

#include "results/schema.h"

#define LATENCY_MAX_PAIRS	31	/* pairs per round (== LATENCY_CTL_PAIRS) */
#define LATENCY_MAX_ROUNDS	32	/* x LATENCY_MAX_PAIRS <= LATENCY_MAX_SAMPLES */
#define LATENCY_MIN_ROUNDS	3	/* rounds before a probe may stop on precision */

struct latency_round {
	uint64_t batch;				/* ops per batch */
	size_t n;				/* pairs */
	double net[LATENCY_MAX_PAIRS];		/* raw - base of each pair, cycles/op, not clamped */
	double base[LATENCY_MAX_PAIRS];		/* baseline batch, cycles/op */
	double raw[LATENCY_MAX_PAIRS];		/* probe batch, cycles/op */
	double median, baseline_median, raw_median;
};

/*
 * r from the TSC cycles of n pairs of batch-op batches: tb[i] the baseline
 * batch, t[i] the probe batch of pair i. 0, or -EINVAL (n 0 or too many,
 * batch 0).
 */
int latency_round_from_tsc(struct latency_round *r, uint64_t batch, const uint64_t *tb,
			   const uint64_t *t, size_t n);

/*
 * 95% CI of the mean of n round medians: Student t with n - 1 degrees of
 * freedom times the standard error. 0 with *center (the mean) and *half
 * (the half-width), or -EINVAL when n < 2.
 */
int latency_rounds_ci(const double *medians, size_t n, double *center, double *half);

/* When a probe stops (run --precision, --precision-floor, --rounds, --time-budget). */
struct latency_stop_rule {
	double precision_pct;		/* CI half-width wanted, % of |median| */
	double floor_cycles;		/* ... or at most this many cycles (near-zero costs) */
	size_t min_rounds;		/* no precision stop before this many rounds */
	size_t max_rounds;		/* --rounds */
	double budget_s;		/* --time-budget of the probe */
};

/*
 * The decision after n rounds whose medians are given and spent_s seconds
 * of the probe's budget: PROBE_STOP_PRECISION when n >= min_rounds and the
 * CI half-width <= max(precision_pct % of |center|, floor_cycles);
 * otherwise PROBE_STOP_BUDGET when n reached max_rounds or spent_s
 * budget_s; otherwise PROBE_STOP_NONE (measure another round).
 * *ci_rel_pct: the half-width in % of |center|, -1 when unknown (n < 2 or
 * a zero center).
 */
enum probe_stop latency_stop_decide(const struct latency_stop_rule *rule, const double *medians,
				    size_t n, double spent_s, double *ci_rel_pct);

#endif
