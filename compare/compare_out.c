/* compare_out.c - print an A/B comparison as text or as a JSON document. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare/compare.h"

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
			s->verdict == COMPARE_TOO_NOISY ? "too noisy to tell" : "no significant change";

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

static const char *status_text(const struct run_probe *p, char *buf, size_t len)
{
	if (p->status == PROBE_OK)
		snprintf(buf, len, "ok");
	else
		snprintf(buf, len, "%s (%s)", probe_status_names[p->status], p->reason);
	return buf;
}

static void print_host(FILE *f, const struct compare_result *cr)
{
	size_t i;

	if (cr->n_host == 0) {
		fprintf(f, "host: same kernel, backend, CPU, TSC frequency and execution mode\n");
	} else {
		fprintf(f, "host differences (%s -> %s):\n", cr->name_a, cr->name_b);
		for (i = 0; i < cr->n_host; i++)
			fprintf(f, "  %s: %s -> %s\n", cr->host[i].field, cr->host[i].a, cr->host[i].b);
	}
	for (i = 0; i < cr->n_warnings; i++)
		fprintf(f, "%s%s\n", strncmp(cr->warnings[i], "WARNING", 7) ? "" : "!!! ",
			cr->warnings[i]);
}

/* How the intervals were drawn, for the table's header (buf: room for the resamples). */
static const char *method_text(const struct compare_result *cr, char *buf, size_t len)
{
	unsigned iters = stats_bootstrap_iters(0, 0, cr->opts.iters);
	unsigned long long seed = (unsigned long long)cr->opts.seed;

	if (!cr->n_by_batches)
		return "Welch t, by each probe's model; base, new: means of the run means (a run's: "
		       "the mean of its round medians)";
	if (!cr->n_by_rounds)
		snprintf(buf, len, "bootstrap over the samples, %u resamples, seed %llu", iters, seed);
	else
		snprintf(buf, len, "Welch t, by each probe's model (base, new: means of the run "
			 "means), or for model batches the bootstrap over the samples (medians), "
			 "%u resamples, seed %llu", iters, seed);
	return buf;
}

/* The model column: "runs", "rounds", "rounds+floor", "runs/rounds" (base/new), "batches". */
static const char *model_text(const struct compare_probe *p, char *buf, size_t len)
{
	const char *a = compare_method_names[p->method_a], *b = compare_method_names[p->method_b];
	const char *fl = p->floor ? "+floor" : "";

	if (p->method_a == p->method_b)
		snprintf(buf, len, "%s%s", a, fl);
	else
		snprintf(buf, len, "%s/%s%s", a, b, fl);
	return buf;
}

/* One line saying what the model words of this table mean (those that occur). */
static void print_models(FILE *f, const struct compare_result *cr)
{
	int used[COMPARE_METHOD_N] = { 0 }, floor = 0, mixed = 0;
	const char *sep = "";

	for (size_t i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		if (p->verdict == COMPARE_NOT_RUN)
			continue;
		used[p->method_a] = used[p->method_b] = 1;
		floor |= p->floor != NULL;
		mixed |= p->method_a != p->method_b;
	}
	fprintf(f, "model:");
	if (used[COMPARE_METHOD_RUNS]) {
		fprintf(f, " runs = a side's variance from the spread of its run means");
		sep = ";";
	}
	if (used[COMPARE_METHOD_ROUNDS]) {
		fprintf(f, "%s rounds = from the rounds within each run", sep);
		sep = ";";
	}
	if (floor) {
		fprintf(f, "%s +floor = and the noise floor's between-run variance", sep);
		sep = ";";
	}
	if (mixed) {
		fprintf(f, "%s a/b = base's/new's", sep);
		sep = ";";
	}
	if (used[COMPARE_METHOD_BATCHES])
		fprintf(f, "%s batches = no rounds: bootstrap over the samples", sep);
	fprintf(f, "; runs: base/new\n");
}

