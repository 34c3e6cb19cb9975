// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_model.c - the comparison's model (compare_model.h): the names of
 * its enums, whether it regressed, and the compare --json document
 * (docs/compare-report.md; compare_doc.c reads it back).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "results/compare_model.h"
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

static json_t *pair(const struct path_fig *f)
{
	return json_pack("[f, f]", f[0].mean, f[1].mean);
}

json_t *path_changes_json(const struct path_changes *c)
{
	json_t *o = json_object(), *probes = json_array();

	if (!o || !probes) {
		json_decref(o);
		json_decref(probes);
		return NULL;
	}
	json_object_set_new(o, "compared", json_integer((json_int_t)c->compared));
	for (size_t i = 0; i < c->n; i++) {
		const struct path_probe_change *p = &c->probes[i];
		json_t *po = json_object(), *fns = json_array();

		json_object_set_new(po, "probe", json_string(p->probe));
		json_object_set_new(po, "kernel_insn_per_op", pair(p->kernel));
		for (size_t j = 0; j < p->n_fns; j++)
			json_array_append_new(fns,
				json_pack("{s:s, s:o, s:o}", "name", p->fns[j].name,
					  "insn_per_op", pair(p->fns[j].insn),
					  "calls_per_op", pair(p->fns[j].calls)));
		json_object_set_new(po, "functions", fns);
		if (p->has_census) {
			json_t *cs = json_array();

			for (size_t j = 0; j < p->n_census; j++) {
				const struct path_census_change *r = &p->census[j];

				json_array_append_new(cs, json_pack("{s:s, s:s?, s:o}",
								    "insn", r->insn,
								    "operand", r->operand,
								    "per_op", pair(r->per_op)));
			}
			json_object_set_new(po, "census", cs);
		}
		json_array_append_new(probes, po);
	}
	json_object_set_new(o, "probes", probes);
	return o;
}

/* A measured per-op figure, or null (not measured). */
static json_t *opt_real(double v)
{
	return v < 0 ? json_null() : json_real(v);
}

/* Every per-op counter a side has (the optional run-loop ones only when present). */
static json_t *per_op_json(const double *per_op)
{
	json_t *o = json_object();
	int i;

	for (i = 0; o && i < RESULT_PER_OP_N; i++)
		if (per_op[i] >= 0)
			json_object_set_new(o, result_per_op_names[i], json_real(per_op[i]));
	return o;
}

/* A counter change or a difference not judged. */
static json_t *counter_json(const struct compare_counter *c)
{
	int ci = c->by != COMPARE_COUNTER_NOT_JUDGED;

	return json_pack("{s:s, s:s, s:f, s:f, s:s?, s:s, s:I, s:I, s:o, s:o}", "probe", c->probe,
			 "counter", c->counter, "base", c->a, "new", c->b, "note", c->note,
			 "by", compare_counter_by_names[c->by], "base_runs", (json_int_t)c->runs_a,
			 "new_runs", (json_int_t)c->runs_b,
			 "ci95_lo", ci ? json_real(c->lo) : json_null(),
			 "ci95_hi", ci ? json_real(c->hi) : json_null());
}

