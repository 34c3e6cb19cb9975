// SPDX-License-Identifier: GPL-2.0-only
/*
 * cet_guest.c - guest side of the CET checks: the CR4.CET / CR0.WP rules,
 * CET MSR accesses, a supervisor shadow stack (SETSSBSY, RDSSP, INCSSP, a
 * tampered return), IBT ENDBR64 tracking, and CET state across exits.
 *
 * While the shadow stack is active every CALL/RET is checked against it, so
 * it is enabled and disabled in single asm blocks, and only one call (to
 * shstk_inner) happens in between: returning past the enabling frame with
 * shadow stacks on would itself raise #CP.
 */
#include "guest/guest.h"
#include "suites/cet_guest.h"

uint64_t cet_ss_token;

uint32_t cet_g_msrs[CET_NR_MSRS];
uint32_t cet_g_exit_msr;

uint64_t cet_g_cr4_set(uint64_t arg)
{
	uint64_t cr4 = read_cr4();
	int r = guest_write_cr4_safe(cr4 | X86_CR4_CET);

	if (!r)
		write_cr4(cr4);
	return r;
}

uint64_t cet_g_msr_access(uint64_t arg)
{
	uint64_t r = 0, v;

	for (unsigned int i = 0; i < CET_NR_MSRS; i++) {
		if (!guest_rdmsr_safe(cet_g_msrs[i], &v))
			r |= 1ULL << i;
		if (!guest_wrmsr_safe(cet_g_msrs[i], 0))
			r |= 1ULL << (i + 8);
	}
	return r;
}

/*
 * Field 0: set CR4.CET with CR0.WP clear (#GP expected); field 1: set it
 * with WP set (allowed); field 2: clear WP with CET set (#GP expected).
 */
uint64_t cet_g_cr4_wp(uint64_t arg)
{
	uint64_t cr0 = read_cr0(), cr4 = read_cr4(), r;
	int f;

	write_cr0(cr0 & ~X86_CR0_WP);
	f = guest_write_cr4_safe(cr4 | X86_CR4_CET);
	if (!f)
		write_cr4(cr4);
	write_cr0(cr0);
	r = (uint64_t)(f & 0xfff);
	f = guest_write_cr4_safe(cr4 | X86_CR4_CET);
	r |= (uint64_t)(f & 0xfff) << 12;
	if (f) {
		r |= (uint64_t)CET_WP_NOT_RUN << 24;
		return r;
	}
	f = guest_write_cr0_safe(cr0 & ~X86_CR0_WP);
	r |= (uint64_t)(f & 0xfff) << 24;
	write_cr0(cr0);
	write_cr4(cr4);
	return r;
}

static inline uint64_t rdssp(void)
{
	uint64_t ssp = 0;	/* RDSSP is a NOP while shadow stacks are off */

	asm volatile("rdsspq %0" : "+r"(ssp));
	return ssp;
}

static uint64_t shstk_exits(void)
{
	uint64_t s_cet = rdmsr(MSR_IA32_S_CET), pl0 = rdmsr(MSR_IA32_PL0_SSP);
	uint64_t cr4 = read_cr4(), ssp = rdssp(), entry = *(volatile uint64_t *)ssp;
	uint32_t a, b, c, d;
	uint64_t lost = 0;

	outb(0x80, 0xce);				/* PIO exit to userspace */
	(void)mmio_read32(GUEST_MMIO_BASE);		/* MMIO exit to userspace */
	guest_cpuid(0, 0, &a, &b, &c, &d);		/* handled in the kernel */
	(void)rdmsr(cet_g_exit_msr);			/* MSR exit: INT_SSP_TAB stays intercepted */
	/*
	 * ucall; the host may migrate here. Nothing between the RDSSP above and
	 * this is a call, so at the OUT the SSP is ssp - 8: the one push of
	 * `call guest_ucall` (cet_ucall_guest_ssp() on the host side).
	 */
	GUEST_SYNC(CET_SYNC_MARK, ssp, s_cet, pl0);
	if (rdmsr(MSR_IA32_S_CET) != s_cet)
		lost |= CET_LOST_S_CET;
	if (rdmsr(MSR_IA32_PL0_SSP) != pl0)
		lost |= CET_LOST_PL0_SSP;
	if (read_cr4() != cr4)
		lost |= CET_LOST_CR4;
	if (rdssp() != ssp)
		lost |= CET_LOST_SSP;
	if (*(volatile uint64_t *)ssp != entry)
		lost |= CET_LOST_SS_ENTRY;
	return lost;
}