/* The verdict column: "too noisy (>= 7.3% detectable)" says what could have been seen. */
static const char *verdict_text(const struct compare_probe *p, char *buf, size_t len)
{
	if (p->verdict == COMPARE_TOO_NOISY)
		snprintf(buf, len, "too noisy (could detect >= %.1f%%)", p->mde_pct);
	else
		snprintf(buf, len, "%s", compare_verdict_names[p->verdict]);
	return buf;
}

static void print_probes(FILE *f, const struct compare_result *cr)
{
	char ci[64], pct[32], v[64], how[256], model[40], runs[32], line[512];
	size_t i, w = 5;

	if (cr->n_probes == cr->n_not_run) {
		fprintf(f, "\nprobes: none ran in both files\n");
		return;
	}
	for (i = 0; i < cr->n_probes; i++)
		if (strlen(cr->probes[i].name) > w)
			w = strlen(cr->probes[i].name);
	if (w > 40)
		w = 40;
	fprintf(f, "\nprobes (cycles/op%s; 95%% CI of the difference by %s; threshold %.1f%%):\n",
		cr->normalized ? " at the base side's guest speed" : "",
		method_text(cr, how, sizeof(how)), cr->opts.threshold_pct);
	if (cr->n_files_a > 1 || cr->n_files_b > 1)
		fprintf(f, "  (%zu base run%s, %zu new run%s)\n", cr->n_files_a,
			cr->n_files_a == 1 ? "" : "s", cr->n_files_b, cr->n_files_b == 1 ? "" : "s");
	fprintf(f, "  %-*s %12s %12s %11s %9s  %-25s %-12s %-5s %s\n", (int)w, "probe", "base", "new",
		"diff", "diff%", "95% CI of diff", "model", "runs", "verdict");
	for (i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		if (p->verdict == COMPARE_NOT_RUN)
			continue;
		snprintf(ci, sizeof(ci), "[%+.1f, %+.1f]", p->d.lo, p->d.hi);
		if (p->has_pct)
			snprintf(pct, sizeof(pct), "%+.2f%%", p->pct);
		else
			snprintf(pct, sizeof(pct), "n/a");
		snprintf(runs, sizeof(runs), "%zu/%zu", p->runs_a, p->runs_b);
		fprintf(f, "  %-*s %12.1f %12.1f %+11.1f %9s  %-25s %-12s %-5s %s\n", (int)w, p->name,
			p->d.median_a, p->d.median_b, p->d.diff, pct, ci,
			model_text(p, model, sizeof(model)), runs, verdict_text(p, v, sizeof(v)));
	}
	print_models(f, cr);
	fprintf(f, "%s\n", compare_normalize_line(cr, line, sizeof(line)));
	if (compare_speed_line(cr, line, sizeof(line)))
		fprintf(f, "%s\n", line);
	if (cr->method_note)
		fprintf(f, "%s\n", cr->method_note);
	if (cr->r2r_note)
		fprintf(f, "%s\n", cr->r2r_note);
	if (cr->n_too_noisy)
		fprintf(f, "note: 'too noisy': the interval is wider than the threshold, so a change "
			"of %.1f%% could not have been told from noise; not a regression "
			"(add runs per side or rounds per run)\n", cr->opts.threshold_pct);
}

/* Which floor went into the intervals: file, host, exitscope, when, K runs. */
static void print_floor(FILE *f, const struct compare_result *cr)
{
	const struct noise_floor *nf = cr->noise;

	if (!nf)
		return;
	fprintf(f, "noise floor: %s: %lld runs by exitscope %s on %s (%s, %s%s%s), kernel %s, ",
		nf->name ? nf->name : "(estimated)", nf->runs,
		nf->tool_version ? nf->tool_version : EXITSCOPE_VERSION, nf->host.cpu_name,
		nf->host.backend_module, exec_mode_name(nf->host.exec_mode),
		nf->host.lane.present ? ", lane " : "",
		nf->host.lane.present ? host_lane_names[nf->host.lane.name] : "", nf->host.kernel);
	if (nf->first_started && nf->last_finished)
		fprintf(f, "measured %s to %s", nf->first_started, nf->last_finished);
	else
		fprintf(f, "created %s", nf->created ? nf->created : "now");
	fprintf(f, "; in the interval of %zu of %zu probes compared by rounds\n", cr->n_floor,
		cr->n_by_rounds);
}