static json_t *probe_json(const struct compare_probe *p)
{
	json_t *o = json_pack("{s:s, s:s, s:s}", "name", p->name, "group", p->group,
			      "verdict", compare_verdict_names[p->verdict]);

	if (!o)
		return NULL;
	if (p->verdict == COMPARE_NOT_RUN) {
		json_object_set_new(o, "base_status",
				    json_string(probe_status_names[p->a->status]));
		json_object_set_new(o, "new_status", json_string(probe_status_names[p->b->status]));
		json_object_set_new(o, "reason", p->why ? json_string(p->why) : json_null());
		return o;
	}
	/* base_median, new_median: the figure named here, not always a median. */
	json_object_set_new(o, "figure", json_string(p->method == COMPARE_METHOD_BATCHES ?
						     "median of the samples" :
						     "mean of the run means"));
	json_object_set_new(o, "base_median", json_real(p->d.median_a));
	json_object_set_new(o, "new_median", json_real(p->d.median_b));
	json_object_set_new(o, "diff_cycles", json_real(p->d.diff));
	json_object_set_new(o, "ci95_lo", json_real(p->d.lo));
	json_object_set_new(o, "ci95_hi", json_real(p->d.hi));
	json_object_set_new(o, "diff_pct", p->has_pct ? json_real(p->pct) : json_null());
	json_object_set_new(o, "ci95_pct_lo", p->has_pct ? json_real(p->pct_lo) : json_null());
	json_object_set_new(o, "ci95_pct_hi", p->has_pct ? json_real(p->pct_hi) : json_null());
	json_object_set_new(o, "resamples", json_integer(p->d.iters));
	json_object_set_new(o, "method", json_string(compare_method_names[p->method]));
	json_object_set_new(o, "df", p->method != COMPARE_METHOD_BATCHES && isfinite(p->d.df) ?
				     json_real(p->d.df) : json_null());
	json_object_set_new(o, "base_model", json_string(compare_method_names[p->method_a]));
	json_object_set_new(o, "new_model", json_string(compare_method_names[p->method_b]));
	json_object_set_new(o, "run_to_run", json_string(compare_r2r_names[p->r2r]));
	json_object_set_new(o, "noise_floor", json_boolean(p->floor != NULL));
	json_object_set_new(o, "se_cycles", p->method != COMPARE_METHOD_BATCHES ? json_real(p->se) :
					    json_null());
	json_object_set_new(o, "floor_sd_rel", p->floor && p->floor_sd_rel >= 0 ?
					       json_real(p->floor_sd_rel) : json_null());
	json_object_set_new(o, "floor_df", p->floor ? json_real(p->floor->df) : json_null());
	json_object_set_new(o, "lane_spread_pct", p->r2r == COMPARE_R2R_LANE ?
						  json_real(p->lane_spread_pct) : json_null());
	json_object_set_new(o, "min_detectable_pct",
			    p->has_pct ? json_real(p->mde_pct) : json_null());
	json_object_set_new(o, "normalized", json_boolean(p->normalized));
	json_object_set_new(o, "speed_slope",
			    p->normalized ? json_real(p->speed.beta) : json_null());
	json_object_set_new(o, "base_loop_cycles", opt_real(p->loop_a));
	json_object_set_new(o, "new_loop_cycles", opt_real(p->loop_b));
	json_object_set_new(o, "base_runs", json_integer((json_int_t)p->runs_a));
	json_object_set_new(o, "new_runs", json_integer((json_int_t)p->runs_b));
	/* Why each side's (first) run stopped measuring it, when the file says. */
	if (p->a->stop != PROBE_STOP_NONE)
		json_object_set_new(o, "base_stop", json_string(probe_stop_names[p->a->stop]));
	if (p->b->stop != PROBE_STOP_NONE)
		json_object_set_new(o, "new_stop", json_string(probe_stop_names[p->b->stop]));
	json_object_set_new(o, "base_rounds", json_integer((json_int_t)p->rounds_a));
	json_object_set_new(o, "new_rounds", json_integer((json_int_t)p->rounds_b));
	json_object_set_new(o, "base_exits_per_op", json_real(p->per_op_a[RESULT_OP_EXITS]));
	json_object_set_new(o, "new_exits_per_op", json_real(p->per_op_b[RESULT_OP_EXITS]));
	json_object_set_new(o, "base_per_op", per_op_json(p->per_op_a));
	json_object_set_new(o, "new_per_op", per_op_json(p->per_op_b));
	return o;
}

