/*
 * irq_guest.h - what the host side of `exitscope check irq` (suites/irq.c)
 * and its guest code (suites/irq_guest.c) share: the cases, the trial count
 * and the guest globals with the outcome of each case.
 */
#ifndef EXITSCOPE_SUITES_IRQ_GUEST_H
#define EXITSCOPE_SUITES_IRQ_GUEST_H

#include <stdint.h>

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

/* Run IRQ_TRIALS trials of case c. 0, or GUEST_FAULT | vector when the x2APIC could not be enabled. */
uint64_t irq_guest_case(uint64_t c);

#endif
