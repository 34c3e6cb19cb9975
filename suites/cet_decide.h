/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cet_decide.h - the decisions of `exitscope check cet` that a host without
 * CET cannot exercise end to end, as pure functions of their inputs: the
 * GUEST_SSP the host must see at a ucall, the SSP values KVM must refuse,
 * the cpuid_host_cpu verdict, the kvm.ignore_msrs skip and the verdict on a
 * failing KVM_GET_REG_LIST. The checks (cet_host.c, cet_vmcheck.c) call
 * these; tests/test_cet.c feeds them the inputs a CET host would give.
 */
#ifndef EXITSCOPE_SUITES_CET_DECIDE_H
#define EXITSCOPE_SUITES_CET_DECIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "kvm/msr.h"
#include "results/check_model.h"

struct cet_support;

/*
 * The CET MSR m exists with the CPUID cs describes: U_CET/S_CET with SHSTK
 * or IBT, the SSP MSRs with SHSTK, PL0_SSP also with FRED (kvm/msr.h).
 */
bool cet_msr_exists(const struct cet_msr *m, const struct cet_support *cs);

/*
 * GUEST_SYNC reaches its OUT through `call guest_ucall`, which pushes the
 * return address on the shadow stack too: at that exit the host's GUEST_SSP
 * is the SSP the guest read before the sync, minus 8.
 */
#define CET_UCALL_SHSTK_PUSH	8
uint64_t cet_ucall_guest_ssp(uint64_t guest_ssp_before_sync);

/*
 * KVM checks SSP MSR values against the host's maximum virtual address width
 * (is_noncanonical_msr_address: 57 bits on LA57 hosts, else 48) and, except
 * INT_SSP_TAB, 4-byte alignment. The refused values: non-canonical at both
 * widths yet 4-byte aligned, and canonical at both widths yet misaligned.
 */
#define CET_SSP_NONCANONICAL	0x8000000000001000ULL
#define CET_SSP_MISALIGNED	0x00007ffff0001002ULL
bool cet_canonical(uint64_t va, unsigned int va_bits);

/* What cpuid_host_cpu weighs: KVM's CET CPUID against the host CPU's CPUID. */
struct cet_host_cpu {
	bool kvm_shstk, kvm_ibt;	/* KVM_GET_SUPPORTED_CPUID */
	bool cpu_shstk, cpu_ibt;	/* host CPUID 7.0 ECX bit 7 / EDX bit 20 */
};
/* FAIL when KVM offers SHSTK or IBT the CPU lacks; /proc/cpuinfo does not count. */
enum check_status cet_cpuid_host_status(const struct cet_host_cpu *h);

/* /sys/module/kvm/parameters/ignore_msrs. */
#define CET_IGNORE_MSRS_PATH	"/sys/module/kvm/parameters/ignore_msrs"
enum cet_ignore_msrs { CET_IGNORE_MSRS_NO, CET_IGNORE_MSRS_YES, CET_IGNORE_MSRS_UNKNOWN };
/* The parameter's text ("Y\n", "N\n"; NULL when the file is missing). */
enum cet_ignore_msrs cet_ignore_msrs_parse(const char *text);
enum cet_ignore_msrs cet_ignore_msrs_read(const char *path);
/*
 * The skip reason for a check that needs unsupported MSR accesses to fail
 * (guest_msr_gp, msr_refused_*), NULL to run it: with ignore_msrs=Y KVM
 * accepts them silently (as upstream's msrs_test, which then expects no #GP).
 */
const char *cet_ignore_msrs_skip(enum cet_ignore_msrs im);

/*
 * reg_list_no_guest_ssp: r is KVM_GET_REG_LIST's outcome (1 GUEST_SSP listed,
 * 0 not listed, -errno failed), set_r KVM_SET_ONE_REG(GUEST_SSP)'s. A failing
 * KVM_GET_REG_LIST only means "kernel predates 6.18" when KVM_CAP_ONE_REG is
 * not advertised (6.18 added both at once for x86); with the cap it fails.
 */
enum check_status cet_reg_list_absent_status(int r, int set_r, bool one_reg_cap);

#endif
