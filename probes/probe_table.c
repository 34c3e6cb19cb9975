// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe_table.c - the run table (probes/probe_table.h). By default a row
 * has the probe's figures and the marks of its notes; each distinct note
 * (a skip reason too) is printed once below, with its mark, wrapped at
 * TEXT_WIDTH. Wide: the CI range of all batches and the notes on the row.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/text_wrap.h"
#include "probes/probe_table.h"

#define NAME_MIN	5		/* "probe" */
#define NAME_WIDE	25

/* The notes of a table: distinct texts, numbered from 1 in order of first use. */
struct table_notes {
	char **text;
	size_t n, max;
};

/* The mark (from 1) of text, added when new; 0 when out of memory. */
static size_t notes_mark(struct table_notes *t, const char *text)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->text[i], text))
			return i + 1;
	if (t->n == t->max) {
		size_t max = t->max ? 2 * t->max : 32;
		char **p = realloc(t->text, max * sizeof(*p));

		if (!p)
			return 0;
		t->text = p;
		t->max = max;
	}
	t->text[t->n] = strdup(text);
	return t->text[t->n] ? ++t->n : 0;
}

static void notes_free(struct table_notes *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->text[i]);
	free(t->text);
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

/* The nop row's own note: what its figure is. */
static const char *nop_note(bool paired)
{
	return paired ? "the baseline loop itself: net ~0" : "harness overhead, subtracted from the others";
}

/* The CI half-width in % of the median: the rounds' (v2), else the samples'. */
static void fmt_ci(char *buf, size_t len, const struct latency_result *r)
{
	double pct = -1;

	if (r->n_rounds)
		pct = r->ci_rel_pct;
	else if (r->cycles.median > 0)
		pct = 50 * (r->cycles.ci95_hi - r->cycles.ci95_lo) / r->cycles.median;
	if (pct < 0 || !isfinite(pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, pct < 100 ? "%.1f%%" : "%.0f%%", pct);
}

static void row_print(FILE *f, int w, const struct probe_outcome *o, bool paired, struct table_notes *tn)
{
	const struct latency_result *r = &o->res;
	char notes[PROBE_MAX_NOTES + 1][PROBE_NOTE_LEN], marks[96] = "", why[LATENCY_REASON_LEN + 32];
	char med[24], ci[24], rounds[16], ns[24], ex[24], us[24];
	size_t nn = 0, m = 0;

	if (r->status != PROBE_OK) {
		snprintf(why, sizeof(why), "%s: %s", probe_status_name(r->status),
			 r->status == PROBE_STOPPED ? "stopped by Ctrl-C" : r->reason);
		snprintf(marks, sizeof(marks), "%zu", notes_mark(tn, why));
		fprintf(f, "%-*s %9s %7s %6s %9s %8s %7s  %s\n", w, o->probe->name, "-", "-", "-", "-", "-",
			"-", marks);
		return;
	}
	if (!strcmp(o->probe->name, "nop"))
		snprintf(notes[nn++], PROBE_NOTE_LEN, "%s", nop_note(paired));
	nn += probe_notes_as(o, notes + nn, PROBE_MAX_NOTES, true);
	for (size_t k = 0; k < nn && m < sizeof(marks); k++)
		m += snprintf(marks + m, sizeof(marks) - m, "%s%zu", k ? "," : "", notes_mark(tn, notes[k]));
	fmt_num(med, sizeof(med), r->cycles.median);
	fmt_ci(ci, sizeof(ci), r);
	if (r->n_rounds)
		snprintf(rounds, sizeof(rounds), "%zu", r->n_rounds);
	else
		snprintf(rounds, sizeof(rounds), "-");
	fmt_num(ns, sizeof(ns), r->ns_median);
	fmt_per_op(ex, sizeof(ex), r->per_op.exits);
	fmt_per_op(us, sizeof(us), r->per_op.user_io + r->per_op.user_mmio + r->per_op.user_msr);
	fprintf(f, "%-*s %9s %7s %6s %9s %8s %7s  %s\n", w, o->probe->name, med, ci, rounds, ns, ex, us, marks);
}

/* The default table: rows in TEXT_WIDTH columns, then each note once. */
static void table_print(FILE *f, const struct probe_outcome *o, size_t n, bool paired)
{
	struct table_notes tn = { 0 };
	int w = NAME_MIN;
	char lead[16];

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(o[i].probe->name) > w)
			w = (int)strlen(o[i].probe->name);
	fprintf(f, "%-*s %9s %7s %6s %9s %8s %7s  %s\n", w, "probe", "cycles", "+-CI", "rounds", "ns",
		"exits/op", "user/op", "notes");
	for (size_t i = 0; i < n; i++)
		row_print(f, w, &o[i], paired, &tn);
	if (tn.n)
		fprintf(f, "\nnotes:\n");
	for (size_t i = 0; i < tn.n; i++) {
		snprintf(lead, sizeof(lead), "%3zu  ", i + 1);
		text_wrap_print(f, lead, 5, tn.text[i]);
	}
	notes_free(&tn);
}

