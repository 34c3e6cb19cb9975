/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * path.h - exit-path changes between the two sides of a comparison: for each
 * probe that has an exit path on both sides (profiling lanes), the kernel
 * functions whose instructions or calls per op differ, with the side's own
 * spread taken into account when a side has several runs; and, when every
 * profile of the probe on both sides has a census, the census rows (a costly
 * instruction kind with its operand) whose executions per op differ.
 */
#ifndef EXITSCOPE_COMPARE_PATH_H
#define EXITSCOPE_COMPARE_PATH_H

#include <stdio.h>

#include "results/compare_model.h"
#include "results/result_read.h"

/*
 * A figure changed when the sides' ranges do not overlap (with one run a
 * side: when the two differ; a profile's counts are exact); a function or a
 * census row a run does not list counts 0 there. A probe changed when its
 * kernel figure, a function or a census row did. 0 or -ENOMEM.
 */
int path_changes_build(const struct result_file *const *a, size_t na,
		       const struct result_file *const *b, size_t nb, struct path_changes *out);
void path_changes_free(struct path_changes *c);
/*
 * "exit paths:" and a block per changed probe (its top functions, then its
 * census line); nothing without profiles.
 */
void path_changes_print(FILE *f, const struct path_changes *c);
/*
 * A probe's census line, "census: -2 wrmsr IA32_XSS, -2 xsetbv XCR0 per op"
 * (new - base, up to 2 decimals) after indent spaces, wrapped within
 * COMPARE_COLUMNS; nothing when no census row changed.
 */
void path_census_print(FILE *f, const struct path_probe_change *p, int indent);
/* Are these the same census row: the same insn and operand (NULL: none)? */
int path_census_same(const char *insn_a, const char *operand_a, const char *insn_b, const char *operand_b);
/*
 * v per op as the census line writes it: whole ("2"), else up to 2 decimals
 * ("0.5", "1.25"), 2 significant digits below 0.005 ("0.0039"); with sign,
 * a leading "+" or "-".
 */
void path_per_op_str(char *buf, size_t n, double v, int sign);
#endif
