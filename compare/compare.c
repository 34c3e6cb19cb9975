/*
 * compare.c - A/B comparison of result files (one or several runs per side):
 * host differences, per-probe verdicts (docs/method.md), exits/op, map and
 * check changes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "compare/counters.h"
#include "compare/floor.h"
#include "compare/model.h"
#include "compare/speed.h"
#include "results/speed.h"

const char *const compare_verdict_names[COMPARE_VERDICT_N] = {
	"faster", "slower", "no significant change", "too noisy", "not compared",
};

const char *const compare_method_names[COMPARE_METHOD_N] = { "batches", "rounds", "runs" };
const char *const compare_r2r_names[COMPARE_R2R_N] = { "none", "partial", "runs", "floor" };
const char *const compare_normalize_names[COMPARE_NORMALIZE_N] = { "auto", "none", "speed" };
const char *const compare_counter_by_names[COMPARE_COUNTER_BY_N] = { "whole", "zero", "runs",
								     "not judged" };

/* Printed with the probes (and in the JSON) when some probe had fewer than 2 rounds a side. */
static const char batches_note[] =
	"note: fewer than 2 rounds on a side (v1 runs, older recordings or a single round): "
	"the interval resamples the samples of the runs and does not see run-to-run "
	"variance, so a drift between the runs can read as a change";
static const char mixed_note[] =
	"note: probes marked (b) have fewer than 2 rounds on a side (v1 runs, older "
	"recordings or a single round): their interval resamples the samples and does not "
	"see run-to-run variance, so a drift between the runs can read as a change";

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
		return -1;
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
		return -1;
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
 * significant change". Without a percentage (base median <= 0) the interval
 * alone decides and there is no "too noisy".
 */
static enum compare_verdict decide(const struct compare_probe *p, double threshold_pct)
{
	int significant = (p->d.lo > 0 || p->d.hi < 0) &&
			  (!p->has_pct || fabs(p->pct) >= threshold_pct);

	if (significant)
		return p->d.diff < 0 ? COMPARE_FASTER : COMPARE_SLOWER;
	if (p->has_pct && p->mde_pct > threshold_pct)
		return COMPARE_TOO_NOISY;
	return COMPARE_SAME;
}

/* p's percentages (of the base figure) and verdict, from its interval. */
static void probe_verdict(const struct compare_result *cr, struct compare_probe *p)
{
	p->has_pct = p->d.median_a > 0;
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
 * fitted on them (results/speed.h). Each side's mean loop into p->loop_a,
 * p->loop_b (-1 unknown). 0, or -1 out of memory.
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
		return -1;
	memcpy(all, pa->ok, pa->n_ok * sizeof(*all));
	memcpy(all + pa->n_ok, pb->ok, pb->n_ok * sizeof(*all));
	rc = speed_fit(all, pa->n_ok + pb->n_ok, p->loop_a, &p->speed);
	free(all);
	if (rc == -ENOMEM)
		return -1;
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
static int finite_probe(const struct compare_probe *p)
{
	const double v[] = { p->d.median_a, p->d.median_b, p->d.diff, p->d.lo, p->d.hi, p->se,
			     p->has_pct ? p->pct : 0, p->has_pct ? p->pct_lo : 0,
			     p->has_pct ? p->pct_hi : 0, p->has_pct ? p->mde_pct : 0,
			     p->loop_a, p->loop_b, p->normalized ? p->speed.beta : 0 };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!isfinite(v[i]))
			return 0;
	return 1;
}

#define STR_(x) #x
#define STR(x) STR_(x)
static const char overflow_why[] = "cannot compare: overflow (a figure beyond "
				   STR(COMPARE_MAX_CYCLES) " cycles/op or not finite)";

