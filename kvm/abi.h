/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * abi.h - KVM and x86 ABI constants newer than the Linux 6.1 uapi headers
 * Debian 12 ships, plus architectural constants exitscope uses. Every value
 * here is the upstream one (include/uapi/linux/kvm.h, arch/x86/include/uapi/
 * asm/kvm.h, arch/x86/include/asm/msr-index.h as of Linux 6.18).
 */
#ifndef EXITSCOPE_KVM_ABI_H
#define EXITSCOPE_KVM_ABI_H

#include <linux/kvm.h>

/*
 * ONE_REG ids for x86 as upstream defines them (arch/x86/include/uapi/asm/
 * kvm.h, Linux 6.18): KVM_REG_GUEST_SSP is the INDEX 0 of a register of type
 * KVM_X86_REG_TYPE_KVM, its full id is KVM_X86_REG_KVM(KVM_REG_GUEST_SSP) =
 * 0x2030000300000000. Each name is defined here only where the installed
 * headers lack it; `make check-uapi` builds the users against a copy of the
 * 6.18 definitions (tests/uapi-6.18/) to prove both ways compile.
 * Upstream's KVM_X86_REG_TYPE_SIZE is a statement expression: the ids are
 * not constant expressions, so no user may put them in a static initializer
 * or a case label.
 */
#ifndef KVM_X86_REG_TYPE_MSR
#define KVM_X86_REG_TYPE_MSR		2
#endif
#ifndef KVM_X86_REG_TYPE_KVM
#define KVM_X86_REG_TYPE_KVM		3
#endif
#ifndef KVM_REG_GUEST_SSP
#define KVM_REG_GUEST_SSP		0	/* KVM-defined registers start from 0 */
#endif
#ifndef KVM_X86_REG_ID
#define KVM_X86_REG_ID(type, index)					\
	(KVM_REG_X86 | ((__u64)(type) << 32) | KVM_REG_SIZE_U64 | (__u64)(index))
#endif
#ifndef KVM_X86_REG_MSR
#define KVM_X86_REG_MSR(index)		KVM_X86_REG_ID(KVM_X86_REG_TYPE_MSR, index)
#endif
#ifndef KVM_X86_REG_KVM
#define KVM_X86_REG_KVM(index)		KVM_X86_REG_ID(KVM_X86_REG_TYPE_KVM, index)
#endif

/* Capabilities added after 6.1. */
#ifndef KVM_CAP_X86_APIC_BUS_CYCLES_NS
#define KVM_CAP_X86_APIC_BUS_CYCLES_NS	237
#endif
#ifndef KVM_CAP_X86_GUEST_MODE
#define KVM_CAP_X86_GUEST_MODE		238
#endif
#ifndef KVM_CAP_PRE_FAULT_MEMORY
#define KVM_CAP_PRE_FAULT_MEMORY	236
#endif
#ifndef KVM_CAP_X86_NOTIFY_VMEXIT
#define KVM_CAP_X86_NOTIFY_VMEXIT	219
#endif

/*
 * MSRs. Their names (what a census prints) are kvm/msr.def's, which lists
 * these constants. A few are written as the guest files that still define
 * them locally spell them (0x10, 0x808, 0x83f), so both definitions agree.
 */
