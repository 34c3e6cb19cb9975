/*
 * tests/uapi-6.18/asm/kvm.h - a build-only test header: the installed
 * <asm/kvm.h> plus what Linux 6.18 added to it for CET (arch/x86/include/
 * uapi/asm/kvm.h: the #CP..#SX vectors, the x86 ONE_REG id encoding with
 * its statement-expression size, KVM_REG_GUEST_SSP as index 0). `make
 * check-uapi` puts this directory first on the include path and compiles
 * every user of these names with -Werror, proving exitscope builds against
 * 6.18+ uapi headers as well as against the installed ones.
 */
#ifndef EXITSCOPE_TEST_UAPI_6_18_ASM_KVM_H
#define EXITSCOPE_TEST_UAPI_6_18_ASM_KVM_H

#include_next <asm/kvm.h>

#define EXITSCOPE_TEST_UAPI_6_18	1

#define CP_VECTOR 21

#define HV_VECTOR 28
#define VC_VECTOR 29
#define SX_VECTOR 30

#define KVM_X86_REG_TYPE_MSR		2
#define KVM_X86_REG_TYPE_KVM		3

#define KVM_X86_KVM_REG_SIZE(reg)					\
({									\
	reg == KVM_REG_GUEST_SSP ? KVM_REG_SIZE_U64 : 0;		\
})

#define KVM_X86_REG_TYPE_SIZE(type, reg)				\
({									\
	__u64 type_size = (__u64)type << 32;				\
									\
	type_size |= type == KVM_X86_REG_TYPE_MSR ? KVM_REG_SIZE_U64 :	\
		     type == KVM_X86_REG_TYPE_KVM ? KVM_X86_KVM_REG_SIZE(reg) : \
		     0;							\
	type_size;							\
})

#define KVM_X86_REG_ID(type, index)					\
	(KVM_REG_X86 | KVM_X86_REG_TYPE_SIZE(type, index) | index)

#define KVM_X86_REG_MSR(index)						\
	KVM_X86_REG_ID(KVM_X86_REG_TYPE_MSR, index)
#define KVM_X86_REG_KVM(index)						\
	KVM_X86_REG_ID(KVM_X86_REG_TYPE_KVM, index)

/* KVM-defined registers starting from 0 */
#define KVM_REG_GUEST_SSP	0

#endif
