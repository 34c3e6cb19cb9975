/* SPDX-License-Identifier: GPL-2.0-only */
/* report.h - one self-contained HTML report (inline CSS and SVG) from result files. */
#ifndef EXITSCOPE_REPORT_REPORT_H
#define EXITSCOPE_REPORT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "base/err.h"
#include "compare/compare.h"
#include "results/result_read.h"
#include "results/walk_model.h"

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

/*
 * How report_write() compares: cmp as for compare (NULL: defaults); n_base
 * 0: every file against the first; else files[0..n_base-1] are the runs of
 * the base side and the rest those of the new, pooled as compare pools
 * them (one comparison). doc: the compare --json document the files and
 * options were taken from (named on the page), or NULL.
 */
struct report_how {
	const struct compare_opts *cmp;
	size_t n_base;
	const char *doc;
};

/* report_write_html() with the comparison as how says. 0, or -1 with err set. */
int report_write(FILE *f, struct result_file *const *files, size_t n, const struct report_how *how,
		 struct err *err);

/*
 * Write the report of a walk (results/walk_model.h, its runs read) and its
 * steps (compare/walk_steps.h) to f: per lane, a table of the steps, then
 * per probe a chart of its lane cycles over the commits (oldest first,
 * skipped commits and commits that did not measure it marked, steps
 * marked) with its steps' functions under it. 0, or -errno with err set.
 */
int report_write_walk_html(FILE *f, const struct walk_steps *s, struct err *err);

#endif
