// SPDX-License-Identifier: GPL-2.0-only
/*
 * selfipi_guest.c - the self-IPI family of kvm-unit-tests x86/vmexit.c:
 * a self IPI through the xAPIC (MMIO at 0xfee00000, handled by the
 * in-kernel LAPIC) or the x2APIC SELF IPI register (MSR 0x83f), taken in
 * an STI;NOP or STI;HLT window or when the TPR (CR8) drops from 15 to 0.
 * Each op counts where its interrupt was taken (probe_irq_settle: in its
 * window, late, never); the teardown (probe_irq_check) fails the probe only
 * when none arrived.
 */
#include "guest/guest.h"
#include "probes/probes.h"

#define XAPIC_BASE	0xfee00000ULL
#define XAPIC_EOI	0x0b0
#define XAPIC_SPIV	0x0f0
#define XAPIC_ICR	0x300
#define XAPIC_ICR2	0x310
#define ICR_BUSY	(1u << 12)
#define ICR_ASSERT	(1u << 14)
#define ICR_DEST_SELF	(1u << 18)	/* shorthand; physical, fixed delivery */
#define MSR_X2APIC_SELF_IPI	0x83f
#define APIC_BASE_EN	(1ULL << 11)
#define APIC_BASE_EXTD	(1ULL << 10)
#define TPR_ALL		0x0f		/* masks every vector (0xec is class 14) */

static inline uint32_t xapic_read(uint32_t reg) { return mmio_read32(XAPIC_BASE + reg); }
static inline void xapic_write(uint32_t reg, uint32_t v) { mmio_write32(XAPIC_BASE + reg, v); }

/* Count the interrupt and EOI through the xAPIC page. */
static void xapic_irq_handler(struct ex_regs *regs)
{
	struct guest_percpu *p = guest_this_cpu();

	p->irq_count++;
	p->last_vector = regs->vector;
	xapic_write(XAPIC_EOI, 0);
}

/* The same in an op's late phase (probe_irq_settle): the TSC at its entry first. */
static void xapic_late_handler(struct ex_regs *regs)
{
	probe_irq_taken();
	xapic_irq_handler(regs);
}

/* The APIC stays in xAPIC mode (EXTD clear, as the vCPU starts): enable it. */
PROBE_FN(probe_xapic_setup)
{
	uint64_t base;
	int r = guest_rdmsr_safe(MSR_IA32_APICBASE, &base);

	if (!r && (base & APIC_BASE_EXTD))
		return GUEST_SKIP(PROBE_SKIP_XAPIC);
	if (!r)
		r = guest_wrmsr_safe(MSR_IA32_APICBASE, base | APIC_BASE_EN);
	if (r)
		return r;
	xapic_write(XAPIC_SPIV, 0x1ff);
	probe_irq_handlers(xapic_irq_handler, xapic_late_handler);
	probe_irq_reset();
	return 0;
}

/* As vmexit.c's apic_icr_write: wait for ICR idle, ICR2 then ICR. */
static inline void xapic_self_ipi(void)
{
	while (xapic_read(XAPIC_ICR) & ICR_BUSY)
		;
	xapic_write(XAPIC_ICR2, 0);
	xapic_write(XAPIC_ICR, ICR_ASSERT | ICR_DEST_SELF | PROBE_IRQ_VECTOR);
}

static inline void x2apic_self_ipi(void)
{
	wrmsr(MSR_X2APIC_SELF_IPI, PROBE_IRQ_VECTOR);
}

static inline void tpr_open(void)
{
	write_cr8(*(volatile uint64_t *)&probe_tpr_open);	/* 0 unless the test hook masks */
}

/*
 * The ops. IF is 0 outside them (vmexit.c runs with IF=1 and CLIs first);
 * the _tpr ops without STI enable interrupts around the TPR window. Each
 * op's window, where its interrupt is due: the boundary after the NOP of
 * STI;NOP, the HLT of STI;HLT, the MOV to CR8 that opens TPR (_tpr, IF=1)
 * up to the CLI; probe_irq_settle() then counts it in window, late or never.
 */
#define SELF_IPI_OPS(pfx, send)							\
PROBE_FN(probe_##pfx##self_ipi_sti_nop)						\
{										\
	uint64_t c = probe_irq_begin();						\
										\
	send();									\
	asm volatile("sti; nop; cli" ::: "memory");				\
	probe_irq_settle(c);							\
	return 0;								\
}										\
PROBE_FN(probe_##pfx##self_ipi_sti_hlt)						\
{										\
	uint64_t c = probe_irq_begin();						\
										\
	send();									\
	asm volatile("sti; hlt; cli" ::: "memory");				\
	probe_irq_settle(c);							\
	return 0;								\
}										\
PROBE_FN(probe_##pfx##self_ipi_tpr)						\
{										\
	uint64_t c = probe_irq_begin();						\
										\
	sti();									\
	write_cr8(TPR_ALL);							\
	send();									\
	tpr_open();								\
	asm volatile("nop; cli" ::: "memory");					\
	probe_irq_settle(c);							\
	return 0;								\
}										\
PROBE_FN(probe_##pfx##self_ipi_tpr_sti_nop)					\
{										\
	uint64_t c = probe_irq_begin();						\
										\
	write_cr8(TPR_ALL);							\
	send();									\
	tpr_open();								\
	asm volatile("sti; nop; cli" ::: "memory");				\
	probe_irq_settle(c);							\
	return 0;								\
}										\
PROBE_FN(probe_##pfx##self_ipi_tpr_sti_hlt)					\
{										\
	uint64_t c = probe_irq_begin();						\
										\
	write_cr8(TPR_ALL);							\
	send();									\
	tpr_open();								\
	asm volatile("sti; hlt; cli" ::: "memory");				\
	probe_irq_settle(c);							\
	return 0;								\
}

SELF_IPI_OPS(, xapic_self_ipi)
SELF_IPI_OPS(x2apic_, x2apic_self_ipi)
