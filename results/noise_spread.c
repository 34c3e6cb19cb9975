// SPDX-License-Identifier: GPL-2.0-only
/*
 * noise_spread.c - what a probe's figure varies by within and between k
 * runs (results/noise.h, noise_spread): the spread of its round medians
 * as measured and at the runs' mean guest speed (stats_runs_spread,
 * results/guest_speed.h), and the host's speed from run to run and from
 * round to round; and two series of runs matched run by run
 * (noise_matched).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/guest_speed.h"
#include "results/noise.h"
#include "stats/stats.h"

/* Scratch for one probe: its usable runs, their rounds as stats runs, and the rounds' values. */
struct spread_work {
	const struct run_probe **p;
	struct stats_run *r;
	double *v;
	size_t n_v;
};

/* p[0..n-1]'s round medians (a: at its speed; NULL: as measured) into w->r. 0, or -ENOMEM. */
static int spread_rounds(struct spread_work *w, size_t n, const struct speed_adj *a)
{
	size_t total = 0, at = 0;

	for (size_t i = 0; i < n; i++)
		total += w->p[i]->n_rounds;
	if (total > w->n_v) {
		double *v = realloc(w->v, total * sizeof(*v));

		if (!v)
			return -ENOMEM;
		w->v = v;
		w->n_v = total;
	}
	for (size_t i = 0; i < n; i++) {
		const struct run_probe *q = w->p[i];

		for (size_t j = 0; j < q->n_rounds; j++)
			w->v[at + j] = a ? speed_round_at(&q->rounds[j], a) : q->rounds[j].median;
		w->r[i] = (struct stats_run){ w->v + at, q->n_rounds };
		at += q->n_rounds;
	}
	return 0;
}

/* The SD of the runs' mean loops p[0..n-1] over their mean ref (n >= 2). */
static double spread_loop_rel(const struct run_probe *const *p, size_t n, double ref)
{
	double ss = 0;

	for (size_t i = 0; i < n; i++) {
		double m = 0;

		for (size_t j = 0; j < p[i]->n_rounds; j++)
			m += p[i]->rounds[j].baseline_median;
		m /= (double)p[i]->n_rounds;
		ss += (m - ref) * (m - ref);
	}
	return sqrt(ss / (double)(n - 1)) / ref;
}

/* Probe name's spread over runs[0..k-1] appended to s, when it has one. 0, or -ENOMEM. */
static int spread_probe(const struct result_file *const *runs, size_t k, const char *name,
			struct noise_spread *s, struct spread_work *w)
{
	struct noise_spread_probe *sp = &s->probes[s->n_probes];
	struct speed_adj adj;
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < k; i++) {
		const struct run_probe *q = result_find_probe(runs[i], name);

		if (q && q->status == PROBE_OK && q->rounds && q->n_rounds >= 2)
			w->p[n++] = q;
	}
	if (n < 2)
		return 0;
	rc = spread_rounds(w, n, NULL);
	if (rc)
		return rc;
	/* Rounds are validated finite by the reader: only a mean of 0 leaves a probe out. */
	if (stats_runs_spread(w->r, n, &sp->cycles) || sp->cycles.mean == 0)
		return 0;
	sp->name = name;
	rc = speed_fit(w->p, n, speed_mean(w->p, n), &adj);
	if (rc == -ENOMEM)
		return rc;
	if (!rc) {
		rc = spread_rounds(w, n, &adj);
		if (rc)
			return rc;
		sp->has_at_speed = !stats_runs_spread(w->r, n, &sp->at_speed);
		sp->share = adj.beta * adj.ref / sp->cycles.mean;
		sp->loop_rel = spread_loop_rel(w->p, n, adj.ref);
	}
	s->n_probes++;
	return 0;
}

/* Probe sp's mean round median (loop: mean round loop) in run r, or NAN where it has no spread. */
static double spread_run_mean(const struct result_file *r, const struct noise_spread_probe *sp, int loop)
{
	const struct run_probe *q = result_find_probe(r, sp->name);
	double m = 0;

	if (!q || q->status != PROBE_OK || !q->rounds || q->n_rounds < 2 || !(sp->cycles.mean > 0))
		return NAN;
	for (size_t t = 0; t < q->n_rounds; t++)
		m += loop ? q->rounds[t].baseline_median : q->rounds[t].median;
	return m / (double)q->n_rounds;
}

