// SPDX-License-Identifier: GPL-2.0-only
/* msr.c - the MSR names (kvm/msr.def) and the CET MSR table (kvm/msr.h). */
#include <asm/kvm_para.h>	/* MSR_KVM_*: KVM's own MSRs, defined there once */
#include <stdio.h>

#include "base/array_size.h"
#include "kvm/msr.h"

static const struct msr_row {
	uint32_t first;
	const char *name;
	unsigned int n, stride;		/* a numbered range (n > 0), or one MSR */
} msr_rows[] = {
#define MSR(name)			{ MSR_##name, #name, 0, 0 },
#define MSR_RANGE(name, n, stride)	{ MSR_##name##0, #name, n, stride },
#include "kvm/msr.def"
#undef MSR
#undef MSR_RANGE
};

const char *msr_name(uint32_t index, char *buf, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(msr_rows); i++) {
		const struct msr_row *r = &msr_rows[i];

		if (!r->n && r->first == index)
			return r->name;
		if (r->n && index >= r->first && (index - r->first) % r->stride == 0 &&
		    (index - r->first) / r->stride < r->n) {
			snprintf(buf, len, "%s%u", r->name, (index - r->first) / r->stride);
			return buf;
		}
	}
	snprintf(buf, len, "0x%x", index);
	return buf;
}

/* A CET MSR's short name is its msr.def name less the IA32_ prefix, from the same constant. */
#define CET(n, feat, alt, ssp, pt)	{ MSR_IA32_##n, #n, feat, alt, ssp, pt }

const struct cet_msr cet_msrs[CET_NR_MSRS] = {
	CET(U_CET,	X86_FEAT_SHSTK, X86_FEAT_IBT, false, true),
	CET(S_CET,	X86_FEAT_SHSTK, X86_FEAT_IBT, false, true),
	CET(PL0_SSP,	X86_FEAT_SHSTK, X86_FEAT_FRED, true, true),
	CET(PL1_SSP,	X86_FEAT_SHSTK, X86_FEAT_NONE, true, true),
	CET(PL2_SSP,	X86_FEAT_SHSTK, X86_FEAT_NONE, true, true),
	CET(PL3_SSP,	X86_FEAT_SHSTK, X86_FEAT_NONE, true, true),
	CET(INT_SSP_TAB, X86_FEAT_SHSTK, X86_FEAT_NONE, true, false),
};

const struct cet_msr *cet_msr_of(uint32_t index)
{
	for (size_t i = 0; i < CET_NR_MSRS; i++)
		if (cet_msrs[i].index == index)
			return &cet_msrs[i];
	return NULL;
}

const char *cet_msr_name(uint32_t index)
{
	const struct cet_msr *m = cet_msr_of(index);

	return m ? m->name : "?";
}

uint32_t cet_exit_msr(void)
{
	for (size_t i = 0; i < CET_NR_MSRS; i++)
		if (!cet_msrs[i].passthrough)
			return cet_msrs[i].index;
	return 0;
}
