/*
 * msr.h - MSR facts the tree relies on beyond their numbers (kvm/abi.h):
 * the CET MSRs, their names, and which CPUID feature each one needs. The
 * CET suite, the host record and vCPU state restore all read this table.
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
#include <stdint.h>

#include "kvm/abi.h"
#include "kvm/cpuid.h"

struct cet_msr {
	uint32_t index;
	const char *name;		/* "U_CET", "PL0_SSP", ... */
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
