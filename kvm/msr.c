/* msr.c - the CET MSR table (kvm/msr.h). */
#include <stddef.h>

#include "kvm/msr.h"

const struct cet_msr cet_msrs[CET_NR_MSRS] = {
	{ MSR_IA32_U_CET,	"U_CET",	X86_FEAT_SHSTK, X86_FEAT_IBT, false, true },
	{ MSR_IA32_S_CET,	"S_CET",	X86_FEAT_SHSTK, X86_FEAT_IBT, false, true },
	{ MSR_IA32_PL0_SSP,	"PL0_SSP",	X86_FEAT_SHSTK, X86_FEAT_FRED, true, true },
	{ MSR_IA32_PL1_SSP,	"PL1_SSP",	X86_FEAT_SHSTK, X86_FEAT_NONE, true, true },
	{ MSR_IA32_PL2_SSP,	"PL2_SSP",	X86_FEAT_SHSTK, X86_FEAT_NONE, true, true },
	{ MSR_IA32_PL3_SSP,	"PL3_SSP",	X86_FEAT_SHSTK, X86_FEAT_NONE, true, true },
	{ MSR_IA32_INT_SSP_TAB,	"INT_SSP_TAB",	X86_FEAT_SHSTK, X86_FEAT_NONE, true, false },
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
