/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verdict_tally.h - how often `exitscope compare` called what over a set
 * of its --json documents (an A/A series, where every faster or slower is
 * false, or a known difference): the verdicts of the compared probes
 * counted over all documents, per document and per probe, with the median
 * smallest detectable change, difference and interval half width.
 */
#ifndef EXITSCOPE_RESULTS_VERDICT_TALLY_H
#define EXITSCOPE_RESULTS_VERDICT_TALLY_H

#include <stddef.h>

#include "base/err.h"

/* A median smallest detectable change of a probe that had none (no interval): above any figure. */
#define VERDICT_TALLY_NO_MDC	1e300

/*
 * Counts of the compared probes' verdicts (a probe whose verdict is "not
 * compared" is not counted): n in all, then faster, slower, too noisy, no
 * significant change, not judged (what is neither). Medians (NAN with
 * nothing to take one of): mdc of min_detectable_pct (VERDICT_TALLY_NO_MDC
 * for a probe without), diff of diff_pct, half of (ci95_pct_hi -
 * ci95_pct_lo) / 2, over the probes that have them.
 */
struct verdict_count {
	size_t n, faster, slower, noisy, same, unjudged;
	double mdc, diff, half;
};

/* Per document: its counts, and whether compare warned the harness baseline moved. */
struct verdict_tally_file {
	struct verdict_count c;
	int warned;
};

struct verdict_tally_probe {
	char *name;
	struct verdict_count c;
};

/*
 * The whole: all, per file (in the order given), per probe (in order of
 * first appearance); moved: the files with a faster or slower verdict,
 * warned: those with the baseline warning.
 */
struct verdict_tally {
	struct verdict_count all;
	struct verdict_tally_file *files;
	size_t n_files, moved, warned;
	struct verdict_tally_probe *probes;
	size_t n_probes;
};

/* Tally the compare documents paths[0..k-1]: 0, or -1 with one line in err; verdict_tally_release(). */
int verdict_tally(const char *const *paths, size_t k, struct verdict_tally *t, struct err *err);
void verdict_tally_release(struct verdict_tally *t);

#endif