/* The SD of the finite x[0..n-1] (-1 with fewer than 2), their mean in *mean; how many in *c. */
static double spread_sd(const double *x, size_t n, double *mean, size_t *c)
{
	double m = 0, ss = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i])) {
			m += x[i];
			k++;
		}
	m /= k ? (double)k : 1;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*c = k;
	return k > 1 ? sqrt(ss / (double)(k - 1)) : -1;
}

/* The median of the finite ones of x[0..n-1] (reordered into the front), NAN without one. */
static double spread_median(double *x, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			x[k++] = x[i];
	return k ? stats_median(x, k) : NAN;
}

/* Correlation of x and y over the i where both are finite; NAN when either is flat. */
static double spread_corr(const double *x, const double *y, size_t n)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]) && isfinite(y[i])) {
			mx += x[i];
			my += y[i];
			k++;
		}
	if (k < 2)
		return NAN;
	mx /= (double)k;
	my /= (double)k;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]) && isfinite(y[i])) {
			sxy += (x[i] - mx) * (y[i] - my);
			sxx += (x[i] - mx) * (x[i] - mx);
			syy += (y[i] - my) * (y[i] - my);
		}
	return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

/*
 * The host's speed (noise.h, struct noise_spread): rel[i][j], run i's mean
 * of probe j over the probe's mean, less 1, of the rounds (lrel: of the
 * loops, over the loop's mean over the runs); each run's median of them.
 */
static int spread_shift(const struct result_file *const *runs, size_t k, struct noise_spread *s)
{
	size_t np = s->n_probes ? s->n_probes : 1, c;
	double *rel = calloc(k * np, sizeof(*rel)), *lrel = calloc(k * np, sizeof(*lrel));
	double *d = calloc(k > np ? k : np, sizeof(*d)), *lmean = calloc(np, sizeof(*lmean));
	double mean;

	s->run_shift = calloc(k, sizeof(*s->run_shift));
	s->run_loop_shift = calloc(k, sizeof(*s->run_loop_shift));
	if (!rel || !lrel || !d || !lmean || !s->run_shift || !s->run_loop_shift) {
		free(rel);
		free(lrel);
		free(d);
		free(lmean);
		return -ENOMEM;
	}
	s->n_runs = k;
	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < s->n_probes; j++) {
			rel[i * np + j] = spread_run_mean(runs[i], &s->probes[j], 0) / s->probes[j].cycles.mean - 1;
			lrel[i * np + j] = spread_run_mean(runs[i], &s->probes[j], 1);
		}
	for (size_t j = 0; j < s->n_probes; j++) {
		for (size_t i = 0; i < k; i++)
			d[i] = lrel[i * np + j];
		spread_sd(d, k, &lmean[j], &c);
		for (size_t i = 0; i < k; i++)
			lrel[i * np + j] = lmean[j] > 0 ? lrel[i * np + j] / lmean[j] - 1 : NAN;
	}
	for (size_t i = 0; i < k; i++) {
		memcpy(d, rel + i * np, s->n_probes * sizeof(*d));
		s->run_shift[i] = spread_median(d, s->n_probes);
		memcpy(d, lrel + i * np, s->n_probes * sizeof(*d));
		s->run_loop_shift[i] = spread_median(d, s->n_probes);
	}
	s->shift_sd = spread_sd(s->run_shift, k, &mean, &s->shift_runs);
	s->loop_shift_sd = spread_sd(s->run_loop_shift, k, &mean, &c);
	s->shift_corr = spread_corr(s->run_shift, s->run_loop_shift, k);
	/* What is left of each probe's run means once the run's shift is taken out. */
	for (size_t j = 0; j < s->n_probes; j++) {
		for (size_t i = 0; i < k; i++)
			d[i] = rel[i * np + j] - s->run_shift[i];
		lmean[j] = spread_sd(d, k, &mean, &c);
		if (lmean[j] < 0)
			lmean[j] = NAN;
	}
	s->left_sd = spread_median(lmean, s->n_probes);
	if (!isfinite(s->left_sd))
		s->left_sd = -1;
	free(rel);
	free(lrel);
	free(d);
	free(lmean);
	return 0;
}

