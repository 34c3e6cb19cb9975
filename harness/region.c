// SPDX-License-Identifier: GPL-2.0-only
/*
 * region.c - count the exits of one guest region between two syncs
 * (harness/region.h): stats-fd snapshots and run-loop counters around the
 * region, tracefs optionally, the closing sync's exit subtracted once here
 * for every user.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness/region.h"

int region_init(struct region *r, struct vcpu *v)
{
	int err;

	memset(r, 0, sizeof(*r));
	r->vcpu = v;
	if (!v->has_stats)
		return 0;
	err = stats_snapshot_init(&v->stats, &r->s0);
	if (!err)
		err = stats_snapshot_init(&v->stats, &r->s1);
	if (!err)
		err = stats_snapshot_init(&v->stats, &r->d);
	if (err) {
		region_free(r);
		return err;
	}
	r->snap = true;
	return 0;
}

void region_free(struct region *r)
{
	region_abort(r);
	stats_snapshot_free(&r->s0);
	stats_snapshot_free(&r->s1);
	stats_snapshot_free(&r->d);
	r->snap = false;
}

void region_begin(struct region *r, bool trace)
{
	region_abort(r);
	r->trace = trace;
	r->trace_err = 0;
	if (trace) {
		memset(&r->ts, 0, sizeof(r->ts));
		r->trace_err = trace_begin(&r->ts);
		r->tracing = r->trace_err == 0;
	}
	r->u0 = r->vcpu->user_exits;
	r->ok = r->snap && !stats_snapshot_take(&r->vcpu->stats, &r->s0);
}

static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

void region_end(struct region *r, struct region_counts *c)
{
	const struct vcpu_user_exits *u0 = &r->u0, *u1 = &r->vcpu->user_exits;
	const struct kvm_stats *st = &r->vcpu->stats;
	bool ok = r->ok && !stats_snapshot_take(st, &r->s1);
	int err;

	memset(c, 0, sizeof(*c));
	c->user_io = u1->io - u0->io;
	c->user_mmio = u1->mmio - u0->mmio;
	c->user_msr = u1->msr - u0->msr;
	c->user_intr = u1->intr - u0->intr;
	c->user_other = u1->other - u0->other;
	c->ucalls = u1->ucall - u0->ucall;
	if (r->tracing) {
		r->tracing = false;
		err = trace_end(&r->ts, &c->trace);
		if (err) {
			snprintf(c->trace_note, sizeof(c->trace_note),
				 "reading the trace failed: %s", strerror(-err));
		} else {
			c->has_trace = true;
			/* The closing ucall is inside the traced region too. */
			for (uint64_t i = 0; i < c->ucalls; i++)
				trace_drop_ucall(&c->trace);
		}
	} else if (r->trace) {
		snprintf(c->trace_note, sizeof(c->trace_note), "tracefs session failed: %s",
			 strerror(-r->trace_err));
	}
	r->trace = false;
	r->ok = false;
	if (!ok)
		return;
	stats_delta(st, &r->s0, &r->s1, &r->d);
	c->has_stats = true;
#define STATS_DELTA(name, NAME) c->name = stats_value(st, &r->d, #name);
	RESULT_STATS_COUNTERS(STATS_DELTA)
#undef STATS_DELTA
	/* Each harness ucall is one exit, an I/O exit (where the backend counts those). */
	c->exits = sub0(c->exits, c->ucalls);
	if (c->io_exits >= c->ucalls)
		c->io_exits -= c->ucalls;
}

void region_abort(struct region *r)
{
	if (r->tracing)
		trace_abort(&r->ts);
	r->tracing = false;
	r->trace = false;
	r->ok = false;
}

void region_counts_add(struct region_counts *a, const struct region_counts *b)
{
	a->has_stats = a->has_stats && b->has_stats;
#define COUNTER_ADD(name, NAME) a->name += b->name;
	RESULT_STATS_COUNTERS(COUNTER_ADD)
	RESULT_USER_COUNTERS(COUNTER_ADD)
#undef COUNTER_ADD
	a->user_other += b->user_other;
	a->ucalls += b->ucalls;
}

uint64_t region_user_exits(const struct region_counts *c)
{
	return c->user_io + c->user_mmio + c->user_msr + c->user_intr + c->user_other;
}

_Static_assert(RESULT_TRACE_NAME_LEN >= TRACE_NAME_LEN && RESULT_TRACE_MAX >= TRACE_MAX_REASONS,
	       "the result model holds a whole trace_counts");

int region_trace_per_op(const struct trace_counts *tc, double ops, struct result_trace *out)
{
	int r = result_trace_alloc(out, tc->nr);

	for (unsigned int i = 0; !r && i < tc->nr; i++) {
		snprintf(out->reason[i].name, sizeof(out->reason[i].name), "%s",
			 tc->reason[i].name);
		out->reason[i].per_op = ops > 0 ? (double)tc->reason[i].count / ops : 0;
	}
	return r;
}
