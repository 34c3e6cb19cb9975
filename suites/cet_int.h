/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cet_int.h - what the files of the CET suite share: cet.c (the table)
 * runs the checks of cet_host.c and cet_vmcheck.c, which build their VMs
 * with cet_vm.c (suites/cet.h).
 */
#ifndef EXITSCOPE_SUITES_CET_INT_H
#define EXITSCOPE_SUITES_CET_INT_H

#include "suites/cet.h"
#include "suites/cet_decide.h"

#define CET_SUITE	"cet"
#define CET_EV_LEN	128	/* == sizeof(struct check_result.expected) */
#define XSS_CET		(XFEATURE_CET_USER | XFEATURE_CET_KERNEL)

/* The suite_run ctx of every CET check. */
struct cet_ctx {
	const struct suite_env *env;
	struct check_report *rep;
	struct cet_support cs;
	enum cet_ignore_msrs ignore_msrs;	/* kvm.ignore_msrs, read once per run */
};

/* cet_host.c */
void cet_check_cpuid_policy(void *c);
void cet_check_msr_list(void *c);
void cet_check_msrs_refused(void *c);
void cet_check_reg_list_absent(void *c);
void cet_check_sregs_cr4(void *c);
void cet_check_roundtrips(void *c);
/* cet_vmcheck.c */
void cet_check_cr4_no_cet(void *c);
void cet_check_msr_gp(void *c);
void cet_check_cr4_wp(void *c);
void cet_check_shstk_ret(void *c);
void cet_check_rdssp_incssp(void *c);
void cet_check_state_exits(void *c);
void cet_check_ibt(void *c);

#endif