static int compare_probe(struct compare_result *cr, struct compare_probe *p,
			 const struct pooled *pa, const struct pooled *pb)
{
	p->a = pa->rep;
	p->b = pb->rep;
	p->runs_a = pa->n_ok;
	p->runs_b = pb->n_ok;
	p->mde_pct = -1;
	p->loop_a = p->loop_b = -1;
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
	if (probe_speed(cr, p, pa, pb) ||
	    compare_model(p, pa->ok, pa->n_ok, pb->ok, pb->n_ok, &cr->opts))
		return -1;
	probe_verdict(cr, p);
	if (!finite_probe(p)) {
		p->why = overflow_why;
		p->verdict = COMPARE_NOT_RUN;
		p->normalized = 0;
		cr->n_not_run++;
		return 0;
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
		enum counters_call r = counters_judge(pa->ok, pa->n_ok, pb->ok, pb->n_ok, i, &c);

		if (r == COUNTERS_NOMEM)
			return -1;
		if (r != COUNTERS_CHANGED && r != COUNTERS_UNJUDGED)
			continue;
		to = r == COUNTERS_CHANGED ? findings_push(&cr->counters, &cr->n_counters, sizeof(*to)) :
					     findings_push(&cr->unjudged, &cr->n_unjudged, sizeof(*to));
		if (!to)
			return -1;
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
 * Every probe times the same empty loop beside its operation. When that
 * baseline moved alike in every probe between the sides, the host ran at
 * another speed (or a host-wide change hit everything): say so, since probe
 * changes of that size may be that and not the probe's own. shift[] holds
 * each probe's relative baseline change, new / base - 1.
 */
static int warn_baseline_shift(struct compare_result *cr, double *shift, size_t n)
{
	double g;

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
	size_t n_shift = 0;
	struct pooled pa = { 0 }, pb = { 0 };
	const struct key_ref *ra, *rb, *dummy;
	struct compare_probe *p;
	size_t i, j;
	int rc = -1;

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
			if (compare_probe(cr, p, &pa, &pb) || compare_counters(cr, p, &pa, &pb))
				goto out;
			if (p->method != COMPARE_METHOD_BATCHES && p->loop_a > 0 && p->loop_b > 0)
				shift[n_shift++] = p->loop_b / p->loop_a - 1;
		}
	}
	/* At equal guest speed a shift of it is the guest speed line's, not the probes'. */
	if (!cr->normalized && warn_baseline_shift(cr, shift, n_shift))
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

/* Map entries are matched on (reg, bit, op). */
static int cmp_entry(const void *pa, const void *pb)
{
	const struct result_map_entry *a = *(const struct result_map_entry *const *)pa;
	const struct result_map_entry *b = *(const struct result_map_entry *const *)pb;
	int c = strcmp(a->reg, b->reg);

	if (c)
		return c;
	if (a->bit != b->bit)
		return a->bit < b->bit ? -1 : 1;
	return strcmp(a->op, b->op);
}

/*
 * How two lists of records (map entries, checks) are paired: records of size
 * bytes, sorted by sort and matched by key (both qsort-style, on pointers to
 * record pointers); pair() gets (a, NULL), (NULL, b) or a matched (a, b).
 */
struct pairing {
	size_t size;
	int (*sort)(const void *, const void *);
	int (*key)(const void *, const void *);
	int (*pair)(struct compare_result *cr, const void *ctx, const void *a, const void *b);
};

/* Pointers to the n records at base, sorted (malloc'd; NULL when out of memory). */
static const void **sorted_refs(const void *base, size_t n, const struct pairing *pg)
{
	const void **v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++)
		v[i] = (const char *)base + i * pg->size;
	qsort(v, n, sizeof(*v), pg->sort);
	return v;
}

/* Walk both sorted lists in step, handing every record to pg->pair. 0 or -1. */
static int pair_records(struct compare_result *cr, const void *ctx, const void *a, size_t na,
			const void *b, size_t nb, const struct pairing *pg)
{
	const void **va = sorted_refs(a, na, pg), **vb = sorted_refs(b, nb, pg);
	size_t i = 0, j = 0;
	int c, rc = -1;

	if (!va || !vb)
		goto out;
	while (i < na || j < nb) {
		if (i == na)
			c = 1;
		else if (j == nb)
			c = -1;
		else
			c = pg->key(&va[i], &vb[j]);
		if (pg->pair(cr, ctx, c <= 0 ? va[i] : NULL, c >= 0 ? vb[j] : NULL))
			goto out;
		i += c <= 0;
		j += c >= 0;
	}
	rc = 0;
out:
	free(va);
	free(vb);
	return rc;
}

static int add_map_change(struct compare_result *cr, const char *profile,
			  const struct result_map_entry *ea, const struct result_map_entry *eb)
{
	const struct result_map_entry *e = ea ? ea : eb;
	struct compare_map_change *m = findings_push(&cr->map, &cr->n_map, sizeof(*m));

	if (!m)
		return -1;
	m->profile = profile;
	if (!e)
		return 0;
	m->reg = e->reg;
	m->name = e->name;
	m->op = e->op;
	m->bit = e->bit;
	m->a = ea ? map_status_names[ea->status] : NULL;
	m->b = eb ? map_status_names[eb->status] : NULL;
	m->a_exits = ea ? ea->exits_per_op : -1;
	m->b_exits = eb ? eb->exits_per_op : -1;
	m->a_cycles = ea ? ea->cycles_per_op : -1;
	m->b_cycles = eb ? eb->cycles_per_op : -1;
	return 0;
}

/* A map entry on one side only, or on both with another status, is a change. */
static int map_pair(struct compare_result *cr, const void *profile, const void *a, const void *b)
{
	const struct result_map_entry *ea = a, *eb = b;

	if (ea && eb && ea->status == eb->status)
		return 0;
	return add_map_change(cr, profile, ea, eb);
}

static const struct pairing map_pairing = {
	.size = sizeof(struct result_map_entry), .sort = cmp_entry, .key = cmp_entry, .pair = map_pair,
};

