/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irq.h - `exitscope check irq`: interrupts taken at the instruction
 * boundary the architecture (or KVM) names: a self IPI pending at STI after
 * the one instruction of its shadow, one sent with IF=1 right after the
 * WRMSR, an expired TSC deadline by the NOP after its WRMSR; the
 * conformance fact behind the delivery counts of `exitscope run`.
 */
#ifndef EXITSCOPE_SUITES_IRQ_H
#define EXITSCOPE_SUITES_IRQ_H

#include <stdint.h>

#include "results/check_model.h"
#include "suites/irq_guest.h"
#include "harness/suite_env.h"

void irq_checks(const struct suite_env *env, struct check_report *rep);

/* What a case's guest counted (suites/irq_guest.h has what each means). */
struct irq_counts {
	uint64_t at, elsewhere, late, never;	/* the trials' deliveries */
	uint64_t first_rip, want_rip;		/* the first trial that missed */
	uint64_t if0, if0_rip, if0_trial, if0_in_entry;	/* deliveries into code with IF=0 */
};

/* Add case c's verdict from its counts to rep (the checks' one judge; tests call it too). */
void irq_verdict(struct check_report *rep, enum irq_case c, const struct irq_counts *n);

#endif
