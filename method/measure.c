// SPDX-License-Identifier: GPL-2.0-only
/*
 * measure.c - the entry of the method layer (method/method.h): the
 * defaults, the method asked for, and the settings it records.
 */
#include "method/method.h"
#include "probes/runner.h"
#include "results/run_model.h"

double method_budget_default(enum run_method m)
{
	return m == RUN_METHOD_V1 ? METHOD_DEFAULT_BUDGET_V1_S : METHOD_DEFAULT_BUDGET_V2_S;
}

void method_opts_init(struct method_opts *o, enum run_method m)
{
	*o = (struct method_opts){
		.method = m, .samples = METHOD_DEFAULT_SAMPLES, .rounds = METHOD_DEFAULT_ROUNDS,
		.budget_s = method_budget_default(m),
		.precision_pct = METHOD_DEFAULT_PRECISION_PCT, .floor_cycles = METHOD_DEFAULT_FLOOR_CYCLES,
	};
}

int method_measure(const struct method_opts *o, struct probe_runner *pr, struct probe_outcome *out,
		   size_t n, const struct method_hooks *h, double *overhead)
{
	*overhead = 0;
	pr->env.samples = o->samples;
	pr->env.budget_ms = (uint64_t)(o->budget_s * 1000);
	if (o->method == RUN_METHOD_V1) {
		method_v1(o, pr, out, n, h, overhead);
		return 0;
	}
	return method_v2(o, pr, out, n, h);
}

void method_settings(const struct method_opts *o, double overhead, struct run_settings *s)
{
	s->method = o->method;
	s->time_budget_s = o->budget_s;
	if (o->method == RUN_METHOD_V1) {
		s->samples = o->samples;
		s->overhead_cycles = overhead;
	} else {
		s->rounds = o->rounds;
		s->precision_pct = o->precision_pct;
		s->precision_floor_cycles = o->floor_cycles;
		if (o->run_limit_s > 0)
			s->run_limit_s = o->run_limit_s;
	}
}