/* The floor that went into the intervals, or null. */
static json_t *noise_json_ref(const struct compare_result *cr)
{
	const struct noise_floor *nf = cr->noise;

	if (!nf)
		return json_null();
	return json_pack("{s:s?, s:I, s:s, s:s?, s:s?, s:s?, s:s, s:s, s:s, s:s, s:s?, s:I}",
			 "file", nf->name, "runs", (json_int_t)nf->runs, "tool_version",
			 nf->tool_version ? nf->tool_version : EXITSCOPE_VERSION,
			 "created", nf->created, "first_started", nf->first_started,
			 "last_finished", nf->last_finished, "kernel", nf->host.kernel,
			 "cpu", nf->host.cpu_name, "backend", nf->host.backend_module,
			 "execution_mode", exec_mode_name(nf->host.exec_mode),
			 "lane", nf->host.lane.present ? host_lane_names[nf->host.lane.name] : NULL,
			 "probes_used", (json_int_t)cr->n_floor);
}

/* The guest speed between the sides, or null. */
static json_t *speed_json(const struct compare_result *cr)
{
	const struct compare_probe *s = &cr->speed;

	if (!cr->has_speed || !s->has_pct)
		return json_null();
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:s, s:s, s:s, s:s, s:o, s:s, s:I, s:I}",
			 "probes", (json_int_t)cr->speed_probes, "diff_pct", s->pct,
			 "ci95_pct_lo", s->pct_lo, "ci95_pct_hi", s->pct_hi,
			 "min_detectable_pct", s->mde_pct,
			 "verdict", compare_verdict_names[s->verdict],
			 "method", compare_method_names[s->method],
			 "base_model", compare_method_names[s->method_a],
			 "new_model", compare_method_names[s->method_b],
			 "df", isfinite(s->d.df) ? json_real(s->d.df) : json_null(),
			 "run_to_run", compare_r2r_names[s->r2r],
			 "base_runs", (json_int_t)s->runs_a, "new_runs", (json_int_t)s->runs_b);
}

