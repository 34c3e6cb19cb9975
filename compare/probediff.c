// SPDX-License-Identifier: GPL-2.0-only
/*
 * probediff.c - the probes of a comparison (compare/compare_int.h): each
 * probe's runs on both sides pooled by name, its interval (compare/interval.c)
 * and verdict (docs/method.md), its per-op counters (compare/counters.c),
 * the probes on one side only, and a shift of the harness baseline shared
 * by all.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/array_size.h"
#include "compare/compare_int.h"
#include "compare/counters.h"
#include "compare/lane_spread.h"
#include "compare/interval.h"
#include "compare/speed.h"
#include "results/guest_speed.h"

/* Printed with the probes (and in the JSON) when some probe had fewer than 2 rounds a side. */
static const char batches_note[] =
	"note: fewer than 2 rounds on a side (v1 runs, older recordings or a single round): "
	"the interval resamples the samples of the runs and does not see run-to-run "
	"variance, so a drift between the runs cannot be told from a change: not judged "
	"(but in Bochs lane runs)";
static const char mixed_note[] =
	"note: probes marked (b) have fewer than 2 rounds on a side (v1 runs, older "
	"recordings or a single round): their interval resamples the samples and does not "
	"see run-to-run variance, so a drift between the runs cannot be told from a change: "
	"not judged (but in Bochs lane runs)";

/* Sorted index of the probes of a side's files, for matching by name without quadratic scans. */
struct key_ref {
	const char *key;
	size_t file, idx;
};

