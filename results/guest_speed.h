/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guest_speed.h - a probe's rounds at one guest speed (docs/method.md, "At equal
 * guest speed"). Every round of a probe times the harness loop (the same
 * loop calling an empty function) beside the op, pair by pair in the same
 * VM: the round's baseline_median is the guest's speed during that round,
 * in cycles per op of the loop. Where the host emulates every guest
 * instruction, the host's speed moves the loop and, by as much as the op
 * is emulation work, the op's cost, from round to round and from run to
 * run. A round's net figure y with its loop x is put at speed ref as
 *
 *	y* = y - beta (x - ref)
 *
 * with beta the probe's own slope on its loop within runs (analysis of
 * covariance, stats_slope_within): about y / x for an op that is all
 * emulation, about 0 for one whose cost does not follow the loop. compare
 * puts both sides' rounds at the base side's speed, and the noise floor's
 * runs at their mean speed, through these functions alone.
 */
#ifndef EXITSCOPE_RESULTS_GUEST_SPEED_H
#define EXITSCOPE_RESULTS_GUEST_SPEED_H

#include <stddef.h>

#include "results/run_model.h"

/*
 * An adjustment: the speed ref (cycles per op of the loop), the slope beta
 * (cycles of the op per cycle of the loop) and its variance beta_var with
 * df degrees of freedom. What it adds to the variance of a difference of
 * two sides whose mean loops differ by dx: dx^2 x beta_var.
 */
struct speed_adj {
	double ref, beta, beta_var, df;
};

/* Does p have rounds, every one of them with a baseline > 0? */
int speed_probe_ok(const struct run_probe *p);

/*
 * The mean of the runs' mean loops, p[0..n-1] (each run counts once, as
 * in a side's figure), cycles per op; -1 when n is 0 or a run is not
 * speed_probe_ok.
 */
double speed_mean(const struct run_probe *const *p, size_t n);

/*
 * Fit a at speed ref from the runs p[0..n-1] (all the runs it will be
 * applied to: both sides of a comparison, or a floor's runs): the pooled
 * within-run slope of their round medians on their loops. 0; -EINVAL when
 * a run is not speed_probe_ok or the slope cannot be fitted (fewer than
 * 2 + n rounds in all, or loops that did not vary); -ENOMEM.
 */
int speed_fit(const struct run_probe *const *p, size_t n, double ref, struct speed_adj *a);

/* Round r's median at a's speed: median - beta (baseline - ref). */
double speed_round_at(const struct run_round *r, const struct speed_adj *a);

#endif
