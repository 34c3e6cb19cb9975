/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * region.h - the exits of one bracketed guest region: the guest syncs, the
 * host calls region_begin(), runs the vCPU until the guest's closing sync,
 * and calls region_end(), which gives what happened in between: the vCPU
 * binary stats-fd deltas, the run loop's returns to userspace by reason,
 * and optionally the tracefs kvm_exit events by reason, each with the
 * closing sync's own exit taken out (it is the harness's, not the
 * measured code's). The latency harness (run) and the ownership map both
 * count with it, so they agree by construction.
 *
 *	struct region rg;
 *	struct region_counts rc;
 *
 *	region_init(&rg, vcpu);
 *	... guest reaches its opening sync ...
 *	region_begin(&rg, trace);
 *	vcpu_run(vcpu, ...);			// until the closing sync
 *	region_end(&rg, &rc);			// or region_abort(&rg)
 *	region_free(&rg);
 *
 * A region may be begun again after it ended. Nothing here prints.
 */
#ifndef EXITSCOPE_HARNESS_REGION_H
#define EXITSCOPE_HARNESS_REGION_H

#include <stdbool.h>
#include <stdint.h>

#include "guest/vm.h"
#include "kvm/stats_fd.h"
#include "kvm/trace.h"
#include "results/schema.h"
#include "results/trace_model.h"

struct region {
	struct vcpu *vcpu;
	bool snap;			/* the stats snapshots below are usable */
	bool ok;			/* s0 holds the begin counts */
	struct stats_snapshot s0, s1, d;
	struct vcpu_user_exits u0;
	bool trace, tracing;		/* asked for, and the session is running */
	int trace_err;			/* trace_begin()'s error when it failed */
	struct trace_session ts;
};

/* What one region cost, the harness's syncs (ucalls) taken out. */
/*
 * The counters of a region are the result model's per-op counters
 * (RESULT_STATS_COUNTERS, RESULT_USER_COUNTERS in results/schema.h, listed
 * there once): the vCPU binary stats fd's, by their stats names, and the run
 * loop's KVM_RUN returns to this process by reason.
 */

struct region_counts {
	bool has_stats;			/* the stats-fd figures are real (else 0) */
	/* vCPU binary stats fd deltas; run loop returns by reason, ucalls not counted */
#define REGION_COUNTER(name, NAME) uint64_t name;
	RESULT_STATS_COUNTERS(REGION_COUNTER)
	RESULT_USER_COUNTERS(REGION_COUNTER)
#undef REGION_COUNTER
	uint64_t user_other;
	uint64_t ucalls;		/* harness syncs in the region (the closing one) */
	bool has_trace;			/* trace holds the region's kvm_exit events */
	struct trace_counts trace;
	char trace_note[160];		/* why there is no trace, when one was asked for */
};

/*
 * Prepare snapshots of v's stats fd (none when v has no stats). 0, or
 * -errno when they could not be allocated: the region is still usable and
 * counts without the stats fd (has_stats false).
 */
int region_init(struct region *r, struct vcpu *v);
void region_free(struct region *r);

/* The opening sync has just returned: take the "before" counts (and start tracing). */
void region_begin(struct region *r, bool trace);
/* The closing sync has just returned: the counts in between, into *c. */
void region_end(struct region *r, struct region_counts *c);
/* The region will not end (the guest did not reach its closing sync). */
void region_abort(struct region *r);

/* All returns to userspace of c other than the harness's syncs. */
uint64_t region_user_exits(const struct region_counts *c);
/* Add b's counts to a's (a region measured in parts, e.g. the rounds of a probe). */
void region_counts_add(struct region_counts *a, const struct region_counts *b);

/* Exits by reason in tc divided by ops, as the result model keeps them. 0 or -errno. */
int region_trace_per_op(const struct trace_counts *tc, double ops, struct result_trace *out);

#endif
