// SPDX-License-Identifier: GPL-2.0-only
/* run_model.c - the probe model of run files: its JSON writer and its reader, side by side. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "results/run_model.h"

#define TRY JCHECK_TRY

/* The cycles block, in file order; the writer and the reader walk the same table. */
static const char *const cycles_names[] = {
	"min", "median", "p90", "p99", "mean", "stddev", "cv", "ci95_lo", "ci95_hi",
};
#define CYCLES_N ARRAY_SIZE(cycles_names)

static double *cycles_field(struct result_cycles *c, size_t i)
{
	double *f[CYCLES_N] = {
		&c->min, &c->median, &c->p90, &c->p99, &c->mean, &c->stddev, &c->cv,
		&c->ci95_lo, &c->ci95_hi,
	};

	return f[i];
}

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

/* ---- writer ---- */

static void set_num(json_t *o, const char *key, double v)
{
	if (v >= 0)
		json_object_set_new(o, key, json_real(v));
}

static json_t *per_op_json(const struct run_probe *p)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < RESULT_PER_OP_N; i++) {
		if (i < RESULT_OP_FIRST_USER)
			json_object_set_new(o, result_per_op_names[i], json_real(p->per_op[i]));
		else
			set_num(o, result_per_op_names[i], p->per_op[i]);
	}
	if (o && p->per_op_source)
		json_object_set_new(o, "source", json_string(p->per_op_source));
	if (o && p->per_op_user_source)
		json_object_set_new(o, "user_source", json_string(p->per_op_user_source));
	return o;
}

static json_t *round_json(const struct run_round *r)
{
	json_t *o = json_object(), *a = json_array();

	if (!o || !a) {
		json_decref(o);
		json_decref(a);
		return NULL;
	}
	json_object_set_new(o, "batch", json_integer((json_int_t)r->batch));
	for (size_t i = 0; i < r->n_samples; i++)
		json_array_append_new(a, json_real(r->samples[i]));
	json_object_set_new(o, "samples", a);
	json_object_set_new(o, "median", json_real(r->median));
	json_object_set_new(o, "baseline_median", json_real(r->baseline_median));
	json_object_set_new(o, "raw_median", json_real(r->raw_median));
	return o;
}

/* The method-v2 members: rounds, stop, ci_rel_pct, cpus (each when present). */
static void v2_json(json_t *o, const struct run_probe *p)
{
	json_t *a;

	if (p->rounds && p->n_rounds) {
		a = json_array();
		for (size_t i = 0; a && i < p->n_rounds; i++)
			json_array_append_new(a, round_json(&p->rounds[i]));
		json_object_set_new(o, "rounds", a);
	}
	if (p->stop != PROBE_STOP_NONE)
		json_object_set_new(o, "stop", json_string(probe_stop_name(p->stop)));
	set_num(o, "ci_rel_pct", p->ci_rel_pct);
	if (p->cpus[0] >= 0 && p->cpus[1] >= 0) {
		a = json_array();
		for (size_t i = 0; a && i < 2; i++)
			json_array_append_new(a, json_integer((json_int_t)p->cpus[i]));
		json_object_set_new(o, "cpus", a);
	}
}

/* The members any status may have: peer_wait_ms, delivery (each when present). */
static void any_status_json(json_t *o, const struct run_probe *p)
{
	const struct run_delivery *d = &p->delivery;
	json_t *a;

	set_num(o, "peer_wait_ms", p->peer_wait_ms);
	if (!d->present || !(a = json_object()))
		return;
	json_object_set_new(a, "ops", json_integer((json_int_t)d->ops));
	json_object_set_new(a, "in_window", json_integer((json_int_t)d->in_window));
	json_object_set_new(a, "late", json_integer((json_int_t)d->late));
	json_object_set_new(a, "never", json_integer((json_int_t)d->never));
	json_object_set_new(a, "late_limit_ms", json_real(d->late_limit_ms));
	set_num(a, "late_wait_cycles", d->late_wait_cycles);
	json_object_set_new(a, "late_in_cost", json_boolean(d->late_in_cost));
	json_object_set_new(o, "delivery", a);
}

