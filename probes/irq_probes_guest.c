// SPDX-License-Identifier: GPL-2.0-only
/*
 * irq_probes_guest.c - guest ops of the interrupt probes on an x2APIC in the
 * in-kernel irqchip: self IPI, HLT with an interrupt pending, IPIs to a
 * second vCPU (spinning or halted), the TSC-deadline timer; the delivery
 * count every interrupt op shares (in its window, late, never) and the
 * check their teardowns share; vCPU 0's bounded wait for vCPU 1. The wait
 * for a late interrupt is left out of the op's timed cost.
 */
#include "guest/guest.h"
#include "harness/latency_guest.h"
#include "probes/probes.h"

uint64_t probe_ipi_ready, probe_ipi_stop;
uint64_t probe_peer_wait_max, probe_peer_waited;
uint64_t probe_irq_ops, probe_irq_seen, probe_tpr_open, probe_tpr_late;
uint64_t probe_irq_late_max, probe_irq_late_hold, probe_irq_in_window, probe_irq_late, probe_irq_late_cycles;
static uint64_t probe_irq_stuck;	/* the last op's interrupt never came */
/*
 * The handlers of PROBE_IRQ_VECTOR: in the window, and in the late phase
 * (the same, after probe_irq_taken() recorded the TSC at its entry in
 * probe_irq_taken_tsc), so that the window's cost has no extra instruction.
 */
static guest_handler_t probe_irq_window_fn, probe_irq_late_fn;
static uint64_t probe_irq_taken_tsc;

#define V(x)	(*(volatile uint64_t *)&(x))

#define APIC_BASE_EN	(1ULL << 11)
#define APIC_BASE_EXTD	(1ULL << 10)
#define ICR_SELF	(1ULL << 18)	/* destination shorthand: self */
#define LVT_TSC_DEADLINE (2ULL << 17)

static volatile uint64_t *irq_count_of(uint64_t vcpu)
{
	struct guest_percpu *p = (struct guest_percpu *)(GUEST_PERCPU + vcpu * GUEST_PERCPU_SIZE);

	return (volatile uint64_t *)&p->irq_count;
}

void probe_irq_reset(void)
{
	*irq_count_of(guest_vcpu_id()) = 0;
	V(probe_irq_ops) = V(probe_irq_in_window) = V(probe_irq_late) = V(probe_irq_late_cycles) = 0;
	probe_irq_stuck = 0;
	/* The test hook's TPR (probe_tpr_open, set by the host) holds from here on. */
	write_cr8(V(probe_tpr_open));
}

uint64_t probe_irq_begin(void)
{
	V(probe_irq_ops)++;
	return *irq_count_of(guest_vcpu_id());
}

void probe_irq_taken(void)
{
	V(probe_irq_taken_tsc) = rdtsc();
}

void probe_irq_handlers(void (*window)(struct ex_regs *regs), void (*late)(struct ex_regs *regs))
{
	probe_irq_window_fn = window;
	probe_irq_late_fn = late;
	guest_install_handler(PROBE_IRQ_VECTOR, window);
}

/* The x2APIC probes' handler in the late phase. */
static void x2apic_late_handler(struct ex_regs *regs)
{
	probe_irq_taken();
	guest_irq_count_handler(regs);
}

/*
 * The op's window has closed (IF=0): did the interrupt count move since
 * before? If not, the interrupt is still pending (or lost): wait for it with
 * IF=1, TPR probe_tpr_late, at most probe_irq_late_max TSC cycles (after
 * probe_irq_late_hold cycles with IF=0: the test hook's known wait). A late
 * phase runs only on a host that missed the window. The op's cost ends with
 * its window: the late phase (the wait, the handler, the TPR restore) is
 * left out of the timed batch (latency_guest_exclude); the wait, from the
 * window's end to the late handler's entry, is summed in
 * probe_irq_late_cycles.
 */
/* The late phase of probe_irq_settle (out of line: the window's path stays as short as it was). */
static __attribute__((noinline)) void irq_late_phase(volatile uint64_t *cnt, uint64_t before, uint64_t max,
						     uint64_t tpr, uint64_t late)
{
	uint64_t t0 = rdtsc(), hold = V(probe_irq_late_hold);

	guest_install_handler(PROBE_IRQ_VECTOR, probe_irq_late_fn);
	while (rdtsc() - t0 < hold)
		cpu_relax();
	if (late != tpr)
		write_cr8(late);
	sti();
	while (*cnt == before && rdtsc() - t0 < max)
		cpu_relax();
	cli();
	guest_install_handler(PROBE_IRQ_VECTOR, probe_irq_window_fn);
	if (late != tpr)
		write_cr8(tpr);
	if (*cnt == before) {
		probe_irq_stuck = 1;
	} else {
		V(probe_irq_late)++;
		V(probe_irq_late_cycles) += V(probe_irq_taken_tsc) - t0;
	}
	latency_guest_exclude(rdtsc() - t0);
}

void probe_irq_settle(uint64_t before)
{
	volatile uint64_t *cnt = irq_count_of(guest_vcpu_id());
	uint64_t max = V(probe_irq_late_max), tpr = V(probe_tpr_open), late = V(probe_tpr_late);

	if (*cnt != before) {
		V(probe_irq_in_window)++;
		probe_irq_stuck = 0;
		return;
	}
	if (probe_irq_stuck)
		return;		/* never: it merges with the one still pending */
	irq_late_phase(cnt, before, max, tpr, late);
}

/* Teardown: fails only when no op's interrupt arrived, in its window or late. */
PROBE_FN(probe_irq_check)
{
	V(probe_irq_seen) = *irq_count_of(guest_vcpu_id());
	return V(probe_irq_ops) && !V(probe_irq_in_window) && !V(probe_irq_late)
	       ? GUEST_CHECK(PROBE_CHECK_IRQ) : 0;
}

