// SPDX-License-Identifier: GPL-2.0-only
/* guest_speed.c - a probe's rounds at one guest speed (results/guest_speed.h). */
#include <errno.h>
#include <stdlib.h>

#include "results/guest_speed.h"
#include "stats/covariate.h"

int speed_probe_ok(const struct run_probe *p)
{
	if (!p->rounds || !p->n_rounds)
		return 0;
	for (size_t k = 0; k < p->n_rounds; k++)
		if (!(p->rounds[k].baseline_median > 0))
			return 0;
	return 1;
}

double speed_mean(const struct run_probe *const *p, size_t n)
{
	double sum = 0;

	if (!n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		double run = 0;

		if (!speed_probe_ok(p[i]))
			return -1;
		for (size_t k = 0; k < p[i]->n_rounds; k++)
			run += p[i]->rounds[k].baseline_median;
		sum += run / (double)p[i]->n_rounds;
	}
	return sum / (double)n;
}

int speed_fit(const struct run_probe *const *p, size_t n, double ref, struct speed_adj *a)
{
	struct stats_run *y = calloc(n ? 2 * n : 1, sizeof(*y));
	struct stats_slope s;
	size_t total = 0;
	double *v;
	int rc;

	if (!y)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		total += p[i]->n_rounds;
	v = malloc((total ? 2 * total : 1) * sizeof(*v));
	if (!v) {
		free(y);
		return -ENOMEM;
	}
	for (size_t i = 0, at = 0; i < n; i++) {
		if (!speed_probe_ok(p[i])) {
			rc = -EINVAL;
			goto out;
		}
		y[i] = (struct stats_run){ v + at, p[i]->n_rounds };
		y[n + i] = (struct stats_run){ v + total + at, p[i]->n_rounds };
		for (size_t k = 0; k < p[i]->n_rounds; k++) {
			v[at + k] = p[i]->rounds[k].median;
			v[total + at + k] = p[i]->rounds[k].baseline_median;
		}
		at += p[i]->n_rounds;
	}
	rc = stats_slope_within(y, y + n, n, &s);
	if (!rc)
		*a = (struct speed_adj){ .ref = ref, .beta = s.beta, .beta_var = s.beta_var, .df = s.df };
out:
	free(v);
	free(y);
	return rc;
}

double speed_round_at(const struct run_round *r, const struct speed_adj *a)
{
	return r->median - a->beta * (r->baseline_median - a->ref);
}
