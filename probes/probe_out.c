// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe_out.c - the notes of probe outcomes, their conversion into the
 * result model (results/run_model.h), and --list.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/region.h"
#include "host/text_wrap.h"
#include "probes/probe_out.h"

/* "irq: 412 in window, 3 late (mean wait 3.9e+06 cycles, not in the cost), 1 never". */
static void irq_note(const struct latency_irq *q, char *buf, size_t len)
{
	uint64_t never = q->ops - q->in_window - q->late;
	size_t n = snprintf(buf, len, "irq: %llu in window", (unsigned long long)q->in_window);

	if (q->late && n < len)
		n += snprintf(buf + n, len - n, ", %llu late", (unsigned long long)q->late);
	if (q->late && n < len)
		n += snprintf(buf + n, len - n, " (mean wait %.3g cycles, not in the cost)",
			      (double)q->late_cycles / (double)q->late);
	if (never && n < len)
		snprintf(buf + n, len - n, ", %llu never", (unsigned long long)never);
}

size_t probe_notes_as(const struct probe_outcome *o, char notes[][PROBE_NOTE_LEN], size_t max, bool table)
{
	const struct latency_result *r = &o->res;
	size_t n = 0;

	if (r->status != PROBE_OK)
		return 0;
	/* First: what the setup chose (pax_open_kernel's sequence); an interrupt probe's delivery counts. */
	if (n < max && r->setup_note[0])
		snprintf(notes[n++], PROBE_NOTE_LEN, "%s", r->setup_note);
	if (n < max && r->irq.ops)
		irq_note(&r->irq, notes[n++], PROBE_NOTE_LEN);
	/* v1: the spread of its samples; v2 judges by the rounds' CI (the budget note). */
	if (n < max && !r->n_rounds && r->cycles.cv > PROBE_CV_WARN)
		snprintf(notes[n++], PROBE_NOTE_LEN, "high CV %.2f: noisy", r->cycles.cv);
	if (n < max && r->migrated)
		snprintf(notes[n++], PROBE_NOTE_LEN, "vCPU thread migrated from CPU %d to %d",
			 r->cpu_before, r->cpu_after);
	if (n < max && !r->has_stats)
		snprintf(notes[n++], PROBE_NOTE_LEN,
			 "no vCPU stats fd: stats-based per-op figures are 0");
	if (n < max && r->has_trace && !r->trace.total)
		snprintf(notes[n++], PROBE_NOTE_LEN,
			 "trace: tracefs recorded no kvm_exit events (the backend emits none)");
	if (n < max && r->has_trace && r->trace.lost)
		snprintf(notes[n++], PROBE_NOTE_LEN, "trace: %llu events lost",
			 (unsigned long long)r->trace.lost);
	if (n < max && r->trace_note[0])
		snprintf(notes[n++], PROBE_NOTE_LEN, "%s", r->trace_note);
	/* The table's columns give the CI and the rounds: its notes leave them out. */
	if (n < max && r->stop == PROBE_STOP_BUDGET && r->n_rounds && r->ci_rel_pct >= 0 && table)
		snprintf(notes[n++], PROBE_NOTE_LEN,
			 "budget spent before the precision was reached");
	else if (n < max && r->stop == PROBE_STOP_BUDGET && r->n_rounds && r->ci_rel_pct >= 0)
		snprintf(notes[n++], PROBE_NOTE_LEN,
			 "budget spent before the precision was reached "
			 "(CI +-%.1f%% after %zu rounds)", r->ci_rel_pct, r->n_rounds);
	else if (n < max && r->stop == PROBE_STOP_BUDGET && r->n_rounds && table)
		snprintf(notes[n++], PROBE_NOTE_LEN, "budget spent before the rounds gave a CI");
	else if (n < max && r->stop == PROBE_STOP_BUDGET && r->n_rounds)
		snprintf(notes[n++], PROBE_NOTE_LEN, "budget spent after %zu round%s: no CI of the "
			 "rounds", r->n_rounds, r->n_rounds == 1 ? "" : "s");
	if (n < max && r->stop == PROBE_STOP_RUN_LIMIT && table)
		snprintf(notes[n++], PROBE_NOTE_LEN, "the run limit ended it");
	else if (n < max && r->stop == PROBE_STOP_RUN_LIMIT)
		snprintf(notes[n++], PROBE_NOTE_LEN, "the run limit ended it after %zu rounds",
			 r->n_rounds);
	if (n < max && r->stop == PROBE_STOP_STOPPED && table)
		snprintf(notes[n++], PROBE_NOTE_LEN, "Ctrl-C ended it");
	else if (n < max && r->stop == PROBE_STOP_STOPPED)
		snprintf(notes[n++], PROBE_NOTE_LEN, "Ctrl-C ended it after %zu rounds",
			 r->n_rounds);
	if (n < max && r->cpus[0] >= 0 && r->cpus[1] >= 0 && r->has_peer_wait)
		snprintf(notes[n++], PROBE_NOTE_LEN,
			 "vCPU 0 on CPU %d, vCPU 1 on CPU %d (ready after %.2g ms)",
			 r->cpus[0], r->cpus[1], r->peer_wait_ms);
	else if (n < max && r->cpus[0] >= 0 && r->cpus[1] >= 0)
		snprintf(notes[n++], PROBE_NOTE_LEN, "vCPU 0 on CPU %d, vCPU 1 on CPU %d",
			 r->cpus[0], r->cpus[1]);
	if (n < max && !r->n_rounds && r->raw_median > 0 && r->overhead_cycles >= r->raw_median)
		snprintf(notes[n++], PROBE_NOTE_LEN,
			 "not above the nop baseline (%.1f <= %.1f cycles)",
			 r->raw_median, r->overhead_cycles);
	return n;
}

