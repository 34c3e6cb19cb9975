// SPDX-License-Identifier: GPL-2.0-only
/* cet_decide.c - the CET suite's pure decisions (suites/cet_decide.h). */
#include <stdio.h>
#include <string.h>

#include "suites/cet.h"
#include "suites/cet_decide.h"

/* KVM offers feature f (one of the features cet_msrs[] names)? */
static bool cet_support_has(const struct cet_support *cs, enum x86_feat f)
{
	return (f == X86_FEAT_SHSTK && cs->shstk) || (f == X86_FEAT_IBT && cs->ibt) ||
	       (f == X86_FEAT_FRED && cs->fred);
}

bool cet_msr_exists(const struct cet_msr *m, const struct cet_support *cs)
{
	return cet_support_has(cs, m->feat) || (m->alt != X86_FEAT_NONE && cet_support_has(cs, m->alt));
}

uint64_t cet_ucall_guest_ssp(uint64_t guest_ssp_before_sync)
{
	return guest_ssp_before_sync - CET_UCALL_SHSTK_PUSH;
}

bool cet_canonical(uint64_t va, unsigned int va_bits)
{
	int64_t s = (int64_t)(va << (64 - va_bits)) >> (64 - va_bits);

	return (uint64_t)s == va;
}

enum check_status cet_cpuid_host_status(const struct cet_host_cpu *h)
{
	return (h->kvm_shstk && !h->cpu_shstk) || (h->kvm_ibt && !h->cpu_ibt) ? CHECK_FAIL : CHECK_PASS;
}

enum cet_ignore_msrs cet_ignore_msrs_parse(const char *text)
{
	if (!text)
		return CET_IGNORE_MSRS_UNKNOWN;
	if (text[0] == 'Y' || text[0] == 'y' || text[0] == '1')
		return CET_IGNORE_MSRS_YES;
	if (text[0] == 'N' || text[0] == 'n' || text[0] == '0')
		return CET_IGNORE_MSRS_NO;
	return CET_IGNORE_MSRS_UNKNOWN;
}

enum cet_ignore_msrs cet_ignore_msrs_read(const char *path)
{
	char buf[16] = "";
	FILE *f = fopen(path, "r");
	bool got;

	if (!f)
		return cet_ignore_msrs_parse(NULL);
	got = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	return cet_ignore_msrs_parse(got ? buf : "");
}

const char *cet_ignore_msrs_skip(enum cet_ignore_msrs im)
{
	return im == CET_IGNORE_MSRS_YES ?
	       "kvm.ignore_msrs=Y: KVM accepts unsupported MSR accesses silently" : NULL;
}

enum check_status cet_reg_list_absent_status(int r, int set_r, bool one_reg_cap)
{
	if (r == 1 || !set_r)
		return CHECK_FAIL;
	if (r < 0 && one_reg_cap)
		return CHECK_FAIL;
	return CHECK_PASS;
}
