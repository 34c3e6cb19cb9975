/*
 * probe_out.c - text table, notes and JSON of probe outcomes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probes/probe_out.h"

size_t probe_notes(const struct probe_outcome *o, char notes[][PROBE_NOTE_LEN], size_t max)
{
	const struct latency_result *r = &o->res;
	size_t n = 0;

	if (r->status != PROBE_OK)
		return 0;
	if (n < max && r->cycles.cv > PROBE_CV_WARN)
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
	if (n < max && r->raw_median > 0 && r->overhead_cycles >= r->raw_median)
		snprintf(notes[n++], PROBE_NOTE_LEN,
			 "not above the nop baseline (%.1f <= %.1f cycles)",
			 r->raw_median, r->overhead_cycles);
	return n;
}

static json_t *per_op_json(const struct latency_result *r)
{
	const struct latency_per_op *p = &r->per_op;

	return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:s, s:s}",
			 "exits", p->exits, "io_exits", p->io_exits, "mmio_exits", p->mmio_exits,
			 "halt_exits", p->halt_exits, "hypercalls", p->hypercalls,
			 "insn_emulation", p->insn_emulation, "signal_exits", p->signal_exits,
			 "irq_exits", p->irq_exits,
			 "user_io", p->user_io, "user_mmio", p->user_mmio, "user_msr", p->user_msr,
			 "user_intr", p->user_intr,
			 "source", r->has_stats ? "vcpu binary stats fd delta over the measured region, harness ucall subtracted"
						: "no vcpu stats fd: stats fields are 0",
			 "user_source", "exitscope run loop: KVM_RUN returns to userspace by reason");
}

static json_t *trace_json(const struct latency_result *r)
{
	json_t *t = json_object();

	for (unsigned int i = 0; i < r->trace.nr; i++)
		json_object_set_new(t, r->trace.reason[i].name,
				    json_real((double)r->trace.reason[i].count / (double)r->ops));
	return t;
}

json_t *probe_outcome_json(const struct probe_outcome *o)
{
	const struct latency_result *r = &o->res;
	const struct probe *p = o->probe;
	char notes[PROBE_MAX_NOTES][PROBE_NOTE_LEN];
	size_t nn = probe_notes(o, notes, PROBE_MAX_NOTES);
	json_t *j, *s, *jn;

	j = json_pack("{s:s, s:s, s:s, s:s}", "name", p->name, "group", p->group,
		      "description", p->description, "status", probe_status_name(r->status));
	if (r->status != PROBE_OK) {
		json_object_set_new(j, "reason", json_string(r->status == PROBE_STOPPED ?
				    "stopped by Ctrl-C before it was measured" : r->reason));
		return j;
	}
	s = json_array();
	for (size_t i = 0; i < r->n; i++)
		json_array_append_new(s, json_real(r->samples[i]));
	json_object_set_new(j, "batch", json_integer((json_int_t)r->batch));
	json_object_set_new(j, "samples", s);
	json_object_set_new(j, "cycles",
			    json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
				      "min", r->cycles.min, "median", r->cycles.median,
				      "p90", r->cycles.p90, "p99", r->cycles.p99, "mean", r->cycles.mean,
				      "stddev", r->cycles.stddev, "cv", r->cycles.cv,
				      "ci95_lo", r->cycles.ci95_lo, "ci95_hi", r->cycles.ci95_hi));
	json_object_set_new(j, "ns_median", json_real(r->ns_median));
	json_object_set_new(j, "overhead_cycles", json_real(r->overhead_cycles));
	json_object_set_new(j, "raw_median_cycles", json_real(r->raw_median));
	json_object_set_new(j, "ops", json_integer((json_int_t)r->ops));
	json_object_set_new(j, "per_op", per_op_json(r));
	if (r->has_trace)
		json_object_set_new(j, "trace", trace_json(r));
	if (r->cpu_before >= 0)
		json_object_set_new(j, "cpu", json_integer(r->cpu_before));
	if (nn) {
		jn = json_array();
		for (size_t i = 0; i < nn; i++)
			json_array_append_new(jn, json_string(notes[i]));
		json_object_set_new(j, "notes", jn);
	}
	return j;
}

static void fmt_num(char *buf, size_t len, double v)
{
	if (v >= 100000)
		snprintf(buf, len, "%.3g", v);
	else if (v >= 100)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.1f", v);
}

static void fmt_per_op(char *buf, size_t len, double v)
{
	if (v == 0)
		snprintf(buf, len, "0");
	else if (v == floor(v) && v < 1e6)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3f", v);
}

void probe_table_print(FILE *f, const struct probe_outcome *o, size_t n, bool emulated)
{
	fprintf(f, "%-25s %10s %21s %10s %9s %9s  %s\n", "probe", "cycles", "95% CI of median",
		"ns", "exits/op", "user/op", "note");
	for (size_t i = 0; i < n; i++) {
		const struct latency_result *r = &o[i].res;
		char med[24], lo[24], hi[24], ci[48], ns[24], ex[24], us[24];
		char notes[PROBE_MAX_NOTES][PROBE_NOTE_LEN];
		size_t nn;

		if (r->status != PROBE_OK) {
			fprintf(f, "%-25s %10s %21s %10s %9s %9s  %s: %s\n", o[i].probe->name, "-", "-",
				"-", "-", "-", probe_status_name(r->status),
				r->status == PROBE_STOPPED ? "stopped by Ctrl-C" : r->reason);
			continue;
		}
		fmt_num(med, sizeof(med), r->cycles.median);
		fmt_num(lo, sizeof(lo), r->cycles.ci95_lo);
		fmt_num(hi, sizeof(hi), r->cycles.ci95_hi);
		snprintf(ci, sizeof(ci), "%s - %s", lo, hi);
		fmt_num(ns, sizeof(ns), r->ns_median);
		fmt_per_op(ex, sizeof(ex), r->per_op.exits);
		fmt_per_op(us, sizeof(us), r->per_op.user_io + r->per_op.user_mmio + r->per_op.user_msr);
		nn = probe_notes(&o[i], notes, PROBE_MAX_NOTES);
		fprintf(f, "%-25s %10s %21s %10s %9s %9s  %s%s\n", o[i].probe->name, med, ci, ns, ex, us,
			!strcmp(o[i].probe->name, "nop") ? (nn ? "harness overhead; " : "harness overhead, subtracted from the others") : "",
			nn ? notes[0] : "");
		for (size_t k = 1; k < nn; k++)
			fprintf(f, "%-25s %10s %21s %10s %9s %9s  %s\n", "", "", "", "", "", "", notes[k]);
	}
	fprintf(f, "\ncycles: median TSC cycles per op, nop baseline subtracted; ns from the TSC frequency.\n"
		   "exits/op: 'exits' of the vCPU binary stats fd over the measured region%s.\n"
		   "user/op: KVM_RUN returns to exitscope (I/O, MMIO, MSR), counted by its run loop.\n",
		emulated ? "\n          (kvm_pvm keeps its own notion of exits there: not hardware VM exits)" : "");
}

void probe_list_print(FILE *f)
{
	char needs[256];

	fprintf(f, "%-25s %-9s %-45s  %s\n", "probe", "group", "needs", "description");
	for (size_t i = 0; i < nr_probes; i++)
		fprintf(f, "%-25s %-9s %-45s  %s\n", probes[i].name, probes[i].group,
			probe_needs_text(&probes[i], needs, sizeof(needs)), probes[i].description);
}