size_t probe_notes(const struct probe_outcome *o, char notes[][PROBE_NOTE_LEN], size_t max)
{
	return probe_notes_as(o, notes, max, false);
}

void probe_outcome_record(const struct probe_outcome *o, struct probe_record *out)
{
	const struct latency_result *r = &o->res;
	const struct latency_per_op *po = &r->per_op;
	struct run_probe *p = &out->rec;
	size_t nn, i;

	run_probe_init(p);
	p->name = o->probe->name;
	p->group = o->probe->group;
	p->description = o->probe->description;
	p->status = r->status;
	if (r->has_peer_wait)
		p->peer_wait_ms = r->peer_wait_ms;
	if (r->irq.ops)
		p->delivery = (struct run_delivery){
			.present = 1, .ops = (long long)r->irq.ops, .in_window = (long long)r->irq.in_window,
			.late = (long long)r->irq.late,
			.never = (long long)(r->irq.ops - r->irq.in_window - r->irq.late),
			.late_limit_ms = PROBE_IRQ_LATE_MS,
			.late_wait_cycles = r->irq.late ? (double)r->irq.late_cycles / (double)r->irq.late : -1,
			.late_in_cost = 0,	/* the guest leaves the late phase out of the batch */
		};
	if (r->status != PROBE_OK) {
		p->reason = r->status == PROBE_STOPPED ? "stopped by Ctrl-C before it was measured"
						       : r->reason;
		return;
	}
	p->batch = (long long)r->batch;
	p->samples = r->samples;
	p->n_samples = r->n;
	p->cycles = (struct result_cycles){
		.min = r->cycles.min, .median = r->cycles.median, .p90 = r->cycles.p90,
		.p99 = r->cycles.p99, .mean = r->cycles.mean, .stddev = r->cycles.stddev,
		.cv = r->cycles.cv, .ci95_lo = r->cycles.ci95_lo, .ci95_hi = r->cycles.ci95_hi,
	};
	p->ns_median = r->ns_median;
	p->overhead_cycles = r->overhead_cycles;
	p->raw_median_cycles = r->raw_median;
	p->ops = (long long)r->ops;
#define PER_OP_COPY(name, NAME) p->per_op[RESULT_OP_##NAME] = po->name;
	RESULT_STATS_COUNTERS(PER_OP_COPY)
	RESULT_USER_COUNTERS(PER_OP_COPY)
#undef PER_OP_COPY
	p->per_op_source = r->has_stats
		? "vcpu binary stats fd delta over the measured region, harness ucall subtracted"
		: "no vcpu stats fd: stats fields are 0";
	p->per_op_user_source = "exitscope run loop: KVM_RUN returns to userspace by reason";
	if (r->has_trace)
		region_trace_per_op(&r->trace, (double)(r->trace_ops ? r->trace_ops : r->ops), &p->trace);
	if (r->cpu_before >= 0)
		p->cpu = r->cpu_before;
	for (i = 0; i < r->n_rounds && i < LATENCY_MAX_ROUNDS; i++) {
		const struct latency_round *rd = &r->rounds[i];

		out->rounds[i] = (struct run_round){
			.batch = (long long)rd->batch, .samples = rd->net, .n_samples = rd->n,
			.median = rd->median, .baseline_median = rd->baseline_median,
			.raw_median = rd->raw_median,
		};
	}
	if (r->n_rounds) {
		p->rounds = out->rounds;
		p->n_rounds = r->n_rounds;
	}
	p->stop = r->stop;
	p->ci_rel_pct = r->ci_rel_pct;
	p->cpus[0] = r->cpus[0];
	p->cpus[1] = r->cpus[1];
	nn = probe_notes(o, out->notes, PROBE_MAX_NOTES);
	for (i = 0; i < nn; i++)
		out->note_ptrs[i] = out->notes[i];
	if (nn) {
		p->notes = out->note_ptrs;
		p->n_notes = nn;
	}
}