json_t *run_probe_json(const struct run_probe *p)
{
	json_t *o = json_object(), *a;
	struct result_cycles cyc = p->cycles;

	if (!o)
		return NULL;
	json_object_set_new(o, "name", json_string(p->name ? p->name : ""));
	json_object_set_new(o, "group", json_string(p->group ? p->group : ""));
	if (p->description)
		json_object_set_new(o, "description", json_string(p->description));
	json_object_set_new(o, "status", json_string(probe_status_name(p->status)));
	any_status_json(o, p);
	if (p->status != PROBE_OK) {
		json_object_set_new(o, "reason", json_string(p->reason ? p->reason : ""));
		return o;
	}
	if (p->reason)
		json_object_set_new(o, "reason", json_string(p->reason));
	json_object_set_new(o, "batch", json_integer((json_int_t)p->batch));
	a = json_array();
	for (size_t i = 0; a && i < p->n_samples; i++)
		json_array_append_new(a, json_real(p->samples[i]));
	json_object_set_new(o, "samples", a);
	a = json_object();
	for (size_t i = 0; a && i < CYCLES_N; i++)
		json_object_set_new(a, cycles_names[i], json_real(*cycles_field(&cyc, i)));
	json_object_set_new(o, "cycles", a);
	set_num(o, "ns_median", p->ns_median);
	set_num(o, "overhead_cycles", p->overhead_cycles);
	set_num(o, "raw_median_cycles", p->raw_median_cycles);
	if (p->ops >= 0)
		json_object_set_new(o, "ops", json_integer((json_int_t)p->ops));
	json_object_set_new(o, "per_op", per_op_json(p));
	if (p->trace.present)
		json_object_set_new(o, "trace", result_trace_json(&p->trace));
	if (p->exit_path.present)
		json_object_set_new(o, "exit_path", exit_path_json(&p->exit_path));
	if (p->cpu >= 0)
		json_object_set_new(o, "cpu", json_integer((json_int_t)p->cpu));
	v2_json(o, p);
	if (p->notes && p->n_notes) {
		a = json_array();
		for (size_t i = 0; a && i < p->n_notes; i++)
			json_array_append_new(a, json_string(p->notes[i]));
		json_object_set_new(o, "notes", a);
	}
	return o;
}

json_t *run_probes_json(const struct run_probe *p, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, run_probe_json(&p[i]));
	return a;
}

/* ---- reader ---- */

static int read_samples(struct jcheck *c, json_t *obj, struct run_probe *p)
{
	json_t *arr, *v;
	size_t i, mark;
	double d, *s;

	TRY(jcheck_array(c, obj, "samples", JCHECK_REQUIRED, RESULT_MAX_ITEMS, &arr));
	mark = jcheck_push_key(c, "samples");
	if (json_array_size(arr) == 0)
		return jcheck_fail(c, "no samples (status is \"ok\")");
	s = malloc(json_array_size(arr) * sizeof(*s));
	if (!s)
		return jcheck_fail(c, "out of memory");
	p->samples = s;
	json_array_foreach(arr, i, v) {
		d = json_is_number(v) ? json_number_value(v) : -1;
		if (!json_is_number(v) || !(d >= 0) || !isfinite(d)) {
			jcheck_push_index(c, i);
			return jcheck_fail(c, "not a finite non-negative number");
		}
		s[i] = d;
	}
	p->n_samples = json_array_size(arr);
	jcheck_pop(c, mark);
	return 0;
}

static int read_per_op(struct jcheck *c, json_t *obj, struct run_probe *p)
{
	json_t *per_op;
	size_t mark;

	TRY(jcheck_object(c, obj, "per_op", JCHECK_REQUIRED, &per_op));
	mark = jcheck_push_key(c, "per_op");
	for (size_t i = 0; i < RESULT_PER_OP_N; i++)
		TRY(jcheck_num(c, per_op, result_per_op_names[i],
			       i < RESULT_OP_FIRST_USER ? JCHECK_REQUIRED : JCHECK_OPTIONAL,
			       &p->per_op[i]));
	TRY(jcheck_string(c, per_op, "source", JCHECK_OPTIONAL, 1, &p->per_op_source));
	TRY(jcheck_string(c, per_op, "user_source", JCHECK_OPTIONAL, 1, &p->per_op_user_source));
	jcheck_pop(c, mark);
	return 0;
}

