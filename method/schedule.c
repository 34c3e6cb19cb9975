// SPDX-License-Identifier: GPL-2.0-only
/* schedule.c - method v2's round-robin schedule and adaptive stop (method/schedule.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "method/schedule.h"
#include "probes/probe_out.h"

/* A probe's measurement ended with stop: its figures from the rounds it has. */
static void schedule_settle(struct probe_outcome *o, enum probe_stop stop, uint64_t tsc_khz)
{
	struct latency_result *res = &o->res;

	if (res->status != PROBE_OK)
		return;
	if (!res->n_rounds) {
		res->status = stop == PROBE_STOP_RUN_LIMIT ? PROBE_SKIPPED : PROBE_STOPPED;
		snprintf(res->reason, sizeof(res->reason),
			 "the run limit was reached before it was measured");
		return;
	}
	res->stop = stop;
	latency_session_result(res, tsc_khz);
}

/*
 * Progress in probe-rounds: a probe that is done counts all its rounds,
 * the others this round's visits so far (before probe i).
 */
static unsigned schedule_units_done(const struct schedule *s, const bool *done, size_t n,
				    unsigned round, size_t i)
{
	unsigned units = 0;

	for (size_t j = 0; j < n; j++)
		units += done[j] ? s->rounds : round + (j < i);
	return units;
}

/* After a round of o: does the stop rule end it? Then its figures are settled. */
static bool schedule_decide(const struct schedule *s, const struct latency_stop_rule *rule,
			    struct probe_outcome *o, double spent)
{
	struct latency_result *res = &o->res;
	double medians[LATENCY_MAX_ROUNDS];
	enum probe_stop st;

	for (size_t k = 0; k < res->n_rounds; k++)
		medians[k] = res->rounds[k].median;
	st = latency_stop_decide(rule, medians, res->n_rounds, spent, &res->ci_rel_pct);
	if (st == PROBE_STOP_NONE)
		return false;
	res->stop = st;
	latency_session_result(res, s->tsc_khz);
	return true;
}

/* Visit probe i in round `round`: true when it is done with. */
static bool schedule_visit(const struct schedule *s, const struct latency_stop_rule *rule,
			   struct probe_outcome *o, unsigned round, double *spent)
{
	struct latency_result *res = &o->res;

	*spent += s->round(s->ctx, o, round);
	if (res->status == PROBE_STOPPED && res->n_rounds) {
		/* Ctrl-C in this round (its guest run or its VM's setup): the rounds before it stand. */
		res->status = PROBE_OK;
		res->reason[0] = 0;
		schedule_settle(o, PROBE_STOP_STOPPED, s->tsc_khz);
		return true;
	}
	if (res->status != PROBE_OK)
		return true;	/* a failure, hang or Ctrl-C in the guest, or its teardown check failed */
	return schedule_decide(s, rule, o, *spent);
}

int schedule_run(const struct schedule *s, struct probe_outcome *out, size_t n)
{
	double t_start = s->now(s->ctx);
	double *spent = calloc(n ? n : 1, sizeof(*spent));
	bool *done = calloc(n ? n : 1, sizeof(*done));
	struct latency_stop_rule rule = {
		.precision_pct = s->precision_pct, .floor_cycles = s->floor_cycles,
		.min_rounds = s->rounds < LATENCY_MIN_ROUNDS ? s->rounds : LATENCY_MIN_ROUNDS,
		.max_rounds = s->rounds, .budget_s = s->budget_s,
	};
	char label[96];
	int rc = 0;

	if (!spent || !done) {
		rc = -ENOMEM;
		goto out;
	}
	method_progress(s->hooks, 0, (unsigned)(n * s->rounds), NULL);
	for (size_t i = 0; i < n; i++)
		latency_result_clear(&out[i].res);
	for (unsigned int round = 0; round < s->rounds; round++) {
		for (size_t i = 0; i < n; i++) {
			struct probe_outcome *o = &out[i];

			if (done[i])
				continue;
			if (*s->stop || (s->run_limit_s > 0 && s->now(s->ctx) - t_start >= s->run_limit_s)) {
				done[i] = true;
				schedule_settle(o, *s->stop ? PROBE_STOP_STOPPED : PROBE_STOP_RUN_LIMIT, s->tsc_khz);
				continue;
			}
			snprintf(label, sizeof(label), "%s, round %u/%u", o->probe->name, round + 1,
				 s->rounds);
			method_progress(s->hooks, schedule_units_done(s, done, n, round, i),
					(unsigned)(n * s->rounds), label);
			done[i] = schedule_visit(s, &rule, o, round, &spent[i]);
		}
	}
	/* Probes still going when the rounds ran out (a Ctrl-C between the last ones). */
	for (size_t i = 0; i < n; i++)
		if (!done[i])
			schedule_settle(&out[i], *s->stop ? PROBE_STOP_STOPPED : PROBE_STOP_BUDGET, s->tsc_khz);
out:
	free(spent);
	free(done);
	return rc;
}
