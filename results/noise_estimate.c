// SPDX-License-Identifier: GPL-2.0-only
/*
 * noise_estimate.c - a host's noise floor from K run files of one host and
 * one setup: per probe the between-run variance of its run means
 * (stats_between_runs), of its rounds as measured and at the runs' mean
 * guest speed (results/guest_speed.h), with the checks that the runs belong
 * together; and a floor's figures' ranges over its probes (noise_ranges).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/noise.h"
#include "results/guest_speed.h"
#include "stats/stats.h"
#include "stats/welch.h"

static int fail(struct err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, -EINVAL, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Does run f fit with the first run f0 (one host, one kernel, one exitscope, one setup)? */
static int check_run(const struct result_file *f0, const struct result_file *f, struct err *err)
{
	const char *v0 = f0->tool_version ? f0->tool_version : "(unknown)";
	const char *v = f->tool_version ? f->tool_version : "(unknown)";
	char what[512], s0[64], s1[64];

	if (f->kind != RESULT_KIND_RUN)
		return fail(err, "%s: not a run file (kind %s)", f->name,
			    result_kind_names[f->kind]);
	if (!f->settings.present)
		return fail(err, "%s: no settings (written before exitscope recorded them): "
			    "a floor needs runs of known settings", f->name);
	if (f->settings.method != RUN_METHOD_V2)
		return fail(err, "%s: not measured in rounds (method %s): a floor needs "
			    "`run --method v2` runs", f->name,
			    run_setting_text(&f->settings, RUN_SETTING_METHOD, s0, sizeof(s0)));
	if (f == f0)
		return 0;
	if (noise_host_mismatch(&f->host, &f0->host, what, sizeof(what)))
		return fail(err, "%s: another host than %s (%s): a floor is of one host",
			    f->name, f0->name, what);
	if (strcmp(f0->host.kernel, f->host.kernel))
		return fail(err, "%s: another kernel than %s (%s vs %s): a floor is measured "
			    "under one kernel", f->name, f0->name, f->host.kernel, f0->host.kernel);
	if (strcmp(v0, v))
		return fail(err, "%s: measured by exitscope %s, %s by %s", f->name, v,
			    f0->name, v0);
	for (int i = 0; i < RUN_SETTING_N; i++) {
		/*
		 * Not the CPUs: without --cpu a run pins to the CPU it started on,
		 * drawn per process, so independent runs differ in it; the floor
		 * samples that as it samples any other cause of run-to-run variation.
		 */
		if (i == RUN_SETTING_CPUS)
			continue;
		run_setting_text(&f0->settings, i, s0, sizeof(s0));
		run_setting_text(&f->settings, i, s1, sizeof(s1));
		if (strcmp(s0, s1))
			return fail(err, "%s: measured with %s %s, %s with %s: a floor needs "
				    "runs of one setup", f->name, run_setting_names[i], s1,
				    f0->name, s0);
	}
	return 0;
}

/* Was name seen in runs[0..upto-1]? (the probes are listed once, in order of appearance) */
static int seen_before(const struct result_file *const *runs, size_t upto, const char *name)
{
	for (size_t i = 0; i < upto; i++)
		if (result_find_probe(runs[i], name))
			return 1;
	return 0;
}

/*
 * The runs in which probe name is usable (ok, 2 rounds or more) into p[],
 * their count.
 */
static size_t usable_runs(const struct result_file *const *runs, size_t k, const char *name,
			  const struct run_probe **p)
{
	size_t n = 0;

	for (size_t i = 0; i < k; i++) {
		const struct run_probe *q = result_find_probe(runs[i], name);

		if (q && q->status == PROBE_OK && q->rounds && q->n_rounds >= 2)
			p[n++] = q;
	}
	return n;
}

/*
 * The estimate of p[0..n-1]'s round medians, put at a's guest speed (NULL:
 * as measured), into e; r and med (k entries) are scratch. 0, 1 when it
 * cannot be estimated, -ENOMEM.
 */
static int estimate(const struct run_probe *const *p, size_t n, const struct speed_adj *a,
		    struct stats_run *r, double **med, struct noise_est *e, struct stats_between *b)
{
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		med[i] = malloc(p[i]->n_rounds * sizeof(**med));
		if (!med[i]) {
			rc = -ENOMEM;
			goto out;
		}
		for (size_t j = 0; j < p[i]->n_rounds; j++)
			med[i][j] = a ? speed_round_at(&p[i]->rounds[j], a) : p[i]->rounds[j].median;
		r[i].x = med[i];
		r[i].n = p[i]->n_rounds;
	}
	/* Rounds are validated finite by the reader: nothing else can fail here. */
	if (stats_between_runs(r, n, b)) {
		rc = 1;
		goto out;
	}
	e->mean_cycles = b->mean;
	e->run_sd_cycles = sqrt(b->run_var);
	e->within_se_cycles = sqrt(b->within);
	e->between_sd_cycles = sqrt(b->between);
	e->between_sd_rel = b->mean > 0 ? e->between_sd_cycles / b->mean : -1;
	e->df = b->df;
out:
	for (size_t i = 0; i < n; i++) {
		free(med[i]);
		med[i] = NULL;
	}
	return rc;
}

