// SPDX-License-Identifier: GPL-2.0-only
/*
 * xstate_decide.c - the xstate suite's decisions on given evidence (see
 * xstate_decide.h): which PKRU the guest writes, and the verdicts of the
 * XCR0 checks with the evidence each used.
 */
#include <stdio.h>

#include "base/array_size.h"
#include "suites/xstate_decide.h"

uint32_t xs_pkru_guest_value(uint32_t host_pkru)
{
	/* AD|WD for keys 1-15 / AD for key 1 / WD for key 15: none is 0 or Linux's default. */
	static const uint32_t pick[] = { 0xfffffffcu, 0x0000000cu, 0x80000000u };

	for (size_t i = 0; i < ARRAY_SIZE(pick); i++)
		if (pick[i] != host_pkru)
			return pick[i];
	return pick[0];	/* unreachable: the picks differ from each other */
}

static const char *xs_via(const struct xs_xcr0_ev *e)
{
	return e->guest != XS_NO_VALUE ? "xgetbv" : e->kvm_err ? "none" : "kvm_get_xcrs";
}

enum check_status xs_xcr0_verdict(const struct xs_xcr0_ev *e, char *why, size_t len,
				  char *want, char *seen)
{
	const char *at = e->host_at_exit ? "exit" : "ucall";
	char host_want[64] = "", host_seen[64] = "", g[24];
	bool host_bad = e->host_measured && (e->host != e->host_want || e->hook_bad);
	bool kvm_bad = e->subset && !e->kvm_err && e->kvm != e->subset;
	const char *set = e->set_by_guest ? "xsetbv" : "kvm_set_xcrs";
	uint64_t gv = e->guest != XS_NO_VALUE ? e->guest : e->kvm;

	if (e->host_measured) {
		snprintf(host_want, sizeof(host_want), "host=0x%llx host_at=%s hook_wrong=0",
			 (unsigned long long)e->host_want, at);
		snprintf(host_seen, sizeof(host_seen), "host=0x%llx host_at=%s hook_wrong=%llu",
			 (unsigned long long)e->host, at, (unsigned long long)e->hook_bad);
	}
	if (!e->subset) {
		snprintf(want, XS_EV_LEN, "%s%sguest=set", host_want, host_want[0] ? " " : "");
		snprintf(seen, XS_EV_LEN, "%s%sguest=none via=none", host_seen,
			 host_seen[0] ? " " : "");
	} else {
		if (e->guest == XS_NO_VALUE && e->kvm_err)
			snprintf(g, sizeof(g), "?");
		else
			snprintf(g, sizeof(g), "0x%llx", (unsigned long long)gv);
		snprintf(want, XS_EV_LEN, "%s%sguest=0x%llx set=%s via=xgetbv", host_want,
			 host_want[0] ? " " : "", (unsigned long long)e->subset, set);
		snprintf(seen, XS_EV_LEN, "%s%sguest=%s set=%s via=%s", host_seen,
			 host_seen[0] ? " " : "", g, set, xs_via(e));
	}
	if (host_bad) {
		snprintf(why, len, "host XCR0 %#llx after the %s, expected %#llx (%llu wrong in "
			 "the exit hook)", (unsigned long long)e->host,
			 e->host_at_exit ? "exit" : "ucall that followed it",
			 (unsigned long long)e->host_want, (unsigned long long)e->hook_bad);
		return CHECK_FAIL;
	}
	if (!e->subset) {
		snprintf(why, len,
			 "no guest XCR0 could be set: KVM swaps XCR0 only for a guest with "
			 "CR4.OSXSAVE and its own XCR0, so an intact host XCR0 proves nothing");
		return CHECK_SKIP;
	}
	if (e->guest != XS_NO_VALUE && e->guest != e->subset) {
		snprintf(why, len, "guest xgetbv reads XCR0 %#llx, set %#llx",
			 (unsigned long long)e->guest, (unsigned long long)e->subset);
		return CHECK_FAIL;
	}
	if (kvm_bad) {
		snprintf(why, len, "KVM_GET_XCRS returns %#llx, set %#llx",
			 (unsigned long long)e->kvm, (unsigned long long)e->subset);
		return CHECK_FAIL;
	}
	if (e->guest == XS_NO_VALUE) {
		snprintf(why, len, "guest xgetbv not run (%s): the guest's XCR0 after the exit is "
			 "unverified; KVM_GET_XCRS (%s) is KVM's copy, not the guest's register; "
			 "host XCR0 %s", e->no_guest ? e->no_guest : "no reason given",
			 e->kvm_err ? "failed" : "agrees",
			 e->host_measured ? "intact" : "not readable");
		return CHECK_SKIP;
	}
	snprintf(why, len, "guest xgetbv %#llx%s%s", (unsigned long long)e->guest,
		 e->kvm_err ? ", KVM_GET_XCRS failed" : ", KVM_GET_XCRS agrees",
		 !e->host_measured ? "; host XCR0 not readable (host without OSXSAVE)" :
		 e->host_at_exit ? "; host XCR0 read on this exit's return (exit hook)" :
		 "; host XCR0 read on the return of the ucall after it"
		 " (an in-kernel exit never returns to userspace)");
	return CHECK_PASS;
}

