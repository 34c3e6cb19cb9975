/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * floor.h - (inside compare/) whether a noise floor fits the runs it is
 * applied to: what makes it unusable (compare_noise_check, compare.h) and
 * what only deserves a warning.
 */
#ifndef EXITSCOPE_COMPARE_FLOOR_H
#define EXITSCOPE_COMPARE_FLOOR_H

#include "compare/compare.h"

/*
 * The first measurement setting from index from on in which the floor's
 * runs and run file f differ, other than the method (which
 * compare_noise_check refuses): its name ("rounds"), its index in *which,
 * the floor's and f's values in va and vb (len bytes each); NULL when they
 * agree.
 */
const char *floor_setting_diff(const struct noise_floor *nf, const struct result_file *f,
			       int from, int *which, char *va, char *vb, size_t len);

#endif
