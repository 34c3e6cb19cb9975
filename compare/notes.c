// SPDX-License-Identifier: GPL-2.0-only
/*
 * notes.c - what a comparison says about itself beside the figures
 * (compare/compare_int.h): a side whose runs are not of one setup, a noise
 * floor that differs from the runs, intervals that lack the variation from
 * one run to the next, and the guest speed line (compare/speed.c) with
 * its verdict and what it means for the probes'.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "compare/floor.h"
#include "compare/lane_spread.h"
#include "compare/interval.h"
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
				    setting_differs(s, s0, RUN_SETTING_GUEST_XCR0) ? "guest XCR0"
				    : NULL;

		if (field && findings_warnf(cr, "WARNING: the %s runs differ in %s (%s vs %s): "
						"they are pooled as runs of one setup",
						what, field, f[0]->name, f[i]->name))
			return -ENOMEM;
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
				return -ENOMEM;
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
		return -ENOMEM;
	if (strcmp(nf->host.kernel, a[0]->host.kernel) && strcmp(nf->host.kernel, b[0]->host.kernel) &&
	    findings_warnf(cr, "note: %s was measured under kernel %s, the base runs %s and "
			       "the new %s: it is taken as the host's floor under either",
			       nf->name ? nf->name : "the noise floor", nf->host.kernel,
			       a[0]->host.kernel, b[0]->host.kernel))
		return -ENOMEM;
	return 0;
}

#define R2R_NAMES 6	/* probes named in the note; more are counted */

/* The names of the probes pick() takes, ", " joined (R2R_NAMES, then " and N more"); how many. */
static size_t r2r_names(const struct compare_result *cr, int (*pick)(const struct compare_probe *),
			char *names, size_t len)
{
	size_t k = 0;

	names[0] = 0;
	for (size_t i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		if (p->verdict == COMPARE_NOT_RUN || !pick(p))
			continue;
		if (k++ < R2R_NAMES)
			snprintf(names + strlen(names), len - strlen(names), "%s%.40s",
				 k > 1 ? ", " : "", p->name);
	}
	if (k > R2R_NAMES)
		snprintf(names + strlen(names), len - strlen(names), " and %zu more",
			 k - R2R_NAMES);
	return k;
}

static int lacks_r2r(const struct compare_probe *p)
{
	return p->method != COMPARE_METHOD_BATCHES &&
	       (p->r2r == COMPARE_R2R_NONE || p->r2r == COMPARE_R2R_PARTIAL);
}

static int floor_unjudged(const struct compare_probe *p)
{
	return p->verdict == COMPARE_UNJUDGED && p->r2r == COMPARE_R2R_FLOOR;
}

static int lane_widened(const struct compare_probe *p)
{
	return p->r2r == COMPARE_R2R_LANE;
}

/* s + " " + the formatted text (malloc'd; s freed), or NULL when out of memory. */
static char *note_add(char *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static char *note_add(char *s, const char *fmt, ...)
{
	char *t = NULL, *u;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&t, fmt, ap) < 0)
		t = NULL;
	va_end(ap);
	u = t && s ? findings_printf("%s %s", s, t) : t && !s ? t : NULL;
	if (u != t)
		free(t);
	free(s);
	return u;
}

/*
 * Said once (docs/method.md, "Not judged"): which intervals lack the
 * variation from one run to the next and are not judged, which have a
 * floor that does not hold on an emulated host, which stand for it by the
 * lanes' boot-to-boot spread; how to judge them.
 */
