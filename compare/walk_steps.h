/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * walk_steps.h - the steps of a walk (results/walk_model.h): per lane, per
 * one-vCPU probe, the commits where the probe's lane cycles moved beyond
 * what boots of one kernel differ by, against the previous ok commit of the
 * lane, with the exit-path functions that changed when both runs have one.
 */
#ifndef EXITSCOPE_COMPARE_WALK_STEPS_H
#define EXITSCOPE_COMPARE_WALK_STEPS_H

#include <stdio.h>

#include "compare/lane_spread.h"
#include "results/walk_model.h"

/*
 * A step is larger than the lanes' boot-to-boot spread of a one-vCPU
 * probe (LANE_SPREAD_1VCPU_PCT) and than the kernels table's change floor
 * (LANE_CHANGE_FLOOR_CYCLES: the near-zero costs of guest-owned
 * operations move by a cycle or two), both in compare/lane_spread.h.
 */

/*
 * The steps of w, whose runs are read (walk_read_runs), into out (borrowing
 * from w: free it before w). A probe is one-vCPU unless a run's record of
 * it names a second vCPU (its "cpus" pair or "peer_wait_ms"); the others
 * are listed as not judged. A probe not ok (or absent) in an ok commit's
 * run is a gap: no step is judged across it. 0 or -ENOMEM.
 */
int walk_steps_build(const struct walk_file *w, struct walk_steps *out);
void walk_steps_free(struct walk_steps *s);

/*
 * The terminal text, within COMPARE_COLUMNS: a line about the walk, then
 * per lane its commits with steps (short rev, subject; per probe before ->
 * after and the change; the exit path's changed functions and census), its
 * skipped commits where they fall, its gaps and its two-vCPU probes.
 */
void walk_steps_print(FILE *f, const struct walk_steps *s);

/*
 * The commit's subject escaped as base/text.h does (a control byte, DEL or
 * a byte of no UTF-8 as \xNN, four columns) and cut to at most width
 * columns, never inside an escape (with "..." when cut), into buf; buf.
 */
const char *walk_subject_cut(const char *subject, size_t width, char *buf, size_t len);

#endif
