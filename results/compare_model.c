// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_model.c - the comparison's model (compare_model.h): the names of
 * its enums, whether it regressed, and the compare --json document
 * (docs/compare-report.md; compare_doc.c reads it back), one field table
 * (results/field.h) per object.
 */
#include <errno.h>
#include <string.h>

#include "results/compare_model.h"
#include "results/field.h"
#include "results/result_write.h"
#include "results/schema.h"

const char *const compare_verdict_names[COMPARE_VERDICT_N] = {
	"faster", "slower", "no significant change", "too noisy", "not judged", "not compared",
};

const char *const compare_method_names[COMPARE_METHOD_N] = { "batches", "rounds", "runs" };
const char *const compare_r2r_names[COMPARE_R2R_N] = { "none", "partial", "runs", "floor",
								"lane" };
const char *const compare_normalize_names[COMPARE_NORMALIZE_N] = { "auto", "none", "speed" };
const char *const compare_counter_by_names[COMPARE_COUNTER_BY_N] = { "whole", "zero", "runs",
								     "not judged", "counts" };

int compare_regressed(const struct compare_result *cr)
{
	return cr->regression;
}

#define CP	struct compare_probe
#define CR	struct compare_result
#define MC	struct compare_map_change
#define NF	struct noise_floor
#define CC	struct compare_counter
#define STR(st, m, key)		FIELD_CSTR(st, m, key, 0)
#define STR_NULL(st, m, key)	FIELD_CSTR(st, m, key, FIELD_NULL)	/* NULL: null */
#define NUM_NULL(st, m, key)	FIELD_NUM(st, m, key, FIELD_NULL)	/* < 0: null */
#define SIZE(st, m, key)	FIELD_SIZE(st, m, key, 0, 0)
#define ENUM(st, m, key, names)								\
	FIELD_ENUM(st, m, key, 0, names, (int)ARRAY_SIZE(names))
