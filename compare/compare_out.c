/* compare_out.c - print an A/B comparison as text or as a JSON document. */
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
		return "Welch t interval on the round medians; base, new: means of the round medians";
	if (!cr->n_by_rounds)
		snprintf(buf, len, "bootstrap over the samples, %u resamples, seed %llu", iters, seed);
	else
		snprintf(buf, len, "Welch t interval on the round medians (base, new: their means), "
			 "or where marked (b) bootstrap over the samples (medians), %u resamples, "
			 "seed %llu", iters, seed);
	return buf;
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
	char ci[64], pct[32], v[64], name[64], how[192];
	size_t i, w = 5;
	int mark = cr->n_by_rounds && cr->n_by_batches;

	if (cr->n_probes == cr->n_not_run) {
		fprintf(f, "\nprobes: none ran in both files\n");
		return;
	}
	for (i = 0; i < cr->n_probes; i++)
		if (strlen(cr->probes[i].name) + (mark ? 4 : 0) > w)
			w = strlen(cr->probes[i].name) + (mark ? 4 : 0);
	if (w > 40)
		w = 40;
	fprintf(f, "\nprobes (cycles/op; 95%% CI of the difference by %s; threshold %.1f%%):\n",
		method_text(cr, how, sizeof(how)), cr->opts.threshold_pct);
	if (cr->n_files_a > 1 || cr->n_files_b > 1)
		fprintf(f, "  (pooled: %zu base runs, %zu new runs)\n", cr->n_files_a, cr->n_files_b);
	fprintf(f, "  %-*s %12s %12s %11s %9s  %-25s %s\n", (int)w, "probe", "base", "new",
		"diff", "diff%", "95% CI of diff", "verdict");
	for (i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		if (p->verdict == COMPARE_NOT_RUN)
			continue;
		snprintf(ci, sizeof(ci), "[%+.1f, %+.1f]", p->d.lo, p->d.hi);
		if (p->has_pct)
			snprintf(pct, sizeof(pct), "%+.2f%%", p->pct);
		else
			snprintf(pct, sizeof(pct), "n/a");
		snprintf(name, sizeof(name), "%s%s", p->name,
			 mark && p->method == COMPARE_METHOD_BATCHES ? " (b)" : "");
		fprintf(f, "  %-*s %12.1f %12.1f %+11.1f %9s  %-25s %s\n", (int)w, name,
			p->d.median_a, p->d.median_b, p->d.diff, pct, ci,
			verdict_text(p, v, sizeof(v)));
	}
	if (cr->method_note)
		fprintf(f, "%s\n", cr->method_note);
	if (cr->n_too_noisy)
		fprintf(f, "note: 'too noisy': the interval is wider than the threshold, so a change "
			"of %.1f%% could not have been told from noise; not a regression "
			"(add runs per side or rounds per run)\n", cr->opts.threshold_pct);
}

void compare_print(FILE *f, const struct compare_result *cr)
{
	char line[512], sa[256], sb[256];
	size_t i;

	fprintf(f, "exitscope compare: %s (base) -> %s (new)\n", cr->name_a, cr->name_b);
	print_host(f, cr);
	print_probes(f, cr);
	if (cr->n_counters) {
		fprintf(f, "\nper-op counter changes:\n");
		for (i = 0; i < cr->n_counters; i++)
			fprintf(f, "  %s\n", compare_counter_line(&cr->counters[i], line, sizeof(line)));
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
		fprintf(f, "\nnot compared (did not run in both):\n");
		for (i = 0; i < cr->n_probes; i++) {
			const struct compare_probe *p = &cr->probes[i];

			if (p->verdict == COMPARE_NOT_RUN)
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

/* Every per-op counter the probe has (the optional run-loop ones only when present). */
static json_t *per_op_json(const struct run_probe *p)
{
	json_t *o = json_object();
	int i;

	for (i = 0; o && i < RESULT_PER_OP_N; i++)
		if (p->per_op[i] >= 0)
			json_object_set_new(o, result_per_op_names[i], json_real(p->per_op[i]));
	return o;
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
	json_object_set_new(o, "df", p->method == COMPARE_METHOD_ROUNDS ? json_real(p->d.df) :
				     json_null());
	json_object_set_new(o, "min_detectable_pct", p->has_pct ? json_real(p->mde_pct) : json_null());
	json_object_set_new(o, "base_runs", json_integer((json_int_t)p->runs_a));
	json_object_set_new(o, "new_runs", json_integer((json_int_t)p->runs_b));
	/* Why each side's (first) run stopped measuring it, when the file says. */
	if (p->a->stop != PROBE_STOP_NONE)
		json_object_set_new(o, "base_stop", json_string(probe_stop_names[p->a->stop]));
	if (p->b->stop != PROBE_STOP_NONE)
		json_object_set_new(o, "new_stop", json_string(probe_stop_names[p->b->stop]));
	json_object_set_new(o, "base_rounds", json_integer((json_int_t)p->rounds_a));
	json_object_set_new(o, "new_rounds", json_integer((json_int_t)p->rounds_b));
	json_object_set_new(o, "base_exits_per_op", json_real(p->a->per_op[RESULT_OP_EXITS]));
	json_object_set_new(o, "new_exits_per_op", json_real(p->b->per_op[RESULT_OP_EXITS]));
	json_object_set_new(o, "base_per_op", per_op_json(p->a));
	json_object_set_new(o, "new_per_op", per_op_json(p->b));
	return o;
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
	for (i = 0; i < cr->n_counters; i++) {
		const struct compare_counter *c = &cr->counters[i];

		json_array_append_new(counters, json_pack("{s:s, s:s, s:f, s:f, s:s?}", "probe", c->probe,
							  "counter", c->counter, "base", c->a,
							  "new", c->b, "note", c->note));
	}
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
	return doc;
}
