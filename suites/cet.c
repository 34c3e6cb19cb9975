// SPDX-License-Identifier: GPL-2.0-only
/*
 * cet.c - the CET check suite as a table: host-side checks (cet_host.c)
 * then guest-side ones (cet_vmcheck.c), run in order (suites/suite_run.h:
 * Ctrl-C stops it cleanly), each knowing from the host record what KVM
 * supports.
 */
#include <stdio.h>
#include <string.h>

#include "base/array_size.h"
#include "suites/cet_int.h"
#include "suites/suite_run.h"

static bool cet_kvm_has_cet(const void *arg)
{
	const struct cet_ctx *cc = arg;

	return cc->cs.shstk || cc->cs.ibt;
}

static bool cet_kvm_lacks_cet(const void *arg)
{
	return !cet_kvm_has_cet(arg);
}

static const struct suite_check cet_table[] = {
	{ { "cpuid_host_cpu", "cpuid_xss_bits" }, .run = cet_check_cpuid_policy },
	{ { "msr_index_list" }, .run = cet_check_msr_list },
	{ { "msr_refused_no_cet" }, .run = cet_check_msrs_refused, .applies = cet_kvm_lacks_cet },
	{ { "msr_refused_cleared_cpuid" }, .run = cet_check_msrs_refused,
	  .applies = cet_kvm_has_cet },
	{ { "reg_list_no_guest_ssp" }, .run = cet_check_reg_list_absent },
	{ { "sregs_cr4_cet_refused" }, .run = cet_check_sregs_cr4 },
	{ { "msr_roundtrip", "msr_invalid_refused", "reg_list_guest_ssp" },
	  .run = cet_check_roundtrips },
	{ { "guest_cr4_cet_gp" }, .run = cet_check_cr4_no_cet },
	{ { "guest_msr_gp" }, .run = cet_check_msr_gp },
	{ { "guest_cr4_cet_wp" }, .run = cet_check_cr4_wp },
	{ { "guest_shstk_ret" }, .run = cet_check_shstk_ret },
	{ { "guest_rdssp_incssp" }, .run = cet_check_rdssp_incssp },
	{ { "guest_cet_state_exits" }, .run = cet_check_state_exits },
	{ { "guest_ibt_endbr" }, .run = cet_check_ibt },
};

void cet_checks(const struct suite_env *env, struct check_report *rep)
{
	struct cet_ctx cc = { .env = env, .rep = rep,
			      .ignore_msrs = cet_ignore_msrs_read(CET_IGNORE_MSRS_PATH) };
	int r = cet_support_of(env->hi, &cc.cs);

	if (r) {
		check_add(rep, CET_SUITE, "cpuid_host_cpu", CHECK_FAIL,
			  "KVM_GET_SUPPORTED_CPUID: %s", strerror(-r));
		return;
	}
	suite_run(env, rep, CET_SUITE, cet_table, ARRAY_SIZE(cet_table), &cc);
}