static int read_round(struct jcheck *c, json_t *obj, struct run_round *r)
{
	json_t *arr, *v;
	double *s;
	size_t i, mark;

	if (!json_is_object(obj))
		return jcheck_fail(c, "not an object (found %s)", jcheck_type_name(obj));
	TRY(jcheck_int(c, obj, "batch", JCHECK_REQUIRED, 1, LLONG_MAX, &r->batch));
	TRY(jcheck_array(c, obj, "samples", JCHECK_REQUIRED, RESULT_MAX_ITEMS, &arr));
	mark = jcheck_push_key(c, "samples");
	if (json_array_size(arr) == 0)
		return jcheck_fail(c, "a round has at least one sample");
	s = malloc(json_array_size(arr) * sizeof(*s));
	if (!s)
		return jcheck_fail(c, "out of memory");
	r->samples = s;
	json_array_foreach(arr, i, v) {
		if (!json_is_number(v) || !isfinite(json_number_value(v))) {
			jcheck_push_index(c, i);
			return jcheck_fail(c, "not a finite number");
		}
		s[i] = json_number_value(v);
	}
	r->n_samples = json_array_size(arr);
	jcheck_pop(c, mark);
	/* Net figures of near-zero ops may be < 0. */
	TRY(jcheck_real(c, obj, "median", JCHECK_REQUIRED, &r->median));
	TRY(jcheck_num(c, obj, "baseline_median", JCHECK_REQUIRED, &r->baseline_median));
	TRY(jcheck_num(c, obj, "raw_median", JCHECK_REQUIRED, &r->raw_median));
	return 0;
}

static int read_rounds(struct jcheck *c, json_t *obj, struct run_probe *p)
{
	struct run_round *r;
	json_t *arr, *v;
	size_t i, mark;
	int rc = jcheck_array(c, obj, "rounds", JCHECK_OPTIONAL, RESULT_MAX_ITEMS, &arr);

	if (rc)
		return rc;
	mark = jcheck_push_key(c, "rounds");
	if (json_array_size(arr) == 0)
		return jcheck_fail(c, "no rounds (leave the member out instead)");
	r = jcheck_calloc(json_array_size(arr), sizeof(*r));
	if (!r)
		return jcheck_fail(c, "out of memory");
	p->rounds = r;
	json_array_foreach(arr, i, v) {
		size_t m = jcheck_push_index(c, i);

		p->n_rounds = i + 1;
		TRY(read_round(c, v, &r[i]));
		jcheck_pop(c, m);
	}
	jcheck_pop(c, mark);
	return 0;
}

static int read_cpus(struct jcheck *c, json_t *obj, long long *cpus, size_t min, size_t max,
		     size_t *n)
{
	json_t *arr, *v;
	size_t i, mark;
	int rc = jcheck_array(c, obj, "cpus", JCHECK_OPTIONAL, max, &arr);

	if (rc)
		return rc;
	mark = jcheck_push_key(c, "cpus");
	if (json_array_size(arr) < min)
		return jcheck_fail(c, "%zu CPUs, want %zu", json_array_size(arr), min);
	json_array_foreach(arr, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > INT_MAX) {
			jcheck_push_index(c, i);
			return jcheck_fail(c, "not a CPU number (an integer >= 0)");
		}
		cpus[i] = json_integer_value(v);
	}
	if (n)
		*n = json_array_size(arr);
	jcheck_pop(c, mark);
	return 0;
}

