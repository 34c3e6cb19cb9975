/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h - A/B comparison of result files (one or several runs per side):
 * host differences, per-probe verdicts, exits/op, map and check changes.
 * The statistics are in docs/method.md.
 */
#ifndef EXITSCOPE_COMPARE_COMPARE_H
#define EXITSCOPE_COMPARE_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "compare/path.h"
#include "results/compare_model.h"
#include "results/noise.h"
#include "results/result_read.h"

#define COMPARE_THRESHOLD_PCT	2.0	/* default: smaller relative changes are not verdicts */
#define COMPARE_THRESHOLD_MAX_PCT 1000.0	/* the largest threshold an option takes */
#define COMPARE_SEED		1	/* default bootstrap seed */
#define COMPARE_COUNTER_EPS	0.05	/* per-op counter change that is reported... */
#define COMPARE_COUNTER_REL	0.10	/* ...when also this fraction of the larger value */
/* A one-run side's counts are a change below this p of their exact test (docs/method.md). */
#define COMPARE_COUNTER_P	1e-3
#define COMPARE_COUNTER_ZERO	0.005	/* within this of a whole number a per-op counter is it (prints 0.00, 1.00) */
#define COMPARE_SHIFT_MIN_PROBES 3	/* probes with rounds on both sides before a baseline shift is told */
/*
 * Cycles per op beyond any real op (over two days at 5 GHz): a probe whose
 * samples or rounds hold a larger figure is not compared ("cannot compare:
 * overflow"), so no interval or verdict comes from arithmetic that
 * overflows.
 */
#define COMPARE_MAX_CYCLES	1e15
/*
 * The figures' own resolution: a difference of at most COMPARE_DIFF_MIN
 * cycles/op (half the 0.1 step the table prints, so it shows as +0.0) or
 * of at most COMPARE_DIFF_REL of the larger figure (rounding of the sums
 * behind a mean) is never a verdict: "no significant change" however
 * narrow its interval. A base within COMPARE_DIFF_MIN of 0 (it prints as
 * 0.0) has no percentage to hold against the threshold: such a probe is
 * not compared ("not compared: zero base"), unless its difference is
 * below the resolution too (then no significant change).
 */
#define COMPARE_DIFF_MIN	0.05
#define COMPARE_DIFF_REL	1e-9

/* s as one of compare_normalize_names into *out: 0, or -EINVAL when it is none of them. */
int compare_normalize_parse(const char *s, enum compare_normalize *out);


/* Defaults: threshold 2%, seed 1, default resamples, no noise floor, normalize auto. */
void compare_opts_init(struct compare_opts *o);

/*
 * Compare base a with new b. The result borrows strings from a and b: free it
 * before them. Returns NULL with a message in err and its code when out of
 * memory (-ENOMEM) or, should the statistics refuse a figure, -EINVAL.
 */
struct compare_result *compare_results(const struct result_file *a, const struct result_file *b,
				       const struct compare_opts *opts, struct err *err);

/*
 * Compare several runs of the base (a[0..na-1]) with several of the new
 * (b[0..nb-1]), na, nb >= 1: with rounds, a side of 2 runs or more is
 * estimated from its run means (the runs estimator), a side of one run from its
 * round medians, with opts->noise's between-run variance added when given
 * (docs/method.md); without rounds the flat samples are pooled over the
 * files of a side. Per-op counters are each side's means over its runs
 * (compare/counters.h), exit paths over all the runs (compare/path.h).
 * Host, settings, map and checks are
 * those of each side's first file (with a warning when a side's files
 * differ in kernel, CPU, execution mode, method or guest XCR0). Same
 * ownership rules and errors as compare_results.
 */
struct compare_result *compare_results_multi(const struct result_file *const *a, size_t na,
					     const struct result_file *const *b, size_t nb,
					     const struct compare_opts *opts, struct err *err);

/*
 * Can the floor be applied to these runs? It must be of the same host
 * (noise_host_mismatch) and exitscope version as every file of both sides,
 * and of their method. 0, or -EINVAL with one line in err naming the floor file,
 * the run file and what does not match. Other differences (rounds, time
 * budget, precision, pinned CPUs, guest XCR0, kernel) are warnings of the
 * comparison.
 */
int compare_noise_check(const struct noise_floor *nf, const struct result_file *const *a, size_t na,
			const struct result_file *const *b, size_t nb, struct err *err);

/*
 * Is every file of both sides a run of its own? Two files are the same run
 * when they record the same start, end and process (or, files without that
 * record, when their documents are equal): pooled, a run given twice would
 * count twice, and a run on both sides would be compared with itself (nb 0:
 * the runs of one set, as a noise floor's). 0, or -EINVAL with one line in
 * err naming both files.
 */
int compare_runs_distinct(const struct result_file *const *a, size_t na,
			  const struct result_file *const *b, size_t nb, struct err *err);

/*
 * One-line descriptions shared by the text and HTML output, e.g.
 * "toggle_cr4_cet: 2.00 -> 0.00 exits/op (now guest-owned)" and
 * "host: cr4 bit 23 (CET) toggle: intercepted -> owned".
 */
const char *compare_counter_line(const struct compare_counter *c, char *buf, size_t len);
const char *compare_map_line(const struct compare_result *cr, const struct compare_map_change *m,
			     char *buf, size_t len);
/* e.g. "xstate/xcr0_subset_guest: skip -> pass", "cet/ibt: (absent) -> fail". */
const char *compare_check_line(const struct compare_check_change *c, char *buf, size_t len);

/*
 * What the figures are, e.g. "net cycles/op at the base side's guest speed
 * (--normalize auto: every run's guest code was emulated)"; and the guest
 * speed line, e.g. "guest speed (the harness loop of 18 probes, cycles per
 * op): +3.10% [+1.2%, +5.0%] by rounds: slower"; NULL when there is none.
 */
const char *compare_normalize_line(const struct compare_result *cr, char *buf, size_t len);
const char *compare_speed_line(const struct compare_result *cr, char *buf, size_t len);

#define COMPARE_COLUMNS	100	/* compare_print's width unless wide (probe names up to 27) */

/*
 * Human-readable report (host differences and warnings first): lines of at
 * most COMPARE_COLUMNS columns, the table's essentials (base, new, diff%,
 * its CI in %, verdict); wide: the full table (the difference and its CI in
 * cycles, each probe's estimator and runs), how the figures were put at speed,
 * every note on one line; the exit-path changes last (path_changes_print).
 */
void compare_print(FILE *f, const struct compare_result *cr, bool wide);

void compare_free(struct compare_result *cr);

#endif
