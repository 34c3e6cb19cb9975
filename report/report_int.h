/* SPDX-License-Identifier: GPL-2.0-only */
/* report_int.h - the sections of the HTML report, shared between report/report*.c. */
#ifndef EXITSCOPE_REPORT_REPORT_INT_H
#define EXITSCOPE_REPORT_REPORT_INT_H

#include <stdio.h>

#include "compare/compare.h"
#include "report/report.h"
#include "results/result_read.h"

/*
 * The files and their comparisons, made once (report_compare) and read by
 * the sections: pooled, the sides' one comparison (n_base); vs_a[i], file
 * i against A: every file after A without n_base, and with it each file
 * whose exit paths the exit-path section sets against A's.
 */
struct report_ctx {
	FILE *f;
	struct result_file *const *files;
	size_t n;
	size_t n_base;		/* pooled sides: the base side's files; 0: each file against A */
	struct compare_result *pooled;
	struct compare_result *vs_a[REPORT_MAX_FILES];
};

/* Make r's comparisons with opts. 0, or -1 with err set (out of memory). */
int report_compare(struct report_ctx *r, const struct compare_opts *opts, struct err *err);
/* Free r's comparisons. */
void report_compare_free(struct report_ctx *r);

/* Has any probe of rf an exit path? */
int report_has_paths(const struct result_file *rf);

/* <section id="probes">: cost charts and numbers per probe group. 0 or -1 (no memory). */
int report_probes(const struct report_ctx *r);

/* <section id="map">: ownership grid, entries x (file, CPUID profile). */
int report_map(const struct report_ctx *r);

/* <section id="exit-path">: the lanes' exit-path profiles, when a file has them. 0 or -1. */
int report_exit_paths(const struct report_ctx *r);

/* The page up to <body> (title escaped), and from </main> to the end: 0, or -EIO on a write error. */
void report_page_start(FILE *f, const char *title);
int report_page_end(FILE *f, struct err *err);

/*
 * Delta chart and table of one comparison, its sides labelled la and lb
 * ("A", "C", or pooled "A+B").
 */
void report_delta(const struct report_ctx *r, const struct compare_result *cr, const char *la,
		  const char *lb);

/* The HTML class of a verdict ("faster", ..., "noisy"; "na" for any other). */
const char *report_verdict_class(enum compare_verdict v);

/* A verdict's name, as compare_verdict_names has it ("?" past its end). */
const char *report_verdict_name(enum compare_verdict v);

#endif
