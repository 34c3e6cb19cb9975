// SPDX-License-Identifier: GPL-2.0-only
/*
 * cet_vm.c - what every CET check builds on: CET support as the host
 * record's KVM_GET_SUPPORTED_CPUID states it, test VMs with CET cleared
 * from or left in their CPUID, and a supervisor shadow stack for a VM.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/hostinfo.h"
#include "suites/cet_guest.h"
#include "suites/cet_int.h"

#define PTE_P		(1ULL << 0)
#define PTE_A		(1ULL << 5)
#define PTE_D		(1ULL << 6)

int cet_support_of(const struct hostinfo *hi, struct cet_support *cs)
{
	const struct kvm_cpuid2 *c = hostinfo_cpuid(hi);
	const struct kvm_cpuid_entry2 *e;

	memset(cs, 0, sizeof(*cs));
	if (!c)
		return -ENODATA;
	cs->shstk = cpuid_has(c, X86_FEAT_SHSTK);
	cs->ibt = cpuid_has(c, X86_FEAT_IBT);
	cs->fred = cpuid_has(c, X86_FEAT_FRED);
	e = cpuid_find_const(c, 0xd, 1);
	if (e)
		cs->xss = e->ecx | (uint64_t)e->edx << 32;
	return 0;
}

int cet_vm_create(const struct suite_env *env, enum cet_cpuid mode, bool irqchip,
		  struct vm **out, struct err *err)
{
	struct vm_opts o = { .kvm_path = env->kvm_path, .stop = env->stop, .quiet = true,
			     .irqchip = irqchip };
	const struct kvm_cpuid2 *supported = hostinfo_cpuid(env->hi);
	struct kvm_cpuid2 *c;
	int r;

	if (!supported)
		return err_set(err, -ENODATA, "KVM_GET_SUPPORTED_CPUID: not in the host record");
	c = cpuid_dup(supported);
	if (!c)
		return err_set(err, -ENOMEM, "out of memory");
	if (mode == CET_CPUID_CLEARED) {
		struct kvm_cpuid_entry2 *e = cpuid_find(c, 0xd, 1);

		cpuid_set(c, X86_FEAT_SHSTK, false);
		cpuid_set(c, X86_FEAT_IBT, false);
		cpuid_set(c, X86_FEAT_FRED, false);	/* PL0_SSP exists with FRED too */
		if (e)
			e->ecx &= ~(uint32_t)XSS_CET;
	}
	o.cpuid = c;
	r = vm_create(out, &o, err);
	free(c);
	if (r)
		return r;
	for (int i = 0; i < CET_NR_MSRS; i++)
		(*vm_global(*out, cet_g_msrs))[i] = cet_msrs[i].index;
	vm_global_set(*out, cet_g_exit_msr, cet_exit_msr());
	return 0;
}

uint64_t cet_vm_shadow_stack(struct vm *vm)
{
	uint64_t page = vm_alloc_page(vm), tok;
	uint64_t *pte, *slot;

	if (!page)
		return 0;
	pte = vm_pte(vm, page);
	tok = page + GUEST_PAGE_SIZE - 8;
	slot = vm_gva(vm, tok, 8);
	if (!pte || !slot)
		return 0;
	*pte = page | PTE_P | PTE_A | PTE_D;	/* read-only + dirty: shadow stack */
	*slot = tok;				/* supervisor token, not busy */
	vm_global_set(vm, cet_ss_token, tok);
	return tok;
}
