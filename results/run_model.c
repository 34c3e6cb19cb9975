// SPDX-License-Identifier: GPL-2.0-only
/* run_model.c - the probe model of run files: its field tables, which drive its JSON writer and reader. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/field.h"
#include "results/run_model.h"

#define P struct run_probe
#define OPT_NUM(st, m, key)	FIELD_NUM(st, m, key, FIELD_OMIT_NEG)

void run_probe_init(struct run_probe *p)
{
	memset(p, 0, sizeof(*p));
	p->ns_median = p->overhead_cycles = p->raw_median_cycles = -1;
	p->ops = p->cpu = -1;
	p->ci_rel_pct = -1;
	p->cpus[0] = p->cpus[1] = -1;
	p->peer_wait_ms = -1;
	p->delivery.late_wait_cycles = -1;
	p->delivery.late_in_cost = 1;
	for (size_t i = RESULT_OP_FIRST_USER; i < RESULT_PER_OP_N; i++)
		p->per_op[i] = -1;
}

/* ---- the tables ---- */

static const struct field cycles_field[] = {
	FIELD_NUM(struct result_cycles, min, "min", FIELD_REQUIRED),
	FIELD_NUM(struct result_cycles, median, "median", FIELD_REQUIRED),
	FIELD_NUM(struct result_cycles, p90, "p90", FIELD_REQUIRED),
	FIELD_NUM(struct result_cycles, p99, "p99", FIELD_REQUIRED),
	FIELD_NUM(struct result_cycles, mean, "mean", FIELD_REQUIRED),
	FIELD_NUM(struct result_cycles, stddev, "stddev", FIELD_REQUIRED),
	FIELD_NUM(struct result_cycles, cv, "cv", FIELD_REQUIRED),
	FIELD_NUM(struct result_cycles, ci95_lo, "ci95_lo", FIELD_REQUIRED),
	FIELD_NUM(struct result_cycles, ci95_hi, "ci95_hi", FIELD_REQUIRED),
};
const struct field_desc result_cycles_fields = FIELD_DESC("cycles", cycles_field);

