// SPDX-License-Identifier: GPL-2.0-only
/*
 * irq_guest.c - guest side of `exitscope check irq`: x2APIC self IPIs sent
 * where the architecture says at which instruction boundary they are taken,
 * each trial's handler noting the RIP it interrupted (suites/irq_guest.h).
 */
#include "guest/guest.h"
#include "suites/irq_guest.h"

#define APICBASE_EN	(1ULL << 11)
#define APICBASE_EXTD	(1ULL << 10)
#define MSR_SELF_IPI	0x83f
#define LVT_TSC_DEADLINE (2ULL << 17)

uint64_t irq_late_max;
uint64_t irq_at, irq_elsewhere, irq_late, irq_never;
uint64_t irq_first_rip, irq_want_rip;
uint64_t irq_if0, irq_if0_rip, irq_if0_trial, irq_if0_in_entry;
uint64_t irq_taken, irq_rip;	/* this trial's interrupts, the RIP of its first */
uint64_t irq_trial_no;

#define V(x)	(*(volatile uint64_t *)&(x))

/*
 * A maskable interrupt cannot interrupt code running with IF=0: one that
 * did was injected by the hypervisor, not recognized by the CPU (the SVM
 * lane has shown a second delivery of the vector inside the first one's
 * interrupt entry). It is counted apart, and the trial's boundary is the
 * other delivery's.
 */
void irq_note(const struct ex_regs *regs)
{
	if (!(regs->rflags & X86_RFLAGS_IF)) {
		if (!V(irq_if0)) {
			V(irq_if0_rip) = regs->rip;
			V(irq_if0_trial) = V(irq_trial_no);
			V(irq_if0_in_entry) = guest_rip_in_isr_entry(regs->rip);
		}
		V(irq_if0)++;
		return;
	}
	if (!V(irq_taken))
		V(irq_rip) = regs->rip;
	V(irq_taken)++;
}

static void irq_handler(struct ex_regs *regs)
{
	irq_note(regs);
	wrmsr(MSR_X2APIC_EOI, 0);
}

/*
 * One trial: send with IF as the case wants, return the boundary it names
 * (the TSC deadline's may also be the one after the NOP: see irq.c).
 */
static uint64_t irq_trial(uint64_t c)
{
	uint64_t want;

	if (c == IRQ_CASE_TSC_DEADLINE)
		asm volatile("sti\n\t"
			     "lea 1f(%%rip), %[w]\n\t"
			     "rdtsc\n\t"
			     "wrmsr\n\t"
			     "1: nop\n\t"
			     "cli"
			     : [w] "=&r"(want)
			     : "c"(MSR_IA32_TSC_DEADLINE) : "rax", "rdx", "memory");
	else if (c == IRQ_CASE_STI_SHADOW)
		asm volatile("cli\n\t"
			     "lea 1f(%%rip), %[w]\n\t"
			     "wrmsr\n\t"
			     "sti\n\t"
			     "nop\n\t"
			     "1: cli"
			     : [w] "=&r"(want)
			     : "c"(MSR_SELF_IPI), "a"(IRQ_VECTOR), "d"(0) : "memory");
	else
		asm volatile("sti\n\t"
			     "lea 1f(%%rip), %[w]\n\t"
			     "wrmsr\n\t"
			     "1: nop\n\t"
			     "cli"
			     : [w] "=&r"(want)
			     : "c"(MSR_SELF_IPI), "a"(IRQ_VECTOR), "d"(0) : "memory");
	return want;
}

uint64_t irq_guest_case(uint64_t c)
{
	uint64_t base, t0;
	int r = guest_rdmsr_safe(MSR_IA32_APICBASE, &base);

	if (!r)
		r = guest_wrmsr_safe(MSR_IA32_APICBASE, base | APICBASE_EN | APICBASE_EXTD);
	if (!r)
		r = guest_wrmsr_safe(MSR_X2APIC_SPIV, 0x1ff);
	if (!r && c == IRQ_CASE_TSC_DEADLINE)
		r = guest_wrmsr_safe(MSR_X2APIC_LVTT, LVT_TSC_DEADLINE | IRQ_VECTOR);
	if (r)
		return (uint64_t)r;
	guest_install_handler(IRQ_VECTOR, irq_handler);
	V(irq_at) = V(irq_elsewhere) = V(irq_late) = V(irq_never) = 0;
	V(irq_first_rip) = V(irq_want_rip) = 0;
	V(irq_if0) = V(irq_if0_rip) = V(irq_if0_trial) = V(irq_if0_in_entry) = 0;
	for (int i = 0; i < IRQ_TRIALS; i++) {
		uint64_t want;

		V(irq_trial_no) = (uint64_t)i;
		V(irq_taken) = 0;
		want = irq_trial(c);
		if (V(irq_taken)) {
			/* The TSC deadline's boundary: after the WRMSR or after the NOP (1 byte). */
			if (V(irq_rip) == want || (c == IRQ_CASE_TSC_DEADLINE && V(irq_rip) == want + 1)) {
				V(irq_at)++;
				continue;
			}
			V(irq_elsewhere)++;
		} else {
			/* Not in the window: give it IRQ_LATE_MS with IF=1, then call it never. */
			t0 = rdtsc();
			sti();
			while (!V(irq_taken) && rdtsc() - t0 < V(irq_late_max))
				cpu_relax();
			cli();
			if (V(irq_taken))
				V(irq_late)++;
			else
				V(irq_never)++;
		}
		if (!V(irq_want_rip)) {
			V(irq_want_rip) = want;
			V(irq_first_rip) = V(irq_taken) ? V(irq_rip) : 0;
		}
		if (!V(irq_taken))
			break;	/* the pending one would merge with the next: stop */
	}
	return 0;
}