#define ARRAY(st, m, n, key, sub, et) FIELD_ARRAY(st, m, n, key, 0, sub, et, 0, NULL)
#define PAIR(st, m, key)	FIELD_NUMS_FIXED(st, m[0].mean, key, 0, 2, sizeof(struct path_fig))
/* A table and its field_desc var (written only: no bounds, nothing required). */
#define TABLE(var, name, ...)								\
	static const struct field var##_field[] = { __VA_ARGS__ };			\
	static const struct field_desc var = FIELD_DESC(name, var##_field)

/* Exit-path changes: each figure a pair [base, new] (path_changes_json). */
TABLE(census_desc, "exit_paths.probes[].census[]",
	STR(struct path_census_change, insn, "insn"),
	STR_NULL(struct path_census_change, operand, "operand"),
	PAIR(struct path_census_change, per_op, "per_op"));
TABLE(fn_desc, "exit_paths.probes[].functions[]",
	STR(struct path_fn_change, name, "name"),
	PAIR(struct path_fn_change, insn, "insn_per_op"),
	PAIR(struct path_fn_change, calls, "calls_per_op"));
TABLE(path_probe_desc, "exit_paths.probes[]",
	STR(struct path_probe_change, probe, "probe"),
	PAIR(struct path_probe_change, kernel, "kernel_insn_per_op"),
	ARRAY(struct path_probe_change, fns, n_fns, "functions", &fn_desc, struct path_fn_change),
	FIELD_ARRAY_P(struct path_probe_change, census, n_census, has_census, "census", 0,
		      &census_desc, struct path_census_change, 0));
TABLE(paths_desc, "exit_paths",
	SIZE(struct path_changes, compared, "compared"),
	ARRAY(struct path_changes, probes, n, "probes", &path_probe_desc,
	      struct path_probe_change));

json_t *path_changes_json(const struct path_changes *c)
{
	return fields_write(&paths_desc, c);
}

/* A side's first run: its status, and why it stopped measuring the probe (when the file says). */
TABLE(status_a, "base_status", ENUM(struct run_probe, status, "base_status",
				   probe_status_names));
TABLE(status_b, "new_status", ENUM(struct run_probe, status, "new_status", probe_status_names));
TABLE(stop_a, "base_stop", FIELD_ENUM(struct run_probe, stop, "base_stop", FIELD_OMIT_ZERO,
				      probe_stop_names, PROBE_STOP_N));
TABLE(stop_b, "new_stop", FIELD_ENUM(struct run_probe, stop, "new_stop", FIELD_OMIT_ZERO,
				     probe_stop_names, PROBE_STOP_N));

/* Every per-op counter a side has (the optional run-loop ones only when present). */
struct per_op { double v[RESULT_PER_OP_N]; };
#define PER_OP(name, NAME) FIELD_NUM(struct per_op, v[RESULT_OP_##NAME], #name, FIELD_OMIT_NEG),
TABLE(per_op_desc, "base_per_op, new_per_op",
      RESULT_STATS_COUNTERS(PER_OP) RESULT_USER_COUNTERS(PER_OP));

/* base_median, new_median: the figure named here, not always a median. */
static const char *const figure_names[COMPARE_METHOD_N] = {
	"median of the samples", "mean of the run means", "mean of the run means",
};

TABLE(probe_desc, "probes[]",
	STR(CP, name, "name"), STR(CP, group, "group"),
	ENUM(CP, verdict, "verdict", compare_verdict_names),
	ENUM(CP, method, "figure", figure_names),
	FIELD_NUM(CP, d.median_a, "base_median", 0), FIELD_NUM(CP, d.median_b, "new_median", 0),
	FIELD_NUM(CP, d.diff, "diff_cycles", 0),
	FIELD_NUM(CP, d.lo, "ci95_lo", 0), FIELD_NUM(CP, d.hi, "ci95_hi", 0),
	FIELD_NUM_IF(CP, pct, has_pct, "diff_pct", FIELD_SIGNED),
	FIELD_NUM_IF(CP, pct_lo, has_pct, "ci95_pct_lo", FIELD_SIGNED),
	FIELD_NUM_IF(CP, pct_hi, has_pct, "ci95_pct_hi", FIELD_SIGNED),
	FIELD_INT32(CP, d.iters, "resamples", 0, 0, 0),
	ENUM(CP, method, "method", compare_method_names),
	NUM_NULL(CP, d.df, "df"),
	ENUM(CP, method_a, "base_model", compare_method_names),
	ENUM(CP, method_b, "new_model", compare_method_names),
	ENUM(CP, r2r, "run_to_run", compare_r2r_names),
	FIELD_SET(CP, floor, "noise_floor", 0),
	NUM_NULL(CP, se, "se_cycles"),
	NUM_NULL(CP, floor_sd_rel, "floor_sd_rel"),
	NUM_NULL(CP, floor_df, "floor_df"),
	NUM_NULL(CP, lane_spread_pct, "lane_spread_pct"),
	FIELD_NUM_IF(CP, mde_pct, has_pct, "min_detectable_pct", FIELD_SIGNED),
	FIELD_BOOL(CP, normalized, "normalized", 0),
	FIELD_NUM_IF(CP, speed.beta, normalized, "speed_slope", FIELD_SIGNED),
	NUM_NULL(CP, loop_a, "base_loop_cycles"), NUM_NULL(CP, loop_b, "new_loop_cycles"),
	SIZE(CP, runs_a, "base_runs"), SIZE(CP, runs_b, "new_runs"),
	FIELD_OBJ_PTR(CP, a, "", FIELD_INLINE, &stop_a),
	FIELD_OBJ_PTR(CP, b, "", FIELD_INLINE, &stop_b),
	SIZE(CP, rounds_a, "base_rounds"), SIZE(CP, rounds_b, "new_rounds"),
	FIELD_NUM(CP, per_op_a[RESULT_OP_EXITS], "base_exits_per_op", 0),
	FIELD_NUM(CP, per_op_b[RESULT_OP_EXITS], "new_exits_per_op", 0),
	FIELD_OBJ(CP, per_op_a, "base_per_op", 0, &per_op_desc),
	FIELD_OBJ(CP, per_op_b, "new_per_op", 0, &per_op_desc));

/* A probe that did not run on a side, or whose figures cannot be compared (why). */
TABLE(not_run_desc, "probes[] not compared",
	STR(CP, name, "name"), STR(CP, group, "group"),
	ENUM(CP, verdict, "verdict", compare_verdict_names),
	FIELD_OBJ_PTR(CP, a, "", FIELD_INLINE, &status_a),
	FIELD_OBJ_PTR(CP, b, "", FIELD_INLINE, &status_b),
	STR_NULL(CP, why, "reason"));

static const struct field_desc *probe_pick(const void *p)
{
	return ((const CP *)p)->verdict == COMPARE_NOT_RUN ? &not_run_desc : &probe_desc;
}
static const struct field_desc probes_desc = { .name = "probes", .pick = probe_pick };

/* A counter change or a difference not judged (its interval NAN: null). */
TABLE(counter_desc, "counter_changes[], counters_not_judged[]",
	STR(CC, probe, "probe"), STR(CC, counter, "counter"),
	FIELD_NUM(CC, a, "base", 0), FIELD_NUM(CC, b, "new", 0),
	STR_NULL(CC, note, "note"),
	ENUM(CC, by, "by", compare_counter_by_names),
	SIZE(CC, runs_a, "base_runs"), SIZE(CC, runs_b, "new_runs"),
	FIELD_NUM(CC, lo, "ci95_lo", FIELD_NULL | FIELD_SIGNED),
	FIELD_NUM(CC, hi, "ci95_hi", FIELD_NULL | FIELD_SIGNED));

/* A map entry whose status changed, or a whole profile absent on a side (reg NULL). */
static const char *const side_names[2] = { "new", "base" };
TABLE(map_profile_desc, "map_changes[] whole profile",
	STR(MC, profile, "profile"),
	FIELD_SET_OF(MC, a, "only_in", 0, side_names));
TABLE(map_entry_desc, "map_changes[]",
	STR(MC, profile, "profile"),
	STR(MC, reg, "reg"),
	FIELD_INT(MC, bit, "bit", 0, 0, 0),
	STR(MC, name, "name"),
	STR(MC, op, "op"),
	STR_NULL(MC, a, "base"), STR_NULL(MC, b, "new"),
	NUM_NULL(MC, a_exits, "base_exits_per_op"), NUM_NULL(MC, b_exits, "new_exits_per_op"),
	NUM_NULL(MC, a_cycles, "base_cycles_per_op"), NUM_NULL(MC, b_cycles, "new_cycles_per_op"));

static const struct field_desc *map_pick(const void *p)
{
	return ((const MC *)p)->reg ? &map_entry_desc : &map_profile_desc;
}
static const struct field_desc map_desc = { .name = "map_changes", .pick = map_pick };

TABLE(check_desc, "check_changes[]",
	STR(struct compare_check_change, suite, "suite"),
	STR(struct compare_check_change, name, "name"),
	STR_NULL(struct compare_check_change, a, "base"),
	STR_NULL(struct compare_check_change, b, "new"));
TABLE(host_desc, "host_differences[]",
	STR(struct compare_host_diff, field, "field"),
	STR(struct compare_host_diff, a, "base"), STR(struct compare_host_diff, b, "new"));

/* The floor that went into the intervals (the comparison adds probes_used). */
TABLE(noise_desc, "noise",
	STR_NULL(NF, name, "file"),
	FIELD_INT(NF, runs, "runs", 0, 0, 0),
	STR(NF, tool_version, "tool_version"),
	STR_NULL(NF, created, "created"),
	STR_NULL(NF, first_started, "first_started"),
	STR_NULL(NF, last_finished, "last_finished"),
	STR(NF, host.kernel, "kernel"),
	STR(NF, host.cpu_name, "cpu"),
	STR(NF, host.backend_module, "backend"),
	ENUM(NF, host.exec_mode, "execution_mode", exec_mode_names),
	{ "lane", FIELD_T_ENUM, FIELD_OFF(NF, host.lane.name, int), FIELD_PRESENT | FIELD_NULL,
	  .names = host_lane_names, .n_names = HOST_LANE_N,
	  .off_present = FIELD_OFF(NF, host.lane.present, bool) });

/* The floor's fields (this exitscope's version when it has none), then probes_used; or null. */
static json_t *noise_ref_write(const void *p, bool *omit)
{
	const CR *cr = p;
	struct noise_floor nf;
	json_t *o;

	(void)omit;
	if (!cr->noise)
		return json_null();
	nf = *cr->noise;
	if (!nf.tool_version)
		nf.tool_version = EXITSCOPE_VERSION;
	o = fields_write(&noise_desc, &nf);
	if (o && json_object_set_new(o, "probes_used", json_integer((json_int_t)cr->n_floor))) {
		json_decref(o);
		return NULL;
	}
	return o;
}
static const struct field_custom noise_custom = { .write = noise_ref_write };

TABLE(summary_desc, "summary",
	SIZE(CR, n_faster, "faster"), SIZE(CR, n_slower, "slower"), SIZE(CR, n_same, "same"),
	SIZE(CR, n_too_noisy, "too_noisy"), SIZE(CR, n_not_run, "not_compared"),
	SIZE(CR, n_not_judged, "not_judged"));

static const char *const used_names[2] = { "none", "speed" };
TABLE(normalize_desc, "normalize",
	ENUM(CR, opts.normalize, "asked", compare_normalize_names),
	ENUM(CR, normalized, "used", used_names),
	STR(CR, normalize_why, "why"));

/* The guest speed between the sides: the harness loop as a probe, over speed_probes. */
TABLE(speed_desc, "guest_speed",
	SIZE(CR, speed_probes, "probes"),
	FIELD_NUM(CR, speed.pct, "diff_pct", FIELD_SIGNED),
	FIELD_NUM(CR, speed.pct_lo, "ci95_pct_lo", FIELD_SIGNED),
	FIELD_NUM(CR, speed.pct_hi, "ci95_pct_hi", FIELD_SIGNED),
	FIELD_NUM(CR, speed.mde_pct, "min_detectable_pct", 0),
	ENUM(CR, speed.verdict, "verdict", compare_verdict_names),
	ENUM(CR, speed.method, "method", compare_method_names),
	ENUM(CR, speed.method_a, "base_model", compare_method_names),
	ENUM(CR, speed.method_b, "new_model", compare_method_names),
	NUM_NULL(CR, speed.d.df, "df"),
	ENUM(CR, speed.r2r, "run_to_run", compare_r2r_names),
	SIZE(CR, speed.runs_a, "base_runs"), SIZE(CR, speed.runs_b, "new_runs"));

TABLE(doc_desc, "document",
	FIELD_CONST_STR("schema", COMPARE_SCHEMA),
	FIELD_CONST_INT("schema_version", COMPARE_SCHEMA_VERSION),
	STR(CR, name_a, "base"), STR(CR, name_b, "new"),
	FIELD_NUM(CR, opts.threshold_pct, "threshold_pct", 0),
	FIELD_INT(CR, opts.seed, "seed", 0, 0, 0),
	ARRAY(CR, host, n_host, "host_differences", &host_desc, struct compare_host_diff),
	FIELD_STRINGS(CR, warnings, n_warnings, "warnings", 0, 0),
	ARRAY(CR, probes, n_probes, "probes", &probes_desc, CP),
	ARRAY(CR, counters, n_counters, "counter_changes", &counter_desc, struct compare_counter),
	FIELD_FLAG(CR, map_compared, "map_compared", 0),
	ARRAY(CR, map, n_map, "map_changes", &map_desc, MC),
	FIELD_FLAG(CR, checks_compared, "checks_compared", 0),
	ARRAY(CR, checks, n_checks, "check_changes", &check_desc, struct compare_check_change),
	FIELD_STRINGS(CR, only_a, n_only_a, "only_in_base", 0, 0),
	FIELD_STRINGS(CR, only_b, n_only_b, "only_in_new", 0, 0),
	FIELD_OBJ_FLAT("summary", 0, &summary_desc),
	FIELD_BOOL(CR, regression, "regression", 0),
	FIELD_STRINGS(CR, files_a, n_files_a, "base_files", 0, 0),
	FIELD_STRINGS(CR, files_b, n_files_b, "new_files", 0, 0),
	STR_NULL(CR, method_note, "method_note"),
	FIELD_CUSTOM("noise", 0, &noise_custom),
	STR_NULL(CR, r2r_note, "run_to_run_note"),
	FIELD_OBJ_FLAT("normalize", 0, &normalize_desc),
	{ "guest_speed", FIELD_T_OBJECT, 0, FIELD_PRESENT | FIELD_NULL, .sub = &speed_desc,
	  .off_present = FIELD_OFF(CR, has_speed, bool) },
	ARRAY(CR, unjudged, n_unjudged, "counters_not_judged", &counter_desc,
	      struct compare_counter),
	FIELD_OBJ_P(CR, paths, has_paths, "exit_paths", 0, &paths_desc));

const struct field_desc *const compare_json_tables[] = {
	&doc_desc, &host_desc, &probe_desc, &not_run_desc, &per_op_desc, &counter_desc,
	&map_entry_desc, &map_profile_desc, &check_desc, &summary_desc, &noise_desc,
	&normalize_desc, &speed_desc, &paths_desc, &path_probe_desc, &fn_desc, &census_desc, NULL,
};

json_t *compare_result_json(const struct compare_result *cr)
{
	return fields_write(&doc_desc, cr);
}

int compare_result_write(const struct compare_result *cr, const char *path,
			 void (*opened)(const struct outfile *o), struct err *err)
{
	json_t *doc = compare_result_json(cr);
	int r;

	if (!doc)
		return err_set(err, -ENOMEM, "%s: out of memory", path);
	r = result_write_as_is_hooked(doc, path, opened, err);
	json_decref(doc);
	return r;
}
