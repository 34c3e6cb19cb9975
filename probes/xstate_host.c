// SPDX-License-Identifier: GPL-2.0-only
/*
 * xstate_host.c - host side of the XSAVE-related probes and of
 * pax_open_kernel (see xstate_probes.h): the guest CPUID a probe runs
 * with, which registers KVM swaps on its exits, and the host setups.
 */
#include <stdio.h>
#include <stdlib.h>

#include "base/array_size.h"
#include "guest/vm.h"
#include "host/hostinfo.h"
#include "kvm/cpuid.h"
#include "probes/probes.h"
#include "probes/xstate_probes.h"

struct kvm_cpuid2 *probe_guest_cpuid(const struct probe *p, const struct kvm_cpuid2 *supported)
{
	struct kvm_cpuid2 *c = cpuid_dup(supported);

	for (size_t i = 0; c && i < ARRAY_SIZE(p->cpuid_clear); i++)
		if (p->cpuid_clear[i] != X86_FEAT_NONE)
			cpuid_set(c, p->cpuid_clear[i], false);
	return c;
}

const char *probe_swap_name(enum probe_swap s)
{
	return s == PROBE_SWAP_YES ? "yes" : s == PROBE_SWAP_NO ? "no" : "unknown";
}

void probe_xstate_plan(const struct probe *p, const struct kvm_cpuid2 *supported,
		       uint64_t host_xcr0, uint64_t xss_supported, struct probe_xstate_plan *out)
{
	struct kvm_cpuid2 *c = probe_guest_cpuid(p, supported);

	/* Only these setups set CR4.OSXSAVE; each leaves the guest's IA32_XSS 0. */
	out->osxsave = p->setup == probe_osxsave_setup || p->setup == probe_xss_differs_setup;
	out->xsaves = c && cpuid_has(c, X86_FEAT_XSAVES);
	out->xcr0 = out->osxsave && host_xcr0 != PROBE_GUEST_XCR0 ? PROBE_SWAP_YES : PROBE_SWAP_NO;
	if (!out->osxsave || !out->xsaves)
		out->xss = PROBE_SWAP_NO;
	else	/* guest XSS 0: differs from the host's when KVM supports any XSS bit */
		out->xss = xss_supported ? PROBE_SWAP_YES : PROBE_SWAP_UNKNOWN;
	free(c);
}

bool probe_pax_wants_cet(const struct kvm_cpuid2 *guest_cpuid)
{
	return cpuid_has_any(guest_cpuid, X86_FEAT_SHSTK, X86_FEAT_IBT);
}

const char *probe_pax_note(bool cet)
{
	return cet ? "CET sequence: CR4.CET set by the setup, each op clears CR4.CET, clears "
		     "CR0.WP, stores, sets CR0.WP, restores CR4.CET"
		   : "CR0.WP sequence: no SHSTK or IBT in the guest CPUID, CR4.CET stays clear";
}

int probe_host_pax(struct probe_ctx *ctx)
{
	int r = probe_host_ro_page(ctx);
	bool cet;

	if (!r) {
		cet = probe_pax_wants_cet(ctx->vm->cpuid);
		vm_global_set(ctx->vm, probe_pax_cet, cet);
		snprintf(ctx->note, sizeof(ctx->note), "%s", probe_pax_note(cet));
	}
	return r;
}

int probe_host_xss_differs(struct probe_ctx *ctx)
{
	if (!ctx->hi || !ctx->hi->xss_supported) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "KVM supports no IA32_XSS bit (KVM_GET_SUPPORTED_CPUID 0xd.1:ECX/EDX are "
			 "0), so the host's IA32_XSS is not known to differ from the guest's 0: no "
			 "XSS swap to time; it runs on a host whose KVM supports XSS bits (e.g. "
			 "CET state)");
		return 1;
	}
	return 0;
}
