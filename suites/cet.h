/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cet.h - `exitscope check cet`: CET (shadow stacks, IBT) virtualization as
 * KVM advertises it to userspace. The suite is a table (cet.c) of host-side
 * checks (cet_host.c: CPUID policy, MSR save list, KVM_SET/GET_MSRS, ONE_REG
 * GUEST_SSP, KVM_GET_REG_LIST, SREGS) and guest-side checks (cet_vmcheck.c:
 * CR4.CET rules, shadow stack, IBT), both building their VMs with cet_vm.c.
 * Every check that needs CET skips with a detail starting CET_NO_SUPPORT.
 */
#ifndef EXITSCOPE_SUITES_CET_H
#define EXITSCOPE_SUITES_CET_H

#include <stdbool.h>
#include <stdint.h>

#include "guest/vm.h"
#include "kvm/msr.h"		/* cet_msrs[], CET_NR_MSRS, cet_msr_name() */
#include "results/check_model.h"
#include "harness/suite_env.h"

#define CET_NO_SUPPORT		"host KVM does not support CET"

struct hostinfo;

/* What KVM_GET_SUPPORTED_CPUID says about CET. */
struct cet_support {
	bool shstk, ibt;
	bool fred;			/* FRED: PL0_SSP exists for FRED guests too */
	uint64_t xss;			/* supported IA32_XSS (CPUID 0xd.1 ECX:EDX) */
};

/* From the host record's KVM_GET_SUPPORTED_CPUID: 0, or -ENODATA when it has none. */
int cet_support_of(const struct hostinfo *hi, struct cet_support *cs);

/* Guest CPUID for a CET test VM. */
enum cet_cpuid { CET_CPUID_CLEARED, CET_CPUID_SUPPORTED };

/*
 * A quiet test VM whose CPUID (the host record's) has SHSTK/IBT cleared or
 * as supported, with cet_g_msrs set for the guest.
 */
int cet_vm_create(const struct suite_env *env, enum cet_cpuid mode, bool irqchip,
		  struct vm **out, struct err *err);
/*
 * Give the VM a supervisor shadow-stack page (PTE read-only + dirty) with a
 * free token at its top, and tell the guest (cet_ss_token). Returns the
 * token address, 0 when the pool is exhausted.
 */
uint64_t cet_vm_shadow_stack(struct vm *vm);

void cet_checks(const struct suite_env *env, struct check_report *rep);

#endif