int notes_r2r(struct compare_result *cr)
{
	const char *how = cr->emulated ?
		"To judge them: several runs per side (A1.json A2.json A3.json -- B1.json B2.json "
		"B3.json, e.g. from `exitscope run --repeat 3`)" :
		"To judge them: several runs per side (A1.json A2.json A3.json -- B1.json B2.json "
		"B3.json, e.g. from `exitscope run --repeat 3`) or the host's noise floor "
		"(--noise FILE)";
	char names[R2R_NAMES * 48 + 32];
	char *note = NULL;
	size_t n;

	n = r2r_names(cr, lacks_r2r, names, sizeof(names));
	if (n && !cr->noise && cr->n_r2r_none == cr->n_by_rounds)
		note = note_add(note, "note: one run per side and no noise floor: an interval sees "
				"the variation between the rounds of its run, not from one run "
				"(process, boot) to the next, so one run a side cannot tell a "
				"difference from noise: not judged (the difference and its "
				"within-run interval are shown; 'too noisy' stands). %s.", how);
	else if (n)
		note = note_add(note, "note: the interval of %zu probe%s (%s) lacks the variation "
				"from one run to the next of a side measured by one run (%s), so "
				"one run there cannot tell a difference from noise: not judged "
				"('too noisy' stands). %s.", n, n == 1 ? "" : "s", names,
				cr->noise ? "and not in the noise floor" : "no noise floor", how);
	if (n && !note)
		return -ENOMEM;
	n = r2r_names(cr, floor_unjudged, names, sizeof(names));
	if (n && !(note = note_add(note, "%s%zu probe%s (%s) not judged though the noise floor "
				   "is in %s interval: a side of one run on a host whose guest "
				   "code was emulated, where a floor measured in another window "
				   "does not hold one run a side (docs/benchmark.md); several runs "
				   "per side judge %s.", note ? "" : "note: ", n, n == 1 ? "" : "s",
				   names, n == 1 ? "its" : "their", n == 1 ? "it" : "them")))
		return -ENOMEM;
	n = r2r_names(cr, lane_widened, names, sizeof(names));
	if (n && !(note = note_add(note, "%sBochs lane runs, one boot on a side: the interval of "
				   "%zu one-vCPU probe%s stands for the variation from one boot "
				   "to the next by the lanes' spread, each end moved out by "
				   "%.2f%% of the larger figure.", note ? "" : "note: ", n,
				   n == 1 ? "" : "s", LANE_SPREAD_1VCPU_PCT)))
		return -ENOMEM;
	cr->r2r_note = note;
	return 0;
}

/*
 * The guest speed line and what it means for the verdicts: at equal guest
 * speed a change of the guest's speed is not in them, so a significant one
 * is said; not normalized, warn_baseline_shift (probediff.c) said it already.
 */
int notes_speed(struct compare_result *cr, const struct result_file *const *a, size_t na,
		const struct result_file *const *b, size_t nb)
{
	struct compare_probe *s = &cr->speed;
	int rc = compare_speed(cr, a, na, b, nb);

	if (rc)
		return rc;
	/* Judged as a probe is (docs/method.md, "Not judged"): the loop is one vCPU's. */
	if (cr->has_speed && cr->lanes_deterministic &&
	    (s->r2r == COMPARE_R2R_NONE || s->r2r == COMPARE_R2R_PARTIAL))
		compare_interval_lane(s);
	if (cr->has_speed) {
		probediff_verdict(cr, s, 0);
		s->by_interval = s->verdict;
		if ((s->r2r == COMPARE_R2R_NONE || s->r2r == COMPARE_R2R_PARTIAL) &&
		    s->verdict != COMPARE_TOO_NOISY)
			s->verdict = COMPARE_UNJUDGED;
	}
	if (cr->has_speed && (!cr->speed.has_pct || !probediff_finite(&cr->speed)))
		cr->has_speed = 0;
	if (cr->normalized && cr->has_speed &&
	    (cr->speed.verdict == COMPARE_FASTER || cr->speed.verdict == COMPARE_SLOWER) &&
	    findings_warnf(cr, "note: the guest itself ran %s on the new side (its harness "
			       "loop %+.2f%% cycles per op, over %zu probes): the probes' figures "
			       "are at the base side's guest speed, so that is in none of their "
			       "verdicts (--normalize none compares the cycles as measured)",
			       cr->speed.verdict == COMPARE_FASTER ? "faster" : "slower",
			       cr->speed.pct, cr->speed_probes))
		return -ENOMEM;
	if (cr->n_not_normalized &&
	    findings_warnf(cr, "note: %zu probe%s compared as measured, not at equal guest "
			       "speed: a round without a loop, or loops that did not vary "
			       "within a run", cr->n_not_normalized,
			       cr->n_not_normalized == 1 ? " was" : "s were"))
		return -ENOMEM;
	return 0;
}