enum check_status xs_subset_verdict(const struct xs_subset_ev *e, char *why, size_t len,
				    char *want, char *seen)
{
	char kvm[24] = "?", guest[24] = "none";

	if (!e->kvm_err)
		snprintf(kvm, sizeof(kvm), "0x%llx", (unsigned long long)e->kvm);
	if (e->guest != XS_NO_VALUE)
		snprintf(guest, sizeof(guest), "0x%llx", (unsigned long long)e->guest);
	snprintf(want, XS_EV_LEN, "xcr0=0x%llx xsetbv=ok kvm=0x%llx xgetbv=0x%llx",
		 (unsigned long long)e->subset, (unsigned long long)e->subset, (unsigned long long)e->subset);
	snprintf(seen, XS_EV_LEN, "xcr0=0x%llx xsetbv=%s kvm=%s xgetbv=%s",
		 (unsigned long long)e->subset, e->xsetbv_ok ? "ok" : "fault", kvm,
		 e->xsetbv_ok ? guest : "none");
	if (!e->xsetbv_ok) {
		snprintf(why, len, "the guest's XSETBV faulted");
		return CHECK_FAIL;
	}
	if (e->kvm_err || e->kvm != e->subset) {
		snprintf(why, len,
			 "KVM_GET_XCRS %s after the guest's XSETBV: KVM never saw the guest's "
			 "XSETBV (no XSETBV exit; e.g. a CPU emulator whose nested virtualization "
			 "does not intercept it) and will load its own value on the next entry",
			 kvm);
		return CHECK_FAIL;
	}
	if (e->guest != XS_NO_VALUE && e->guest != e->subset) {
		snprintf(why, len, "guest xgetbv reads %s after its XSETBV of %#llx", guest,
			 (unsigned long long)e->subset);
		return CHECK_FAIL;
	}
	if (e->guest == XS_NO_VALUE) {
		snprintf(why, len, "KVM_GET_XCRS %s after the guest's XSETBV%s, but guest xgetbv "
			 "not run (%s): the guest's own view is unverified", kvm,
			 e->kvm_before == XS_NO_VALUE ? " (KVM's value before it unknown)"
			 : " (changed from before)",
			 e->no_guest ? e->no_guest : "no reason given");
		return CHECK_SKIP;
	}
	if (e->kvm_before == XS_NO_VALUE || e->kvm_before == e->subset) {
		snprintf(why, len, "guest xgetbv %s, but KVM_GET_XCRS %s proves no XSETBV exit: "
			 "KVM's value before the guest's XSETBV was %s", guest, kvm,
			 e->kvm_before == XS_NO_VALUE ? "unknown" : "the same");
		return CHECK_SKIP;
	}
	snprintf(why, len, "guest XSETBV seen by KVM (KVM_GET_XCRS %#llx -> %s), guest xgetbv %s",
		 (unsigned long long)e->kvm_before, kvm, guest);
	return CHECK_PASS;
}