/* Wide: the CI range of all batches, every note on its probe's row. */
static void wide_print(FILE *f, const struct probe_outcome *o, size_t n, bool paired)
{
	fprintf(f, "%-*s %10s %21s %6s %10s %9s %9s  %s\n", NAME_WIDE, "probe", "cycles", "95% CI of median",
		"rounds", "ns", "exits/op", "user/op", "note");
	for (size_t i = 0; i < n; i++) {
		const struct latency_result *r = &o[i].res;
		char med[24], lo[24], hi[24], ci[48], rounds[16], ns[24], ex[24], us[24];
		char notes[PROBE_MAX_NOTES][PROBE_NOTE_LEN];
		size_t nn;

		if (r->status != PROBE_OK) {
			fprintf(f, "%-*s %10s %21s %6s %10s %9s %9s  %s: %s\n", NAME_WIDE, o[i].probe->name, "-",
				"-", "-", "-", "-", "-", probe_status_name(r->status),
				r->status == PROBE_STOPPED ? "stopped by Ctrl-C" : r->reason);
			continue;
		}
		fmt_num(med, sizeof(med), r->cycles.median);
		fmt_num(lo, sizeof(lo), r->cycles.ci95_lo);
		fmt_num(hi, sizeof(hi), r->cycles.ci95_hi);
		snprintf(ci, sizeof(ci), "%s - %s", lo, hi);
		if (r->n_rounds)
			snprintf(rounds, sizeof(rounds), "%zu", r->n_rounds);
		else
			snprintf(rounds, sizeof(rounds), "-");
		fmt_num(ns, sizeof(ns), r->ns_median);
		fmt_per_op(ex, sizeof(ex), r->per_op.exits);
		fmt_per_op(us, sizeof(us), r->per_op.user_io + r->per_op.user_mmio + r->per_op.user_msr);
		nn = probe_notes(&o[i], notes, PROBE_MAX_NOTES);
		fprintf(f, "%-*s %10s %21s %6s %10s %9s %9s  %s%s%s\n", NAME_WIDE, o[i].probe->name, med, ci,
			rounds, ns, ex, us, strcmp(o[i].probe->name, "nop") ? "" : nop_note(paired),
			strcmp(o[i].probe->name, "nop") || !nn ? "" : "; ", nn ? notes[0] : "");
		for (size_t k = 1; k < nn; k++)
			fprintf(f, "%-*s %10s %21s %6s %10s %9s %9s  %s\n", NAME_WIDE, "", "", "", "", "", "", "",
				notes[k]);
	}
}

static void legend_print(FILE *f, bool paired, bool wide, bool emulated)
{
	fprintf(f, "\n");
	if (paired)
		text_wrap_print(f, "cycles: ", 8, "median net TSC cycles per op: each probe batch minus the "
				"paired baseline batch (the same loop calling an empty function), over rounds; ns "
				"from the TSC.");
	else
		text_wrap_print(f, "cycles: ", 8, "median TSC cycles per op, nop baseline subtracted; ns from "
				"the TSC frequency.");
	if (wide)
		text_wrap_print(f, "95% CI of median: ", 18, "over all batches; the CI in a note is the "
				"rounds' (the one the stop rule and compare use).");
	else if (paired)
		text_wrap_print(f, "+-CI: ", 6, "half-width of the 95% CI of the round medians, in % of the "
				"median (what --precision judges); rounds: rounds measured; --wide also shows "
				"the CI of all batches, and each probe's notes on its row.");
	else
		text_wrap_print(f, "+-CI: ", 6, "half-width of the 95% CI of the median of the samples, in % "
				"of it; --wide shows the CI's range, and each probe's notes on its row.");
	text_wrap_print(f, "exits/op: ", 10, emulated
			? "'exits' of the vCPU binary stats fd over the measured region (kvm_pvm keeps its own "
			  "notion of exits there: not hardware VM exits)."
			: "'exits' of the vCPU binary stats fd over the measured region.");
	text_wrap_print(f, "user/op: ", 9, "KVM_RUN returns to exitscope (I/O, MMIO, MSR), counted by its run "
			"loop.");
}

void probe_table_print(FILE *f, const struct probe_outcome *o, size_t n, const struct probe_table_opts *t)
{
	bool paired = false;

	for (size_t i = 0; i < n; i++)
		paired = paired || o[i].res.n_rounds;
	if (t->wide)
		wide_print(f, o, n, paired);
	else
		table_print(f, o, n, paired);
	if (t->legend)
		legend_print(f, paired, t->wide, t->emulated);
}
