// SPDX-License-Identifier: GPL-2.0-only
/*
 * noise_spread.c - what a probe's figure varies by within and between k
 * runs (results/noise.h, noise_spread): the spread of its round medians
 * as measured and at the runs' mean guest speed (stats_runs_spread,
 * results/guest_speed.h), and the host's speed from run to run.
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

/*
 * The host's speed: per run, the median over the probes with a spread of
 * its run mean over the probe's mean, less 1 (a probe of mean <= 0 left
 * out); their SD.
 */
static int spread_shift(const struct result_file *const *runs, size_t k, struct noise_spread *s)
{
	double *d = calloc(s->n_probes ? s->n_probes : 1, sizeof(*d));
	double *sh = calloc(k, sizeof(*sh));
	double mean = 0, ss = 0;
	size_t c = 0;

	if (!d || !sh) {
		free(d);
		free(sh);
		return -ENOMEM;
	}
	for (size_t i = 0; i < k; i++) {
		size_t n = 0;

		for (size_t j = 0; j < s->n_probes; j++) {
			const struct noise_spread_probe *sp = &s->probes[j];
			const struct run_probe *q = result_find_probe(runs[i], sp->name);
			double m = 0;

			if (!q || q->status != PROBE_OK || !q->rounds || q->n_rounds < 2 || !(sp->cycles.mean > 0))
				continue;
			for (size_t t = 0; t < q->n_rounds; t++)
				m += q->rounds[t].median;
			d[n++] = m / (double)q->n_rounds / sp->cycles.mean - 1;
		}
		if (n)
			sh[c++] = stats_median(d, n);
	}
	for (size_t i = 0; i < c; i++)
		mean += sh[i];
	mean /= c ? (double)c : 1;
	for (size_t i = 0; i < c; i++)
		ss += (sh[i] - mean) * (sh[i] - mean);
	s->shift_runs = c;
	s->shift_sd = c > 1 ? sqrt(ss / (double)(c - 1)) : -1;
	free(d);
	free(sh);
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
	s->probes = NULL;
	s->n_probes = 0;
}
