// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate_guest.c - a guest that is migrated while it runs: it sets up
 * registers, vector state, MSRs, debug registers, XCR0 and x2APIC state,
 * syncs with its general registers pinned, then loops until the host stops
 * it, and finally checks that everything it set up is still there.
 */
#include "base/array_size.h"
#include "guest/guest.h"
#include "suites/migrate_guest.h"

uint64_t mg_flags, mg_xcr0, mg_stop, mg_counter, mg_host_mark, mg_verified, mg_iterations;

#define LCG(x)		((x) * 6364136223846793005ULL + 1442695040888963407ULL)
#define APIC_EN		(1ULL << 11)
#define APIC_EXTD	(1ULL << 10)
#define MSR_X2APIC_TPR	0x808
#define MSR_STAR	0xc0000081
#define MSR_LSTAR	0xc0000082
#define MSR_SFMASK	0xc0000084
#define MSR_FS_BASE	0xc0000100
#define MSR_TSC_AUX	0xc0000103
#define MSR_SYSENTER_ESP 0x175

/*
 * Optional state (XCR0, ymm, TSC_AUX, x2APIC, MXCSR/FCW) is chosen by the host from the
 * CPUID it gave the vCPU: some hosts (kvm_pvm) let the CPUID instruction see
 * the host's own CPUID instead, and emulate neither LDMXCSR nor FLDCW.
 */

static const struct { uint32_t msr; uint64_t val, lost; } mg_msrs[] = {
	{ MSR_KERNEL_GS_BASE,	0xffff888812345678ULL, MG_LOST_KERNEL_GS },
	{ MSR_LSTAR,		0xffffffff81234560ULL, MG_LOST_LSTAR },
	{ MSR_STAR,		0x0023001000000000ULL, MG_LOST_STAR },
	{ MSR_SFMASK,		0x47700ULL,	       MG_LOST_SFMASK },
	{ MSR_FS_BASE,		0x00007fffdeadb000ULL, MG_LOST_FS_BASE },
	/* 32 bits: AMD CPUs (and KVM for AMD guests) keep only the low half. */
	{ MSR_SYSENTER_ESP,	0x1234abc0ULL,	       MG_LOST_SYSENTER_ESP },
};

static uint64_t vec_pattern(int i)
{
	return 0x0101010101010101ULL * (uint64_t)(i + 1) ^ 0x8040201008040201ULL;
}

/* The 16 xmm (or ymm with ymm = true) registers to/from v (4 u64 per register). */
static void vec_load(const uint64_t *v, bool ymm)
{
	if (ymm) {
#define Y(n) asm volatile("vmovdqu %0, %%ymm" #n :: "m"(*(const uint64_t (*)[4])(v + 4 * n)))
		Y(0); Y(1); Y(2); Y(3); Y(4); Y(5); Y(6); Y(7);
		Y(8); Y(9); Y(10); Y(11); Y(12); Y(13); Y(14); Y(15);
#undef Y
		return;
	}
#define X(n) asm volatile("movdqu %0, %%xmm" #n :: "m"(*(const uint64_t (*)[2])(v + 4 * n)))
	X(0); X(1); X(2); X(3); X(4); X(5); X(6); X(7);
	X(8); X(9); X(10); X(11); X(12); X(13); X(14); X(15);
#undef X
}

static void vec_store(uint64_t *v, bool ymm)
{
	if (ymm) {
#define Y(n) asm volatile("vmovdqu %%ymm" #n ", %0" : "=m"(*(uint64_t (*)[4])(v + 4 * n)))
		Y(0); Y(1); Y(2); Y(3); Y(4); Y(5); Y(6); Y(7);
		Y(8); Y(9); Y(10); Y(11); Y(12); Y(13); Y(14); Y(15);
#undef Y
		return;
	}
#define X(n) asm volatile("movdqu %%xmm" #n ", %0" : "=m"(*(uint64_t (*)[2])(v + 4 * n)))
	X(0); X(1); X(2); X(3); X(4); X(5); X(6); X(7);
	X(8); X(9); X(10); X(11); X(12); X(13); X(14); X(15);
#undef X
}