/* Enter x2APIC mode, enable the APIC, count interrupts on both vectors. */
static uint64_t x2apic_enable(void)
{
	uint64_t base;
	int r = guest_rdmsr_safe(MSR_IA32_APICBASE, &base);

	if (!r)
		r = guest_wrmsr_safe(MSR_IA32_APICBASE, base | APIC_BASE_EN | APIC_BASE_EXTD);
	if (!r)
		r = guest_wrmsr_safe(MSR_X2APIC_SPIV, 0x1ff);
	probe_irq_handlers(guest_irq_count_handler, x2apic_late_handler);
	guest_install_handler(PROBE_IPI_VECTOR, guest_irq_count_handler);
	return r;
}

PROBE_FN(probe_x2apic_setup)
{
	uint64_t r = x2apic_enable();

	if (!r)
		probe_irq_reset();
	return r;
}

/* Window: the instruction boundary after the NOP (STI blocks for one instruction). */
PROBE_FN(probe_self_ipi)
{
	uint64_t c = probe_irq_begin();

	wrmsr(MSR_X2APIC_ICR, ICR_SELF | PROBE_IRQ_VECTOR);
	asm volatile("sti; nop; cli" ::: "memory");
	probe_irq_settle(c);
	return 0;
}

/* The self IPI is pending (IF=0) when STI;HLT runs: HLT wakes at once (the window). */
PROBE_FN(probe_hlt)
{
	uint64_t c = probe_irq_begin();

	wrmsr(MSR_X2APIC_ICR, ICR_SELF | PROBE_IRQ_VECTOR);
	asm volatile("sti; hlt; cli" ::: "memory");
	probe_irq_settle(c);
	return 0;
}

/* vCPU 1: take IPIs until told to stop; a = 1: halt between them. */
PROBE_FN(probe_ipi_target)
{
	if (x2apic_enable())
		return 1;
	V(probe_ipi_ready) = 1;
	if (!a)
		sti();		/* spin with interrupts enabled throughout */
	while (!V(probe_ipi_stop)) {
		if (a)
			asm volatile("sti; hlt; cli" ::: "memory");
		else
			cpu_relax();
	}
	cli();
	return *irq_count_of(1);
}

/*
 * Wait for vCPU 1 to say it is ready, at most probe_peer_wait_max TSC
 * cycles (the host gives half the watchdog); how long: probe_peer_waited.
 */
uint64_t probe_wait_peer(void)
{
	uint64_t t0 = rdtsc(), max = V(probe_peer_wait_max), d;

	do {
		d = rdtsc() - t0;
		if (V(probe_ipi_ready)) {
			V(probe_peer_waited) = d;
			return 0;
		}
		cpu_relax();
	} while (d < max);
	V(probe_peer_waited) = d;
	return GUEST_SKIP(PROBE_SKIP_NO_PEER);
}

/* vCPU 1 under the PROBE_NO_PEER_ENV test hook: never ready, it waits to be stopped. */
PROBE_FN(probe_peer_absent)
{
	while (!V(probe_ipi_stop))
		cpu_relax();
	return 0;
}

PROBE_FN(probe_ipi_setup)
{
	uint64_t r = x2apic_enable();

	return r ? r : probe_wait_peer();
}

PROBE_FN(probe_ipi)
{
	volatile uint64_t *cnt = irq_count_of(1);
	uint64_t c = *cnt;

	wrmsr(MSR_X2APIC_ICR, (1ULL << 32) | PROBE_IPI_VECTOR);
	while (*cnt == c)
		cpu_relax();
	if (a) {	/* ipi_halt: let vCPU 1 halt again before the next IPI */
		uint64_t end = rdtsc() + 2000;

		while (rdtsc() < end)
			;
	}
	return 0;
}

PROBE_FN(probe_ipi_teardown)
{
	V(probe_ipi_stop) = 1;
	wrmsr(MSR_X2APIC_ICR, (1ULL << 32) | PROBE_IPI_VECTOR);
	return 0;
}

PROBE_FN(probe_tscdeadline_setup)
{
	uint64_t r = x2apic_enable();

	if (!r)
		r = guest_wrmsr_safe(MSR_X2APIC_LVTT, LVT_TSC_DEADLINE | PROBE_IRQ_VECTOR);
	if (!r)
		probe_irq_reset();
	return r;
}

/*
 * Arm the timer a cycles ahead and wait for it (vmexit.c: a busy loop, no
 * PAUSE). The window is the wait itself: it ends when the interrupt came.
 */
PROBE_FN(probe_tscdeadline)
{
	volatile uint64_t *cnt = irq_count_of(guest_vcpu_id());
	uint64_t c = probe_irq_begin();

	wrmsr(MSR_IA32_TSC_DEADLINE, rdtsc() + a);
	asm volatile("sti" ::: "memory");
	while (*cnt == c)
		asm volatile("" ::: "memory");
	asm volatile("cli" ::: "memory");
	probe_irq_settle(c);
	return 0;
}

/*
 * Arm the timer with a deadline already passed and do not wait: with IF=1
 * the interrupt is due as soon as the WRMSR completes; the window is the
 * boundary after it and the NOP, up to the CLI.
 */
PROBE_FN(probe_tscdeadline_immed)
{
	uint64_t c = probe_irq_begin();

	asm volatile("sti" ::: "memory");
	wrmsr(MSR_IA32_TSC_DEADLINE, rdtsc());
	asm volatile("nop; cli" ::: "memory");
	probe_irq_settle(c);
	return 0;
}
