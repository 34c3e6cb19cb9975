/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare.h - A/B comparison of result files (one or several runs per side):
 * host differences, per-probe verdicts, exits/op, map and check changes.
 * The statistics are in docs/method.md.
 */
#ifndef EXITSCOPE_COMPARE_COMPARE_H
#define EXITSCOPE_COMPARE_COMPARE_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "compare/path.h"
#include "results/noise.h"
#include "results/result_read.h"
#include "results/guest_speed.h"
#include "stats/stats.h"
#include "stats/welch.h"

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

/*
 * The figures compare compares (docs/method.md, "At equal guest speed"):
 * the net cycles as measured (none), or each round put at the base side's
 * guest speed by its paired baseline (speed, results/guest_speed.h); auto is
 * speed where every file of both sides ran its guest code emulated, none
 * elsewhere.
 */
enum compare_normalize {
	COMPARE_NORMALIZE_AUTO, COMPARE_NORMALIZE_NONE, COMPARE_NORMALIZE_SPEED, COMPARE_NORMALIZE_N
};
/* "auto", "none", "speed" */
extern const char *const compare_normalize_names[COMPARE_NORMALIZE_N];
/* s as one of compare_normalize_names into *out: 0, or -EINVAL when it is none of them. */
int compare_normalize_parse(const char *s, enum compare_normalize *out);

struct compare_opts {
	double threshold_pct;		/* |diff%| needed for a verdict */
	enum compare_normalize normalize;	/* what is asked (--normalize); default auto */
	uint64_t seed;			/* bootstrap seed */
	unsigned iters;			/* bootstrap resamples; 0: default */
	/*
	 * A host's noise floor (--noise FILE) or NULL: its between-run variance
	 * goes into the interval of every probe it has (docs/method.md). Check
	 * it against the files with compare_noise_check() first.
	 */
	const struct noise_floor *noise;
};

enum compare_verdict {
	COMPARE_FASTER, COMPARE_SLOWER, COMPARE_SAME,
	COMPARE_TOO_NOISY,	/* not significant, and a change of the threshold would not be either */
	/*
	 * The interval lacks the variation from one run to the next (one run
	 * on a side and nothing to stand for it: docs/method.md), so its
	 * difference cannot be told from that variation: neither faster,
	 * slower nor no significant change, and never a regression.
	 */
	COMPARE_UNJUDGED,
	COMPARE_NOT_RUN, COMPARE_VERDICT_N
};
/* "faster", "slower", "no significant change", "too noisy", "not judged", "not compared" */
extern const char *const compare_verdict_names[COMPARE_VERDICT_N];

/*
 * Where a probe's interval comes from (docs/method.md), for the probe and
 * for each side of it.
 */
enum compare_method {
	COMPARE_METHOD_BATCHES,	/* bootstrap of the flat samples: the v1 method, no run-to-run variance */
	COMPARE_METHOD_ROUNDS,	/* Welch t on the round medians within each run (stats_side_within) */
	COMPARE_METHOD_RUNS,	/* Welch t on the run means, 2 runs or more a side (stats_side_runs) */
	COMPARE_METHOD_N
};
/* "batches", "rounds", "runs" */
extern const char *const compare_method_names[COMPARE_METHOD_N];

/* Is the variation from one run to the next in a probe's interval? */
enum compare_r2r {
	COMPARE_R2R_NONE,	/* no: one run a side (or batches) and no floor */
	COMPARE_R2R_PARTIAL,	/* for one side only (runs there, one run without a floor on the other) */
	COMPARE_R2R_RUNS,	/* yes, from the spread of each side's run means */
	COMPARE_R2R_FLOOR,	/* yes, the noise floor's for the sides measured by rounds */
	/*
	 * a bound for it: Bochs lane runs of a one-vCPU probe, the interval
	 * widened by the lanes' boot-to-boot spread (compare/lane_spread.h)
	 */
	COMPARE_R2R_LANE,
	COMPARE_R2R_N
};
/* "none", "partial", "runs", "floor", "lane" */
extern const char *const compare_r2r_names[COMPARE_R2R_N];

/*
 * The document compare_to_json() writes; its fields and what each version
 * added are in docs/compare-report.md (the JSON's version history).
 */
#define COMPARE_SCHEMA		"exitscope-compare"
#define COMPARE_SCHEMA_VERSION	7