/* Enable XSAVE with the XCR0 the host chose from the vCPU's CPUID; 0 if none. */
static uint64_t mg_setup_xcr0(void)
{
	if (!mg_xcr0)
		return 0;
	write_cr4(read_cr4() | X86_CR4_OSXSAVE);
	if (guest_xsetbv_safe(0, mg_xcr0))
		return 0;
	return mg_xcr0;
}

/* A ucall exit with rbx, rsi, rdi, r8-r15 holding known values. */
static uint64_t mg_sync_pinned(void)
{
	register uint64_t rbx asm("rbx") = 0xb0b0b0b0b0b0b0b0ULL;
	register uint64_t rsi asm("rsi") = 0x5151515151515151ULL;
	register uint64_t rdi asm("rdi") = 0xd1d1d1d1d1d1d1d1ULL;
	register uint64_t r8 asm("r8") = 0x0808080808080808ULL;
	register uint64_t r9 asm("r9") = 0x0909090909090909ULL;
	register uint64_t r10 asm("r10") = 0x1010101010101010ULL;
	register uint64_t r11 asm("r11") = 0x1111111111111111ULL;
	register uint64_t r12 asm("r12") = 0x1212121212121212ULL;
	register uint64_t r13 asm("r13") = 0x1313131313131313ULL;
	register uint64_t r14 asm("r14") = 0x1414141414141414ULL;
	register uint64_t r15 asm("r15") = 0x1515151515151515ULL;
	struct ucall uc;

	uc.cmd = UCALL_SYNC;
	uc.nargs = 1;
	uc.args[0] = MG_SYNC_REGS;
	uc.file = 0;
	uc.line = 0;
	uc.str = 0;
	asm volatile("outl %%eax, %%dx"
		     : "+r"(rbx), "+r"(rsi), "+r"(rdi), "+r"(r8), "+r"(r9), "+r"(r10),
		       "+r"(r11), "+r"(r12), "+r"(r13), "+r"(r14), "+r"(r15)
		     : "a"((uint32_t)(uint64_t)&uc), "d"((uint16_t)UCALL_PORT)
		     : "memory");
	return rbx != 0xb0b0b0b0b0b0b0b0ULL || rsi != 0x5151515151515151ULL ||
	       rdi != 0xd1d1d1d1d1d1d1d1ULL || r8 != 0x0808080808080808ULL ||
	       r9 != 0x0909090909090909ULL || r10 != 0x1010101010101010ULL ||
	       r11 != 0x1111111111111111ULL || r12 != 0x1212121212121212ULL ||
	       r13 != 0x1313131313131313ULL || r14 != 0x1414141414141414ULL ||
	       r15 != 0x1515151515151515ULL ? MG_LOST_GPR : 0;
}

