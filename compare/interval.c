// SPDX-License-Identifier: GPL-2.0-only
/*
 * interval.c - the interval of one probe (docs/method.md): each side by its
 * run means (2 runs or more), by the round medians of its run(s) (with the
 * host's noise floor added when there is one), or, without rounds, the
 * bootstrap over the flat samples of both. Normalized, every round is put
 * at the base side's guest speed first (results/guest_speed.h), and the
 * adjustment's own uncertainty joins the interval.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/lane_spread.h"
#include "compare/interval.h"
#include "results/guest_speed.h"

/* Rounds with samples (an empty round could not be resampled: none is ever written). */
static int has_rounds(const struct run_probe *p)
{
	if (!p->rounds || !p->n_rounds)
		return 0;
	for (size_t i = 0; i < p->n_rounds; i++)
		if (!p->rounds[i].samples || !p->rounds[i].n_samples)
			return 0;
	return 1;
}

static int all_rounds(const struct run_probe *const *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!has_rounds(r[i]))
			return 0;
	return 1;
}

/* Per-probe seed: independent of probe order, so adding a probe changes no other CI. */
static uint64_t probe_seed(uint64_t seed, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*name)
		h = (h ^ (unsigned char)*name++) * 0x100000001b3ULL;
	seed += h;
	return stats_splitmix64(&seed);
}

/* The flat samples of every run of a side, concatenated (malloc'd; *n their count). */
static double *pool_samples(const struct run_probe *const *r, size_t nr, size_t *n)
{
	size_t i, m = 0;
	double *x;

	for (i = 0; i < nr; i++)
		m += r[i]->n_samples;
	x = malloc((m ? m : 1) * sizeof(*x));
	if (!x)
		return NULL;
	for (i = 0, m = 0; i < nr; i++) {
		memcpy(x + m, r[i]->samples, r[i]->n_samples * sizeof(*x));
		m += r[i]->n_samples;
	}
	*n = m;
	return x;
}

/* The batches method: the bootstrap over the pooled flat samples. */
static int by_batches(struct compare_probe *p, const struct run_probe *const *a, size_t na,
		      const struct run_probe *const *b, size_t nb, const struct compare_opts *o)
{
	size_t xa_n = 0, xb_n = 0;
	double *xa = pool_samples(a, na, &xa_n), *xb = pool_samples(b, nb, &xb_n);
	int rc = -ENOMEM;

	if (xa && xb)
		rc = stats_bootstrap_median_diff(xa, xa_n, xb, xb_n, o->iters,
						 probe_seed(o->seed, p->name), &p->d);
	free(xa);
	free(xb);
	p->se = p->d.df = -1;	/* a bootstrap has neither */
	p->method = p->method_a = p->method_b = COMPARE_METHOD_BATCHES;
	p->r2r = COMPARE_R2R_NONE;
	p->rounds_a = p->rounds_b = 0;
	return rc;
}

/*
 * One side's runs as stats_runs of round medians, put at adj's guest speed
 * (NULL: as measured); one malloc'd block, NULL when out of memory.
 */
static struct stats_run *side_runs(const struct run_probe *const *r, size_t n,
				   const struct speed_adj *adj, size_t *rounds, size_t *min_rounds)
{
	struct stats_run *sr;
	double *x;
	size_t total = 0, i, k;

	*min_rounds = SIZE_MAX;
	for (i = 0; i < n; i++) {
		total += r[i]->n_rounds;
		if (r[i]->n_rounds < *min_rounds)
			*min_rounds = r[i]->n_rounds;
	}
	sr = malloc(n * sizeof(*sr) + total * sizeof(*x));
	if (!sr)
		return NULL;
	x = (double *)(sr + n);
	for (i = 0; i < n; i++) {
		sr[i].x = x;
		sr[i].n = r[i]->n_rounds;
		for (k = 0; k < r[i]->n_rounds; k++)
			*x++ = adj ? speed_round_at(&r[i]->rounds[k], adj) : r[i]->rounds[k].median;
	}
	*rounds = total;
	return sr;
}

/* How one side with rounds is estimated. */
struct side_est {
	enum compare_method m;
	bool floored;			/* within its runs + the floor */
	struct stats_side s;
	size_t runs, rounds;
};

/*
 * With the floor: the variation within the runs plus the floor's between
 * them (needs 2 rounds in every run). Without: 2 runs or more by their
 * means, one run by its rounds. 0, 1 when the side has no variance to
 * give (one run of one round), -ENOMEM out of memory, -EINVAL from the
 * statistics (a value not finite).
 */
static int estimate_side(const struct run_probe *const *r, size_t n, const struct speed_adj *adj,
			 bool with_floor, struct side_est *e)
{
	size_t min_rounds;
	struct stats_run *sr = side_runs(r, n, adj, &e->rounds, &min_rounds);
	int rc = 1;

	if (!sr)
		return -ENOMEM;
	e->runs = n;
	e->floored = false;
	if (with_floor && min_rounds >= 2) {
		e->m = COMPARE_METHOD_ROUNDS;
		e->floored = true;
		rc = stats_side_within(sr, n, &e->s);
	} else if (n >= 2) {
		e->m = COMPARE_METHOD_RUNS;
		rc = stats_side_runs(sr, n, &e->s);
	} else if (min_rounds >= 2) {
		e->m = COMPARE_METHOD_ROUNDS;
		rc = stats_side_within(sr, n, &e->s);
	}
	/*
	 * The slope was fitted on these rounds' deviations within their runs:
	 * it took one of the N - n degrees of freedom they had (both sides'),
	 * so what is left of them understates their variance by that share.
	 */
	if (!rc && adj && e->m == COMPARE_METHOD_ROUNDS)
		stats_se2_scale(&e->s.se2, (adj->df + 1) / adj->df, adj->df / (adj->df + 1));
	free(sr);
	return rc;
}

