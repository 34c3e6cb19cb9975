/* report.h - one self-contained HTML report (inline CSS and SVG) from result files. */
#ifndef EXITSCOPE_REPORT_REPORT_H
#define EXITSCOPE_REPORT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"
#include "compare/compare.h"
#include "results/result_read.h"

#define REPORT_MAX_FILES 26	/* labelled A..Z */

/*
 * Write the report for files[0..n-1] to f: the host records, per-probe cost
 * charts (median bar, 95% CI whisker, min..p99 spread and the samples)
 * grouped by probe group, the ownership maps as a grid, the check results
 * and, for two or more files, A/B comparisons of every file against the
 * first (opts as for compare; NULL: defaults). It references nothing outside
 * the file. Returns 0, or -1 with a message in err.
 */
int report_write_html(FILE *f, struct result_file *const *files, size_t n,
		      const struct compare_opts *opts, struct err *err);

#endif