struct compare_host_diff {
	char *field, *a, *b;		/* e.g. "kernel", "6.1.0", "6.18.44" */
};

struct compare_probe {
	const char *name, *group;
	const struct run_probe *a, *b;
	enum compare_verdict verdict;
	/*
	 * What the interval alone says (faster, slower, no significant change,
	 * too noisy; not compared as verdict): verdict but where that is not
	 * judged.
	 */
	enum compare_verdict by_interval;
	const char *why;		/* not compared though it ran on both sides: why; else NULL */
	enum compare_method method;
	/*
	 * diff = new - base and its 95% CI; median_a/median_b: the pooled
	 * samples' medians (batches) or the means of the run means, a run's
	 * mean the mean of its round medians (rounds, runs); iters: resamples
	 * (batches), df: Welch df (rounds, runs).
	 */
	struct stats_diff d;
	enum compare_method method_a, method_b;	/* how each side's variance was estimated */
	enum compare_r2r r2r;
	const struct noise_est *floor;	/* the floor's estimate, when it went into the interval */
	double se;			/* the interval's standard error (cycles); 0 for batches */
	double floor_sd_rel;		/* the floor's relative between-run SD used; -1: cycles or none */
	int has_pct;			/* base median > 0 */
	double pct, pct_lo, pct_hi;	/* diff and CI in % of the base median */
	/*
	 * Half the CI's width in % of the base median (-1 without a
	 * percentage): the smallest change this comparison could detect
	 * (docs/method.md). "too noisy" when it exceeds the threshold.
	 */
	double mde_pct;
	size_t runs_a, runs_b;		/* files of each side in which the probe ran */
	size_t rounds_a, rounds_b;	/* rounds pooled per side (0: batches method) */
	/*
	 * Input of compare_model: with normalized set, every round of both
	 * sides is put at speed.ref (the base side's mean harness loop) by
	 * speed (results/guest_speed.h, fitted on both sides' runs), so median_a,
	 * median_b, diff and CI are at that speed, and the slope's own
	 * uncertainty is in the interval.
	 */
	int normalized;
	struct speed_adj speed;
	double loop_a, loop_b;		/* each side's mean harness loop, cycles per op; -1 unknown */
	/* Each side's per-op counters: the mean over its ok runs that have one; -1 absent. */
	double per_op_a[RESULT_PER_OP_N], per_op_b[RESULT_PER_OP_N];
};

/*
 * How a per-op counter's difference was judged (docs/method.md, "Per-op
 * counters"): every run of both sides the same whole number per op on its
 * side (a count of what every op does: a fact), none in every run of one
 * side against at least one per op in every run of the other (ops that
 * never exit, then each does), the runs' values by Welch t (2 runs or more
 * a side), by the counts of a side of one run on a host that ran no guest
 * code emulated (they exclude chance at
 * COMPARE_COUNTER_P by an exact test over the ops, and the step is larger
 * than the host's own exits per op), or not at all (a side of one run whose
 * difference the counts cannot tell from chance or the host: a run's
 * counters are totals over its rounds, so how they vary from run to run is
 * unknown).
 */
enum compare_counter_by { COMPARE_COUNTER_WHOLE, COMPARE_COUNTER_FROM_ZERO, COMPARE_COUNTER_RUNS,
			  COMPARE_COUNTER_NOT_JUDGED, COMPARE_COUNTER_COUNTS,
			  COMPARE_COUNTER_BY_N };
/* "whole", "zero", "runs", "not judged", "counts" */
extern const char *const compare_counter_by_names[COMPARE_COUNTER_BY_N];

/*
 * A per-op counter of a probe whose sides differ by the size rule (0.05/op
 * and 10% of the larger): a change (compare_result.counters), or a
 * difference that could not be judged (.unjudged).
 */
struct compare_counter {
	const char *probe, *counter;	/* counter: "exits", "io_exits", ..., "user_io", ... */
	double a, b;			/* each side's mean over its runs */
	size_t runs_a, runs_b;		/* runs of each side that have the counter */
	enum compare_counter_by by;
	double lo, hi;			/* 95% CI of b - a (runs; b - a when whole; NAN not judged) */
	const char *note;		/* "now guest-owned", "now intercepted" or NULL */
};

