// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare_out.c - the one-line descriptions of an A/B comparison shared by
 * the text and HTML output, and the comparison as a JSON document (the
 * terminal text is compare_text.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/lane_spread.h"

const char *compare_counter_line(const struct compare_counter *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s: %.2f -> %.2f %s/op%s%s%s", c->probe, c->a, c->b, c->counter,
		 c->note ? " (" : "", c->note ? c->note : "", c->note ? ")" : "");
	return buf;
}

const char *compare_map_line(const struct compare_result *cr, const struct compare_map_change *m,
			     char *buf, size_t len)
{
	if (!m->reg)
		snprintf(buf, len, "profile %s: only in %s", m->profile,
			 m->a ? cr->name_a : cr->name_b);
	else
		snprintf(buf, len, "%s: %s bit %lld (%s) %s: %s -> %s", m->profile, m->reg, m->bit,
			 m->name, m->op, m->a ? m->a : "(absent)", m->b ? m->b : "(absent)");
	return buf;
}

const char *compare_check_line(const struct compare_check_change *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s: %s -> %s", c->suite, c->name, c->a ? c->a : "(absent)",
		 c->b ? c->b : "(absent)");
	return buf;
}

const char *compare_normalize_line(const struct compare_result *cr, char *buf, size_t len)
{
	if (cr->normalized && !cr->n_normalized)
		snprintf(buf, len, "figures: net cycles/op as measured: no probe had rounds with loops "
			 "to put at equal guest speed (%s)", cr->normalize_why);
	else if (cr->normalized)
		snprintf(buf, len, "figures: net cycles/op at the base side's guest speed: each round's "
			 "net cost less the probe's slope on its harness loop (within runs, both sides) "
			 "x how far the loop timed beside it was from the base side's mean (%s)",
			 cr->normalize_why);
	else
		snprintf(buf, len, "figures: net cycles/op as measured (%s)", cr->normalize_why);
	return buf;
}

const char *compare_speed_line(const struct compare_result *cr, char *buf, size_t len)
{
	const struct compare_probe *s = &cr->speed;
	const char *v = s->verdict == COMPARE_FASTER ? "faster" :
			s->verdict == COMPARE_SLOWER ? "slower" :
			s->verdict == COMPARE_TOO_NOISY ? "too noisy to tell" :
			s->verdict == COMPARE_UNJUDGED ? "not judged" : "no significant change";

	if (!cr->has_speed || !s->has_pct)
		return NULL;
	snprintf(buf, len, "guest speed (the harness loop beside %zu probe%s, cycles per op, new vs "
		 "base): %+.2f%% [%+.2f%%, %+.2f%%] by %s%s: %s%s", cr->speed_probes,
		 cr->speed_probes == 1 ? "" : "s", s->pct, s->pct_lo, s->pct_hi,
		 compare_method_names[s->method],
		 s->r2r == COMPARE_R2R_NONE || s->r2r == COMPARE_R2R_PARTIAL ?
		 " (one run on a side: from its rounds alone)" : "", v,
		 s->verdict == COMPARE_FASTER || s->verdict == COMPARE_SLOWER ?
		 (cr->normalized ? " (taken out of the probes' figures)" :
		  " (in the probes' figures)") : "");
	return buf;
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
		json_object_set_new(o, "base_status", json_string(probe_status_names[p->a->status]));
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
						  json_real(LANE_SPREAD_1VCPU_PCT) : json_null());
	json_object_set_new(o, "min_detectable_pct", p->has_pct ? json_real(p->mde_pct) : json_null());
	json_object_set_new(o, "normalized", json_boolean(p->normalized));
	json_object_set_new(o, "speed_slope", p->normalized ? json_real(p->speed.beta) : json_null());
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

json_t *compare_to_json(const struct compare_result *cr)
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
							"name", c->name, "base", c->a, "new", c->b));
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
			"summary", "faster", (json_int_t)cr->n_faster, "slower", (json_int_t)cr->n_slower,
			"same", (json_int_t)cr->n_same, "too_noisy", (json_int_t)cr->n_too_noisy,
			"not_compared", (json_int_t)cr->n_not_run,
			"regression", compare_regressed(cr), "base_files", fa, "new_files", fb,
			"method_note", cr->method_note);
	if (doc) {
		json_object_set_new(doc, "noise", noise_json_ref(cr));
		json_object_set_new(json_object_get(doc, "summary"), "not_judged",
				    json_integer((json_int_t)cr->n_not_judged));
		json_object_set_new(doc, "run_to_run_note", cr->r2r_note ? json_string(cr->r2r_note) :
							      json_null());
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