/* The method-v2 members, all optional. */
static int read_v2(struct jcheck *c, json_t *obj, struct run_probe *p)
{
	int idx, rc;

	TRY(read_rounds(c, obj, p));
	/* probe_stop_names[0] ("", absent) is not a value a file may hold. */
	rc = jcheck_enum(c, obj, "stop", JCHECK_OPTIONAL, probe_stop_names + 1, PROBE_STOP_N - 1, &idx);
	if (rc < 0)
		return rc;
	if (rc == 0)
		p->stop = idx + 1;
	TRY(jcheck_num(c, obj, "ci_rel_pct", JCHECK_OPTIONAL, &p->ci_rel_pct));
	TRY(read_cpus(c, obj, p->cpus, 2, 2, NULL));
	return 0;
}

static int read_measurement(struct jcheck *c, json_t *obj, struct run_probe *p)
{
	json_t *cycles;
	size_t i, mark;

	TRY(jcheck_int(c, obj, "batch", JCHECK_REQUIRED, 1, LLONG_MAX, &p->batch));
	TRY(read_samples(c, obj, p));
	TRY(jcheck_object(c, obj, "cycles", JCHECK_REQUIRED, &cycles));
	mark = jcheck_push_key(c, "cycles");
	for (i = 0; i < CYCLES_N; i++)
		TRY(jcheck_num(c, cycles, cycles_names[i], JCHECK_REQUIRED,
			       cycles_field(&p->cycles, i)));
	jcheck_pop(c, mark);
	TRY(jcheck_num(c, obj, "ns_median", JCHECK_OPTIONAL, &p->ns_median));
	TRY(jcheck_num(c, obj, "overhead_cycles", JCHECK_OPTIONAL, &p->overhead_cycles));
	TRY(jcheck_num(c, obj, "raw_median_cycles", JCHECK_OPTIONAL, &p->raw_median_cycles));
	TRY(jcheck_int(c, obj, "ops", JCHECK_OPTIONAL, 0, LLONG_MAX, &p->ops));
	TRY(read_per_op(c, obj, p));
	TRY(result_trace_read(c, obj, &p->trace));
	TRY(exit_path_read(c, obj, &p->exit_path));
	TRY(jcheck_int(c, obj, "cpu", JCHECK_OPTIONAL, 0, INT_MAX, &p->cpu));
	return read_v2(c, obj, p);
}

static int read_delivery(struct jcheck *c, json_t *obj, struct run_delivery *d)
{
	json_t *o;
	size_t mark;
	int rc = jcheck_object(c, obj, "delivery", JCHECK_OPTIONAL, &o);

	if (rc)
		return rc;
	mark = jcheck_push_key(c, "delivery");
	TRY(jcheck_int(c, o, "ops", JCHECK_REQUIRED, 0, LLONG_MAX, &d->ops));
	TRY(jcheck_int(c, o, "in_window", JCHECK_REQUIRED, 0, LLONG_MAX, &d->in_window));
	TRY(jcheck_int(c, o, "late", JCHECK_REQUIRED, 0, LLONG_MAX, &d->late));
	TRY(jcheck_int(c, o, "never", JCHECK_REQUIRED, 0, LLONG_MAX, &d->never));
	TRY(jcheck_num(c, o, "late_limit_ms", JCHECK_REQUIRED, &d->late_limit_ms));
	TRY(jcheck_num(c, o, "late_wait_cycles", JCHECK_OPTIONAL, &d->late_wait_cycles));
	TRY(jcheck_bool(c, o, "late_in_cost", JCHECK_OPTIONAL, &d->late_in_cost));
	/* Each op is counted once: compared without a sum that could overflow. */
	if (d->in_window > d->ops || d->late > d->ops - d->in_window ||
	    d->never != d->ops - d->in_window - d->late)
		return jcheck_fail(c, "in_window %lld + late %lld + never %lld is not ops %lld",
				   d->in_window, d->late, d->never, d->ops);
	d->present = 1;
	jcheck_pop(c, mark);
	return 0;
}