static int cmp_key_ref(const void *pa, const void *pb)
{
	const struct key_ref *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	if (c)
		return c;
	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/* The first (lowest file, then index) entry called key, or NULL. */
static const struct key_ref *find_key(const struct key_ref *refs, size_t n, const char *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(refs[mid].key, key);

		if (c == 0) {
			while (mid > 0 && strcmp(refs[mid - 1].key, key) == 0)
				mid--;
			return &refs[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct side {
	const struct result_file *const *f;
	size_t n;
	struct key_ref *refs;
	size_t n_refs;
};

static int side_index(struct side *s)
{
	size_t i, j, total = 0;

	for (i = 0; i < s->n; i++)
		total += s->f[i]->n_probes;
	s->refs = malloc((total ? total : 1) * sizeof(*s->refs));
	if (!s->refs)
		return -ENOMEM;
	for (i = 0; i < s->n; i++)
		for (j = 0; j < s->f[i]->n_probes; j++)
			s->refs[s->n_refs++] = (struct key_ref){ s->f[i]->probes[j].name, i, j };
	qsort(s->refs, s->n_refs, sizeof(*s->refs), cmp_key_ref);
	return 0;
}

static const struct run_probe *ref_probe(const struct side *s, const struct key_ref *r)
{
	return &s->f[r->file]->probes[r->idx];
}

/*
 * A probe's measurements on one side: the probe in every file where it ran
 * (status ok), the first such (or the first file's, when it ran nowhere) as
 * the side's representative.
 */
struct pooled {
	const struct run_probe **ok;
	size_t n_ok;
	const struct run_probe *rep;
};

static int pool_side(const struct side *s, const struct key_ref *first, struct pooled *pl)
{
	const struct key_ref *r, *end = s->refs + s->n_refs;

	pl->n_ok = 0;
	pl->rep = ref_probe(s, first);
	pl->ok = malloc(s->n * sizeof(*pl->ok));
	if (!pl->ok)
		return -ENOMEM;
	for (r = first; r < end && strcmp(r->key, first->key) == 0; r++) {
		const struct run_probe *p = ref_probe(s, r);

		if (p->status != PROBE_OK)
			continue;
		if (!pl->n_ok)
			pl->rep = p;
		if (pl->n_ok < s->n)	/* a name is unique within a file */
			pl->ok[pl->n_ok++] = p;
	}
	return 0;
}

/*
 * The verdict (docs/method.md): significant when the CI excludes 0 and the
 * change reaches the threshold; otherwise "too noisy" when the CI's half
 * width (the smallest detectable change) exceeds the threshold, else "no
 * significant change". Without a percentage (a base of at most zero) the interval
 * alone decides and there is no "too noisy".
 */
static enum compare_verdict decide(const struct compare_probe *p, double threshold_pct)
{
	bool significant = (p->d.lo > 0 || p->d.hi < 0) &&
			  (!p->has_pct || fabs(p->pct) >= threshold_pct);

	if (significant)
		return p->d.diff < 0 ? COMPARE_FASTER : COMPARE_SLOWER;
	if (p->has_pct && p->mde_pct > threshold_pct)
		return COMPARE_TOO_NOISY;
	return COMPARE_SAME;
}

/* p's percentages (of the base figure) and verdict, from its interval. */
void probediff_verdict(const struct compare_result *cr, struct compare_probe *p, double zero)
{
	p->has_pct = p->d.median_a > zero;
	if (p->has_pct) {
		p->pct = 100 * p->d.diff / p->d.median_a;
		p->pct_lo = 100 * p->d.lo / p->d.median_a;
		p->pct_hi = 100 * p->d.hi / p->d.median_a;
		p->mde_pct = (p->pct_hi - p->pct_lo) / 2;
	}
	p->verdict = decide(p, cr->opts.threshold_pct);
}

/*
 * Put p's rounds at the base side's guest speed when the comparison is
 * normalized: every round of both sides has a loop, and the slope can be
 * fitted on them (results/guest_speed.h). Each side's mean loop into p->loop_a,
 * p->loop_b (-1 unknown). 0, or -ENOMEM.
 */
static int probe_speed(const struct compare_result *cr, struct compare_probe *p,
		       const struct pooled *pa, const struct pooled *pb)
{
	const struct run_probe **all;
	int rc;

	p->loop_a = speed_mean(pa->ok, pa->n_ok);
	p->loop_b = speed_mean(pb->ok, pb->n_ok);
	p->normalized = 0;
	if (!cr->normalized || !(p->loop_a > 0) || !(p->loop_b > 0))
		return 0;
	all = malloc((pa->n_ok + pb->n_ok) * sizeof(*all));
	if (!all)
		return -ENOMEM;
	memcpy(all, pa->ok, pa->n_ok * sizeof(*all));
	memcpy(all + pa->n_ok, pb->ok, pb->n_ok * sizeof(*all));
	rc = speed_fit(all, pa->n_ok + pb->n_ok, p->loop_a, &p->speed);
	free(all);
	if (rc == -ENOMEM)
		return rc;
	p->normalized = rc == 0;
	return 0;
}

/* Is every cycles figure of these runs' probe within COMPARE_MAX_CYCLES (and finite)? */
static int sane_runs(const struct run_probe *const *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct run_probe *p = r[i];

		for (size_t k = 0; k < p->n_samples; k++)
			if (!(fabs(p->samples[k]) <= COMPARE_MAX_CYCLES))
				return 0;
		for (size_t k = 0; k < p->n_rounds; k++) {
			const struct run_round *rd = &p->rounds[k];

			if (!(fabs(rd->median) <= COMPARE_MAX_CYCLES) ||
			    !(rd->baseline_median <= COMPARE_MAX_CYCLES) ||
			    !(rd->raw_median <= COMPARE_MAX_CYCLES))
				return 0;
			for (size_t j = 0; j < rd->n_samples; j++)
				if (!(fabs(rd->samples[j]) <= COMPARE_MAX_CYCLES))
					return 0;
		}
	}
	return 1;
}

/* Everything printed of p's interval is finite (a belt to sane_runs' braces). */
int probediff_finite(const struct compare_probe *p)
{
	const double v[] = { p->d.median_a, p->d.median_b, p->d.diff, p->d.lo, p->d.hi, p->se,
			     p->has_pct ? p->pct : 0, p->has_pct ? p->pct_lo : 0,
			     p->has_pct ? p->pct_hi : 0, p->has_pct ? p->mde_pct : 0,
			     p->loop_a, p->loop_b, p->normalized ? p->speed.beta : 0 };

	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
}

#define STR_(x) #x
#define STR(x) STR_(x)
static const char overflow_why[] = "cannot compare: overflow (a figure beyond "
				   STR(COMPARE_MAX_CYCLES) " cycles/op or not finite)";

/* Is p's difference (cycles/op) beyond the figures' resolution (COMPARE_DIFF_MIN, COMPARE_DIFF_REL)? */
static int resolved(const struct compare_probe *p)
{
	double big = fmax(fabs(p->d.median_a), fabs(p->d.median_b));

	return fabs(p->d.diff) > fmax(COMPARE_DIFF_MIN, COMPARE_DIFF_REL * big);
}

static const char zero_why[] = "cannot compare: zero base (a base of 0.0 cycles/op has no "
				"percentage to hold against the threshold)";

/* Does any of the runs r[0..n-1] name a second vCPU? */
static int any_two_vcpus(const struct run_probe *const *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (lane_two_vcpus(r[i]))
			return 1;
	return 0;
}

/*
 * Can p's interval stand for the variation from one run to the next
 * (docs/method.md, "Not judged")? It cannot when it lacks it (r2r none or
 * partial), nor when a side of one run has it from a noise floor on a host
 * whose guest code was emulated: a floor from another window does not hold
 * one run a side there (docs/benchmark.md). *floor_emulated: the latter.
 */
static int judgeable(const struct compare_result *cr, const struct compare_probe *p,
		     bool *floor_emulated)
{
	*floor_emulated = p->r2r == COMPARE_R2R_FLOOR && cr->emulated &&
			  (p->runs_a == 1 || p->runs_b == 1);
	return p->r2r != COMPARE_R2R_NONE && p->r2r != COMPARE_R2R_PARTIAL && !*floor_emulated;
}

static int compare_probe(struct compare_result *cr, struct compare_probe *p,
			 const struct pooled *pa, const struct pooled *pb)
{
	bool floor_emulated;
	int rc;

	p->a = pa->rep;
	p->b = pb->rep;
	p->runs_a = pa->n_ok;
	p->runs_b = pb->n_ok;
	p->mde_pct = -1;
	p->loop_a = p->loop_b = -1;
	p->by_interval = COMPARE_NOT_RUN;
	if (!pa->n_ok || !pb->n_ok) {
		p->verdict = COMPARE_NOT_RUN;
		cr->n_not_run++;
		return 0;
	}
	if (!sane_runs(pa->ok, pa->n_ok) || !sane_runs(pb->ok, pb->n_ok)) {
		p->why = overflow_why;
		p->verdict = COMPARE_NOT_RUN;
		cr->n_not_run++;
		return 0;
	}
	rc = probe_speed(cr, p, pa, pb);
	if (!rc)
		rc = compare_interval(p, pa->ok, pa->n_ok, pb->ok, pb->n_ok, &cr->opts);
	if (rc)
		return rc;
	if (cr->lanes_deterministic &&
	    (p->r2r == COMPARE_R2R_NONE || p->r2r == COMPARE_R2R_PARTIAL) &&
	    !any_two_vcpus(pa->ok, pa->n_ok) && !any_two_vcpus(pb->ok, pb->n_ok))
		compare_interval_lane(p);
	probediff_verdict(cr, p, COMPARE_DIFF_MIN);
	if (!probediff_finite(p) || (fabs(p->d.median_a) <= COMPARE_DIFF_MIN && resolved(p))) {
		p->why = probediff_finite(p) ? zero_why : overflow_why;
		p->verdict = COMPARE_NOT_RUN;
		p->normalized = 0;
		cr->n_not_run++;
		return 0;
	}
	if (!resolved(p) && (p->verdict == COMPARE_FASTER || p->verdict == COMPARE_SLOWER))
		p->verdict = COMPARE_SAME;
	p->by_interval = p->verdict;
	/* "too noisy" stands: the variation from run to run would only widen the interval. */
	if (!judgeable(cr, p, &floor_emulated) && resolved(p) && p->verdict != COMPARE_TOO_NOISY) {
		p->verdict = COMPARE_UNJUDGED;
		cr->n_floor_emulated += floor_emulated;
	}
	if (p->method == COMPARE_METHOD_BATCHES)
		cr->n_by_batches++;
	else
		cr->n_by_rounds++;
	p->normalized &= p->method != COMPARE_METHOD_BATCHES;
	cr->n_normalized += p->normalized;
	cr->n_not_normalized += cr->normalized && !p->normalized && p->method != COMPARE_METHOD_BATCHES;
	cr->n_by_runs += p->method == COMPARE_METHOD_RUNS;
	cr->n_floor += p->floor != NULL;
	cr->n_r2r_none += p->r2r == COMPARE_R2R_NONE && p->method != COMPARE_METHOD_BATCHES;
	cr->n_r2r_partial += p->r2r == COMPARE_R2R_PARTIAL;
	cr->n_r2r_lane += p->r2r == COMPARE_R2R_LANE;
	switch (p->verdict) {
	case COMPARE_FASTER:
		cr->n_faster++;
		break;
	case COMPARE_SLOWER:
		cr->n_slower++;
		break;
	case COMPARE_TOO_NOISY:
		cr->n_too_noisy++;
		break;
	case COMPARE_UNJUDGED:
		cr->n_not_judged++;
		break;
	default:
		cr->n_same++;
		break;
	}
	return 0;
}

/*
 * p's per-op counters over the ok runs of each side: their means into
 * p->per_op_a, p->per_op_b, and each difference of the size rule's size
 * into the changes or the differences not judged (compare/counters.h). The
 * run-loop counters are optional: compared where both sides have them.
 */
static int compare_counters(struct compare_result *cr, struct compare_probe *p,
			    const struct pooled *pa, const struct pooled *pb)
{
	struct compare_counter c, *to;
	int i;

	for (i = 0; i < RESULT_PER_OP_N; i++) {
		p->per_op_a[i] = counters_mean(pa->ok, pa->n_ok, i);
		p->per_op_b[i] = counters_mean(pb->ok, pb->n_ok, i);
	}
	if (!pa->n_ok || !pb->n_ok)
		return 0;
	for (i = 0; i < RESULT_PER_OP_N; i++) {
		enum counters_call r = counters_judge(pa->ok, pa->n_ok, pb->ok, pb->n_ok, i,
						      cr->emulated, &c);

		if (r == COUNTERS_NOMEM)
			return -ENOMEM;
		if (r != COUNTERS_CHANGED && r != COUNTERS_UNJUDGED)
			continue;
		to = r == COUNTERS_CHANGED ? findings_push(&cr->counters, &cr->n_counters, sizeof(*to)) :
					     findings_push(&cr->unjudged, &cr->n_unjudged, sizeof(*to));
		if (!to)
			return -ENOMEM;
		c.probe = p->name;
		c.counter = result_per_op_names[i];
		c.note = NULL;
		if (r == COUNTERS_CHANGED && i == RESULT_OP_EXITS && c.b < COMPARE_COUNTER_ZERO)
			c.note = "now guest-owned";
		else if (r == COUNTERS_CHANGED && i == RESULT_OP_EXITS && c.a < COMPARE_COUNTER_ZERO)
			c.note = "now intercepted";
		*to = c;
	}
	return 0;
}

/* Is r the first entry of its name on side s (so the name is listed once, in file order)? */
static int first_of_name(const struct side *s, size_t file, size_t idx, const struct key_ref **first)
{
	*first = find_key(s->refs, s->n_refs, s->f[file]->probes[idx].name);
	return *first && (*first)->file == file && (*first)->idx == idx;
}

/*
 * The probe's relative baseline change, new / base - 1, over rounds of one
 * batch size both sides measured (speed_batch): 1 with *shift, 0 when no
 * size is on both.
 */
static int baseline_shift(const struct pooled *pa, const struct pooled *pb, double *shift)
{
	long long batch;
	double ma, mb;

	if (!speed_batch(pa->ok, pa->n_ok, pb->ok, pb->n_ok, &batch, &ma, &mb))
		return 0;
	*shift = mb / ma - 1;
	return 1;
}

/*
 * Every probe times the same empty loop beside its operation. When that
 * baseline moved alike in every probe between the sides (at equal batch
 * sizes), the host ran at another speed (or a host-wide change hit
 * everything): say so, since probe changes of that size may be that and
 * not the probe's own. shift[] holds each probe's relative baseline
 * change, new / base - 1; apart: probes whose sides share no batch size.
 */
static int warn_baseline_shift(struct compare_result *cr, double *shift, size_t n, size_t apart)
{
	double g;

	if (n < COMPARE_SHIFT_MIN_PROBES && n + apart >= COMPARE_SHIFT_MIN_PROBES)
		return findings_warnf(cr, "note: the harness baseline cannot be compared "
				      "between the sides: in %zu of %zu probes they measured "
				      "no batch size in common, and a batch's baseline per op "
				      "depends on its size", apart, n + apart);
	if (n < COMPARE_SHIFT_MIN_PROBES)
		return 0;
	g = 100 * stats_median(shift, n);
	if (!isfinite(g) || fabs(g) < cr->opts.threshold_pct / 2)
		return 0;
	return findings_warnf(cr, "WARNING: the harness baseline (the same empty loop in every "
				  "probe) moved by a median %+.2f%% over %zu probes between the "
				  "sides: the host ran at another speed or changed as a whole; "
				  "probe changes of that size may be that, not the probe's own "
				  "(give more runs per side: A1 A2 A3 -- B1 B2 B3)", g, n);
}

static int compare_probes(struct compare_result *cr, struct side *sa, struct side *sb)
{
	double *shift = NULL;
	size_t n_shift = 0, n_apart = 0;
	struct pooled pa = { 0 }, pb = { 0 };
	const struct key_ref *ra, *rb, *dummy;
	struct compare_probe *p;
	size_t i, j;
	int rc = -ENOMEM, r;

	if (side_index(sa) || side_index(sb))
		goto out;
	cr->probes = calloc(sa->n_refs ? sa->n_refs : 1, sizeof(*cr->probes));
	cr->only_a = calloc(sa->n_refs ? sa->n_refs : 1, sizeof(*cr->only_a));
	cr->only_b = calloc(sb->n_refs ? sb->n_refs : 1, sizeof(*cr->only_b));
	shift = calloc(sa->n_refs ? sa->n_refs : 1, sizeof(*shift));
	if (!cr->probes || !cr->only_a || !cr->only_b || !shift)
		goto out;
	/* Probes in the order of the base side's files, each name once. */
	for (i = 0; i < sa->n; i++) {
		for (j = 0; j < sa->f[i]->n_probes; j++) {
			if (!first_of_name(sa, i, j, &ra))
				continue;
			rb = find_key(sb->refs, sb->n_refs, ra->key);
			if (!rb) {
				cr->only_a[cr->n_only_a++] = ra->key;
				continue;
			}
			free(pa.ok);
			free(pb.ok);
			pb.ok = NULL;
			if (pool_side(sa, ra, &pa) || pool_side(sb, rb, &pb))
				goto out;
			p = &cr->probes[cr->n_probes++];
			p->name = ra->key;
			p->group = pa.rep->group;
			r = compare_probe(cr, p, &pa, &pb);
			if (!r)
				r = compare_counters(cr, p, &pa, &pb);
			if (r) {
				rc = r;
				goto out;
			}
			if (p->method != COMPARE_METHOD_BATCHES && p->loop_a > 0 && p->loop_b > 0) {
				if (baseline_shift(&pa, &pb, &shift[n_shift]))
					n_shift++;
				else
					n_apart++;
			}
		}
	}
	/* At equal guest speed a shift of it is the guest speed line's, not the probes'. */
	if (!cr->normalized && warn_baseline_shift(cr, shift, n_shift, n_apart))
		goto out;
	for (i = 0; i < sb->n; i++)
		for (j = 0; j < sb->f[i]->n_probes; j++)
			if (first_of_name(sb, i, j, &dummy) &&
			    !find_key(sa->refs, sa->n_refs, dummy->key))
				cr->only_b[cr->n_only_b++] = dummy->key;
	if (cr->n_by_batches)
		cr->method_note = cr->n_by_rounds ? mixed_note : batches_note;
	rc = 0;
out:
	free(shift);
	free(pa.ok);
	free(pb.ok);
	free(sa->refs);
	free(sb->refs);
	sa->refs = sb->refs = NULL;
	return rc;
}

int probediff_probes(struct compare_result *cr, const struct result_file *const *a, size_t na,
		     const struct result_file *const *b, size_t nb)
{
	struct side sa = { a, na, NULL, 0 }, sb = { b, nb, NULL, 0 };

	return compare_probes(cr, &sa, &sb);
}
