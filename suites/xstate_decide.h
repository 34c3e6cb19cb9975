/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xstate_decide.h - the decisions of the xstate suite on given evidence,
 * apart from the VM that gathers it (so tests can give a CET or PKU
 * host's values): the guest PKRU value, and the verdict and structured
 * evidence of the XCR0 checks, each saying which evidence it used (the
 * guest's own XSETBV / XGETBV, or only KVM_GET_XCRS, KVM's copy).
 */
#ifndef EXITSCOPE_SUITES_XSTATE_DECIDE_H
#define EXITSCOPE_SUITES_XSTATE_DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/schema.h"
#include "suites/xstate_guest.h"

#define XS_EV_LEN	128	/* == sizeof(struct check_result.expected) */

#define XS_PKRU_LINUX_DEFAULT	0x55555554u	/* every Linux process starts with it */

/*
 * The PKRU the guest writes: neither the host's current PKRU, nor 0 (the
 * reset value), nor Linux's default: were KVM never to switch PKRU, the
 * guest or the host would read the other's value.
 */
uint32_t xs_pkru_guest_value(uint32_t host_pkru);

/* What one xcr0_after_<exit> check saw. */
struct xs_xcr0_ev {
	uint64_t subset;	/* guest XCR0 established; 0: none */
	bool set_by_guest;	/* by the guest's own XSETBV (else KVM_SET_XCRS) */
	uint64_t guest;		/* guest XGETBV after the exit; XS_NO_VALUE: not run */
	const char *no_guest;	/* why not (when not run) */
	int kvm_err;		/* KVM_GET_XCRS after the exit: 0 or -errno */
	uint64_t kvm;
	bool host_measured;	/* the process can run xgetbv */
	bool host_at_exit;	/* read on this very exit's return (exit hook); else on the ucall's after it */
	uint64_t host_want, host, hook_bad;
};

/*
 * The check's status, a sentence saying why (why, len) and the evidence
 * wanted and seen (want, seen: XS_EV_LEN each) for the host and guest
 * halves: "host=0x.. host_at=exit|ucall hook_wrong=N guest=0x..
 * set=xsetbv|kvm_set_xcrs via=xgetbv|kvm_get_xcrs|none". A guest half
 * seen only through KVM_GET_XCRS is never a pass: the check skips (or
 * fails when even KVM's copy is wrong, or the host's XCR0 changed).
 */
enum check_status xs_xcr0_verdict(const struct xs_xcr0_ev *e, char *why, size_t len,
				  char *want, char *seen);

/* What xcr0_subset_guest saw: the guest set the subset with XSETBV. */
struct xs_subset_ev {
	uint64_t subset;
	uint64_t kvm_before;	/* KVM_SET_XCRS'd before the guest's XSETBV; XS_NO_VALUE: could not */
	bool xsetbv_ok;		/* the guest's XSETBV did not fault */
	int kvm_err;		/* KVM_GET_XCRS after it */
	uint64_t kvm;
	uint64_t guest;		/* guest XGETBV afterwards; XS_NO_VALUE: could not run */
	const char *no_guest;
};

/*
 * xcr0_subset_guest: pass only on the guest's XSETBV, KVM_GET_XCRS seeing
 * it change from kvm_before, and the guest's XGETBV reading it back.
 * Evidence "xcr0=0x.. xsetbv=ok|fault kvm=0x.. xgetbv=0x..|none".
 */
enum check_status xs_subset_verdict(const struct xs_subset_ev *e, char *why, size_t len,
				    char *want, char *seen);

#endif