void compare_print(FILE *f, const struct compare_result *cr)
{
	char line[512], sa[256], sb[256];
	size_t i;

	fprintf(f, "exitscope compare: %s (base) -> %s (new)\n", cr->name_a, cr->name_b);
	print_host(f, cr);
	print_floor(f, cr);
	print_probes(f, cr);
	if (cr->n_counters) {
		fprintf(f, "\nper-op counter changes:\n");
		for (i = 0; i < cr->n_counters; i++)
			fprintf(f, "  %s\n", compare_counter_line(&cr->counters[i], line, sizeof(line)));
	}
	if (cr->n_unjudged) {
		fprintf(f, "\nper-op counter differences not judged (one run on a side, not a whole "
			"number per op: a run's counters are totals over its rounds, so how they vary "
			"from run to run is unknown; 2 runs or more a side judge them):\n");
		for (i = 0; i < cr->n_unjudged; i++)
			fprintf(f, "  %s\n", compare_counter_line(&cr->unjudged[i], line, sizeof(line)));
	}
	if (cr->map_compared) {
		if (cr->n_map == 0)
			fprintf(f, "\nownership map: no changes\n");
		else
			fprintf(f, "\nownership map changes:\n");
		for (i = 0; i < cr->n_map; i++)
			fprintf(f, "  %s\n", compare_map_line(cr, &cr->map[i], line, sizeof(line)));
	}
	if (cr->checks_compared) {
		if (cr->n_checks == 0)
			fprintf(f, "\nchecks: no status changes\n");
		else
			fprintf(f, "\ncheck status changes:\n");
		for (i = 0; i < cr->n_checks; i++)
			fprintf(f, "  %s\n", compare_check_line(&cr->checks[i], line, sizeof(line)));
	}
	if (cr->n_not_run) {
		fprintf(f, "\nnot compared:\n");
		for (i = 0; i < cr->n_probes; i++) {
			const struct compare_probe *p = &cr->probes[i];

			if (p->verdict == COMPARE_NOT_RUN && p->why)
				fprintf(f, "  %s: %s\n", p->name, p->why);
			else if (p->verdict == COMPARE_NOT_RUN)
				fprintf(f, "  %s: %s: %s, %s: %s\n", p->name,
					cr->name_a, status_text(p->a, sa, sizeof(sa)),
					cr->name_b, status_text(p->b, sb, sizeof(sb)));
		}
	}
	if (cr->n_only_a || cr->n_only_b)
		fputc('\n', f);
	if (cr->n_only_a) {
		fprintf(f, "only in %s:", cr->name_a);
		for (i = 0; i < cr->n_only_a; i++)
			fprintf(f, " %s", cr->only_a[i]);
		fputc('\n', f);
	}
	if (cr->n_only_b) {
		fprintf(f, "only in %s:", cr->name_b);
		for (i = 0; i < cr->n_only_b; i++)
			fprintf(f, " %s", cr->only_b[i]);
		fputc('\n', f);
	}
	fprintf(f, "\nsummary: %zu faster, %zu slower, %zu no significant change, %zu too noisy, "
		"%zu not compared, %zu only in %s, %zu only in %s\n", cr->n_faster, cr->n_slower,
		cr->n_same, cr->n_too_noisy, cr->n_not_run, cr->n_only_a, cr->name_a, cr->n_only_b,
		cr->name_b);
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
	}
	return doc;
}
