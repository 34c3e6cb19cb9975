// SPDX-License-Identifier: GPL-2.0-only
/*
 * xstate_guest.c - guest side of `exitscope check xstate`: set XCR0, cause
 * one exit of each kind (userspace PIO, in-kernel PIO, MMIO, CPUID, HLT
 * woken by the x2APIC timer, a host signal) reporting XCR0 after each, load
 * and check xmm0-15 across exits, and the IA32_XSS and PKRU sequences.
 * Vector registers are touched only in inline asm: guest C is
 * general-registers-only, so nothing else in the guest disturbs them.
 */
#include "guest/guest.h"
#include "suites/xstate_guest.h"

uint64_t xs_g_xcr0;
uint64_t xs_g_xgetbv;
uint64_t xs_g_hlt;
volatile uint64_t xs_g_go;
uint64_t xs_g_bad_xss;
uint8_t xs_g_pattern[XS_VEC_BYTES] __attribute__((aligned(16)));
uint8_t xs_g_xmm[XS_VEC_BYTES] __attribute__((aligned(16)));

#define APICBASE_EN	(1ULL << 11)
#define APICBASE_EXTD	(1ULL << 10)
#define X2APIC_TDCR	0x83e

static void xs_load_xmm(const uint8_t *p)
{
	asm volatile("movdqu 0x00(%0), %%xmm0\n\tmovdqu 0x10(%0), %%xmm1\n\t"
		     "movdqu 0x20(%0), %%xmm2\n\tmovdqu 0x30(%0), %%xmm3\n\t"
		     "movdqu 0x40(%0), %%xmm4\n\tmovdqu 0x50(%0), %%xmm5\n\t"
		     "movdqu 0x60(%0), %%xmm6\n\tmovdqu 0x70(%0), %%xmm7\n\t"
		     "movdqu 0x80(%0), %%xmm8\n\tmovdqu 0x90(%0), %%xmm9\n\t"
		     "movdqu 0xa0(%0), %%xmm10\n\tmovdqu 0xb0(%0), %%xmm11\n\t"
		     "movdqu 0xc0(%0), %%xmm12\n\tmovdqu 0xd0(%0), %%xmm13\n\t"
		     "movdqu 0xe0(%0), %%xmm14\n\tmovdqu 0xf0(%0), %%xmm15"
		     :: "r"(p) : "memory");
}

static void xs_store_xmm(uint8_t *p)
{
	asm volatile("movdqu %%xmm0, 0x00(%0)\n\tmovdqu %%xmm1, 0x10(%0)\n\t"
		     "movdqu %%xmm2, 0x20(%0)\n\tmovdqu %%xmm3, 0x30(%0)\n\t"
		     "movdqu %%xmm4, 0x40(%0)\n\tmovdqu %%xmm5, 0x50(%0)\n\t"
		     "movdqu %%xmm6, 0x60(%0)\n\tmovdqu %%xmm7, 0x70(%0)\n\t"
		     "movdqu %%xmm8, 0x80(%0)\n\tmovdqu %%xmm9, 0x90(%0)\n\t"
		     "movdqu %%xmm10, 0xa0(%0)\n\tmovdqu %%xmm11, 0xb0(%0)\n\t"
		     "movdqu %%xmm12, 0xc0(%0)\n\tmovdqu %%xmm13, 0xd0(%0)\n\t"
		     "movdqu %%xmm14, 0xe0(%0)\n\tmovdqu %%xmm15, 0xf0(%0)"
		     :: "r"(p) : "memory");
}

static uint64_t xs_xcr0_seen(void)
{
	uint64_t v;

	if (!xs_g_xgetbv || guest_xgetbv_safe(0, &v))
		return XS_NO_VALUE;
	return v;
}

/* CR4.OSXSAVE (the prerequisite), then xsetbv(XCR0 = arg). */
uint64_t xs_guest_set_xcr0(uint64_t arg)
{
	int r = guest_write_cr4_safe(read_cr4() | X86_CR4_OSXSAVE);

	if (r)
		return GUEST_FAULT_PREREQ | (uint64_t)r;
	return (uint64_t)guest_xsetbv_safe(0, arg);
}

uint64_t xs_guest_xgetbv(uint64_t arg)
{
	uint64_t v;
	int r = guest_xgetbv_safe(0, &v);

	return r ? GUEST_NO_VALUE | (uint64_t)r : v;
}

/* One x2APIC timer interrupt, waited for with sti;hlt. Interrupts taken. */
static uint64_t xs_hlt_once(void)
{
	struct guest_percpu *pc = guest_this_cpu();
	uint64_t n0;

	wrmsr(MSR_IA32_APICBASE, rdmsr(MSR_IA32_APICBASE) | APICBASE_EN | APICBASE_EXTD);
	wrmsr(MSR_X2APIC_SPIV, 0x1ff);
	guest_install_handler(XS_TIMER_VECTOR, guest_irq_count_handler);
	cli();
	n0 = pc->irq_count;
	wrmsr(X2APIC_TDCR, 0xb);		/* divide by 1 */
	wrmsr(MSR_X2APIC_LVTT, XS_TIMER_VECTOR);	/* one-shot */
	wrmsr(MSR_X2APIC_TMICT, 20000);
	while (*(volatile uint64_t *)&pc->irq_count == n0)
		safe_halt();
	cli();
	return pc->irq_count - n0;
}

