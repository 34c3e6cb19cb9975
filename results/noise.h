/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * noise.h - the noise floor model (docs/results-schema.md NOISE): what runs
 * of one host vary by from one run (one process, one boot) to the next,
 * per probe, measured from K independent runs. noise_estimate() fills it
 * from those runs' result files (results/noise_estimate.c), noise_json()
 * writes it, noise_read_file() fills it back; `compare --noise FILE` adds
 * it to its intervals (docs/method.md).
 */
#ifndef EXITSCOPE_RESULTS_NOISE_H
#define EXITSCOPE_RESULTS_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "base/err.h"
#include "results/field.h"
#include "results/host_record_model.h"
#include "results/result_read.h"
#include "results/run_model.h"
#include "results/schema.h"
#include "stats/welch.h"

/*
 * One estimate of a probe's floor, in cycles per op (stats_between_runs,
 * stats/welch.h): mean_cycles the mean of its run means, run_sd_cycles
 * their standard deviation, within_se_cycles the root of the mean
 * within-run squared standard error, between_sd_cycles = sqrt(max(0,
 * run_sd^2 - within_se^2)) the run-to-run part (what one run cannot see in
 * its rounds), between_sd_rel that over mean_cycles (-1 when mean_cycles <=
 * 0: no relative figure), df the degrees of freedom of between_sd_cycles^2
 * (0 when it is 0).
 */
struct noise_est {
	double mean_cycles, run_sd_cycles, within_se_cycles;
	double between_sd_cycles, between_sd_rel, df;
};

/*
 * One probe's floor, from the runs in which it ran with at least 2 rounds:
 * of its round medians as measured (cycles), and, when every such round
 * has a baseline, of the same rounds at the runs' mean guest speed
 * (at_speed, results/guest_speed.h: what compare --normalize speed compares).
 */
struct noise_probe {
	const char *name;
	long long runs, rounds;
	struct noise_est cycles;
	bool has_at_speed;
	struct noise_est at_speed;
};

/* The estimate of p in the unit compare uses (at_speed: normalized), or NULL when p has none. */
const struct noise_est *noise_probe_est(const struct noise_probe *p, int at_speed);

/* A probe of the runs that has no floor: it ran (with 2 rounds or more) in fewer than NOISE_MIN_RUNS. */
struct noise_omitted {
	const char *name;
	long long runs;
};

/*
 * The floor. Strings and arrays are borrowed: from the run files
 * (noise_estimate; arrays allocated by it, noise_release) or, read back,
 * strings from the parsed document and arrays allocated by the reader
 * (noise_free). Optional strings are NULL when absent.
 */
struct noise_floor {
	const char *name;			/* the file read back; NULL when estimated */
	const char *tool_version;		/* the exitscope that measured the runs */
	const char *created;			/* when the floor was made; NULL: now, when written */
	const char *first_started;		/* optional: the earliest run's "started" */
	const char *last_finished;		/* optional: the latest run's "finished" */
	long long runs;				/* K, >= NOISE_MIN_RUNS */
	struct host_record host;		/* the first run's host record */
	struct run_settings settings;		/* the runs' settings (all alike) */
	struct noise_probe *probes;		/* in the first run's probe order */
	size_t n_probes;
	struct noise_omitted *omitted;
	size_t n_omitted;
	const char **sources;			/* optional: the run files it came from */
	size_t n_sources;
	void *doc;				/* read back: the parsed document */
};

/*
 * Is b on the same host as a, for a noise floor: the same machine class
 * and the same way of running guests. Compared: the CPU (vendor, family,
 * model, stepping, name), the KVM backend module, the execution mode and,
 * for lane runs, the lane and its emulator. Not compared: the kernel, the
 * module parameters (both are what a kernel A/B changes), the TSC
 * frequency (calibrated anew at every boot). NULL when the same, else what
 * differs ("CPU: AMD EPYC (...) vs Intel Xeon (...)") in buf.
 */
const char *noise_host_mismatch(const struct host_record *a, const struct host_record *b,
				char *buf, size_t len);

/*
 * Estimate the floor from k run files of one host (noise_host_mismatch,
 * and one kernel) measured with the same settings (every run_setting
 * alike), k >= NOISE_MIN_RUNS, method v2 (rounds). Per probe: the runs in
 * which it is "ok" with at least 2 rounds; with NOISE_MIN_RUNS of them or
 * more it gets a noise_probe (from those runs only: a run where it was
 * skipped, failed or stopped early is left out for that probe, not
 * guessed), with fewer it is listed in omitted. nf borrows from the files:
 * noise_release() before they are freed. 0, or -1 with one line in err
 * naming the file that does not fit.
 */
int noise_estimate(const struct result_file *const *runs, size_t k, struct noise_floor *nf,
		   struct err *err);

/*
 * What a probe's figure varies by within and between k runs, as tables show
 * it (results/noise_spread.c; no floor, no check that the runs belong
 * together): per probe that is ok with 2 rounds or more in at least 2 of
 * the runs and has a mean other than 0, the spread of its round medians
 * (stats_runs_spread) as measured and, when its slope on its loop can be
 * fitted (results/guest_speed.h), at the runs' mean guest speed, with
 * share = beta x mean loop / mean (1: the whole op follows the loop) and
 * loop_rel the SD of the runs' mean loops over their mean.
 */
