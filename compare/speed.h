/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * speed.h - (inside compare/) the guest's own speed between the two sides:
 * the harness loop that every probe timed beside its op, pooled over the
 * probes compared by rounds (docs/method.md, "At equal guest speed").
 */
#ifndef EXITSCOPE_COMPARE_SPEED_H
#define EXITSCOPE_COMPARE_SPEED_H

#include "compare/compare.h"

/*
 * Fill cr->speed (d, estimators, r2r; not the verdict) and cr->speed_probes
 * from the probes of cr->probes that are compared by rounds with
 * baselines on both sides, their runs in a[0..na-1] and b[0..nb-1]: per
 * file one run whose rounds are every such probe's round baselines of the
 * batch size speed_batch picks for it, each over that probe's mean
 * baseline of that size on the base side. cr->has_speed 0 when
 * there is none. 0, -ENOMEM, or -EINVAL from the statistics (compare_interval).
 */
int compare_speed(struct compare_result *cr, const struct result_file *const *a, size_t na,
		  const struct result_file *const *b, size_t nb);

/*
 * The batch size of the rounds of a[0..na-1] and b[0..nb-1] (a probe's runs
 * on each side) to set their harness baselines against each other: a
 * batch's baseline per op depends on its size (what the loop costs once
 * per batch is spread over its ops), so a size both sides measured, the
 * one with the most rounds on its scarcer side. 1 with *batch and each
 * side's mean baseline over its rounds of that size (*mean_a, *mean_b, both
 * > 0); 0 when no size is on both.
 */
int speed_batch(const struct run_probe *const *a, size_t na, const struct run_probe *const *b,
		size_t nb, long long *batch, double *mean_a, double *mean_b);

#endif