uint64_t xs_guest_exits(uint64_t arg)
{
	uint32_t a, b, c, d;
	uint64_t extra;

	if (xs_g_xcr0) {
		uint64_t r = xs_guest_set_xcr0(xs_g_xcr0);

		if (r)
			return r;
	}
	for (uint64_t step = XS_STEP_PIO_USER; step <= XS_NR_STEPS; step++) {
		extra = 0;
		switch (step) {
		case XS_STEP_PIO_USER:
			outb(XS_PORT, 1);
			break;
		case XS_STEP_PIO_KERNEL:
			extra = inb(XS_ELCR_PORT);
			outb(XS_ELCR_PORT, (uint8_t)extra);
			break;
		case XS_STEP_MMIO:
			mmio_write32(GUEST_MMIO_BASE, 1);
			break;
		case XS_STEP_CPUID:
			guest_cpuid(0, 0, &a, &b, &c, &d);
			extra = a;
			break;
		case XS_STEP_HLT:
			if (xs_g_hlt)
				extra = xs_hlt_once();
			break;
		case XS_STEP_SIGNAL:
			xs_g_go = 0;
			GUEST_SYNC(XS_SYNC_ARM);
			while (!xs_g_go)
				cpu_relax();
			break;
		}
		GUEST_SYNC(XS_SYNC_STEP, step, xs_xcr0_seen(), extra);
	}
	return 0;
}

/* Load the pattern into xmm0-15, exit in several ways, store them back. */
uint64_t xs_guest_vec_exits(uint64_t arg)
{
	uint32_t a, b, c, d;
	uint64_t bad = 0;

	xs_load_xmm(xs_g_pattern);
	outb(XS_PORT, 2);
	mmio_write32(GUEST_MMIO_BASE, 2);
	guest_cpuid(1, 0, &a, &b, &c, &d);
	outb(XS_ELCR_PORT, inb(XS_ELCR_PORT));
	GUEST_SYNC(XS_SYNC_VEC);
	xs_store_xmm(xs_g_xmm);
	for (int i = 0; i < XS_VEC_BYTES; i++)
		bad += xs_g_xmm[i] != xs_g_pattern[i];
	return bad;
}

/* Clobber the guest's xmm0-15 with the pattern, then one userspace exit. */
uint64_t xs_guest_clobber(uint64_t arg)
{
	xs_load_xmm(xs_g_pattern);
	outb(XS_PORT, 3);
	return 0;
}

uint64_t xs_guest_store_xmm(uint64_t arg)
{
	xs_store_xmm(xs_g_xmm);
	return 0;
}

/*
 * IA32_XSS: write arg (the prerequisite), exit, report what rdmsr reads
 * (sync), read again after the host's KVM_SET_MSRS (sync), then try
 * xs_g_bad_xss and return that write's result.
 */
uint64_t xs_guest_xss(uint64_t arg)
{
	uint32_t a, b, c, d;
	uint64_t v;
	int r = guest_wrmsr_safe(MSR_IA32_XSS, arg);

	if (r)
		return GUEST_FAULT_PREREQ | (uint64_t)r;
	outb(XS_PORT, 5);
	guest_cpuid(0xd, 1, &a, &b, &c, &d);
	GUEST_SYNC(XS_SYNC_XSS, 1, rdmsr(MSR_IA32_XSS));
	GUEST_SYNC(XS_SYNC_XSS, 2, rdmsr(MSR_IA32_XSS));
	r = guest_wrmsr_safe(MSR_IA32_XSS, xs_g_bad_xss);
	v = rdmsr(MSR_IA32_XSS);
	guest_wrmsr_safe(MSR_IA32_XSS, 0);
	GUEST_SYNC(XS_SYNC_XSS, 3, v);
	return (uint64_t)r;
}

static inline uint32_t xs_rdpkru(void)
{
	uint32_t a, d;

	asm volatile(".byte 0x0f, 0x01, 0xee" : "=a"(a), "=d"(d) : "c"(0));
	return a;
}

static inline void xs_wrpkru(uint32_t v)
{
	asm volatile(".byte 0x0f, 0x01, 0xef" :: "a"(v), "c"(0), "d"(0) : "memory");
}

/* PKRU: CR4.PKE, wrpkru(arg), exits, report rdpkru. PKRU only guards user pages. */
uint64_t xs_guest_pkru(uint64_t arg)
{
	uint64_t cr4 = read_cr4();
	uint32_t a, b, c, d;
	int r = guest_write_cr4_safe(cr4 | X86_CR4_PKE);

	if (r)
		return GUEST_NO_VALUE | (uint64_t)r;
	xs_wrpkru((uint32_t)arg);
	outb(XS_PORT, 4);
	guest_cpuid(0, 0, &a, &b, &c, &d);
	GUEST_SYNC(XS_SYNC_PKRU, xs_rdpkru());
	a = xs_rdpkru();
	xs_wrpkru(0);
	write_cr4(cr4);
	return a;
}
