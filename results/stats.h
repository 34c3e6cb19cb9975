/* stats.h - descriptive statistics and confidence intervals for samples. */
#ifndef EXITSCOPE_RESULTS_STATS_H
#define EXITSCOPE_RESULTS_STATS_H

#include <stddef.h>
#include <stdint.h>

struct stats_summary {
	size_t n;
	double min, max, median, p90, p99, mean, stddev, cv;
	double ci95_lo, ci95_hi;	/* 95% confidence interval of the median */
};

/*
 * Summarize x[0..n-1] (not modified). Percentiles use linear interpolation
 * between order statistics (Hyndman-Fan type 7). Returns 0, or -EINVAL when
 * n == 0 or a value is not finite.
 */
int stats_summarize(const double *x, size_t n, struct stats_summary *out);

/* p-th percentile (0..100) of sorted[0..n-1], type 7; n must be > 0. */
double stats_percentile_sorted(const double *sorted, size_t n, double p);

#endif