/*
 * Run r's host speed per round (noise.h, round_sd and round_ac): per round
 * t the median over the probes of the round's loop over the probe's mean
 * loop in the run, less 1, into y; how many rounds have one.
 */
static size_t spread_round_speed(const struct result_file *r, const struct noise_spread *s, double *y,
				 double *x, size_t max)
{
	size_t m = 0;

	for (size_t t = 0; t < max; t++) {
		size_t c = 0;

		for (size_t j = 0; j < s->n_probes; j++) {
			double mean = spread_run_mean(r, &s->probes[j], 1);
			const struct run_probe *q = result_find_probe(r, s->probes[j].name);

			if (mean > 0 && t < q->n_rounds)
				x[c++] = q->rounds[t].baseline_median / mean - 1;
		}
		if (c)
			y[m++] = stats_median(x, c);
	}
	return m;
}

/* The host's speed per round of each run of 3 or more: the mean over runs of its SD and lag-1 autocorrelation. */
static int spread_rounds_speed(const struct result_file *const *runs, size_t k, struct noise_spread *s)
{
	size_t max = 0, ac_runs = 0;
	double *y, *x, sd = 0, ac = 0;

	for (size_t i = 0; i < k; i++)
		for (size_t j = 0; j < s->n_probes; j++) {
			const struct run_probe *q = result_find_probe(runs[i], s->probes[j].name);

			if (q && q->n_rounds > max)
				max = q->n_rounds;
		}
	y = calloc(max ? max : 1, sizeof(*y));
	x = calloc(s->n_probes ? s->n_probes : 1, sizeof(*x));
	if (!y || !x) {
		free(y);
		free(x);
		return -ENOMEM;
	}
	s->round_runs = 0;
	for (size_t i = 0; i < k; i++) {
		size_t m = spread_round_speed(runs[i], s, y, x, max);
		double my = 0, q = 0, q1 = 0;

		if (m < 3)
			continue;
		for (size_t t = 0; t < m; t++)
			my += y[t] / (double)m;
		for (size_t t = 0; t < m; t++) {
			q += (y[t] - my) * (y[t] - my);
			if (t)
				q1 += (y[t] - my) * (y[t - 1] - my);
		}
		sd += sqrt(q / (double)(m - 1));
		s->round_runs++;
		if (q > 0) {
			ac += q1 / q;
			ac_runs++;
		}
	}
	s->round_sd = s->round_runs ? sd / (double)s->round_runs : -1;
	s->round_ac = ac_runs ? ac / (double)ac_runs : NAN;
	free(y);
	free(x);
	return 0;
}

int noise_spread(const struct result_file *const *runs, size_t k, struct noise_spread *s,
		 struct err *err)
{
	struct spread_work w = { 0 };
	size_t names = 0;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (k < 2)
		return err_set(err, -EINVAL, "a spread needs at least 2 runs, got %zu", k);
	for (size_t i = 0; i < k; i++)
		names += runs[i]->n_probes;
	s->probes = calloc(names ? names : 1, sizeof(*s->probes));
	w.p = calloc(k, sizeof(*w.p));
	w.r = calloc(k, sizeof(*w.r));
	if (!s->probes || !w.p || !w.r)
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < k; i++)
		for (size_t j = 0; !rc && j < runs[i]->n_probes; j++) {
			const char *name = runs[i]->probes[j].name;
			size_t seen = 0;

			for (size_t b = 0; b < i && !seen; b++)
				seen = result_find_probe(runs[b], name) != NULL;
			for (size_t b = 0; b < j && !seen; b++)
				seen = !strcmp(runs[i]->probes[b].name, name);
			if (!seen)
				rc = spread_probe(runs, k, name, s, &w);
		}
	if (!rc)
		rc = spread_shift(runs, k, s);
	if (!rc)
		rc = spread_rounds_speed(runs, k, s);
	free(w.p);
	free(w.r);
	free(w.v);
	if (rc) {
		noise_spread_release(s);
		return err_set(err, rc, "out of memory");
	}
	return 0;
}

void noise_spread_release(struct noise_spread *s)
{
	free(s->probes);
	free(s->run_shift);
	free(s->run_loop_shift);
	s->probes = NULL;
	s->run_shift = s->run_loop_shift = NULL;
	s->n_probes = s->n_runs = 0;
}