uint64_t mg_run(uint64_t seed)
{
	uint64_t pat[64], got[64], lost = 0, x = seed, y = seed, i = 0, xcr0, tsc0;
	uint64_t cr0 = read_cr0(), cr4, efer = rdmsr(MSR_EFER), dr0 = 0x12345000, dr3 = 0xabcd0000;
	uint32_t mxcsr = 0x7f80, mx = 0;
	uint16_t fcw = 0x027f, fw = 0;
	bool ymm, tsc_aux = mg_flags & MG_USE_TSC_AUX, x2apic = mg_flags & MG_USE_X2APIC;
	bool fpctl = mg_flags & MG_USE_FPCTL;

	xcr0 = mg_setup_xcr0();
	ymm = xcr0 & XFEATURE_YMM;
	cr4 = read_cr4();
	mg_verified = (ymm ? MG_HAVE_YMM : 0) | (xcr0 ? MG_HAVE_XCR0 : 0) |
		      (tsc_aux ? MG_HAVE_TSC_AUX : 0) | (x2apic ? MG_HAVE_X2APIC : 0) |
		      (fpctl ? MG_HAVE_FPCTL : 0);
	for (int r = 0; r < 16; r++)
		for (int k = 0; k < 4; k++)
			pat[4 * r + k] = vec_pattern(r) + (uint64_t)k * 0x1000;
	vec_load(pat, ymm);
	if (fpctl) {
		asm volatile("ldmxcsr %0" :: "m"(mxcsr));
		asm volatile("fldcw %0" :: "m"(fcw));
	}
	for (unsigned int m = 0; m < ARRAY_SIZE(mg_msrs); m++)
		wrmsr(mg_msrs[m].msr, mg_msrs[m].val);
	if (tsc_aux)
		wrmsr(MSR_TSC_AUX, 0x1234);
	asm volatile("mov %0, %%dr0\n\tmov %1, %%dr3" :: "r"(dr0), "r"(dr3));
	if (x2apic) {
		wrmsr(MSR_IA32_APICBASE, rdmsr(MSR_IA32_APICBASE) | APIC_EN | APIC_EXTD);
		wrmsr(MSR_X2APIC_SPIV, 0x1ff);
		wrmsr(MSR_X2APIC_TPR, 0x30);
		wrmsr(MSR_X2APIC_LVTT, 0x100ee);	/* masked */
	}
	mg_counter = MG_COUNTER;
	tsc0 = rdtsc();

	lost |= mg_sync_pinned();			/* first migration here */
	GUEST_SYNC(MG_SYNC_LOOP, lost);
	while (!*(volatile uint64_t *)&mg_stop) {	/* second migration mid-loop */
		x = LCG(x);
		i++;
	}
	mg_iterations = i;
	for (uint64_t k = 0; k < i; k++)
		y = LCG(y);
	if (x != y || !i)
		lost |= MG_LOST_LOOP;

	vec_store(got, ymm);
	for (int r = 0; r < 16; r++) {
		if (got[4 * r] != pat[4 * r] || got[4 * r + 1] != pat[4 * r + 1])
			lost |= MG_LOST_XMM;
		if (ymm && (got[4 * r + 2] != pat[4 * r + 2] || got[4 * r + 3] != pat[4 * r + 3]))
			lost |= MG_LOST_YMM;
	}
	if (fpctl) {
		asm volatile("stmxcsr %0" : "=m"(mx));
		asm volatile("fnstcw %0" : "=m"(fw));
		if (mx != mxcsr)
			lost |= MG_LOST_MXCSR;
		if (fw != fcw)
			lost |= MG_LOST_FCW;
	}
	if (xcr0) {
		uint64_t now = 0;

		if (guest_xgetbv_safe(0, &now) || now != xcr0)
			lost |= MG_LOST_XCR0;
	}
	for (unsigned int m = 0; m < ARRAY_SIZE(mg_msrs); m++)
		if (rdmsr(mg_msrs[m].msr) != mg_msrs[m].val)
			lost |= mg_msrs[m].lost;
	if (tsc_aux && rdmsr(MSR_TSC_AUX) != 0x1234)
		lost |= MG_LOST_TSC_AUX;
	{
		uint64_t d0, d3;

		asm volatile("mov %%dr0, %0\n\tmov %%dr3, %1" : "=r"(d0), "=r"(d3));
		if (d0 != dr0 || d3 != dr3)
			lost |= MG_LOST_DR;
	}
	if (read_cr0() != cr0 || read_cr4() != cr4 || rdmsr(MSR_EFER) != efer)
		lost |= MG_LOST_CR;
	if (x2apic && (!(rdmsr(MSR_IA32_APICBASE) & APIC_EXTD) ||
		       (rdmsr(MSR_X2APIC_SPIV) & 0x1ff) != 0x1ff ||
		       rdmsr(MSR_X2APIC_TPR) != 0x30 || rdmsr(MSR_X2APIC_LVTT) != 0x100ee))
		lost |= MG_LOST_APIC;
	if (mg_counter != MG_COUNTER || mg_host_mark != MG_HOST_MARK)
		lost |= MG_LOST_GLOBAL;
	if (rdtsc() < tsc0)
		lost |= MG_LOST_TSC;
	return lost;
}

uint64_t mg_x2apic_on(uint64_t arg)
{
	wrmsr(MSR_IA32_APICBASE, rdmsr(MSR_IA32_APICBASE) | APIC_EN | APIC_EXTD);
	wrmsr(MSR_X2APIC_TPR, 0x20);
	return rdmsr(MSR_IA32_APICBASE);
}