#define MSR_IA32_TSC			0x10
#define MSR_IA32_TSC_ADJUST		0x0000003b
#define MSR_IA32_SPEC_CTRL		0x00000048
#define MSR_IA32_PRED_CMD		0x00000049
#define MSR_IA32_ARCH_CAPABILITIES	0x0000010a
#define MSR_IA32_TSX_CTRL		0x00000122
#define MSR_IA32_U_CET			0x000006a0
#define MSR_IA32_S_CET			0x000006a2
#define MSR_IA32_PL0_SSP		0x000006a4
#define MSR_IA32_PL1_SSP		0x000006a5
#define MSR_IA32_PL2_SSP		0x000006a6
#define MSR_IA32_PL3_SSP		0x000006a7
#define MSR_IA32_INT_SSP_TAB		0x000006a8
#define MSR_IA32_TSC_DEADLINE		0x000006e0
#define MSR_IA32_XSS			0x00000da0
#define MSR_IA32_APICBASE		0x0000001b
#define MSR_X2APIC_BASE			0x00000800
#define MSR_X2APIC_EOI			0x0000080b
#define MSR_X2APIC_SPIV			0x0000080f
#define MSR_X2APIC_ICR			0x00000830
#define MSR_X2APIC_LVTT			0x00000832
#define MSR_X2APIC_TMICT		0x00000838
#define MSR_EFER			0xc0000080
#define MSR_KERNEL_GS_BASE		0xc0000102
#define MSR_GS_BASE			0xc0000101
#define MSR_IA32_UMWAIT_CONTROL		0x000000e1
#define MSR_IA32_PMC0			0x000000c1
#define MSR_IA32_MPERF			0x000000e7
#define MSR_IA32_APERF			0x000000e8
#define MSR_IA32_FLUSH_CMD		0x0000010b
#define MSR_IA32_SYSENTER_CS		0x00000174
#define MSR_IA32_SYSENTER_ESP		0x00000175
#define MSR_IA32_SYSENTER_EIP		0x00000176
#define MSR_IA32_PERFEVTSEL0		0x00000186
#define MSR_IA32_DEBUGCTL		0x000001d9
#define MSR_IA32_PAT			0x00000277
#define MSR_IA32_FIXED_CTR0		0x00000309
#define MSR_IA32_PERF_CAPABILITIES	0x00000345
#define MSR_IA32_FIXED_CTR_CTRL		0x0000038d
#define MSR_IA32_PERF_GLOBAL_STATUS	0x0000038e
#define MSR_IA32_PERF_GLOBAL_CTRL	0x0000038f
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL	0x00000390
#define MSR_X2APIC_ID			0x00000802
#define MSR_X2APIC_VERSION		0x00000803
#define MSR_X2APIC_TPR			0x808
#define MSR_X2APIC_PPR			0x0000080a
#define MSR_X2APIC_LDR			0x0000080d
#define MSR_X2APIC_ISR0			0x00000810
#define MSR_X2APIC_TMR0			0x00000818
#define MSR_X2APIC_IRR0			0x00000820
#define MSR_X2APIC_ESR			0x00000828
#define MSR_X2APIC_LVTCMCI		0x0000082f
#define MSR_X2APIC_LVTTHMR		0x00000833
#define MSR_X2APIC_LVTPC		0x00000834
#define MSR_X2APIC_LVT0			0x00000835
#define MSR_X2APIC_LVT1			0x00000836
#define MSR_X2APIC_LVTERR		0x00000837
#define MSR_X2APIC_TMCCT		0x00000839
#define MSR_X2APIC_TDCR			0x0000083e
#define MSR_X2APIC_SELF_IPI		0x83f
#define MSR_STAR			0xc0000081
#define MSR_LSTAR			0xc0000082
#define MSR_CSTAR			0xc0000083
#define MSR_SYSCALL_MASK		0xc0000084
#define MSR_FS_BASE			0xc0000100
#define MSR_TSC_AUX			0xc0000103
#define MSR_AMD64_TSC_RATIO		0xc0000104
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS 0xc0000300
#define MSR_AMD64_PERF_CNTR_GLOBAL_CTL	0xc0000301
#define MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR 0xc0000302
#define MSR_K7_EVNTSEL0			0xc0010000
#define MSR_K7_PERFCTR0			0xc0010004
#define MSR_VM_CR			0xc0010114
#define MSR_VM_HSAVE_PA			0xc0010117
#define MSR_AMD64_VIRT_SPEC_CTRL	0xc001011f
#define MSR_F15H_PERF_CTL0		0xc0010200
#define MSR_F15H_PERF_CTR0		0xc0010201

/* *_CET bits. */
#define CET_SHSTK_EN			(1ULL << 0)
#define CET_WRSS_EN			(1ULL << 1)
#define CET_ENDBR_EN			(1ULL << 2)
#define CET_LEG_IW_EN			(1ULL << 3)
#define CET_NO_TRACK_EN			(1ULL << 4)
#define CET_SUPPRESS_DIS		(1ULL << 5)
#define CET_RESERVED			(0xfULL << 6)	/* bits 6-9 */
#define CET_SUPPRESS			(1ULL << 10)
#define CET_WAIT_ENDBR			(1ULL << 11)