static int compare_profile(struct compare_result *cr, const struct result_map_profile *pa,
			   const struct result_map_profile *pb)
{
	return pair_records(cr, pa->name, pa->entries, pa->n_entries, pb->entries, pb->n_entries,
			    &map_pairing);
}

static const struct result_map_profile *find_profile(const struct result_map *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->n_profiles; i++)
		if (strcmp(m->profiles[i].name, name) == 0)
			return &m->profiles[i];
	return NULL;
}

static int compare_maps(struct compare_result *cr, const struct result_map *a,
			const struct result_map *b)
{
	const struct result_map_profile *pb;
	struct compare_map_change *m;
	size_t i;

	cr->map_compared = 1;
	if (a->emulated && findings_warnf(cr, "note: %s's ownership map was taken under "
					      "emulation: ownership is not meaningful", cr->name_a))
		return -1;
	if (b->emulated && findings_warnf(cr, "note: %s's ownership map was taken under "
					      "emulation: ownership is not meaningful", cr->name_b))
		return -1;
	/* Profiles are few (CPUID variants): a linear lookup is fine. */
	for (i = 0; i < a->n_profiles && i < 1000; i++) {
		pb = find_profile(b, a->profiles[i].name);
		if (!pb) {
			m = findings_push(&cr->map, &cr->n_map, sizeof(*m));
			if (!m)
				return -1;
			m->profile = a->profiles[i].name;
			m->a = "present";
			m->a_exits = m->b_exits = m->a_cycles = m->b_cycles = -1;
			continue;
		}
		if (compare_profile(cr, &a->profiles[i], pb))
			return -1;
	}
	for (i = 0; i < b->n_profiles && i < 1000; i++) {
		if (find_profile(a, b->profiles[i].name))
			continue;
		m = findings_push(&cr->map, &cr->n_map, sizeof(*m));
		if (!m)
			return -1;
		m->profile = b->profiles[i].name;
		m->b = "present";
		m->a_exits = m->b_exits = m->a_cycles = m->b_cycles = -1;
	}
	return 0;
}

/* Checks are matched on (suite, name); a repeated key pairs up in file order. */
static int cmp_check(const void *pa, const void *pb)
{
	const struct check_result *a = *(const struct check_result *const *)pa;
	const struct check_result *b = *(const struct check_result *const *)pb;
	int c = strcmp(a->suite, b->suite);

	if (c)
		return c;
	c = strcmp(a->name, b->name);
	if (c)
		return c;
	return (a > b) - (a < b);
}

/* The matching key of two checks (on pointers to check pointers, as cmp_check). */
static int cmp_check_key(const void *pa, const void *pb)
{
	const struct check_result *a = *(const struct check_result *const *)pa;
	const struct check_result *b = *(const struct check_result *const *)pb;
	int c = strcmp(a->suite, b->suite);

	return c ? c : strcmp(a->name, b->name);
}

static int add_check_change(struct compare_result *cr, const struct check_result *ca,
			    const struct check_result *cb)
{
	const struct check_result *c = ca ? ca : cb;
	struct compare_check_change *m = findings_push(&cr->checks, &cr->n_checks, sizeof(*m));

	if (!m)
		return -1;
	m->suite = c->suite;
	m->name = c->name;
	m->a = ca ? check_status_names[ca->status] : NULL;
	m->b = cb ? check_status_names[cb->status] : NULL;
	return 0;
}

/* A check on one side only, or on both with another status, is a change. */
static int check_pair(struct compare_result *cr, const void *ctx, const void *a, const void *b)
{
	const struct check_result *ca = a, *cb = b;

	(void)ctx;
	if (ca && cb && ca->status == cb->status)
		return 0;
	return add_check_change(cr, ca, cb);
}

static const struct pairing check_pairing = {
	.size = sizeof(struct check_result), .sort = cmp_check, .key = cmp_check_key, .pair = check_pair,
};

static int compare_checks(struct compare_result *cr, const struct check_report *a,
			  const struct check_report *b)
{
	cr->checks_compared = 1;
	return pair_records(cr, NULL, a->r, a->n, b->r, b->n, &check_pairing);
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
 * is said; not normalized, warn_baseline_shift said it already.
 */
static int speed_notes(struct compare_result *cr, const struct result_file *const *a, size_t na,
		       const struct result_file *const *b, size_t nb)
{
	if (compare_speed(cr, a, na, b, nb))
		return -1;
	if (cr->has_speed)
		probe_verdict(cr, &cr->speed);
	if (cr->has_speed && !finite_probe(&cr->speed))
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
	struct side sa = { a, na, NULL, 0 }, sb = { b, nb, NULL, 0 };

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
	    compare_probes(cr, &sa, &sb) || speed_notes(cr, a, na, b, nb) || r2r_note(cr) ||
	    (a[0]->map && b[0]->map && compare_maps(cr, a[0]->map, b[0]->map)) ||
	    (a[0]->checks.n && b[0]->checks.n && compare_checks(cr, &a[0]->checks, &b[0]->checks)))
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
