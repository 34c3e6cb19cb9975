/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * msr.h - MSR facts the tree relies on beyond their numbers (kvm/abi.h):
 * every MSR's name (kvm/msr.def, the one table of them), and the CET MSRs:
 * their short names and which CPUID feature each one needs. The CET suite,
 * the host record and vCPU state restore read the CET table; an exit path's
 * census names the MSRs its wrmsr and rdmsr touch with msr_name.
 *
 * Facts read against upstream KVM (Linux 6.18): x86.c kvm_set_msr_common /
 * __kvm_set_msr (U_CET, S_CET need SHSTK or IBT; PL0-3_SSP, INT_SSP_TAB need
 * SHSTK; the FRED series lets PL0_SSP exist for FRED guests as well) and
 * vmx.c vmx_recalc_msr_intercepts (PL0-3_SSP passed through to a SHSTK
 * guest, U_CET and S_CET to a SHSTK or IBT guest; INT_SSP_TAB stays
 * intercepted, as in svm.c svm_recalc_msr_intercepts).
 */
#ifndef EXITSCOPE_KVM_MSR_H
#define EXITSCOPE_KVM_MSR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kvm/abi.h"
#include "kvm/cpuid.h"

/* The longest name msr_name writes into its buffer ("F15H_PERF_CTL5", "0xc0011022"). */
#define MSR_NAME_MAX	40

/*
 * index's name as kvm/msr.def has it ("IA32_XSS", "X2APIC_ICR", "IA32_PMC3"),
 * or its raw hex ("0x1a2") for an MSR the table does not name: a constant
 * string, or buf (len bytes, MSR_NAME_MAX is enough) holding it.
 */
const char *msr_name(uint32_t index, char *buf, size_t len);

struct cet_msr {
	uint32_t index;
	const char *name;		/* "U_CET", "PL0_SSP", ...: msr_name's less "IA32_" */
	enum x86_feat feat, alt;	/* exists with feat (or alt, when set) in CPUID */
	bool ssp;			/* holds a shadow-stack pointer (else *_CET enables) */
	bool passthrough;		/* guest RDMSR/WRMSR do not exit in a CET guest (VMX, SVM) */
};

#define CET_NR_MSRS	7

/* U_CET, S_CET, PL0_SSP .. PL3_SSP, INT_SSP_TAB, in that order. */
extern const struct cet_msr cet_msrs[CET_NR_MSRS];

/* The row of a CET MSR, NULL for any other index. */
const struct cet_msr *cet_msr_of(uint32_t index);
/* Its name, "?" for an index that is not a CET MSR. */
const char *cet_msr_name(uint32_t index);
/* The CET MSR whose guest access exits even in a CET guest: INT_SSP_TAB. */
uint32_t cet_exit_msr(void);

#endif