/* XSAVE feature bits (XCR0 / IA32_XSS). */
#define XFEATURE_X87			(1ULL << 0)
#define XFEATURE_SSE			(1ULL << 1)
#define XFEATURE_YMM			(1ULL << 2)
#define XFEATURE_BNDREGS		(1ULL << 3)
#define XFEATURE_BNDCSR			(1ULL << 4)
#define XFEATURE_OPMASK			(1ULL << 5)
#define XFEATURE_ZMM_HI256		(1ULL << 6)
#define XFEATURE_HI16_ZMM		(1ULL << 7)
#define XFEATURE_PT			(1ULL << 8)
#define XFEATURE_PKRU			(1ULL << 9)
/* XSTATE_BV in the header of an XSAVE image (KVM_GET_XSAVE: standard format). */
#define XSAVE_XSTATE_BV_OFFSET		512
#define XFEATURE_CET_USER		(1ULL << 11)
#define XFEATURE_CET_KERNEL		(1ULL << 12)
#define XFEATURE_AVX512			(XFEATURE_OPMASK | XFEATURE_ZMM_HI256 | XFEATURE_HI16_ZMM)

/* Control register bits. */
#define X86_CR0_PE	(1ULL << 0)
#define X86_CR0_MP	(1ULL << 1)
#define X86_CR0_EM	(1ULL << 2)
#define X86_CR0_TS	(1ULL << 3)
#define X86_CR0_ET	(1ULL << 4)
#define X86_CR0_NE	(1ULL << 5)
#define X86_CR0_WP	(1ULL << 16)
#define X86_CR0_AM	(1ULL << 18)
#define X86_CR0_NW	(1ULL << 29)
#define X86_CR0_CD	(1ULL << 30)
#define X86_CR0_PG	(1ULL << 31)

#define X86_CR4_VME		(1ULL << 0)
#define X86_CR4_PVI		(1ULL << 1)
#define X86_CR4_TSD		(1ULL << 2)
#define X86_CR4_DE		(1ULL << 3)
#define X86_CR4_PSE		(1ULL << 4)
#define X86_CR4_PAE		(1ULL << 5)
#define X86_CR4_MCE		(1ULL << 6)
#define X86_CR4_PGE		(1ULL << 7)
#define X86_CR4_PCE		(1ULL << 8)
#define X86_CR4_OSFXSR		(1ULL << 9)
#define X86_CR4_OSXMMEXCPT	(1ULL << 10)
#define X86_CR4_UMIP		(1ULL << 11)
#define X86_CR4_LA57		(1ULL << 12)
#define X86_CR4_VMXE		(1ULL << 13)
#define X86_CR4_SMXE		(1ULL << 14)
#define X86_CR4_FSGSBASE	(1ULL << 16)
#define X86_CR4_PCIDE		(1ULL << 17)
#define X86_CR4_OSXSAVE		(1ULL << 18)
#define X86_CR4_KL		(1ULL << 19)
#define X86_CR4_SMEP		(1ULL << 20)
#define X86_CR4_SMAP		(1ULL << 21)
#define X86_CR4_PKE		(1ULL << 22)
#define X86_CR4_CET		(1ULL << 23)
#define X86_CR4_PKS		(1ULL << 24)
#define X86_CR4_LAM_SUP		(1ULL << 28)

#define EFER_SCE	(1ULL << 0)
#define EFER_LME	(1ULL << 8)
#define EFER_LMA	(1ULL << 10)
#define EFER_NX		(1ULL << 11)

/* Exception vectors. */
#define DE_VECTOR	0
#define DB_VECTOR	1
#define NMI_VECTOR	2
#define BP_VECTOR	3
#define UD_VECTOR	6
#define NM_VECTOR	7
#define DF_VECTOR	8
#define TS_VECTOR	10
#define NP_VECTOR	11
#define SS_VECTOR	12
#define GP_VECTOR	13
#define PF_VECTOR	14
#define MF_VECTOR	16
#define AC_VECTOR	17
#define MC_VECTOR	18
#define XM_VECTOR	19
#define VE_VECTOR	20
#ifndef CP_VECTOR
#define CP_VECTOR	21
#endif
#ifndef HV_VECTOR
#define HV_VECTOR	28
#endif
#ifndef VC_VECTOR
#define VC_VECTOR	29
#endif
#ifndef SX_VECTOR
#define SX_VECTOR	30
#endif

/* #CP error codes. */
#define CP_NEAR_RET	1
#define CP_FAR_RET	2
#define CP_ENDBRANCH	3
#define CP_RSTORSSP	4
#define CP_SETSSBSY	5

#endif
