/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irq_guest.h - what the host side of `exitscope check irq` (suites/irq.c)
 * and its guest code (suites/irq_guest.c) share: the cases, the trial count
 * and the guest globals with the outcome of each case.
 */
#ifndef EXITSCOPE_SUITES_IRQ_GUEST_H
#define EXITSCOPE_SUITES_IRQ_GUEST_H

#include <stdint.h>

#include "guest/ex_regs.h"

#define IRQ_TRIALS	16
#define IRQ_VECTOR	0xec
#define IRQ_LATE_MS	50	/* how long a trial waits for an interrupt that missed its window */

/* The cases (the guest function's argument). */
enum irq_case {
	IRQ_CASE_STI_SHADOW,	/* pending at STI with IF=0: taken after the one instruction that follows */
	IRQ_CASE_SELF_IPI_IF1,	/* x2APIC SELF IPI written with IF=1: taken right after the WRMSR */
	IRQ_CASE_TSC_DEADLINE,	/* TSC deadline armed already expired, IF=1: taken by the NOP after it */
	IRQ_CASE_N
};

/*
 * The outcome of a case's trials (set by irq_guest_case): at the boundary
 * the case names, elsewhere in its window, after the window (within
 * irq_late_max TSC cycles, set by the host), or never.
 */
extern uint64_t irq_late_max;
extern uint64_t irq_at, irq_elsewhere, irq_late, irq_never;
extern uint64_t irq_first_rip, irq_want_rip;	/* the first trial that missed: where it was taken */
/*
 * Deliveries into code running with IF=0 (not counted above): how many, and
 * of the first its RIP, its trial (from 0) and whether it interrupted the
 * guest's interrupt entry (guest/entry.S) rather than the C handler.
 */
extern uint64_t irq_if0, irq_if0_rip, irq_if0_trial, irq_if0_in_entry;

/*
 * What the handler notes of one delivery, before its EOI: a delivery into
 * code running with IF=0 goes to irq_if0*, any other is this trial's
 * (irq_taken, irq_rip). Plain C, so tests/test_irq.c calls it on frames
 * it builds.
 */
extern uint64_t irq_taken, irq_rip, irq_trial_no;
void irq_note(const struct ex_regs *regs);

/* Run IRQ_TRIALS trials of case c. 0, or GUEST_FAULT | vector when the x2APIC could not be enabled. */
uint64_t irq_guest_case(uint64_t c);

#endif
