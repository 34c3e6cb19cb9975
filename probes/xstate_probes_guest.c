// SPDX-License-Identifier: GPL-2.0-only
/*
 * xstate_probes_guest.c - guest ops of the XSAVE-related probes: XSETBV, INVD with
 * a guest XCR0 (and IA32_XSS) that differs from the host's, IA32_XSS, and
 * PKRU. Which registers KVM swaps on these probes' exits follows from the
 * setups here and the rows' .cpuid_clear (probes/xstate_probes.h).
 */
#include "guest/guest.h"
#include "probes/probes.h"
#include "probes/xstate_probes.h"

static uint64_t probe_xss_value;

/* CR4.OSXSAVE on, XCR0 = x87|SSE (without ever running XGETBV). */
PROBE_FN(probe_osxsave_setup)
{
	int r = guest_write_cr4_safe(read_cr4() | X86_CR4_OSXSAVE);

	return r ? r : guest_xsetbv_safe(0, PROBE_GUEST_XCR0);
}

PROBE_FN(probe_xsetbv)
{
	asm volatile("xsetbv" :: "c"(0), "a"((uint32_t)PROBE_GUEST_XCR0), "d"(0) : "memory");
	return 0;
}

/*
 * IA32_XSS readable and writable with its current value. CR4.OSXSAVE stays
 * clear: KVM then swaps neither XCR0 nor IA32_XSS on these probes' exits.
 */
PROBE_FN(probe_xss_setup)
{
	int r = guest_rdmsr_safe(MSR_IA32_XSS, &probe_xss_value);

	return r ? r : guest_wrmsr_safe(MSR_IA32_XSS, probe_xss_value);
}

/* As probe_osxsave_setup, with the guest's IA32_XSS 0 (XSAVES in its CPUID). */
PROBE_FN(probe_xss_differs_setup)
{
	int r = probe_osxsave_setup(0);

	return r ? r : guest_wrmsr_safe(MSR_IA32_XSS, 0);
}

PROBE_FN(probe_rd_xss) { return rdmsr(MSR_IA32_XSS); }
PROBE_FN(probe_wr_xss) { wrmsr(MSR_IA32_XSS, probe_xss_value); return 0; }

PROBE_FN(probe_pke_setup)
{
	return guest_write_cr4_safe(read_cr4() | X86_CR4_PKE);
}

PROBE_FN(probe_rdpkru)
{
	uint32_t eax, edx;

	asm volatile("rdpkru" : "=a"(eax), "=d"(edx) : "c"(0) : "memory");
	return eax;
}

PROBE_FN(probe_wrpkru)
{
	asm volatile("wrpkru" :: "a"(0), "c"(0), "d"(0) : "memory");
	return 0;
}