/* An ownership-map entry whose status changed; status NULL = absent on that side. */
struct compare_map_change {
	const char *profile;
	const char *reg, *name, *op;	/* reg NULL: the whole profile is absent on one side */
	long long bit;
	const char *a, *b;
	double a_exits, b_exits;	/* exits/op of the entry; -1 absent or not measured */
	double a_cycles, b_cycles;	/* cycles/op of the entry; -1 absent or not measured */
};

/* A check whose status changed; status NULL = absent on that side. */
struct compare_check_change {
	const char *suite, *name;
	const char *a, *b;
};

struct compare_result {
	char *name_a, *name_b;		/* the files of each side, joined with " + " */
	int normalized;			/* the figures are at the base side's guest speed */
	const char *normalize_why;	/* why (what was asked, or what auto found) */
	size_t n_normalized;		/* probes compared at equal guest speed */
	size_t n_not_normalized;	/* probes compared by rounds as measured all the same */
	/*
	 * The guest's own speed between the sides: the harness loop of every
	 * probe compared by rounds, each probe's relative to its base side's
	 * mean (so the figures are 1.0-based ratios and pct the change of the
	 * loop's cycles), by the same models as a probe; has_speed 0 when no
	 * probe had rounds with baselines on both sides. speed_probes: how many.
	 */
	int has_speed;
	struct compare_probe speed;
	size_t speed_probes;
	const char **files_a, **files_b; size_t n_files_a, n_files_b;
	const char *method_note;	/* set when some probe was compared by batches */
	/*
	 * Every file of both sides is a Bochs lane run (lane_deterministic);
	 * some file of a side ran its guest code emulated.
	 */
	int lanes_deterministic, emulated;
	char *r2r_note;			/* set when some probe's interval lacks run-to-run variation */
	const struct noise_floor *noise;	/* the floor used (opts.noise) */
	struct compare_opts opts;
	struct compare_host_diff *host;	size_t n_host;
	char **warnings;		size_t n_warnings;	/* "WARNING: ..." and "note: ..." */
	struct compare_probe *probes;	size_t n_probes;	/* probes in both files, base order */
	struct compare_counter *counters; size_t n_counters;	/* changes */
	struct compare_counter *unjudged; size_t n_unjudged;	/* differences not judged */
	int map_compared;		/* both files carry a map */
	struct compare_map_change *map;	size_t n_map;
	int checks_compared;		/* both files carry checks */
	struct compare_check_change *checks; size_t n_checks;
	const char **only_a;		size_t n_only_a;
	const char **only_b;		size_t n_only_b;
	/*
	 * Exit-path changes (compare/path.h): each profiled probe's kernel
	 * functions and census rows that changed; paths.compared 0 when no
	 * probe has an exit path on both sides.
	 */
	struct path_changes paths;
	size_t n_faster, n_slower, n_same, n_too_noisy, n_not_judged, n_not_run;
	size_t n_by_rounds, n_by_batches;	/* compared probes by method (rounds: also runs) */
	size_t n_by_runs;			/* of n_by_rounds, both sides by their run means */
	size_t n_floor;				/* probes whose interval holds the floor */
	size_t n_r2r_none, n_r2r_partial;	/* probes lacking run-to-run variation, or on one side */
	size_t n_r2r_lane;		/* probes whose interval holds the lanes' spread */
	size_t n_floor_emulated;	/* not judged: a floor, a side of one run, emulated */
};

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
 * estimated from its run means (the runs model), a side of one run from its
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
 * count twice, and a run on both sides would be compared with itself. 0, or
 * -EINVAL with one line in err naming both files.
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
 * cycles, each probe's model and runs), how the figures were put at speed,
 * every note on one line; the exit-path changes last (path_changes_print).
 */
void compare_print(FILE *f, const struct compare_result *cr, int wide);

/*
 * The comparison as a JSON document (COMPARE_SCHEMA, COMPARE_SCHEMA_VERSION);
 * its last member "exit_paths" (path_changes_json) when paths.compared.
 */
json_t *compare_to_json(const struct compare_result *cr);

/*
 * Any probe significantly slower beyond the threshold. "too noisy" and "not
 * judged" are not regressions (nothing was shown); compare_print() says how
 * many were.
 */
int compare_regressed(const struct compare_result *cr);

void compare_free(struct compare_result *cr);

#endif
