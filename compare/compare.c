/*
 * compare.c - A/B comparison of result files (one or several runs per side):
 * host differences, per-probe verdicts (docs/method.md), exits/op, map and
 * check changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "compare/floor.h"
#include "compare/speed.h"

const char *const compare_verdict_names[COMPARE_VERDICT_N] = {
	"faster", "slower", "no significant change", "too noisy", "not compared",
};

const char *const compare_method_names[COMPARE_METHOD_N] = { "batches", "rounds", "runs" };
const char *const compare_r2r_names[COMPARE_R2R_N] = { "none", "partial", "runs", "floor" };
const char *const compare_normalize_names[COMPARE_NORMALIZE_N] = { "auto", "none", "speed" };
const char *const compare_counter_by_names[COMPARE_COUNTER_BY_N] = { "whole", "zero", "runs",
								     "not judged" };

int compare_normalize_parse(const char *s, enum compare_normalize *out)
{
	for (int i = 0; i < COMPARE_NORMALIZE_N; i++)
		if (!strcmp(s, compare_normalize_names[i])) {
			*out = (enum compare_normalize)i;
			return 0;
		}
	return -1;
}

void compare_opts_init(struct compare_opts *o)
{
	o->threshold_pct = COMPARE_THRESHOLD_PCT;
	o->seed = COMPARE_SEED;
	o->iters = 0;
	o->noise = NULL;
	o->normalize = COMPARE_NORMALIZE_AUTO;
}

/* "a.json + b.json" (malloc'd). */
static char *join_names(const struct result_file *const *f, size_t n)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < n; i++)
		len += strlen(f[i]->name) + 3;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = 0;
	for (i = 0; i < n; i++) {
		if (i)
			strcat(s, " + ");
		strcat(s, f[i]->name);
	}
	return s;
}

static const char **file_names(const struct result_file *const *f, size_t n)
{
	const char **v = malloc(n * sizeof(*v));

	for (size_t i = 0; v && i < n; i++)
		v[i] = f[i]->name;
	return v;
}

/* Do two runs' settings differ in setting i? */
static int setting_differs(const struct run_settings *a, const struct run_settings *b, int i)
{
	char va[64], vb[64];

	return strcmp(run_setting_text(a, i, va, sizeof(va)), run_setting_text(b, i, vb, sizeof(vb)));
}

/* The runs of one side should come from one setup: say so when they do not. */
static int check_side(struct compare_result *cr, const char *what,
		      const struct result_file *const *f, size_t n)
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

static int floor_notes(struct compare_result *cr, const struct result_file *const *a, size_t na,
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
static int r2r_note(struct compare_result *cr)
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
 * Whether the figures are put at equal guest speed (docs/method.md): as
 * asked, or with auto where every file of both sides ran its guest code
 * emulated, the host's speed then moving an op's cost and its paired loop's
 * alike.
 */
static void resolve_normalize(struct compare_result *cr, const struct result_file *const *a,
			      size_t na, const struct result_file *const *b, size_t nb)
{
	size_t emulated = 0, i;

	for (i = 0; i < na; i++)
		emulated += a[i]->host.exec_mode == EXEC_EMULATED;
	for (i = 0; i < nb; i++)
		emulated += b[i]->host.exec_mode == EXEC_EMULATED;
	switch (cr->opts.normalize) {
	case COMPARE_NORMALIZE_NONE:
		cr->normalized = 0;
		cr->normalize_why = "--normalize none";
		break;
	case COMPARE_NORMALIZE_SPEED:
		cr->normalized = 1;
		cr->normalize_why = "--normalize speed";
		break;
	default:
		cr->normalized = emulated == na + nb;
		cr->normalize_why = cr->normalized ?
			"--normalize auto: every run's guest code was emulated" :
			"--normalize auto: guest code ran natively in a run";
		break;
	}
}

/*
 * The guest speed line and what it means for the verdicts: at equal guest
 * speed a change of the guest's speed is not in them, so a significant one
 * is said; not normalized, warn_baseline_shift (probediff.c) said it already.
 */
static int speed_notes(struct compare_result *cr, const struct result_file *const *a, size_t na,
		       const struct result_file *const *b, size_t nb)
{
	if (compare_speed(cr, a, na, b, nb))
		return -1;
	if (cr->has_speed)
		probediff_verdict(cr, &cr->speed);
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

struct compare_result *compare_results_multi(const struct result_file *const *a, size_t na,
					     const struct result_file *const *b, size_t nb,
					     const struct compare_opts *opts, char *err, size_t errlen)
{
	struct compare_result *cr = NULL;

	if (!na || !nb) {
		if (err && errlen)
			snprintf(err, errlen, "no %s files", na ? "new" : "base");
		return NULL;
	}
	cr = calloc(1, sizeof(*cr));
	if (!cr)
		goto oom;
	if (opts)
		cr->opts = *opts;
	else
		compare_opts_init(&cr->opts);
	cr->name_a = join_names(a, na);
	cr->name_b = join_names(b, nb);
	cr->files_a = file_names(a, na);
	cr->files_b = file_names(b, nb);
	cr->n_files_a = na;
	cr->n_files_b = nb;
	cr->noise = cr->opts.noise;
	resolve_normalize(cr, a, na, b, nb);
	if (!cr->name_a || !cr->name_b || !cr->files_a || !cr->files_b ||
	    hostdiff_host(cr, &a[0]->host, &b[0]->host) ||
	    check_side(cr, "base", a, na) || check_side(cr, "new", b, nb) ||
	    (a[0]->settings.present && b[0]->settings.present &&
	     hostdiff_settings(cr, a[0], b[0])) ||
	    (cr->noise && floor_notes(cr, a, na, b, nb)) ||
	    probediff_probes(cr, a, na, b, nb) || speed_notes(cr, a, na, b, nb) || r2r_note(cr) ||
	    (a[0]->map && b[0]->map && changes_maps(cr, a[0]->map, b[0]->map)) ||
	    (a[0]->checks.n && b[0]->checks.n && changes_checks(cr, &a[0]->checks, &b[0]->checks)))
		goto oom;
	return cr;
oom:
	compare_free(cr);
	if (err && errlen)
		snprintf(err, errlen, "%s vs %s: out of memory", a[0]->name, b[0]->name);
	return NULL;
}

struct compare_result *compare_results(const struct result_file *a, const struct result_file *b,
				       const struct compare_opts *opts, char *err, size_t errlen)
{
	return compare_results_multi(&a, 1, &b, 1, opts, err, errlen);
}

int compare_regressed(const struct compare_result *cr)
{
	return cr->n_slower > 0;
}

void compare_free(struct compare_result *cr)
{
	size_t i;

	if (!cr)
		return;
	for (i = 0; i < cr->n_host; i++) {
		free(cr->host[i].field);
		free(cr->host[i].a);
		free(cr->host[i].b);
	}
	free(cr->host);
	for (i = 0; i < cr->n_warnings; i++)
		free(cr->warnings[i]);
	free(cr->warnings);
	free(cr->probes);
	free(cr->counters);
	free(cr->unjudged);
	free(cr->map);
	free(cr->checks);
	free(cr->only_a);
	free(cr->only_b);
	free(cr->name_a);
	free(cr->name_b);
	free(cr->files_a);
	free(cr->files_b);
	free(cr->r2r_note);
	free(cr);
}
