/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xstate_probes.h - what the XSAVE-related probes and pax_open_kernel
 * decide on the host side: the guest CPUID a probe runs with (KVM's minus
 * the features its row clears, struct probe .cpuid_clear), whether KVM
 * swaps XCR0 / IA32_XSS on the probe's exits (upstream arch/x86/kvm/x86.c
 * kvm_load_guest_xsave_state / kvm_load_host_xsave_state, and from 6.18
 * kvm_load_xfeatures: XCR0 when the guest has CR4.OSXSAVE and its XCR0
 * differs from the host's; IA32_XSS when, in addition, the guest CPUID has
 * XSAVES and the guest's IA32_XSS differs from the host's), and whether
 * pax_open_kernel runs with CR4.CET. Included by guest code too (the
 * globals): nothing here needs the host.
 */
#ifndef EXITSCOPE_PROBES_XSTATE_PROBES_H
#define EXITSCOPE_PROBES_XSTATE_PROBES_H

#include <stdbool.h>
#include <stdint.h>

struct kvm_cpuid2;
struct probe;
struct probe_ctx;

/* XCR0 the xstate probes' setups give the guest. */
#define PROBE_GUEST_XCR0	0x3ULL	/* x87 | SSE */

/* Guest globals the host sets before the guest setup runs. */
extern uint64_t probe_pax_cet;		/* 1: pax_open_kernel runs with CR4.CET set */

/* Guest setups of these rows (probes/xstate_probes_guest.c), besides probes.h's. */
uint64_t probe_xss_differs_setup(uint64_t arg);

/* Host setups (probes/xstate_host.c). */
int probe_host_pax(struct probe_ctx *ctx);		/* the read-only page, and probe_pax_cet */
int probe_host_xss_differs(struct probe_ctx *ctx);	/* skip unless the host's IA32_XSS is known non-zero */

/*
 * The guest CPUID of p: a copy of supported (KVM_GET_SUPPORTED_CPUID)
 * without p's .cpuid_clear features; NULL when out of memory. free() it.
 */
struct kvm_cpuid2 *probe_guest_cpuid(const struct probe *p, const struct kvm_cpuid2 *supported);

/* Whether KVM swaps a register on each exit of a probe. */
enum probe_swap { PROBE_SWAP_NO, PROBE_SWAP_YES, PROBE_SWAP_UNKNOWN };

struct probe_xstate_plan {
	bool osxsave;			/* the probe's guest setup sets CR4.OSXSAVE (and XCR0) */
	bool xsaves;			/* the probe's guest CPUID has XSAVES */
	enum probe_swap xcr0, xss;	/* swapped on every exit */
};

/*
 * What p's exits swap, from its row (setup, .cpuid_clear), KVM's supported
 * CPUID, the host's XCR0 and KVM's supported XSS (non-zero only when the
 * host's IA32_XSS is: supported_xss = host XSS & KVM_SUPPORTED_XSS).
 */
void probe_xstate_plan(const struct probe *p, const struct kvm_cpuid2 *supported,
		       uint64_t host_xcr0, uint64_t xss_supported, struct probe_xstate_plan *out);
const char *probe_swap_name(enum probe_swap s);	/* "no", "yes", "unknown" */

/* pax_open_kernel runs as a CET kernel does (CR4.CET set in setup) iff the guest CPUID has SHSTK or IBT. */
bool probe_pax_wants_cet(const struct kvm_cpuid2 *guest_cpuid);
/* The note of pax_open_kernel's result that names the sequence its op ran. */
const char *probe_pax_note(bool cet);

#endif