struct noise_spread_probe {
	const char *name;
	struct stats_spread cycles;
	bool has_at_speed;
	struct stats_spread at_speed;
	double share, loop_rel;
};

/*
 * The probes (in order of first appearance), and the host's speed: per run
 * the median over the probes it measured of its run mean over the probe's
 * mean, less 1 (run_shift); shift_sd their SD over the shift_runs runs that
 * measured one (-1 with fewer than 2). The same of the probes' loops
 * (run_loop_shift, loop_shift_sd), the correlation of the two shifts over
 * the runs (NAN when either is flat), and left_sd: per probe the SD over
 * runs of its run mean over its mean, less 1 and less the run's shift, their
 * median over the probes (-1 without one). run_shift and run_loop_shift
 * have one value per run given, NAN for a run without such a probe. The
 * host's speed inside a run: per round the median over the probes of the
 * round's loop over the probe's mean loop in the run, less 1; round_sd the
 * mean over the round_runs runs of 3 such rounds or more of their SD,
 * round_ac the mean of their lag-1 autocorrelation (sum of (y_t - m)
 * (y_t-1 - m) over sum of (y_t - m)^2, over the runs where the rounds
 * differ; NAN without one), round_sd -1 without a run. Names are borrowed
 * from the files.
 */
struct noise_spread {
	struct noise_spread_probe *probes;
	size_t n_probes, shift_runs;
	double shift_sd;
	double *run_shift, *run_loop_shift;
	size_t n_runs;
	double loop_shift_sd, shift_corr, left_sd;
	size_t round_runs;
	double round_sd, round_ac;
};

/* 0, -EINVAL (k < 2) or -ENOMEM, with one line in err; noise_spread_release() it. */
int noise_spread(const struct result_file *const *runs, size_t k, struct noise_spread *s,
		 struct err *err);
void noise_spread_release(struct noise_spread *s);

/*
 * Two series of k runs matched run by run (run i of a with run i of b,
 * results/noise_spread.c): per probe of a (ok with 2 rounds or more in
 * both runs of at least 2 pairs), over those pairs, diff_sd the SD of the
 * difference of the run means (a run's: the mean of its round medians),
 * expected the root of the mean of both runs' squared standard errors
 * (round SD^2 / rounds, summed), floor the SD of a per-run component they
 * do not explain, sqrt(max(0, diff_sd^2 - expected^2) / 2), each over the
 * pairs' mean of both run means; then each series' shift per run
 * (noise_spread's run_shift) and, over the runs where both have one (at
 * least 3, else shift_runs 0), their SDs, the SD of their difference and
 * their correlation (NAN when either is flat).
 */
struct noise_matched_probe {
	const char *name;
	size_t pairs;
	double diff_sd, expected, floor;
};

struct noise_matched {
	struct noise_matched_probe *probes;
	size_t n_probes, shift_runs;
	double shift_sd_a, shift_sd_b, shift_diff_sd, shift_corr;
};

/* 0, -EINVAL (k < 2) or -ENOMEM, with one line in err; noise_matched_release() it. */
int noise_matched(const struct result_file *const *a, const struct result_file *const *b, size_t k,
		  struct noise_matched *m, struct err *err);
void noise_matched_release(struct noise_matched *m);

/*
 * A floor's figures over its probes (results/noise_estimate.c): the
 * smallest, the median (stats_median) and the largest between_sd_rel and
 * df, as measured and at guest speed, over the probes that have them (n
 * 0: none).
 */
struct noise_range {
	size_t n;
	double min, median, max;
};

struct noise_ranges {
	struct noise_range rel, df, speed_rel, speed_df;
};

/* 0, or -ENOMEM. */
int noise_ranges(const struct noise_floor *nf, struct noise_ranges *r);

/* Free the arrays noise_estimate() allocated (nothing else). */
void noise_release(struct noise_floor *nf);

/* The probe's floor, or NULL. */
const struct noise_probe *noise_find_probe(const struct noise_floor *nf, const char *name);

/* The whole document (NOISE_SCHEMA); NULL when out of memory. */
json_t *noise_json(const struct noise_floor *nf);

/*
 * Write the document to path ("-": stdout) atomically (results/outfile.h).
 * 0, or -errno with "PATH: reason" in err.
 */
int noise_write(const struct noise_floor *nf, const char *path, struct err *err);

/*
 * Read and validate a noise file; NULL with one line in err naming the file
 * and the problem (as result_read_file). noise_free() it.
 */
struct noise_floor *noise_read_file(const char *path, struct err *err);
struct noise_floor *noise_read_buffer(const char *name, const void *buf, size_t len,
				      struct err *err);
void noise_free(struct noise_floor *nf);

/* The field tables behind the writer and reader (NOISE, its probes, their estimates, omitted). */
extern const struct field_desc noise_fields, noise_probe_fields, noise_est_fields,
	noise_omitted_fields;

#endif
