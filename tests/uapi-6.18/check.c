/*
 * tests/uapi-6.18/check.c - compiled (never run) by `make check-uapi`: fails
 * the build when the 6.18 test header was not the one <linux/kvm.h> pulled
 * in, so the check cannot pass by silently using the installed headers.
 */
#include "kvm/abi.h"

#ifndef EXITSCOPE_TEST_UAPI_6_18
#error "tests/uapi-6.18/asm/kvm.h was not included: check-uapi proves nothing"
#endif

unsigned long long uapi_guest_ssp_id(void);
unsigned long long uapi_guest_ssp_id(void)
{
	return KVM_X86_REG_KVM(KVM_REG_GUEST_SSP);
}