static int read_probe(struct jcheck *c, json_t *obj, struct run_probe *p)
{
	int idx;

	if (!json_is_object(obj))
		return jcheck_fail(c, "not an object (found %s)", jcheck_type_name(obj));
	TRY(jcheck_string(c, obj, "name", JCHECK_REQUIRED, 0, &p->name));
	TRY(jcheck_string(c, obj, "group", JCHECK_REQUIRED, 0, &p->group));
	TRY(jcheck_string(c, obj, "description", JCHECK_OPTIONAL, 1, &p->description));
	TRY(jcheck_enum(c, obj, "status", JCHECK_REQUIRED, probe_status_names, PROBE_STATUS_N, &idx));
	p->status = idx;
	TRY(jcheck_num(c, obj, "peer_wait_ms", JCHECK_OPTIONAL, &p->peer_wait_ms));
	TRY(read_delivery(c, obj, &p->delivery));
	if (p->status != PROBE_OK) {
		if (!json_object_get(obj, "reason"))
			return jcheck_fail(c, "missing required field \"reason\" (status is \"%s\")",
					   probe_status_names[idx]);
		TRY(jcheck_string(c, obj, "reason", JCHECK_REQUIRED, 1, &p->reason));
		return 0;
	}
	TRY(jcheck_string(c, obj, "reason", JCHECK_OPTIONAL, 1, &p->reason));
	TRY(jcheck_strings(c, obj, "notes", JCHECK_OPTIONAL, RESULT_MAX_ITEMS, &p->notes, &p->n_notes));
	return read_measurement(c, obj, p);
}

int run_probes_read(struct jcheck *c, json_t *root, int required,
		    struct run_probe **out, size_t *n)
{
	json_t *arr, *v;
	size_t i, j, mark;
	struct run_probe *p;
	char q[80];
	int rc;

	*out = NULL;
	*n = 0;
	rc = jcheck_array(c, root, "probes", required ? JCHECK_REQUIRED : JCHECK_OPTIONAL,
			  RESULT_MAX_ITEMS, &arr);
	if (rc)
		return rc;
	p = jcheck_calloc(json_array_size(arr), sizeof(*p));
	if (!p)
		return jcheck_fail(c, "out of memory");
	*out = p;
	json_array_foreach(arr, i, v) {
		mark = jcheck_push_key(c, "probes");
		jcheck_push_index(c, i);
		run_probe_init(&p[i]);
		*n = i + 1;
		TRY(read_probe(c, v, &p[i]));
		/* Names are the key compare matches on: they must be unique. */
		for (j = 0; j < i; j++) {
			if (strcmp(p[j].name, p[i].name) == 0) {
				jcheck_push_key(c, "name");
				return jcheck_fail(c, "duplicate probe \"%s\" (also probes[%zu])",
						   jcheck_quote(p[i].name, q, sizeof(q)), j);
			}
		}
		jcheck_pop(c, mark);
	}
	return 0;
}

void run_probes_free(struct run_probe *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++) {
		free((void *)p[i].samples);
		for (size_t j = 0; p[i].rounds && j < p[i].n_rounds; j++)
			free((void *)p[i].rounds[j].samples);
		free((void *)p[i].rounds);
		result_trace_free(&p[i].trace);
		exit_path_free(&p[i].exit_path);
		free(p[i].notes);
	}
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

static void int_text(char *buf, size_t len, long long v, const char *fmt)
{
	if (v < 0)
		snprintf(buf, len, "(unset)");
	else
		snprintf(buf, len, fmt, v);
}

static void num_text(char *buf, size_t len, double v)
{
	if (v < 0)
		snprintf(buf, len, "(unset)");
	else
		snprintf(buf, len, "%g", v);
}

const char *run_setting_text(const struct run_settings *s, enum run_setting i, char *buf, size_t len)
{
	switch (i) {
	case RUN_SETTING_METHOD:
		snprintf(buf, len, "%s", s->method < 0 ? "(unset)" : run_method_name(s->method));
		break;
	case RUN_SETTING_ROUNDS:
		int_text(buf, len, s->rounds, "%lld");
		break;
	case RUN_SETTING_TIME_BUDGET:
		num_text(buf, len, s->time_budget_s);
		break;
	case RUN_SETTING_PRECISION:
		num_text(buf, len, s->precision_pct);
		break;
	case RUN_SETTING_PRECISION_FLOOR:
		num_text(buf, len, s->precision_floor_cycles);
		break;
	case RUN_SETTING_RUN_LIMIT:
		num_text(buf, len, s->run_limit_s);
		break;
	case RUN_SETTING_SAMPLES:
		int_text(buf, len, s->samples, "%lld");
		break;
	case RUN_SETTING_GUEST_XCR0:
		int_text(buf, len, s->guest_xcr0, "%#llx");
		break;
	case RUN_SETTING_CPUS:
		if (s->n_cpus == 2)
			snprintf(buf, len, "%lld,%lld", s->cpus[0], s->cpus[1]);
		else if (s->n_cpus == 1)
			snprintf(buf, len, "%lld", s->cpus[0]);
		else
			int_text(buf, len, s->cpu, "%lld");
		break;
	default:
		snprintf(buf, len, "?");
		break;
	}
	return buf;
}

