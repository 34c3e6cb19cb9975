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
 * Fill cr->speed (d, models, r2r; not the verdict) and cr->speed_probes
 * from the probes of cr->probes that are compared by rounds with
 * baselines on both sides, their runs in a[0..na-1] and b[0..nb-1]: per
 * file one run whose rounds are every such probe's round baselines, each
 * over that probe's mean baseline on the base side. cr->has_speed 0 when
 * there is none. 0, or -1 when out of memory.
 */
int compare_speed(struct compare_result *cr, const struct result_file *const *a, size_t na,
		  const struct result_file *const *b, size_t nb);

#endif
