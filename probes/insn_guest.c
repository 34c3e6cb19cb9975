// SPDX-License-Identifier: GPL-2.0-only
/*
 * insn_guest.c - guest ops of the instruction, control-register, MSR and
 * I/O probes: each function is one operation of its probe; setups check
 * with the *_safe helpers that the op can run and say why not.
 */
#include "guest/guest.h"
#include "probes/probes.h"
#include "probes/xstate_probes.h"

uint64_t probe_ro_page;
uint64_t probe_pax_cet;
static uint64_t probe_msr_value;

PROBE_FN(probe_hang)
{
	for (;;)
		asm volatile("" ::: "memory");
	return 0;
}

PROBE_FN(probe_cpuid)
{
	uint32_t eax, ebx, ecx, edx;

	guest_cpuid(0, 0, &eax, &ebx, &ecx, &edx);
	return eax;
}

PROBE_FN(probe_vmcall)
{
	uint64_t rax = 0;	/* no such hypercall: -KVM_ENOSYS */

	asm volatile("vmcall" : "+a"(rax) :: "rbx", "rcx", "rdx", "rsi", "memory");
	return rax;
}

PROBE_FN(probe_vmmcall)
{
	uint64_t rax = 0;

	asm volatile("vmmcall" : "+a"(rax) :: "rbx", "rcx", "rdx", "rsi", "memory");
	return rax;
}

PROBE_FN(probe_wbinvd) { asm volatile("wbinvd" ::: "memory"); return 0; }
PROBE_FN(probe_invd) { asm volatile("invd" ::: "memory"); return 0; }
PROBE_FN(probe_rdtsc) { return rdtsc(); }

PROBE_FN(probe_rdtscp)
{
	uint32_t lo, hi, aux;

	asm volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
	return lo | (uint64_t)hi << 32;
}

PROBE_FN(probe_rdpmc)
{
	uint32_t lo, hi;

	asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(0) : "memory");
	return lo | (uint64_t)hi << 32;
}

PROBE_FN(probe_rdpmc_setup)
{
	GUEST_SAFE_REG;
	uint32_t lo = 0, hi = 0;

	asm volatile(GUEST_ASM_SAFE("rdpmc")
		     : GUEST_ASM_SAFE_OUT(__safe_fault), "+a"(lo), "+d"(hi) : "c"(0) : "memory");
	return __safe_fault;
}

PROBE_FN(probe_mov_dr) { asm volatile("mov %0, %%dr7" :: "r"(0x400UL) : "memory"); return 0; }
/* PROBE_CR_READS unrolled reads of one control register (probes.h). */
#define CR_READS(cr)								\
	({									\
		uint64_t __v;							\
		asm volatile(".rept " PROBE_STR(PROBE_CR_READS) "\n\t"		\
			     "mov %%" #cr ", %0\n\t"				\
			     ".endr" : "=r"(__v));					\
		__v;								\
	})

PROBE_FN(probe_mov_from_cr8) { return CR_READS(cr8); }
PROBE_FN(probe_mov_to_cr8) { write_cr8(0); return 0; }
PROBE_FN(probe_mov_from_cr0) { return CR_READS(cr0); }
PROBE_FN(probe_mov_from_cr3) { return CR_READS(cr3); }
PROBE_FN(probe_mov_to_cr3) { write_cr3(read_cr3()); return 0; }

/* Control register toggles: one op = flip the bit and flip it back. */
PROBE_FN(probe_toggle_cr0)
{
	uint64_t cr0 = read_cr0();

	write_cr0(cr0 ^ a);
	write_cr0(cr0);
	return 0;
}

PROBE_FN(probe_toggle_cr4)
{
	uint64_t cr4 = read_cr4();

	write_cr4(cr4 ^ a);
	write_cr4(cr4);
	return 0;
}