json_t *compare_result_json(const struct compare_result *cr)
{
	json_t *doc, *host, *warn, *probes, *counters, *map, *checks, *oa, *ob, *fa, *fb;
	size_t i;

	host = json_array();
	warn = json_array();
	probes = json_array();
	counters = json_array();
	map = json_array();
	checks = json_array();
	oa = json_array();
	ob = json_array();
	for (i = 0; i < cr->n_host; i++)
		json_array_append_new(host, json_pack("{s:s, s:s, s:s}", "field", cr->host[i].field,
						      "base", cr->host[i].a, "new", cr->host[i].b));
	for (i = 0; i < cr->n_warnings; i++)
		json_array_append_new(warn, json_string(cr->warnings[i]));
	for (i = 0; i < cr->n_probes; i++)
		json_array_append_new(probes, probe_json(&cr->probes[i]));
	for (i = 0; i < cr->n_counters; i++)
		json_array_append_new(counters, counter_json(&cr->counters[i]));
	for (i = 0; i < cr->n_map; i++) {
		const struct compare_map_change *m = &cr->map[i];

		if (!m->reg)
			json_array_append_new(map, json_pack("{s:s, s:s}", "profile", m->profile,
							     "only_in", m->a ? "base" : "new"));
		else
			json_array_append_new(map, json_pack("{s:s, s:s, s:I, s:s, s:s, s:s?, s:s?,"
							     " s:o, s:o, s:o, s:o}",
				"profile", m->profile, "reg", m->reg, "bit", (json_int_t)m->bit,
				"name", m->name, "op", m->op, "base", m->a, "new", m->b,
				"base_exits_per_op", opt_real(m->a_exits),
				"new_exits_per_op", opt_real(m->b_exits),
				"base_cycles_per_op", opt_real(m->a_cycles),
				"new_cycles_per_op", opt_real(m->b_cycles)));
	}
	for (i = 0; i < cr->n_checks; i++) {
		const struct compare_check_change *c = &cr->checks[i];

		json_array_append_new(checks, json_pack("{s:s, s:s, s:s?, s:s?}", "suite", c->suite,
							"name", c->name, "base", c->a,
							"new", c->b));
	}
	for (i = 0; i < cr->n_only_a; i++)
		json_array_append_new(oa, json_string(cr->only_a[i]));
	for (i = 0; i < cr->n_only_b; i++)
		json_array_append_new(ob, json_string(cr->only_b[i]));
	fa = json_array();
	fb = json_array();
	for (i = 0; i < cr->n_files_a; i++)
		json_array_append_new(fa, json_string(cr->files_a[i]));
	for (i = 0; i < cr->n_files_b; i++)
		json_array_append_new(fb, json_string(cr->files_b[i]));
	doc = json_pack("{s:s, s:i, s:s, s:s, s:f, s:I, s:o, s:o, s:o, s:o, s:b, s:o, s:b, s:o,"
			" s:o, s:o, s:{s:I, s:I, s:I, s:I, s:I}, s:b, s:o, s:o, s:s?}",
			"schema", COMPARE_SCHEMA, "schema_version", COMPARE_SCHEMA_VERSION,
			"base", cr->name_a, "new", cr->name_b,
			"threshold_pct", cr->opts.threshold_pct, "seed", (json_int_t)cr->opts.seed,
			"host_differences", host, "warnings", warn, "probes", probes,
			"counter_changes", counters, "map_compared", cr->map_compared,
			"map_changes", map, "checks_compared", cr->checks_compared,
			"check_changes", checks, "only_in_base", oa, "only_in_new", ob,
			"summary", "faster", (json_int_t)cr->n_faster,
			"slower", (json_int_t)cr->n_slower, "same", (json_int_t)cr->n_same,
			"too_noisy", (json_int_t)cr->n_too_noisy,
			"not_compared", (json_int_t)cr->n_not_run,
			"regression", compare_regressed(cr), "base_files", fa, "new_files", fb,
			"method_note", cr->method_note);
	if (doc) {
		json_object_set_new(doc, "noise", noise_json_ref(cr));
		json_object_set_new(json_object_get(doc, "summary"), "not_judged",
				    json_integer((json_int_t)cr->n_not_judged));
		json_object_set_new(doc, "run_to_run_note",
				    cr->r2r_note ? json_string(cr->r2r_note) : json_null());
		json_object_set_new(doc, "normalize", json_pack("{s:s, s:s, s:s}",
			"asked", compare_normalize_names[cr->opts.normalize],
			"used", cr->normalized ? "speed" : "none", "why", cr->normalize_why));
		json_object_set_new(doc, "guest_speed", speed_json(cr));
		json_object_set_new(doc, "counters_not_judged", json_array());
		for (i = 0; i < cr->n_unjudged; i++)
			json_array_append_new(json_object_get(doc, "counters_not_judged"),
					      counter_json(&cr->unjudged[i]));
		if (cr->paths.compared)
			json_object_set_new(doc, "exit_paths", path_changes_json(&cr->paths));
	}
	return doc;
}

int compare_result_write(const struct compare_result *cr, const char *path,
			 void (*opened)(const struct outfile *o), struct err *err)
{
	json_t *doc = compare_result_json(cr);
	struct outfile o;
	int r;

	if (!doc)
		return err_set(err, -ENOMEM, "%s: out of memory", path);
	r = outfile_open(&o, path, err);
	if (!r && opened)
		opened(&o);
	if (!r && (json_dumpf(doc, o.f, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) ||
		   fputc('\n', o.f) == EOF)) {
		int e = o.err ? o.err : ENOMEM;

		outfile_abort(&o);
		r = err_set(err, -e, "%s: %s", path, strerror(e));
	} else if (!r) {
		r = outfile_commit(&o, err);
	}
	if (opened)
		opened(NULL);
	json_decref(doc);
	return r;
}