/* Runs with the shadow stack active; its own return is checked against it. */
__attribute__((noinline))
static uint64_t shstk_inner(uint64_t mode)
{
	uint64_t ssp = rdssp(), a = 0, b = 0, reached = 0;

	switch (mode) {
	case CET_SHSTK_RDSSP:
		GUEST_SYNC(CET_SYNC_MARK, ssp, *(volatile uint64_t *)ssp,
			   (uint64_t)__builtin_return_address(0));
		return 0;
	case CET_SHSTK_INCSSP:
		/* A balanced call: INCSSP drops the shadow entry, ADD the normal one. */
		asm volatile("call 1f\n\t"
			     "jmp 2f\n"
			     "1:\trdsspq %0\n\t"
			     "incsspq %2\n\t"
			     "rdsspq %1\n\t"
			     "add $8, %%rsp\n"
			     "2:"
			     : "+r"(a), "+r"(b) : "r"(1ULL) : "memory");
		GUEST_SYNC(CET_SYNC_MARK, ssp, a, b);
		return 0;
	case CET_SHSTK_TAMPER:
		asm volatile("call 1f\n\t"
			     "jmp 2f\n"
			     "1:\tlea 3f(%%rip), %%rax\n\t"
			     "mov %%rax, (%%rsp)\n\t"
			     "ret\n"
			     "3:\tmov $1, %0\n"
			     "2:"
			     : "+r"(reached) :: "rax", "memory");
		return reached;
	case CET_SHSTK_EXITS:
		return shstk_exits();
	}
	return ~0ULL;
}

uint64_t cet_g_shstk(uint64_t mode)
{
	uint64_t tok = cet_ss_token, cr4 = read_cr4(), r;

	guest_shstk_begin();	/* CET-safe faults, no IST (no INT_SSP_TAB tokens) */
	write_cr4(cr4 | X86_CR4_CET);
	wrmsr(MSR_IA32_PL0_SSP, tok);
	/* Enable supervisor shadow stacks and take the token: SSP = PL0_SSP. */
	asm volatile("wrmsr\n\tsetssbsy"
		     :: "c"(MSR_IA32_S_CET), "a"((uint32_t)CET_SHSTK_EN), "d"(0) : "memory");
	r = shstk_inner(mode);
	/* Release the token (SSP = 0) and disable before any further CALL. */
	asm volatile("clrssbsy (%0)\n\twrmsr"
		     :: "r"(tok), "c"(MSR_IA32_S_CET), "a"(0), "d"(0) : "memory");
	write_cr4(cr4);
	guest_shstk_end();
	return r;
}

uint64_t cet_g_ibt(uint64_t bad_target)
{
	uint64_t cr4 = read_cr4(), r = 0;

	write_cr4(cr4 | X86_CR4_CET);
	wrmsr(MSR_IA32_S_CET, CET_ENDBR_EN);
	asm volatile("lea 1f(%%rip), %%rax\n\t"
		     "jmp *%%rax\n\t"
		     ".balign 16\n"
		     "1:\tendbr64\n\t"
		     "or $1, %0"
		     : "+r"(r) :: "rax", "memory");
	if (bad_target)
		asm volatile("lea 1f(%%rip), %%rax\n\t"
			     "jmp *%%rax\n\t"
			     ".balign 16\n"
			     "1:\tnop\n\t"
			     "or $2, %0"
			     : "+r"(r) :: "rax", "memory");
	wrmsr(MSR_IA32_S_CET, 0);
	write_cr4(cr4);
	return r;
}
