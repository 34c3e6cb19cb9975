// SPDX-License-Identifier: GPL-2.0-only
/* rounds.c - method v2's per-round arithmetic and stop decision (harness/rounds.h). */
#include <errno.h>
#include <math.h>

#include "harness/rounds.h"
#include "stats/stats.h"

int latency_round_from_tsc(struct latency_round *r, uint64_t batch, const uint64_t *tb,
			   const uint64_t *t, size_t n)
{
	if (!n || n > LATENCY_MAX_PAIRS || !batch)
		return -EINVAL;
	r->batch = batch;
	r->n = n;
	for (size_t i = 0; i < n; i++) {
		r->base[i] = (double)tb[i] / (double)batch;
		r->raw[i] = (double)t[i] / (double)batch;
		r->net[i] = r->raw[i] - r->base[i];
	}
	r->median = stats_median(r->net, n);
	r->baseline_median = stats_median(r->base, n);
	r->raw_median = stats_median(r->raw, n);
	return 0;
}

int latency_rounds_ci(const double *medians, size_t n, double *center, double *half)
{
	double mean = 0, ss = 0;

	if (n < 2)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		mean += medians[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (medians[i] - mean) * (medians[i] - mean);
	*center = mean;
	*half = stats_t95(n - 1) * sqrt(ss / (double)(n - 1)) / sqrt((double)n);
	return 0;
}

enum probe_stop latency_stop_decide(const struct latency_stop_rule *rule, const double *medians,
				    size_t n, double spent_s, double *ci_rel_pct)
{
	double center, half, want;

	*ci_rel_pct = -1;
	if (!latency_rounds_ci(medians, n, &center, &half)) {
		if (center != 0)
			*ci_rel_pct = 100 * half / fabs(center);
		want = rule->precision_pct / 100 * fabs(center);
		if (want < rule->floor_cycles)
			want = rule->floor_cycles;
		if (n >= rule->min_rounds && half <= want)
			return PROBE_STOP_PRECISION;
	}
	if (n >= rule->max_rounds || (rule->budget_s > 0 && spent_s >= rule->budget_s))
		return PROBE_STOP_BUDGET;
	return PROBE_STOP_NONE;
}