/*
 * The floor of probe name, appended to nf's probes or omitted: as measured,
 * and at the usable runs' mean guest speed when the adjustment can be
 * fitted on them (results/guest_speed.h). 0, or -ENOMEM.
 */
static int estimate_probe(const struct result_file *const *runs, size_t k, const char *name,
			  struct noise_floor *nf, const struct run_probe **p, struct stats_run *r,
			  double **med)
{
	size_t n = usable_runs(runs, k, name, p);
	struct noise_probe *np = &nf->probes[nf->n_probes];
	struct stats_between b;
	struct speed_adj adj;
	int rc;

	rc = n < NOISE_MIN_RUNS ? 1 : estimate(p, n, NULL, r, med, &np->cycles, &b);
	if (rc) {
		if (rc > 0) {
			nf->omitted[nf->n_omitted].name = name;
			nf->omitted[nf->n_omitted++].runs = (long long)n;
		}
		return rc < 0 ? rc : 0;
	}
	np->name = name;
	np->runs = (long long)n;
	np->rounds = (long long)b.rounds;
	rc = speed_fit(p, n, speed_mean(p, n), &adj);
	if (rc == -ENOMEM)
		return rc;
	if (!rc) {
		rc = estimate(p, n, &adj, r, med, &np->at_speed, &b);
		if (rc < 0)
			return rc;
		np->has_at_speed = rc == 0;
	}
	nf->n_probes++;
	return 0;
}

int noise_estimate(const struct result_file *const *runs, size_t k, struct noise_floor *nf,
		   struct err *err)
{
	const struct run_probe **p = NULL;
	struct stats_run *r = NULL;
	double **med = NULL;
	size_t i, j, names = 0;
	int rc = -1;

	memset(nf, 0, sizeof(*nf));
	host_record_init(&nf->host);
	run_settings_init(&nf->settings);
	if (k < NOISE_MIN_RUNS)
		return fail(err, "a noise floor needs at least %d runs of one host, got %zu",
			    NOISE_MIN_RUNS, k);
	for (i = 0; i < k; i++) {
		rc = check_run(runs[0], runs[i], err);
		if (rc)
			return rc;
	}
	for (i = 0; i < k; i++)
		names += runs[i]->n_probes;
	nf->probes = calloc(names ? names : 1, sizeof(*nf->probes));
	nf->omitted = calloc(names ? names : 1, sizeof(*nf->omitted));
	nf->sources = calloc(k, sizeof(*nf->sources));
	r = calloc(k, sizeof(*r));
	med = calloc(k, sizeof(*med));
	p = calloc(k, sizeof(*p));
	if (!nf->probes || !nf->omitted || !nf->sources || !r || !med || !p)
		goto oom;
	nf->host = runs[0]->host;
	nf->settings = runs[0]->settings;
	nf->tool_version = runs[0]->tool_version;
	nf->runs = (long long)k;
	for (i = 0; i < k; i++) {
		const struct result_file *f = runs[i];

		nf->sources[nf->n_sources++] = f->name;
		/* ISO 8601 UTC stamps of one format order as strings. */
		if (f->started && (!nf->first_started || strcmp(f->started, nf->first_started) < 0))
			nf->first_started = f->started;
		if (f->finished && (!nf->last_finished || strcmp(f->finished, nf->last_finished) > 0))
			nf->last_finished = f->finished;
	}
	for (i = 0; i < k; i++)
		for (j = 0; j < runs[i]->n_probes; j++)
			if (!seen_before(runs, i, runs[i]->probes[j].name) &&
			    estimate_probe(runs, k, runs[i]->probes[j].name, nf, p, r, med))
				goto oom;
	rc = 0;
	goto out;
oom:
	rc = err_set(err, -ENOMEM, "out of memory");
	noise_release(nf);
out:
	free(p);
	free(r);
	free(med);
	return rc;
}

void noise_release(struct noise_floor *nf)
{
	free(nf->probes);
	free(nf->omitted);
	free(nf->sources);
	nf->probes = NULL;
	nf->omitted = NULL;
	nf->sources = NULL;
	nf->n_probes = nf->n_omitted = nf->n_sources = 0;
}

/* The range of x[0..n-1] into r (n 0: none). */
static void range_of(const double *x, size_t n, struct noise_range *r)
{
	*r = (struct noise_range){ n, NAN, NAN, NAN };
	if (!n)
		return;
	r->min = r->max = x[0];
	for (size_t i = 1; i < n; i++) {
		r->min = fmin(r->min, x[i]);
		r->max = fmax(r->max, x[i]);
	}
	r->median = stats_median(x, n);
}

int noise_ranges(const struct noise_floor *nf, struct noise_ranges *r)
{
	double *x = calloc(nf->n_probes ? nf->n_probes : 1, sizeof(*x));
	size_t n;

	if (!x)
		return -ENOMEM;
	for (int speed = 0; speed < 2; speed++)
		for (int df = 0; df < 2; df++) {
			n = 0;
			for (size_t i = 0; i < nf->n_probes; i++) {
				const struct noise_est *e = noise_probe_est(&nf->probes[i], speed);

				if (e && (df || e->between_sd_rel >= 0))
					x[n++] = df ? e->df : e->between_sd_rel;
			}
			range_of(x, n, speed ? (df ? &r->speed_df : &r->speed_rel) : (df ? &r->df : &r->rel));
		}
	free(x);
	return 0;
}
