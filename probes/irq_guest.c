/*
 * irq_guest.c - guest ops of the interrupt probes on an x2APIC in the
 * in-kernel irqchip: self IPI, HLT with an interrupt pending, IPIs to a
 * second vCPU (spinning or halted), the TSC-deadline timer; and the
 * interrupt check their teardowns share (one interrupt taken per op).
 */
#include "guest/guest.h"
#include "probes/probes.h"
#include "harness/latency_guest.h"

uint64_t probe_ipi_ready, probe_ipi_stop;
uint64_t probe_irq_ops, probe_irq_seen, probe_tpr_open;

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
	*(volatile uint64_t *)&probe_irq_ops = 0;
	/* The test hook's TPR (probe_tpr_open, set by the host) holds from here on. */
	write_cr8(*(volatile uint64_t *)&probe_tpr_open);
}

/* Teardown: every op took its interrupt in its window. */
PROBE_FN(probe_irq_check)
{
	uint64_t seen = *irq_count_of(guest_vcpu_id()), ops = *(volatile uint64_t *)&probe_irq_ops;

	*(volatile uint64_t *)&probe_irq_seen = seen;
	/*
	 * A window that missed its interrupt leaves it pending in IRR, where
	 * the next op's IPI of the same vector merges with it: fewer
	 * interrupts than ops. One more than ops is a stray (seen in the SVM
	 * lane: 314 for 313), not a missed window.
	 */
	return seen >= ops ? 0 : GUEST_CHECK(PROBE_CHECK_IRQ);
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
	guest_install_handler(PROBE_IRQ_VECTOR, guest_irq_count_handler);
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

PROBE_FN(probe_self_ipi)
{
	probe_irq_ops++;
	wrmsr(MSR_X2APIC_ICR, ICR_SELF | PROBE_IRQ_VECTOR);
	asm volatile("sti; nop; cli" ::: "memory");
	return 0;
}

/* The self IPI is pending (IF=0) when STI;HLT runs: HLT wakes at once. */
PROBE_FN(probe_hlt)
{
	probe_irq_ops++;
	wrmsr(MSR_X2APIC_ICR, ICR_SELF | PROBE_IRQ_VECTOR);
	asm volatile("sti; hlt; cli" ::: "memory");
	return 0;
}

/* vCPU 1: take IPIs until told to stop; a = 1: halt between them. */
PROBE_FN(probe_ipi_target)
{
	if (x2apic_enable())
		return 1;
	*(volatile uint64_t *)&probe_ipi_ready = 1;
	if (!a)
		sti();		/* spin with interrupts enabled throughout */
	while (!*(volatile uint64_t *)&probe_ipi_stop) {
		if (a)
			asm volatile("sti; hlt; cli" ::: "memory");
		else
			cpu_relax();
	}
	cli();
	return *irq_count_of(1);
}

/* Wait (bounded: a few batches' worth of TSC) for vCPU 1 to say it is ready. */
uint64_t probe_wait_peer(void)
{
	uint64_t end = rdtsc() + 4 * latency_guest_target_cycles();

	while (rdtsc() < end)
		if (*(volatile uint64_t *)&probe_ipi_ready)
			return 0;
	return GUEST_SKIP(PROBE_SKIP_IPI_TARGET);
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
	*(volatile uint64_t *)&probe_ipi_stop = 1;
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

/* Arm the timer a cycles ahead and wait for it (vmexit.c: a busy loop, no PAUSE). */
PROBE_FN(probe_tscdeadline)
{
	volatile uint64_t *cnt = irq_count_of(guest_vcpu_id());
	uint64_t c = *cnt;

	probe_irq_ops++;
	wrmsr(MSR_IA32_TSC_DEADLINE, rdtsc() + a);
	asm volatile("sti" ::: "memory");
	while (*cnt == c)
		asm volatile("" ::: "memory");
	asm volatile("cli" ::: "memory");
	return 0;
}

/*
 * Arm the timer with a deadline already passed and do not wait: with IF=1
 * the interrupt is taken as soon as the WRMSR completes, before the NOP;
 * the teardown checks there was one per op.
 */
PROBE_FN(probe_tscdeadline_immed)
{
	probe_irq_ops++;
	asm volatile("sti" ::: "memory");
	wrmsr(MSR_IA32_TSC_DEADLINE, rdtsc());
	asm volatile("nop; cli" ::: "memory");
	return 0;
}
