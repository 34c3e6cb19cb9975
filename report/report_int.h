/* SPDX-License-Identifier: GPL-2.0-only */
/* report_int.h - the sections of the HTML report, shared between report/report*.c. */
#ifndef EXITSCOPE_REPORT_REPORT_INT_H
#define EXITSCOPE_REPORT_REPORT_INT_H

#include <stdio.h>

#include "compare/compare.h"
#include "results/result_read.h"

struct report_ctx {
	FILE *f;
	struct result_file *const *files;
	size_t n;
};

/* <section id="probes">: cost charts and numbers per probe group. 0 or -1 (no memory). */
int report_probes(const struct report_ctx *r);

/* <section id="map">: ownership grid, entries x (file, CPUID profile). */
int report_map(const struct report_ctx *r);

/* <section id="exit-path">: the lanes' exit-path profiles, when a file has them. 0 or -1. */
int report_exit_paths(const struct report_ctx *r);

/* The page up to <body> (title escaped), and from </main> to the end: 0, or -EIO on a write error. */
void report_page_start(FILE *f, const char *title);
int report_page_end(FILE *f, struct err *err);

/* Delta chart and table of one comparison (files[ia] -> files[ib]). */
void report_delta(const struct report_ctx *r, const struct compare_result *cr, size_t ia, size_t ib);

#endif
