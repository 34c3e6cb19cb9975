/* SPDX-License-Identifier: GPL-2.0-only */
/* published.h - published hardware VM-exit figures (report/published.def) and who matches them. */
#ifndef EXITSCOPE_REPORT_PUBLISHED_H
#define EXITSCOPE_REPORT_PUBLISHED_H

#include <stddef.h>

#include "results/host_record_model.h"

struct published_figure {
	const char *vendor;		/* CPUID vendor string, "GenuineIntel", "AuthenticAMD" */
	long long family, model;	/* CPUID family and model; model -1: not stated exactly */
	const char *cpu, *kernel;	/* as the source states them */
	const char *vcase;		/* the vmexit.c case measured ("ipi", "cpuid") */
	const char *probe;		/* the exitscope probe that measures the same (ipi: ipi_halt) */
	double cycles;			/* as published (vmexit.flat: TSC cycles per iteration, or
					 * as the source rounds it) */
	const char *setup;		/* what it was measured with */
	const char *source;		/* URL */
};

extern const struct published_figure published_figures[];
extern const size_t published_n;

/* Whether figure p is of the CPU vendor and family of host h. */
int published_matches(const struct published_figure *p, const struct host_record *h);

/* Whether it is also of the same CPU model. */
int published_same_model(const struct published_figure *p, const struct host_record *h);

struct report_ctx;

/*
 * <section id="published">: the published figures of the CPU vendor and
 * family of each file's host, beside that file's own figure for the probe.
 * Writes nothing when no file matches. Returns whether it wrote the section.
 */
int report_published(const struct report_ctx *r);

/* Whether report_published would write anything for these files. */
int report_published_any(const struct report_ctx *r);

#endif
