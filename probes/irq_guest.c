/*
 * irq_guest.c - guest ops of the interrupt probes on an x2APIC in the
 * in-kernel irqchip: self IPI, HLT with an interrupt pending, IPIs to a
 * second vCPU (spinning or halted), and the TSC-deadline timer.
 */
#include "guest/guest.h"
#include "probes/probes.h"
#include "harness/latency_guest.h"

uint64_t probe_ipi_ready, probe_ipi_stop;

#define APIC_BASE_EN	(1ULL << 11)
#define APIC_BASE_EXTD	(1ULL << 10)
#define ICR_SELF	(1ULL << 18)	/* destination shorthand: self */
#define LVT_TSC_DEADLINE (2ULL << 17)

static volatile uint64_t *irq_count_of(uint64_t vcpu)
{
	struct guest_percpu *p = (struct guest_percpu *)(GUEST_PERCPU + vcpu * GUEST_PERCPU_SIZE);

	return (volatile uint64_t *)&p->irq_count;
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

PROBE_FN(probe_x2apic_setup) { return x2apic_enable(); }

PROBE_FN(probe_self_ipi)
{
	wrmsr(MSR_X2APIC_ICR, ICR_SELF | PROBE_IRQ_VECTOR);
	asm volatile("sti; nop; cli" ::: "memory");
	return 0;
}

/* The self IPI is pending (IF=0) when STI;HLT runs: HLT wakes at once. */
PROBE_FN(probe_hlt)
{
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

PROBE_FN(probe_ipi_setup)
{
	uint64_t r = x2apic_enable();

	if (r)
		return r;
	/* Wait (bounded: a few batches' worth of TSC) for vCPU 1 to enable its APIC. */
	uint64_t end = rdtsc() + 4 * latency_guest_target_cycles();

	while (rdtsc() < end)
		if (*(volatile uint64_t *)&probe_ipi_ready)
			return 0;
	return GUEST_SKIP(PROBE_SKIP_IPI_TARGET);
}

PROBE_FN(probe_ipi)
{
	volatile uint64_t *cnt = irq_count_of(1);
	uint64_t c = *cnt;

	wrmsr(MSR_X2APIC_ICR, (1ULL << 32) | PROBE_IPI_VECTOR);
	while (*cnt == c)
		cpu_relax();
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
	return r;
}

/* Arm the timer a cycles ahead (0: already expired) and wait for it. */
PROBE_FN(probe_tscdeadline)
{
	volatile uint64_t *cnt = irq_count_of(guest_vcpu_id());
	uint64_t c = *cnt;

	wrmsr(MSR_IA32_TSC_DEADLINE, rdtsc() + a);
	asm volatile("sti" ::: "memory");
	while (*cnt == c)
		cpu_relax();
	asm volatile("cli" ::: "memory");
	return 0;
}