void probe_record_release(struct probe_record *r)
{
	result_trace_free(&r->rec.trace);
}

int probe_outcome_records(const struct probe_outcome *o, size_t n, struct probe_records *out)
{
	out->n = 0;
	out->probes = calloc(n ? n : 1, sizeof(*out->probes));
	out->store = calloc(n ? n : 1, sizeof(*out->store));
	if (!out->probes || !out->store) {
		probe_records_free(out);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		probe_outcome_record(&o[i], &out->store[i]);
		out->probes[i] = out->store[i].rec;	/* its arrays stay in store[i] */
		out->n++;
	}
	return 0;
}

void probe_records_free(struct probe_records *r)
{
	for (size_t i = 0; r->store && i < r->n; i++)
		probe_record_release(&r->store[i]);
	free(r->store);
	free(r->probes);
	*r = (struct probe_records){ 0 };
}

/*
 * One probe a line: name, group, then its description wrapped at TEXT_WIDTH
 * under its column, and what it needs (when anything) on a line of its own
 * there. Continuation lines start with spaces, so a line's first word is
 * always a probe name (the completion reads it).
 */
void probe_list_print(FILE *f)
{
	char needs[256], lead[64], what[512];
	int w = 5;

	for (size_t i = 0; i < nr_probes; i++)
		if ((int)strlen(probes[i].name) > w)
			w = (int)strlen(probes[i].name);
	snprintf(lead, sizeof(lead), "%-*s %-9s ", w, "probe", "group");
	fprintf(f, "%sdescription, and what it needs\n", lead);
	for (size_t i = 0; i < nr_probes; i++) {
		probe_needs_text(&probes[i], needs, sizeof(needs));
		snprintf(lead, sizeof(lead), "%-*s %-9s ", w, probes[i].name, probes[i].group);
		text_wrap_print(f, lead, strlen(lead), probes[i].description);
		if (strcmp(needs, "none")) {
			size_t col = strlen(lead);

			snprintf(lead, sizeof(lead), "%*s", (int)col, "");
			snprintf(what, sizeof(what), "needs: %s", needs);
			text_wrap_print(f, lead, col, what);
		}
	}
}
