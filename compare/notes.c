// SPDX-License-Identifier: GPL-2.0-only
/*
 * notes.c - what a comparison says about itself beside the figures
 * (compare/compare_int.h): a side whose runs are not of one setup, a noise
 * floor that differs from the runs, intervals that lack the variation from
 * one run to the next, and the guest speed line (compare/speed.c) with
 * its verdict and what it means for the probes'.
 */
#include <stdio.h>
#include <string.h>

#include "compare/compare_int.h"
#include "compare/floor.h"
#include "compare/speed.h"

/* Do two runs' settings differ in setting i? */
static int setting_differs(const struct run_settings *a, const struct run_settings *b, int i)
{
	char va[64], vb[64];

	return strcmp(run_setting_text(a, i, va, sizeof(va)), run_setting_text(b, i, vb, sizeof(vb)));
}

/* The runs of one side should come from one setup: say so when they do not. */
int notes_side(struct compare_result *cr, const char *what, const struct result_file *const *f,
	       size_t n)
{
	const struct host_record *h0 = &f[0]->host;

	for (size_t i = 1; i < n; i++) {
		const struct host_record *h = &f[i]->host;
		const struct run_settings *s = &f[i]->settings, *s0 = &f[0]->settings;
		const char *field = strcmp(h->kernel, h0->kernel) ? "kernel" :
				    strcmp(h->cpu_name, h0->cpu_name) ? "CPU" :
				    h->exec_mode != h0->exec_mode ? "execution mode" :
				    setting_differs(s, s0, RUN_SETTING_METHOD) ? "method" :
				    setting_differs(s, s0, RUN_SETTING_GUEST_XCR0) ? "guest XCR0" : NULL;

		if (field && findings_warnf(cr, "WARNING: the %s runs differ in %s (%s vs %s): "
						"they are pooled as runs of one setup",
						what, field, f[0]->name, f[i]->name))
			return -1;
	}
	return 0;
}

/*
 * What the floor's runs and these runs do not share, when it is still
 * meaningful to apply it (docs/compare-report.md): once per setting, and a
 * note when the floor's kernel is neither side's.
 */
static int floor_warnings(struct compare_result *cr, const struct result_file *const *f, size_t n,
			  unsigned *warned)
{
	const struct noise_floor *nf = cr->noise;
	const char *name = nf->name ? nf->name : "the noise floor", *what;
	char va[64], vb[64];
	int which;

	for (size_t i = 0; i < n; i++) {
		for (int from = 0; (what = floor_setting_diff(nf, f[i], from, &which, va, vb, sizeof(va)));
		     from = which + 1) {
			if (*warned & 1u << which)
				continue;
			*warned |= 1u << which;
			if (findings_warnf(cr, "WARNING: %s's runs were measured with %s %s, %s "
					       "with %s: its between-run part is added as it "
					       "was measured", name, what, va, f[i]->name, vb))
				return -1;
		}
	}
	return 0;
}

int notes_floor(struct compare_result *cr, const struct result_file *const *a, size_t na,
		const struct result_file *const *b, size_t nb)
{
	const struct noise_floor *nf = cr->noise;
	unsigned warned = 0;

	if (floor_warnings(cr, a, na, &warned) || floor_warnings(cr, b, nb, &warned))
		return -1;
	if (strcmp(nf->host.kernel, a[0]->host.kernel) && strcmp(nf->host.kernel, b[0]->host.kernel) &&
	    findings_warnf(cr, "note: %s was measured under kernel %s, the base runs %s and "
			       "the new %s: it is taken as the host's floor under either",
			       nf->name ? nf->name : "the noise floor", nf->host.kernel,
			       a[0]->host.kernel, b[0]->host.kernel))
		return -1;
	return 0;
}

#define R2R_NAMES 6	/* probes named in the note; more are counted */

/*
 * Said once when some interval lacks the variation from one run to the
 * next (one run on a side, no floor for it): what it does not see and how
 * to include it.
 */
int notes_r2r(struct compare_result *cr)
{
	static const char how[] = "To include it: several runs per side (A1.json A2.json A3.json -- "
				  "B1.json B2.json B3.json, e.g. from `exitscope run --repeat 3`) "
				  "or the host's noise floor (--noise FILE)";
	size_t n = cr->n_r2r_none + cr->n_r2r_partial, k = 0;
	char names[R2R_NAMES * 48 + 32] = "";

	if (!n)
		return 0;
	if (!cr->noise && cr->n_r2r_none == cr->n_by_rounds) {
		cr->r2r_note = findings_printf("note: one run per side and no noise floor: the "
					       "intervals see the variation between the rounds of "
					       "each run, not from one run (process, boot) to the "
					       "next, so a difference between two runs of the same "
					       "code can read as a change. %s", how);
		return cr->r2r_note ? 0 : -1;
	}
	for (size_t i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		if (p->verdict == COMPARE_NOT_RUN || p->method == COMPARE_METHOD_BATCHES ||
		    (p->r2r != COMPARE_R2R_NONE && p->r2r != COMPARE_R2R_PARTIAL))
			continue;
		if (k++ < R2R_NAMES)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%.40s",
				 k > 1 ? ", " : "", p->name);
	}
	if (k > R2R_NAMES)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), " and %zu more",
			 k - R2R_NAMES);
	cr->r2r_note = findings_printf("note: the interval of %zu probe%s (%s) lacks the "
				       "variation from one run to the next of a side measured by "
				       "one run (%s), so a difference between runs can read as a "
				       "change. %s", n, n == 1 ? "" : "s", names,
				       cr->noise ? "and not in the noise floor" : "no noise floor",
				       how);
	return cr->r2r_note ? 0 : -1;
}

/*
 * The guest speed line and what it means for the verdicts: at equal guest
 * speed a change of the guest's speed is not in them, so a significant one
 * is said; not normalized, warn_baseline_shift (probediff.c) said it already.
 */
int notes_speed(struct compare_result *cr, const struct result_file *const *a, size_t na,
		const struct result_file *const *b, size_t nb)
{
	if (compare_speed(cr, a, na, b, nb))
		return -1;
	if (cr->has_speed)
		probediff_verdict(cr, &cr->speed, 0);
	if (cr->has_speed && !probediff_finite(&cr->speed))
		cr->has_speed = 0;
	if (cr->normalized && cr->has_speed &&
	    (cr->speed.verdict == COMPARE_FASTER || cr->speed.verdict == COMPARE_SLOWER) &&
	    findings_warnf(cr, "note: the guest itself ran %s on the new side (its harness "
			       "loop %+.2f%% cycles per op, over %zu probes): the probes' figures "
			       "are at the base side's guest speed, so that is in none of their "
			       "verdicts (--normalize none compares the cycles as measured)",
			       cr->speed.verdict == COMPARE_FASTER ? "faster" : "slower",
			       cr->speed.pct, cr->speed_probes))
		return -1;
	if (cr->n_not_normalized &&
	    findings_warnf(cr, "note: %zu probe%s compared as measured, not at equal guest "
			       "speed: a round without a loop, or loops that did not vary "
			       "within a run", cr->n_not_normalized,
			       cr->n_not_normalized == 1 ? " was" : "s were"))
		return -1;
	return 0;
}