json_t *run_settings_json(const struct run_settings *s)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	if (s->samples >= 0)
		json_object_set_new(o, "samples", json_integer((json_int_t)s->samples));
	set_num(o, "time_budget_s", s->time_budget_s);
	json_object_set_new(o, "cpu", json_integer((json_int_t)s->cpu));
	set_num(o, "overhead_cycles", s->overhead_cycles);
	if (s->trace >= 0)
		json_object_set_new(o, "trace", json_boolean(s->trace));
	if (s->guest_xcr0 >= 0)
		json_object_set_new(o, "guest_xcr0", json_integer((json_int_t)s->guest_xcr0));
	if (s->method >= 0)
		json_object_set_new(o, "method", json_string(run_method_name(s->method)));
	if (s->rounds >= 0)
		json_object_set_new(o, "rounds", json_integer((json_int_t)s->rounds));
	set_num(o, "precision_pct", s->precision_pct);
	set_num(o, "precision_floor_cycles", s->precision_floor_cycles);
	set_num(o, "run_limit_s", s->run_limit_s);
	if (s->n_cpus) {
		json_t *a = json_array();

		for (size_t i = 0; a && i < s->n_cpus && i < RUN_SETTINGS_CPUS; i++)
			json_array_append_new(a, json_integer((json_int_t)s->cpus[i]));
		json_object_set_new(o, "cpus", a);
	}
	return o;
}

int run_settings_read(struct jcheck *c, json_t *root, struct run_settings *s)
{
	json_t *o;
	size_t mark;
	int rc = jcheck_object(c, root, "settings", JCHECK_OPTIONAL, &o);

	run_settings_init(s);
	if (rc)
		return rc;
	s->present = 1;
	mark = jcheck_push_key(c, "settings");
	TRY(jcheck_int(c, o, "samples", JCHECK_OPTIONAL, 1, LLONG_MAX, &s->samples));
	TRY(jcheck_num(c, o, "time_budget_s", JCHECK_OPTIONAL, &s->time_budget_s));
	TRY(jcheck_int(c, o, "cpu", JCHECK_OPTIONAL, -1, INT_MAX, &s->cpu));
	TRY(jcheck_num(c, o, "overhead_cycles", JCHECK_OPTIONAL, &s->overhead_cycles));
	TRY(jcheck_bool(c, o, "trace", JCHECK_OPTIONAL, &s->trace));
	TRY(jcheck_int(c, o, "guest_xcr0", JCHECK_OPTIONAL, 1, LLONG_MAX, &s->guest_xcr0));
	TRY(jcheck_enum(c, o, "method", JCHECK_OPTIONAL, run_method_names, RUN_METHOD_N, &s->method));
	TRY(jcheck_int(c, o, "rounds", JCHECK_OPTIONAL, 1, LLONG_MAX, &s->rounds));
	TRY(jcheck_num(c, o, "precision_pct", JCHECK_OPTIONAL, &s->precision_pct));
	TRY(jcheck_num(c, o, "precision_floor_cycles", JCHECK_OPTIONAL, &s->precision_floor_cycles));
	TRY(jcheck_num(c, o, "run_limit_s", JCHECK_OPTIONAL, &s->run_limit_s));
	TRY(read_cpus(c, o, s->cpus, 1, RUN_SETTINGS_CPUS, &s->n_cpus));
	jcheck_pop(c, mark);
	return 0;
}
