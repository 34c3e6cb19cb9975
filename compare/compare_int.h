/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * compare_int.h - what the files of a comparison share, inside compare/
 * only. compare.c (the entry points) runs the parts: hostdiff.c,
 * probediff.c, changes.c and notes.c (which judges the guest speed line
 * with probediff.c's verdict); they add what they find to the result
 * through findings.c. Uses go that way only, never back. A part that fails
 * returns a negative errno: -ENOMEM, or -EINVAL where the statistics refuse
 * a figure (compare_interval).
 */
#ifndef EXITSCOPE_COMPARE_COMPARE_INT_H
#define EXITSCOPE_COMPARE_COMPARE_INT_H

#include "compare/compare.h"

/* findings.c */
/*
 * Append a zeroed element to the growing array whose pointer is at arrp
 * (any element type) and whose length is *n; NULL when out of memory.
 */
void *findings_push(void *arrp, size_t *n, size_t size);
/* The formatted message (malloc'd); NULL when out of memory. */
char *findings_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The formatted message added to cr's warnings and notes. 0, or -ENOMEM. */
int findings_warnf(struct compare_result *cr, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* hostdiff.c: each difference into cr->host, the warnings and notes into cr->warnings; 0 or -ENOMEM. */
/* The hosts (kernel, backend and its parameters, CPU, TSC, execution mode, lane). */
int hostdiff_host(struct compare_result *cr, const struct host_record *a,
		  const struct host_record *b);
/* How the two runs measured (their settings). */
int hostdiff_settings(struct compare_result *cr, const struct result_file *fa,
		      const struct result_file *fb);

/* probediff.c */
/*
 * The probes of both sides matched by name, in base order: each compared
 * into cr->probes (its counters into cr->counters, cr->unjudged), the rest
 * into cr->only_a, cr->only_b, the counts and notes of cr set. 0 or a negative errno.
 */
int probediff_probes(struct compare_result *cr, const struct result_file *const *a, size_t na,
		     const struct result_file *const *b, size_t nb);
/*
 * p's percentages (of the base figure; none when it is at most zero:
 * COMPARE_DIFF_MIN for cycles, 0 for the guest speed's ratios) and
 * verdict, from its interval p->d.
 */
void probediff_verdict(const struct compare_result *cr, struct compare_probe *p, double zero);
/* Is everything printed of p's interval finite? */
int probediff_finite(const struct compare_probe *p);

/*
 * changes.c: the entries of the sides' ownership maps (into cr->map) and
 * their checks (into cr->checks) that changed status; map_compared,
 * checks_compared set. 0 or -ENOMEM.
 */
int changes_maps(struct compare_result *cr, const struct result_map *a, const struct result_map *b);
int changes_checks(struct compare_result *cr, const struct check_report *a,
		   const struct check_report *b);

/* notes.c: warnings and notes into cr->warnings (the run-to-run note into cr->r2r_note); 0 or -ENOMEM. */
/* The runs of one side (what: "base" or "new") should come from one setup. */
int notes_side(struct compare_result *cr, const char *what, const struct result_file *const *f,
	       size_t n);
/* How cr->noise's runs differ from the runs it is applied to. */
int notes_floor(struct compare_result *cr, const struct result_file *const *a, size_t na,
		const struct result_file *const *b, size_t nb);
/* After the probes: which intervals lack the variation from one run to the next. */
int notes_r2r(struct compare_result *cr);
/* After the probes: the guest speed line (cr->speed) and what it means for the verdicts. */
int notes_speed(struct compare_result *cr, const struct result_file *const *a, size_t na,
		const struct result_file *const *b, size_t nb);

#endif
