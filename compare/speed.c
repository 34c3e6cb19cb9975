// SPDX-License-Identifier: GPL-2.0-only
/*
 * speed.c - the guest's own speed between the two sides of a comparison
 * (compare/speed.h): the harness loop of every probe compared by rounds, as
 * one pseudo-probe whose runs are the files and whose rounds are the
 * loop's, compared by the probes' own intervals (compare/interval.c).
 */
#include <errno.h>
#include <stdlib.h>

#include "compare/interval.h"
#include "compare/speed.h"
#include "results/guest_speed.h"

/* Rounds of batch size batch in the runs r[0..n-1]: how many, and the sum of their baselines. */
static size_t batch_rounds(const struct run_probe *const *r, size_t n, long long batch, double *sum)
{
	size_t m = 0;

	*sum = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < r[i]->n_rounds; k++)
			if (r[i]->rounds[k].batch == batch) {
				*sum += r[i]->rounds[k].baseline_median;
				m++;
			}
	return m;
}

int speed_batch(const struct run_probe *const *a, size_t na, const struct run_probe *const *b,
		size_t nb, long long *batch, double *mean_a, double *mean_b)
{
	size_t best = 0, ma, mb;

	for (size_t i = 0; i < na; i++)
		for (size_t k = 0; k < a[i]->n_rounds; k++) {
			long long bk = a[i]->rounds[k].batch;
			double va, vb;

			ma = batch_rounds(a, na, bk, &va);
			mb = batch_rounds(b, nb, bk, &vb);
			if ((ma < mb ? ma : mb) <= best || !(va > 0) || !(vb > 0))
				continue;
			best = ma < mb ? ma : mb;
			*batch = bk;
			*mean_a = va / (double)ma;
			*mean_b = vb / (double)mb;
		}
	return best > 0;
}

/* A file's pseudo-run: the loops of its probes, each relative to its base side's mean. */
struct loop_run {
	struct run_probe p;
	struct run_round *r;
	double *x;
	size_t n, cap;
};

static int loop_push(struct loop_run *l, double v)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		double *x = realloc(l->x, cap * sizeof(*x));

		if (!x)
			return -ENOMEM;
		l->x = x;
		l->cap = cap;
	}
	l->x[l->n++] = v;
	return 0;
}

/* Probe name's ok run in f when every round has a baseline, else NULL. */
static const struct run_probe *usable(const struct result_file *f, const char *name)
{
	const struct run_probe *p = result_find_probe(f, name);

	return p && p->status == PROBE_OK && speed_probe_ok(p) ? p : NULL;
}

/* Probe name's usable runs in the files f[0..n-1] into r[]; how many. */
static size_t usable_runs(const struct result_file *const *f, size_t n, const char *name,
			  const struct run_probe **r)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if ((r[m] = usable(f[i], name)))
			m++;
	return m;
}

/* The loops of probe name's rounds of batch size batch in files f[0..n-1] into l[], over ref. */
static int add_probe(const struct result_file *const *f, size_t n, const char *name,
		     long long batch, double ref, struct loop_run *l)
{
	for (size_t i = 0; i < n; i++) {
		const struct run_probe *p = usable(f[i], name);

		for (size_t k = 0; p && k < p->n_rounds; k++)
			if (p->rounds[k].batch == batch &&
			    loop_push(&l[i], p->rounds[k].baseline_median / ref))
				return -ENOMEM;
	}
	return 0;
}

/* Each file's loops as a run_probe of rounds (only files with 2 rounds or more), into v[]. */
static size_t loop_probes(struct loop_run *l, size_t n, const struct run_probe **v)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (l[i].n < 2)
			continue;
		l[i].r = calloc(l[i].n, sizeof(*l[i].r));
		if (!l[i].r)
			return (size_t)-1;
		for (size_t k = 0; k < l[i].n; k++)
			l[i].r[k] = (struct run_round){ .batch = 1, .samples = &l[i].x[k], .n_samples = 1,
							.median = l[i].x[k] };
		run_probe_init(&l[i].p);
		l[i].p.name = "(guest speed)";
		l[i].p.status = PROBE_OK;
		l[i].p.rounds = l[i].r;
		l[i].p.n_rounds = l[i].n;
		l[i].p.samples = l[i].x;
		l[i].p.n_samples = l[i].n;
		v[m++] = &l[i].p;
	}
	return m;
}

static void loop_free(struct loop_run *l, size_t n)
{
	for (size_t i = 0; l && i < n; i++) {
		free(l[i].r);
		free(l[i].x);
	}
	free(l);
}

int compare_speed(struct compare_result *cr, const struct result_file *const *a, size_t na,
		  const struct result_file *const *b, size_t nb)
{
	struct loop_run *la = calloc(na, sizeof(*la)), *lb = calloc(nb, sizeof(*lb));
	const struct run_probe **va = calloc(na, sizeof(*va)), **vb = calloc(nb, sizeof(*vb));
	const struct run_probe **ra = calloc(na, sizeof(*ra)), **rb = calloc(nb, sizeof(*rb));
	struct compare_opts o = cr->opts;	/* the loop has no floor */
	struct compare_probe *s = &cr->speed;
	double ref, ref_b;
	long long batch;
	size_t ma, mb;
	int rc = -ENOMEM;

	cr->has_speed = 0;
	cr->speed_probes = 0;
	if (!la || !lb || !va || !vb || !ra || !rb)
		goto out;
	for (size_t i = 0; i < cr->n_probes; i++) {
		const struct compare_probe *p = &cr->probes[i];

		if (p->verdict == COMPARE_NOT_RUN || p->method == COMPARE_METHOD_BATCHES ||
		    !(p->loop_a > 0) || !(p->loop_b > 0))
			continue;
		/* Its loops over the base side's mean, at a batch size both sides measured. */
		if (!speed_batch(ra, usable_runs(a, na, p->name, ra), rb,
				 usable_runs(b, nb, p->name, rb), &batch, &ref, &ref_b))
			continue;
		if (add_probe(a, na, p->name, batch, ref, la) ||
		    add_probe(b, nb, p->name, batch, ref, lb))
			goto out;
		cr->speed_probes++;
	}
	ma = loop_probes(la, na, va);
	mb = loop_probes(lb, nb, vb);
	if (ma == (size_t)-1 || mb == (size_t)-1)
		goto out;
	rc = 0;
	if (!cr->speed_probes || !ma || !mb)
		goto out;
	*s = (struct compare_probe){ .name = "(guest speed)", .group = "harness", .loop_a = -1,
				     .loop_b = -1 };
	o.noise = NULL;
	rc = compare_interval(s, va, ma, vb, mb, &o);
	s->runs_a = ma;
	s->runs_b = mb;
	cr->has_speed = rc == 0 && s->method != COMPARE_METHOD_BATCHES;
out:
	loop_free(la, na);
	loop_free(lb, nb);
	free(va);
	free(vb);
	free(ra);
	free(rb);
	return rc;
}
