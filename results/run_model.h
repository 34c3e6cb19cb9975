/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_model.h - the probe model of run files ("probes" in docs/results-schema.md,
 * PROBE): probes/ fills it from a measured outcome, run_probe_json()
 * writes it, result_read() fills it back from a file by its table.
 */
#ifndef EXITSCOPE_RESULTS_RUN_MODEL_H
#define EXITSCOPE_RESULTS_RUN_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "results/field.h"
#include "results/jcheck.h"
#include "results/schema.h"
#include "results/exit_path.h"
#include "results/trace_model.h"

struct result_cycles {
	double min, median, p90, p99, mean, stddev, cv, ci95_lo, ci95_hi;
};

/*
 * One round of a probe (method v2): pairs of (baseline batch, probe batch)
 * measured back to back in one guest run. samples[i] is the net cycles/op of
 * pair i (probe batch - baseline batch), not clamped: finite, may be < 0.
 */
struct run_round {
	long long batch;			/* ops per batch, > 0 */
	const double *samples;			/* n_samples >= 1 */
	size_t n_samples;
	double median;				/* of samples (may be < 0) */
	double baseline_median, raw_median;	/* cycles/op of the baseline / probe batches, >= 0 */
};

/*
 * Where the interrupts of an interrupt probe's ops were taken ("delivery"):
 * in the op's window, late (after it, within late_limit_ms, before the next
 * op), or never (not by the end of the op's late phase). The three add up
 * to ops. late_in_cost: the probe's cycles include its ops' late phases
 * (files of schema version 1, where "late_in_cost" is absent), or not.
 */
struct run_delivery {
	bool present;
	long long ops, in_window, late, never;
	double late_limit_ms;			/* the late phase's bound */
	double late_wait_cycles;		/* optional: mean TSC cycles to a late one; -1 absent */
	int late_in_cost;
};

/*
 * Strings and arrays are borrowed: from the producer's outcome, or (read
 * back) strings from the parsed document and arrays allocated by the reader
 * (run_probes_free); the trace is the model's own (result_trace_free). Optional strings and arrays are NULL when absent;
 * optional numbers and integers are -1 when absent (present values are
 * >= 0, so the sentinel is unambiguous).
 */
struct run_probe {
	const char *name, *group;
	const char *description;		/* optional */
	enum probe_status status;
	const char *reason;			/* required unless status is ok */
	/* Optional whatever the status (a probe that failed has them too). */
	double peer_wait_ms;			/* two-vCPU probes: vCPU 0's longest wait for vCPU 1 */
	struct run_delivery delivery;		/* interrupt probes */
	/* The rest only when status is ok (zero or absent otherwise). */
	long long batch;			/* ops per sample, > 0 */
	const double *samples;			/* cycles/op, finite, >= 0 */
	size_t n_samples;			/* >= 1 */
	struct result_cycles cycles;		/* of samples */
	double ns_median, overhead_cycles;	/* optional */
	double raw_median_cycles;		/* optional: median before the baseline was subtracted */
	long long ops;				/* optional: operations measured in total */
	/* Per op over the measured region; the run-loop counters
	 * (RESULT_OP_FIRST_USER on) are optional. */
	double per_op[RESULT_PER_OP_N];
	const char *per_op_source, *per_op_user_source;	/* optional: where they come from */
	struct result_trace trace;		/* optional: exits/op by exit reason (owned) */
	struct exit_path exit_path;		/* optional: the lanes' exit-path profile (owned) */
	long long cpu;				/* optional: host CPU of the vCPU thread */
	/* Method v2 (all optional, absent in v1 files and old recordings). */
	const struct run_round *rounds;		/* NULL/0 when absent */
	size_t n_rounds;
	enum probe_stop stop;			/* PROBE_STOP_NONE when absent */
	double ci_rel_pct;			/* 95% CI half-width, % of the median; -1 absent */
	long long cpus[2];			/* host CPUs of vCPU 0 and 1; -1 absent */
	const char **notes;			/* optional */
	size_t n_notes;
};

/*
 * The tables of the probe model (results/field.h), in writing order: what
 * every probe has, then a measured one's (status "ok"; run_measurement_fields)
 * with its cycles, per_op and rounds, and the delivery.
 */
extern const struct field_desc run_probe_fields, run_measurement_fields, result_cycles_fields;
extern const struct field_desc run_per_op_fields, run_round_fields, run_delivery_fields;

/* Every optional field absent, the rest zero or NULL. */
void run_probe_init(struct run_probe *p);

/* One PROBE object (NULL when out of memory). */
json_t *run_probe_json(const struct run_probe *p);
/* The "probes" array of n probes. */
json_t *run_probes_json(const struct run_probe *p, size_t n);

/*
 * A probe, whole: what every probe has, then the measurement or the reason
 * by its status (an element of a result file's "probes", its names unique).
 */
extern const struct field_desc run_probe_entry_fields;

/* Free an array the reader allocated, with the arrays of its probes. */
void run_probes_free(struct run_probe *p, size_t n);

#define RUN_SETTINGS_CPUS 2

/* How the run measured ("settings"); absent members are -1. */
struct run_settings {
	bool present;				/* the file has "settings" */
	long long samples;			/* samples per probe */
	double time_budget_s;			/* per probe */
	long long cpu;				/* host CPU the vCPU thread was pinned to */
	double overhead_cycles;			/* nop baseline subtracted */
	int trace;				/* --trace asked for: 1/0 */
	long long guest_xcr0;			/* --guest-xcr0 MASK */
	int method;				/* enum run_method, -1 absent */
	long long rounds;			/* --rounds */
	double precision_pct;			/* --precision */
	double precision_floor_cycles;		/* --precision-floor */
	double run_limit_s;			/* --run-limit */
	long long cpus[RUN_SETTINGS_CPUS];	/* --cpu A[,B]; n_cpus of them */
	size_t n_cpus;				/* 0 when absent */
};

/* Every member absent (-1), present 0. */
void run_settings_init(struct run_settings *s);

/*
 * The settings that say how a run measured, for telling whether two runs
 * (two sides of a comparison, the runs of a noise floor and the runs it is
 * applied to) measured alike. Their names are the JSON keys ("cpus": the
 * pinned CPUs).
 */
enum run_setting {
	RUN_SETTING_METHOD, RUN_SETTING_ROUNDS, RUN_SETTING_TIME_BUDGET, RUN_SETTING_PRECISION,
	RUN_SETTING_PRECISION_FLOOR, RUN_SETTING_RUN_LIMIT, RUN_SETTING_SAMPLES,
	RUN_SETTING_GUEST_XCR0, RUN_SETTING_CPUS, RUN_SETTING_N
};
extern const char *const run_setting_names[RUN_SETTING_N];

/* Setting i of s as text ("v2", "8", "0.2", "0x3", "2,3"), "(unset)" when absent; returns buf. */
const char *run_setting_text(const struct run_settings *s, enum run_setting i, char *buf, size_t len);
/* The settings' fields, in writing order (results/field.h). */
extern const struct field_desc run_settings_fields;
json_t *run_settings_json(const struct run_settings *s);

#endif
