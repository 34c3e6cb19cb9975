/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * interval.h - (inside compare/) the interval of one probe: the estimator of
 * its sides (runs, rounds, batches; with the noise floor or without) and the
 * Welch or bootstrap interval that gives (docs/method.md).
 */
#ifndef EXITSCOPE_COMPARE_INTERVAL_H
#define EXITSCOPE_COMPARE_INTERVAL_H

#include "compare/compare.h"

/*
 * Fill p's d, method, method_a/_b, r2r, floor, se, floor_sd_rel and
 * rounds_a/_b from the probe's ok runs on each side, a[0..na-1] and
 * b[0..nb-1] (na, nb >= 1), with o's floor, seed and resamples. p->name is
 * set, and p->normalized with p->speed and the sides' mean loops
 * p->loop_a, p->loop_b: every round of both sides put at that guest speed
 * (the floor's estimate at speed, the slope's error over the loops'
 * difference in the interval), else the rounds are compared as measured.
 * 0, or -ENOMEM, or -EINVAL from the statistics (a value not finite).
 */
int compare_interval(struct compare_probe *p, const struct run_probe *const *a, size_t na,
		     const struct run_probe *const *b, size_t nb, const struct compare_opts *o);

/*
 * A probe of Bochs lane runs, one-vCPU on both sides, whose interval lacks
 * the run-to-run variation (p->r2r none or partial): two boots of one
 * kernel give its figure to within LANE_SPREAD_1VCPU_PCT, so each end of
 * the interval is moved out by that share of the larger side's figure (a
 * bound, added to the interval as it is); p->r2r becomes lane.
 */
void compare_interval_lane(struct compare_probe *p);

#endif