/* Can this CR4 bit be toggled at all? */
PROBE_FN(probe_toggle_cr4_setup)
{
	uint64_t cr4 = read_cr4();
	int r = guest_write_cr4_safe(cr4 ^ a);

	if (!r)
		write_cr4(cr4);
	return r;
}

/*
 * What a hardened guest kernel does to write read-only kernel data
 * (PaX/grsecurity pax_open_kernel/pax_close_kernel): drop CR4.CET if set
 * (CR0.WP cannot be cleared while CR4.CET is set), clear CR0.WP, store,
 * set CR0.WP, restore CR4.CET. CR4.CET is set by the setup when the guest
 * CPUID has SHSTK or IBT (the host decides: probe_pax_cet), as on a CET
 * kernel; IA32_S_CET stays 0, so no shadow stack or ENDBR check is enforced.
 */
PROBE_FN(probe_pax_open_kernel)
{
	uint64_t cr4 = read_cr4(), cr0 = read_cr0();

	if (cr4 & X86_CR4_CET)
		write_cr4(cr4 & ~X86_CR4_CET);
	write_cr0(cr0 & ~X86_CR0_WP);
	*(volatile uint64_t *)probe_ro_page = a;
	write_cr0(cr0);
	if (cr4 & X86_CR4_CET)
		write_cr4(cr4);
	return 0;
}

PROBE_FN(probe_pax_setup)
{
	if (!probe_ro_page)
		return GUEST_SKIP(PROBE_SKIP_NO_RO_PAGE);
	return probe_pax_cet ? (uint64_t)guest_write_cr4_safe(read_cr4() | X86_CR4_CET) : 0;
}

/* MSRs: setup reads (or writes) once safely and keeps the value. */
PROBE_FN(probe_msr_setup_rd)
{
	return guest_rdmsr_safe((uint32_t)a, &probe_msr_value);
}

PROBE_FN(probe_msr_setup_wr)
{
	int r = guest_rdmsr_safe((uint32_t)a, &probe_msr_value);

	return r ? r : guest_wrmsr_safe((uint32_t)a, probe_msr_value);
}

PROBE_FN(probe_msr_setup_wr0)
{
	return guest_wrmsr_safe((uint32_t)a, 0);
}

PROBE_FN(probe_rdmsr) { return rdmsr((uint32_t)a); }
PROBE_FN(probe_wrmsr_same) { wrmsr((uint32_t)a, probe_msr_value); return 0; }
PROBE_FN(probe_wrmsr_zero) { wrmsr((uint32_t)a, 0); return 0; }

PROBE_FN(probe_wr_ibrs)
{
	wrmsr(MSR_IA32_SPEC_CTRL, 1);
	wrmsr(MSR_IA32_SPEC_CTRL, 0);
	return 0;
}

PROBE_FN(probe_wr_ibpb) { wrmsr(MSR_IA32_PRED_CMD, 1); return 0; }

PROBE_FN(probe_user_msr_setup)
{
	int r = guest_rdmsr_safe(PROBE_USER_MSR, &probe_msr_value);

	if (r)
		return r;
	return probe_msr_value == PROBE_USER_MSR_VALUE ? 0 : GUEST_SKIP(PROBE_SKIP_USER_MSR);
}

/* I/O. */
PROBE_FN(probe_inl_from_kernel) { return inb(0x4d0); }
PROBE_FN(probe_outl_to_kernel) { outb(0x4d0, 0); return 0; }
PROBE_FN(probe_pio_to_user) { outl(PROBE_PIO_USER_PORT, 0); return 0; }
PROBE_FN(probe_mmio_to_user) { mmio_write32(PROBE_MMIO_USER, 0); return 0; }
PROBE_FN(probe_ioeventfd_pio) { outl(PROBE_PIO_EVENT_PORT, PROBE_DATAMATCH); return 0; }
PROBE_FN(probe_ioeventfd_mmio) { mmio_write32(PROBE_MMIO_EVENT, PROBE_DATAMATCH); return 0; }