/*
 * The floor's between-run variance of a side's figure: (its relative SD x
 * the side's figure)^2 / runs (a changed kernel that makes a probe dearer
 * makes its run-to-run variation larger alike), in cycles^2 / runs when
 * there is no relative figure (a mean <= 0).
 */
static double floor_var(const struct noise_est *f, const struct side_est *e, double *rel)
{
	double sd = f->between_sd_cycles;

	if (f->between_sd_rel >= 0 && e->s.mean > 0) {
		sd = f->between_sd_rel * e->s.mean;
		*rel = f->between_sd_rel;
	}
	return sd * sd / (double)e->runs;
}

/*
 * The slope is estimated once, from both sides: its error moves the
 * difference by dx (the sides' mean loops apart) x beta's error, a
 * variance dx^2 beta_var. beta_var comes from the residual variance within
 * the runs, the same residuals a side by rounds takes its variance from:
 * there it is carried by those sides' components (scaled up, their df
 * kept, as the pooled analysis of covariance has it), not added as an
 * independent one whose df would count the same residuals twice. Against
 * sides by their run means it is a component of its own.
 */
static void slope_error(const struct speed_adj *adj, double dx, struct side_est *ea,
			struct side_est *eb, struct stats_se2 *extra)
{
	double v = dx * dx * adj->beta_var, w = 0;

	if (ea->m == COMPARE_METHOD_ROUNDS)
		w += ea->s.se2.var;
	if (eb->m == COMPARE_METHOD_ROUNDS)
		w += eb->s.se2.var;
	if (!(w > 0)) {
		stats_se2_add(extra, v, adj->df);
		return;
	}
	if (ea->m == COMPARE_METHOD_ROUNDS)
		stats_se2_scale(&ea->s.se2, 1 + v / w, 1);
	if (eb->m == COMPARE_METHOD_ROUNDS)
		stats_se2_scale(&eb->s.se2, 1 + v / w, 1);
}

static int covered(const struct side_est *e)
{
	return e->m == COMPARE_METHOD_RUNS || e->floored;
}

int compare_interval(struct compare_probe *p, const struct run_probe *const *a, size_t na,
		     const struct run_probe *const *b, size_t nb, const struct compare_opts *o)
{
	const struct noise_probe *np = o->noise ? noise_find_probe(o->noise, p->name) : NULL;
	/* The floor in the unit compared: a floor of rounds at speed for rounds at speed. */
	const struct noise_est *f = np ? noise_probe_est(np, p->normalized) : NULL;
	const struct speed_adj *adj = p->normalized ? &p->speed : NULL;
	struct stats_se2 extra = { 0 };
	struct side_est ea, eb;
	double var = 0, rel = -1;
	int ra, rb;

	p->floor = NULL;
	p->floor_sd_rel = p->floor_df = p->lane_spread_pct = -1;
	if (!all_rounds(a, na) || !all_rounds(b, nb))
		return by_batches(p, a, na, b, nb, o);
	ra = estimate_side(a, na, adj, f != NULL, &ea);
	rb = estimate_side(b, nb, adj, f != NULL, &eb);
	if (ra < 0 || rb < 0)
		return ra < 0 ? ra : rb;
	if (ra || rb)
		return by_batches(p, a, na, b, nb, o);
	/* The floor is estimated once: one component shared by the sides it is added to. */
	if (ea.floored)
		var += floor_var(f, &ea, &rel);
	if (eb.floored)
		var += floor_var(f, &eb, &rel);
	if (ea.floored || eb.floored) {
		stats_se2_add(&extra, var, f->df);
		p->floor = f;
		p->floor_sd_rel = rel;
		p->floor_df = f->df;
	}
	if (adj)
		slope_error(adj, p->loop_b - p->loop_a, &ea, &eb, &extra);
	stats_side_diff(&ea.s, &eb.s, p->floor || adj ? &extra : NULL, &p->d);
	p->se = sqrt(ea.s.se2.var + eb.s.se2.var + extra.var);
	p->method_a = ea.m;
	p->method_b = eb.m;
	p->method = ea.m == COMPARE_METHOD_RUNS && eb.m == COMPARE_METHOD_RUNS ?
		    COMPARE_METHOD_RUNS : COMPARE_METHOD_ROUNDS;
	if (covered(&ea) && covered(&eb))
		p->r2r = p->floor ? COMPARE_R2R_FLOOR : COMPARE_R2R_RUNS;
	else
		p->r2r = covered(&ea) || covered(&eb) ? COMPARE_R2R_PARTIAL : COMPARE_R2R_NONE;
	p->rounds_a = ea.rounds;
	p->rounds_b = eb.rounds;
	return 0;
}

void compare_interval_lane(struct compare_probe *p)
{
	double w = LANE_SPREAD_1VCPU_PCT / 100 * fmax(fabs(p->d.median_a), fabs(p->d.median_b));

	p->d.lo -= w;
	p->d.hi += w;
	p->r2r = COMPARE_R2R_LANE;
	p->lane_spread_pct = LANE_SPREAD_1VCPU_PCT;
}
