/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuid.h - struct kvm_cpuid2 lookups and edits, and the CPUID facts the
 * tree relies on: every feature bit it tests, typed (X86_FEAT_*), so a
 * misspelt feature does not compile, and which CPUID feature each CR4 bit
 * needs. Names are those of /proc/cpuinfo where possible; they are what
 * users type in CPUID profiles and what result files say.
 */
#ifndef EXITSCOPE_KVM_CPUID_H
#define EXITSCOPE_KVM_CPUID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/kvm.h>

enum cpuid_reg { CPUID_EAX, CPUID_EBX, CPUID_ECX, CPUID_EDX };

/* F(ID, name, leaf, subleaf, register, bit) */
#define X86_FEATURES(F) \
	F(X2APIC,            "x2apic",             0x1, 0, CPUID_ECX, 21) \
	F(TSC_DEADLINE,      "tsc_deadline",       0x1, 0, CPUID_ECX, 24) \
	F(XSAVE,             "xsave",              0x1, 0, CPUID_ECX, 26) \
	F(OSXSAVE,           "osxsave",            0x1, 0, CPUID_ECX, 27) \
	F(AVX,               "avx",                0x1, 0, CPUID_ECX, 28) \
	F(HYPERVISOR,        "hypervisor",         0x1, 0, CPUID_ECX, 31) \
	F(VME,               "vme",                0x1, 0, CPUID_EDX, 1) \
	F(DE,                "de",                 0x1, 0, CPUID_EDX, 2) \
	F(PSE,               "pse",                0x1, 0, CPUID_EDX, 3) \
	F(TSC,               "tsc",                0x1, 0, CPUID_EDX, 4) \
	F(MCE,               "mce",                0x1, 0, CPUID_EDX, 7) \
	F(PGE,               "pge",                0x1, 0, CPUID_EDX, 13) \
	F(FXSR,              "fxsr",               0x1, 0, CPUID_EDX, 24) \
	F(FSGSBASE,          "fsgsbase",           0x7, 0, CPUID_EBX, 0) \
	F(TSC_ADJUST,        "tsc_adjust",         0x7, 0, CPUID_EBX, 1) \
	F(SMEP,              "smep",               0x7, 0, CPUID_EBX, 7) \
	F(RTM,               "rtm",                0x7, 0, CPUID_EBX, 11) \
	F(AVX512F,           "avx512f",            0x7, 0, CPUID_EBX, 16) \
	F(SMAP,              "smap",               0x7, 0, CPUID_EBX, 20) \
	F(UMIP,              "umip",               0x7, 0, CPUID_ECX, 2) \
	F(PKU,               "pku",                0x7, 0, CPUID_ECX, 3) \
	F(OSPKE,             "ospke",              0x7, 0, CPUID_ECX, 4) \
	F(SHSTK,             "shstk",              0x7, 0, CPUID_ECX, 7) \
	F(LA57,              "la57",               0x7, 0, CPUID_ECX, 16) \
	F(IBT,               "ibt",                0x7, 0, CPUID_EDX, 20) \
	F(SPEC_CTRL,         "spec_ctrl",          0x7, 0, CPUID_EDX, 26) \
	F(ARCH_CAPABILITIES, "arch_capabilities",  0x7, 0, CPUID_EDX, 29) \
	F(XSAVEOPT,          "xsaveopt",           0xd, 1, CPUID_EAX, 0) \
	F(XSAVEC,            "xsavec",             0xd, 1, CPUID_EAX, 1) \
	F(XGETBV1,           "xgetbv1",            0xd, 1, CPUID_EAX, 2) \
	F(XSAVES,            "xsaves",             0xd, 1, CPUID_EAX, 3) \
	F(RDTSCP,            "rdtscp",             0x80000001, 0, CPUID_EDX, 27) \
	F(SVM,               "svm",                0x80000001, 0, CPUID_ECX, 2) \
	F(VMX,               "vmx",                0x1, 0, CPUID_ECX, 5) \
	F(PCID,              "pcid",               0x1, 0, CPUID_ECX, 17) \
	F(PDCM,              "pdcm",               0x1, 0, CPUID_ECX, 15) \
	F(AMD_IBPB,          "amd_ibpb",           0x80000008, 0, CPUID_EBX, 12) \
	F(AMD_IBRS,          "amd_ibrs",           0x80000008, 0, CPUID_EBX, 14) \
	F(PKS,               "pks",                0x7, 0, CPUID_ECX, 31) \
	F(LAM,               "lam",                0x7, 1, CPUID_EAX, 26) \
	F(FRED,              "fred",               0x7, 1, CPUID_EAX, 17)
enum x86_feat {
	X86_FEAT_NONE,		/* "no feature needed": 0, so table rows may omit it */
#define X86_FEAT_ENUM(id, name, fn, idx, reg, bit) X86_FEAT_##id,
	X86_FEATURES(X86_FEAT_ENUM)
#undef X86_FEAT_ENUM
	X86_NR_FEATS
};

struct x86_feature {
	const char *name;
	uint32_t fn, idx;
	enum cpuid_reg reg;
	uint8_t bit;
};

/* The feature's bit (f in 1..X86_NR_FEATS-1). */
const struct x86_feature *x86_feature(enum x86_feat f);
const char *x86_feature_name(enum x86_feat f);
/* For names users type: X86_FEAT_NONE when unknown. */
enum x86_feat x86_feature_by_name(const char *name);

struct kvm_cpuid_entry2 *cpuid_find(struct kvm_cpuid2 *c, uint32_t fn, uint32_t idx);
const struct kvm_cpuid_entry2 *cpuid_find_const(const struct kvm_cpuid2 *c,
					       uint32_t fn, uint32_t idx);
struct kvm_cpuid2 *cpuid_dup(const struct kvm_cpuid2 *c);
/* Whether c has f; X86_FEAT_NONE is always "has". */
bool cpuid_has(const struct kvm_cpuid2 *c, enum x86_feat f);
/* Either of two (alt may be X86_FEAT_NONE: just f). */
bool cpuid_has_any(const struct kvm_cpuid2 *c, enum x86_feat f, enum x86_feat alt);
void cpuid_set(struct kvm_cpuid2 *c, enum x86_feat f, bool on);

/* A CR4 bit and the CPUID feature(s) a guest needs to set it. */
struct cr4_bit {
	uint8_t bit;
	const char *name;		/* "OSXSAVE" */
	enum x86_feat feat, alt;	/* needs feat or alt; NONE: nothing */
};
extern const struct cr4_bit cr4_bits[];
extern const size_t nr_cr4_bits;
/* The entry of CR4 bit n, or NULL (reserved or unknown bit). */
const struct cr4_bit *cr4_bit_of(unsigned int n);

#endif