/* The stats-fd counters are required, the run loop's optional (results/schema.h). */
#define PER_OP_STATS(name, NAME)							\
	FIELD_NUM(P, per_op[RESULT_OP_##NAME], #name, FIELD_REQUIRED),
#define PER_OP_USER(name, NAME)	OPT_NUM(P, per_op[RESULT_OP_##NAME], #name),
static const struct field per_op_field[] = {
	RESULT_STATS_COUNTERS(PER_OP_STATS)
	RESULT_USER_COUNTERS(PER_OP_USER)
	FIELD_CSTR(P, per_op_source, "source", FIELD_EMPTY_OK | FIELD_OMIT_NULL),
	FIELD_CSTR(P, per_op_user_source, "user_source", FIELD_EMPTY_OK | FIELD_OMIT_NULL),
};
const struct field_desc run_per_op_fields = FIELD_DESC("per_op", per_op_field);

/* ROUND in docs/results-schema.md; net figures of near-zero ops may be < 0. */
static const struct field round_field[] = {
	FIELD_INT(struct run_round, batch, "batch", FIELD_REQUIRED, 1, LLONG_MAX),
	FIELD_NUMS(struct run_round, samples, n_samples, "samples", FIELD_REQUIRED | FIELD_SIGNED,
		   RESULT_MAX_ITEMS, "a round has at least one sample"),
	FIELD_NUM(struct run_round, median, "median", FIELD_REQUIRED | FIELD_SIGNED),
	FIELD_NUM(struct run_round, baseline_median, "baseline_median", FIELD_REQUIRED),
	FIELD_NUM(struct run_round, raw_median, "raw_median", FIELD_REQUIRED),
};
const struct field_desc run_round_fields = FIELD_DESC("round", round_field);

/* Each op is counted once: compared without a sum that could overflow. */
static int delivery_check(struct jcheck *c, const void *p)
{
	const struct run_delivery *d = p;

	if (d->in_window > d->ops || d->late > d->ops - d->in_window ||
	    d->never != d->ops - d->in_window - d->late)
		return jcheck_fail(c, "in_window %lld + late %lld + never %lld is not ops %lld",
				   d->in_window, d->late, d->never, d->ops);
	return 0;
}

#define D struct run_delivery
static const struct field delivery_field[] = {
	FIELD_INT(D, ops, "ops", FIELD_REQUIRED, 0, LLONG_MAX),
	FIELD_INT(D, in_window, "in_window", FIELD_REQUIRED, 0, LLONG_MAX),
	FIELD_INT(D, late, "late", FIELD_REQUIRED, 0, LLONG_MAX),
	FIELD_INT(D, never, "never", FIELD_REQUIRED, 0, LLONG_MAX),
	FIELD_NUM(D, late_limit_ms, "late_limit_ms", FIELD_REQUIRED),
	OPT_NUM(D, late_wait_cycles, "late_wait_cycles"),
	FIELD_FLAG(D, late_in_cost, "late_in_cost", 0),
};
const struct field_desc run_delivery_fields = FIELD_DESC_CHECK("delivery", delivery_field,
							       delivery_check);

/* PROBE in docs/results-schema.md: what any status has ... */
static const struct field probe_field[] = {
	FIELD_CSTR(P, name, "name", FIELD_REQUIRED),
	FIELD_CSTR(P, group, "group", FIELD_REQUIRED),
	FIELD_CSTR(P, description, "description", FIELD_EMPTY_OK | FIELD_OMIT_NULL),
	FIELD_ENUM(P, status, "status", FIELD_REQUIRED, probe_status_names, PROBE_STATUS_N),
	OPT_NUM(P, peer_wait_ms, "peer_wait_ms"),
	FIELD_OBJ_P(P, delivery, delivery.present, "delivery", 0, &run_delivery_fields),
};
const struct field_desc run_probe_fields = FIELD_DESC("probe", probe_field);

/* ... then the reason of a probe that was not measured ... */
static int unmeasured_check(struct jcheck *c, const void *p)
{
	if (!((const P *)p)->reason)
		return jcheck_fail(c, "missing required field \"reason\" (status is \"%s\")",
				   probe_status_name(((const P *)p)->status));
	return 0;
}

static const struct field unmeasured_field[] = {
	FIELD_CSTR(P, reason, "reason", FIELD_EMPTY_OK),
};
static const struct field_desc unmeasured_desc = FIELD_DESC_CHECK("unmeasured", unmeasured_field,
								  unmeasured_check);

/* ... or the measurement of one that was (status "ok"). */
static const struct field measurement_field[] = {
	FIELD_CSTR(P, reason, "reason", FIELD_EMPTY_OK | FIELD_OMIT_NULL),
	FIELD_INT(P, batch, "batch", FIELD_REQUIRED, 1, LLONG_MAX),
	FIELD_NUMS(P, samples, n_samples, "samples", FIELD_REQUIRED, RESULT_MAX_ITEMS,
		   "no samples (status is \"ok\")"),
	FIELD_OBJ(P, cycles, "cycles", FIELD_REQUIRED, &result_cycles_fields),
	OPT_NUM(P, ns_median, "ns_median"),
	OPT_NUM(P, overhead_cycles, "overhead_cycles"),
	OPT_NUM(P, raw_median_cycles, "raw_median_cycles"),
	FIELD_INT(P, ops, "ops", FIELD_OMIT_NEG, 0, LLONG_MAX),
	FIELD_OBJ_FLAT("per_op", FIELD_REQUIRED, &run_per_op_fields),
	FIELD_INLINE_OBJ(P, trace, &result_trace_fields),
	FIELD_OBJ_P(P, exit_path, exit_path.present, "exit_path", FIELD_ROOT, &exit_path_fields),
	FIELD_INT(P, cpu, "cpu", FIELD_OMIT_NEG, 0, INT_MAX),
	FIELD_ARRAY(P, rounds, n_rounds, "rounds", FIELD_OMIT_ZERO, &run_round_fields,
		    struct run_round, RESULT_MAX_ITEMS, "no rounds (leave the member out instead)"),
	FIELD_ENUM(P, stop, "stop", FIELD_OMIT_ZERO, probe_stop_names, PROBE_STOP_N),
	OPT_NUM(P, ci_rel_pct, "ci_rel_pct"),
	FIELD_INTS_FIXED(P, cpus, "cpus", 0, 2, 0, INT_MAX, "CPU"),
	FIELD_STRINGS(P, notes, n_notes, "notes", FIELD_OMIT_ZERO, RESULT_MAX_ITEMS),
};
const struct field_desc run_measurement_fields = FIELD_DESC("measurement", measurement_field);

/* ---- what every probe has, then the measurement or the reason, by its status ---- */

static const struct field_desc *probe_pick(const void *p)
{
	return ((const P *)p)->status == PROBE_OK ? &run_measurement_fields : &unmeasured_desc;
}

static void probe_init(void *p)
{
	run_probe_init(p);
}

const struct field_desc run_probe_entry_fields = {
	.name = "probe", .f = probe_field, .n = ARRAY_SIZE(probe_field), .init = probe_init,
	.pick = probe_pick
};

json_t *run_probe_json(const struct run_probe *p)
{
	return fields_write(&run_probe_entry_fields, p);
}

json_t *run_probes_json(const struct run_probe *p, size_t n)
{
	return fields_write_array(&run_probe_entry_fields, p, n, sizeof(*p));
}

void run_probes_free(struct run_probe *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++)
		fields_free(&run_measurement_fields, &p[i]);
	free(p);
}

/* ---- settings ---- */

void run_settings_init(struct run_settings *s)
{
	*s = (struct run_settings){ .present = 0, .samples = -1, .time_budget_s = -1, .cpu = -1,
				    .overhead_cycles = -1, .trace = -1, .guest_xcr0 = -1,
				    .method = -1, .rounds = -1, .precision_pct = -1,
				    .precision_floor_cycles = -1, .run_limit_s = -1,
				    .cpus = { -1, -1 }, .n_cpus = 0 };
}

const char *const run_setting_names[RUN_SETTING_N] = {
	"method", "rounds", "time_budget_s", "precision_pct", "precision_floor_cycles",
	"run_limit_s", "samples", "guest_xcr0", "cpus",
};

#define S struct run_settings
static const struct field settings_field[] = {
	FIELD_INT(S, samples, "samples", FIELD_OMIT_NEG, 1, LLONG_MAX),
	OPT_NUM(S, time_budget_s, "time_budget_s"),
	FIELD_INT(S, cpu, "cpu", 0, -1, INT_MAX),
	OPT_NUM(S, overhead_cycles, "overhead_cycles"),
	FIELD_FLAG(S, trace, "trace", FIELD_OMIT_NEG),
	FIELD_INT(S, guest_xcr0, "guest_xcr0", FIELD_OMIT_NEG, 1, LLONG_MAX),
	FIELD_ENUM(S, method, "method", FIELD_OMIT_NEG, run_method_names, RUN_METHOD_N),
	FIELD_INT(S, rounds, "rounds", FIELD_OMIT_NEG, 1, LLONG_MAX),
	OPT_NUM(S, precision_pct, "precision_pct"),
	OPT_NUM(S, precision_floor_cycles, "precision_floor_cycles"),
	OPT_NUM(S, run_limit_s, "run_limit_s"),
	FIELD_INTS(S, cpus, n_cpus, "cpus", FIELD_OMIT_ZERO, 1, RUN_SETTINGS_CPUS, 0, INT_MAX,
		   "CPU"),
};
const struct field_desc run_settings_fields = FIELD_DESC("settings", settings_field);

json_t *run_settings_json(const struct run_settings *s)
{
	return fields_write(&run_settings_fields, s);
}

/* A setting's text from its field in the settings table, whose key is the setting's name. */
const char *run_setting_text(const struct run_settings *s, enum run_setting i, char *buf, size_t len)
{
	const char *name = i == RUN_SETTING_CPUS ? "cpu" :
			   i < RUN_SETTING_N ? run_setting_names[i] : "";
	const struct field *f = NULL;
	const char *m = NULL;
	long long v;
	double d;

	for (size_t k = 0; k < run_settings_fields.n; k++)
		if (!strcmp(run_settings_fields.f[k].key, name))
			f = &run_settings_fields.f[k];
	if (i == RUN_SETTING_CPUS && s->n_cpus) {
		if (s->n_cpus == 2)
			snprintf(buf, len, "%lld,%lld", s->cpus[0], s->cpus[1]);
		else
			snprintf(buf, len, "%lld", s->cpus[0]);
		return buf;
	}
	if (!f) {
		snprintf(buf, len, "?");
		return buf;
	}
	m = (const char *)s + f->off;
	switch (f->type) {
	case FIELD_T_NUM:
		if ((d = *(const double *)m) < 0)
			break;
		snprintf(buf, len, "%g", d);
		return buf;
	case FIELD_T_ENUM:
		if ((v = *(const int *)m) < 0)
			break;
		snprintf(buf, len, "%s", v < f->n_names ? f->names[v] : "?");
		return buf;
	default:	/* FIELD_T_INT */
		if ((v = *(const long long *)m) < 0)
			break;
		snprintf(buf, len, i == RUN_SETTING_GUEST_XCR0 ? "%#llx" : "%lld", v);
		return buf;
	}
	snprintf(buf, len, "(unset)");
	return buf;
}
