/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_model.h - the model of an A/B comparison as compare/ finds it
 * (compare/compare.h makes it; the statistics are in docs/method.md) and its
 * readers take it: the text (compare/compare_text.c), the HTML report
 * (report/), and the compare --json document written here
 * (compare_result_json; read back by compare_doc.h).
 */
#ifndef EXITSCOPE_RESULTS_COMPARE_MODEL_H
#define EXITSCOPE_RESULTS_COMPARE_MODEL_H

#include <stdbool.h>
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "results/guest_speed.h"
#include "base/err.h"
#include "results/noise.h"
#include "results/outfile.h"
#include "results/result_read.h"
#include "stats/stats.h"
#include "stats/welch.h"

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

/*
 * Exit-path changes between the two sides (compare/path.h makes them): for
 * each probe that has an exit path on both sides (profiling lanes), the
 * kernel functions whose instructions or calls per op differ and, when
 * every profile of the probe on both sides has a census, the census rows
 * (a costly instruction kind with its operand) whose executions per op do.
 */

/* One figure per side: the mean over the side's profiled runs and their range. */
struct path_fig {
	double mean, lo, hi;
	size_t n;		/* runs that have the probe's exit path */
};

struct path_fn_change {
	const char *name;
	struct path_fig insn[2], calls[2];	/* [0] base side, [1] new side; per op */
};

struct path_census_change {
	const char *insn;			/* lower-case mnemonic */
	const char *operand;			/* a name, a raw "0x..." index, or NULL */
	struct path_fig per_op[2];		/* executions per op, [0] base, [1] new */
};

struct path_probe_change {
	const char *probe;
	struct path_fig kernel[2];		/* L1 kernel instructions per op */
	struct path_fn_change *fns;		/* changed functions, largest |insn change| first */
	size_t n_fns;
	/*
	 * has_census: every profile of the probe on both sides had a census,
	 * so it was compared; census: its changed rows, largest |per-op
	 * change| first, then by insn and operand.
	 */
	bool has_census;
	struct path_census_change *census;
	size_t n_census;
};

struct path_changes {
	struct path_probe_change *probes;	/* probes whose exit path changed */
	size_t n;
	size_t compared;			/* probes with an exit path on both sides */
};

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
 * The document compare_result_json() writes; its fields and what each version
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
	 * (batches), df: Welch df (rounds, runs; -1 by batches).
	 */
	struct stats_diff d;
	enum compare_method method_a, method_b;	/* how each side's variance was estimated */
	enum compare_r2r r2r;
	double lane_spread_pct;		/* r2r lane: the spread each end moved out by, in %; else -1 */
	const struct noise_est *floor;	/* the floor's estimate, when it went into the interval */
	double se;			/* the interval's standard error (cycles); -1 by batches */
	double floor_sd_rel;		/* the floor's relative between-run SD used; -1: cycles or none */
	double floor_df;		/* the floor's df (floor->df); -1 without a floor */
	bool has_pct;			/* base median > 0 */
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
	bool normalized;
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
	 * loop's cycles), by the same models as a probe; has_speed false when no
	 * probe had rounds with baselines on both sides, or the loop's figures
	 * have no percentage or are not finite. speed_probes: how many.
	 */
	bool has_speed;
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
	bool has_paths;			/* paths.compared > 0: the document has "exit_paths" */
	bool regression;		/* n_slower > 0 (compare_regressed) */
	size_t n_faster, n_slower, n_same, n_too_noisy, n_not_judged, n_not_run;
	size_t n_by_rounds, n_by_batches;	/* compared probes by method (rounds: also runs) */
	size_t n_by_runs;			/* of n_by_rounds, both sides by their run means */
	size_t n_floor;				/* probes whose interval holds the floor */
	size_t n_r2r_none, n_r2r_partial;	/* probes lacking run-to-run variation, or on one side */
	size_t n_r2r_lane;		/* probes whose interval holds the lanes' spread */
	size_t n_floor_emulated;	/* not judged: a floor, a side of one run, emulated */
};

/*
 * Any probe significantly slower beyond the threshold. "too noisy" and "not
 * judged" are not regressions (nothing was shown); compare_print() says how
 * many were.
 */
int compare_regressed(const struct compare_result *cr);

/*
 * The compare --json document of cr (COMPARE_SCHEMA, COMPARE_SCHEMA_VERSION):
 * its fields in the order they are written, the last "exit_paths"
 * (path_changes_json) when cr->paths.compared. NULL when out of memory.
 */
json_t *compare_result_json(const struct compare_result *cr);

/*
 * Its tables (results/field.h), one per object, NULL-ended: each names the
 * object's place in the document and its fields in writing order
 * (tests/test_compare_schema.c holds them against docs/compare-report.md).
 */
struct field_desc;
extern const struct field_desc *const compare_json_tables[];

/*
 * That document written to path ("-": stdout), atomically for a regular
 * file (results/outfile.h), indented, reals with 10 significant digits;
 * opened(o) once path is open, opened(NULL) once it is closed (may be
 * NULL). 0 or -errno with err set ("PATH: why").
 */
int compare_result_write(const struct compare_result *cr, const char *path,
			 void (*opened)(const struct outfile *o), struct err *err);

/*
 * {"compared": N, "probes": [{probe, kernel_insn_per_op: [a, b], functions:
 * [...], census: [{insn, operand, per_op: [a, b]}]}]}, census only where
 * it was compared.
 */
json_t *path_changes_json(const struct path_changes *c);

#endif
