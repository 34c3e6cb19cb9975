/* run.c - the probe model of run files: its JSON writer and its reader, side by side. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/run.h"

#define TRY JCHECK_TRY

/* The cycles block, in file order; the writer and the reader walk the same table. */
static const char *const cycles_names[] = {
	"min", "median", "p90", "p99", "mean", "stddev", "cv", "ci95_lo", "ci95_hi",
};
#define CYCLES_N (sizeof(cycles_names) / sizeof(cycles_names[0]))

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
	if (p->cpu >= 0)
		json_object_set_new(o, "cpu", json_integer((json_int_t)p->cpu));
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
	TRY(jcheck_int(c, obj, "cpu", JCHECK_OPTIONAL, 0, INT_MAX, &p->cpu));
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
		result_trace_free(&p[i].trace);
		free(p[i].notes);
	}
	free(p);
}

/* ---- settings ---- */

void run_settings_init(struct run_settings *s)
{
	*s = (struct run_settings){ .present = 0, .samples = -1, .time_budget_s = -1, .cpu = -1,
				    .overhead_cycles = -1, .trace = -1, .guest_xcr0 = -1 };
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
	jcheck_pop(c, mark);
	return 0;
}