/* Probe q's run mean and squared standard error (round SD^2 / rounds) in *m and *se2; 0, or -1 unusable. */
static int matched_run(const struct run_probe *q, double *m, double *se2)
{
	double mean = 0, ss = 0;

	if (!q || q->status != PROBE_OK || !q->rounds || q->n_rounds < 2)
		return -1;
	for (size_t t = 0; t < q->n_rounds; t++)
		mean += q->rounds[t].median / (double)q->n_rounds;
	for (size_t t = 0; t < q->n_rounds; t++)
		ss += (q->rounds[t].median - mean) * (q->rounds[t].median - mean);
	*m = mean;
	*se2 = ss / (double)(q->n_rounds - 1) / (double)q->n_rounds;
	return 0;
}

/* Probe name's matched figures over the k pairs into p (p->pairs 0: fewer than 2 usable). */
static void matched_probe(const struct result_file *const *a, const struct result_file *const *b, size_t k,
			  const char *name, double *d, struct noise_matched_probe *p)
{
	double g = 0, e2 = 0, mean, vd;
	size_t c = 0, n;

	for (size_t i = 0; i < k; i++) {
		double ma, mb, sa, sb;

		d[i] = NAN;
		if (matched_run(result_find_probe(a[i], name), &ma, &sa) ||
		    matched_run(result_find_probe(b[i], name), &mb, &sb))
			continue;
		d[i] = ma - mb;
		g += (ma + mb) / 2;
		e2 += sa + sb;
		c++;
	}
	p->name = name;
	p->pairs = c;
	if (c < 2 || g == 0)
		return;
	g /= (double)c;
	e2 /= (double)c;
	vd = spread_sd(d, k, &mean, &n);
	vd *= vd;
	p->diff_sd = sqrt(vd) / fabs(g);
	p->expected = sqrt(e2) / fabs(g);
	p->floor = vd > e2 ? sqrt((vd - e2) / 2) / fabs(g) : 0;
}

int noise_matched(const struct result_file *const *a, const struct result_file *const *b, size_t k,
		  struct noise_matched *m, struct err *err)
{
	struct noise_spread sa, sb;
	double *d, mean;
	size_t c;
	int rc;

	memset(m, 0, sizeof(*m));
	if (k < 2)
		return err_set(err, -EINVAL, "matched runs need at least 2 pairs, got %zu", k);
	rc = noise_spread(a, k, &sa, err);
	if (rc)
		return rc;
	rc = noise_spread(b, k, &sb, err);
	if (rc) {
		noise_spread_release(&sa);
		return rc;
	}
	d = calloc(k, sizeof(*d));
	m->probes = calloc(a[0]->n_probes + 1, sizeof(*m->probes));
	rc = d && m->probes ? 0 : -ENOMEM;
	/* The probes of a's first run, in its order: matched runs measure the same probes. */
	for (size_t j = 0; !rc && j < a[0]->n_probes; j++) {
		matched_probe(a, b, k, a[0]->probes[j].name, d, &m->probes[m->n_probes]);
		if (m->probes[m->n_probes].pairs >= 2)
			m->n_probes++;
	}
	if (!rc) {
		for (size_t i = 0; i < k; i++)
			d[i] = isfinite(sb.run_shift[i]) ? sa.run_shift[i] - sb.run_shift[i] : NAN;
		m->shift_diff_sd = spread_sd(d, k, &mean, &c);
		m->shift_runs = c >= 3 ? c : 0;
		/* Each side's SD over the same runs: those where both have a shift. */
		for (size_t i = 0; i < k; i++)
			d[i] = isfinite(sb.run_shift[i]) ? sa.run_shift[i] : NAN;
		m->shift_sd_a = spread_sd(d, k, &mean, &c);
		for (size_t i = 0; i < k; i++)
			d[i] = isfinite(sa.run_shift[i]) ? sb.run_shift[i] : NAN;
		m->shift_sd_b = spread_sd(d, k, &mean, &c);
		m->shift_corr = spread_corr(sa.run_shift, sb.run_shift, k);
	}
	free(d);
	noise_spread_release(&sa);
	noise_spread_release(&sb);
	if (rc) {
		noise_matched_release(m);
		return err_set(err, rc, "out of memory");
	}
	return 0;
}

void noise_matched_release(struct noise_matched *m)
{
	free(m->probes);
	m->probes = NULL;
	m->n_probes = 0;
}
