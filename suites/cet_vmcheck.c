// SPDX-License-Identifier: GPL-2.0-only
/*
 * cet_vmcheck.c - guest-side CET checks: mov to CR4.CET without SHSTK/IBT and the
 * CR0.WP rules, guest CET MSR accesses, a supervisor shadow stack (tampered
 * return -> #CP(1), RDSSP/INCSSP), IBT (no ENDBR64 -> #CP(3)) and CET state
 * across exits of each kind. The guest code is suites/cet_guest.c.
 */
#include <stdio.h>
#include <string.h>

#include "suites/cet_guest.h"
#include "suites/cet_int.h"

#define SUITE		CET_SUITE
#define BUDGET_MS	20000
#define FAULT_GP	GUEST_FAULT_CODE(GP_VECTOR)

/* One fresh VM per scenario: a #CP leaves the shadow-stack token busy. */
static struct vm *scenario_vm(const struct suite_env *env, enum cet_cpuid mode,
			      struct check_report *rep, const char *name)
{
	struct vm *vm;
	struct err err;

	if (cet_vm_create(env, mode, false, &vm, &err)) {
		check_add(rep, SUITE, name, CHECK_FAIL, "vm_create: %s", err.msg);
		return NULL;
	}
	return vm;
}

/* A fresh VM for a check that needs CET, or a skip saying why (NULL either way then). */
static struct vm *cet_scenario_vm(const struct cet_ctx *cc, bool need_shstk, bool need_ibt,
				  const char *name)
{
	const struct cet_support *cs = &cc->cs;

	if (!cs->shstk && !cs->ibt) {
		check_add_ev(cc->rep, SUITE, name, CHECK_SKIP, "shstk|ibt=1", "shstk|ibt=0",
			     "%s (KVM_GET_SUPPORTED_CPUID has neither SHSTK nor IBT)",
			     CET_NO_SUPPORT);
		return NULL;
	}
	if (need_shstk && !cs->shstk) {
		check_add_ev(cc->rep, SUITE, name, CHECK_SKIP, "shstk=1", "shstk=0",
			     "%s shadow stacks (SHSTK not in KVM_GET_SUPPORTED_CPUID)",
			     CET_NO_SUPPORT);
		return NULL;
	}
	if (need_ibt && !cs->ibt) {
		check_add_ev(cc->rep, SUITE, name, CHECK_SKIP, "ibt=1", "ibt=0",
			     "%s IBT (IBT not in KVM_GET_SUPPORTED_CPUID)", CET_NO_SUPPORT);
		return NULL;
	}
	return scenario_vm(cc->env, CET_CPUID_SUPPORTED, cc->rep, name);
}

/* "0x10d": a safe-helper result as structured evidence. */
static const char *cet_hex(char *buf, uint64_t v)
{
	snprintf(buf, CET_EV_LEN, "0x%llx", (unsigned long long)v);
	return buf;
}

static const char *fault_name(uint64_t f, char *buf, size_t len)
{
	if (!f)
		snprintf(buf, len, "no fault");
	else if (f == CET_WP_NOT_RUN)
		snprintf(buf, len, "not run");
	else
		snprintf(buf, len, "%s", vector_name(GUEST_FAULT_VECTOR(f)));
	return buf;
}

void cet_check_cr4_no_cet(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	struct vm *vm = scenario_vm(cc->env, CET_CPUID_CLEARED, rep, "guest_cr4_cet_gp");
	struct guest_result res;
	char f[32], want[CET_EV_LEN], seen[CET_EV_LEN];

	if (!vm)
		return;
	vcpu_call_run(&vm->vcpus[0], cet_g_cr4_set, 0, BUDGET_MS, &res);
	if (res.kind != GUEST_DONE)
		check_add(rep, SUITE, "guest_cr4_cet_gp", CHECK_FAIL, "guest: %s", res.msg);
	else
		check_add_ev(rep, SUITE, "guest_cr4_cet_gp",
			  res.args[0] == FAULT_GP ? CHECK_PASS : CHECK_FAIL,
			  cet_hex(want, FAULT_GP), cet_hex(seen, res.args[0]),
			  "guest CPUID without SHSTK/IBT: mov to CR4 setting CET (bit 23): %s%s",
			  fault_name(res.args[0], f, sizeof(f)),
			  res.args[0] == FAULT_GP ? "" : " (expected #GP)");
	vm_destroy(vm);
}

void cet_check_msr_gp(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	const char *skip = cet_ignore_msrs_skip(cc->ignore_msrs);
	struct guest_result res;
	char ok[256] = "", seen[CET_EV_LEN];
	struct vm *vm;
	size_t n = 0;

	if (skip) {
		check_add_ev(rep, SUITE, "guest_msr_gp", CHECK_SKIP, "ignore_msrs=N",
			     "ignore_msrs=Y", "%s", skip);
		return;
	}
	vm = scenario_vm(cc->env, CET_CPUID_CLEARED, rep, "guest_msr_gp");
	if (!vm)
		return;
	vcpu_call_run(&vm->vcpus[0], cet_g_msr_access, 0, BUDGET_MS, &res);
	if (res.kind != GUEST_DONE) {
		check_add(rep, SUITE, "guest_msr_gp", CHECK_FAIL, "guest: %s", res.msg);
		vm_destroy(vm);
		return;
	}
	for (int i = 0; i < CET_NR_MSRS; i++) {
		if (res.args[0] & (1ULL << i))
			n += snprintf(ok + n, sizeof(ok) - n, "%srdmsr %s", n ? ", " : "",
				      cet_msrs[i].name);
		if (res.args[0] & (1ULL << (i + 8)))
			n += snprintf(ok + n, sizeof(ok) - n, "%swrmsr %s", n ? ", " : "",
				      cet_msrs[i].name);
		if (n >= sizeof(ok))
			n = sizeof(ok) - 1;
	}
	/* bit i: rdmsr of cet_msrs[i] did not #GP, bit i + 8: wrmsr did not */
	check_add_ev(rep, SUITE, "guest_msr_gp", n ? CHECK_FAIL : CHECK_PASS, "0x0",
		  cet_hex(seen, res.args[0]),
		  n ? "guest CPUID without SHSTK/IBT, no #GP on: %s" :
		  "guest CPUID without SHSTK/IBT: rdmsr and wrmsr of all 7 CET MSRs #GP%s", ok);
	vm_destroy(vm);
}

void cet_check_cr4_wp(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	struct vm *vm = cet_scenario_vm(cc, false, false, "guest_cr4_cet_wp");
	struct guest_result res;
	uint64_t a, b, c;
	char fa[32], fb[32], fc[32], want[CET_EV_LEN], seen[CET_EV_LEN];

	if (!vm)
		return;
	vcpu_call_run(&vm->vcpus[0], cet_g_cr4_wp, 0, BUDGET_MS, &res);
	if (res.kind != GUEST_DONE) {
		check_add(rep, SUITE, "guest_cr4_cet_wp", CHECK_FAIL, "guest: %s", res.msg);
		vm_destroy(vm);
		return;
	}
	a = CET_WP_FIELD(res.args[0], 0);
	b = CET_WP_FIELD(res.args[0], 1);
	c = CET_WP_FIELD(res.args[0], 2);
	snprintf(want, sizeof(want), "wp_clear=0x%llx wp_set=0x0 clear_wp=0x%llx",
		 (unsigned long long)FAULT_GP, (unsigned long long)FAULT_GP);
	snprintf(seen, sizeof(seen), "wp_clear=0x%llx wp_set=0x%llx clear_wp=0x%llx",
		 (unsigned long long)a, (unsigned long long)b, (unsigned long long)c);
	check_add_ev(rep, SUITE, "guest_cr4_cet_wp",
		  a == FAULT_GP && b == 0 && c == FAULT_GP ? CHECK_PASS : CHECK_FAIL, want, seen,
		  "set CR4.CET with CR0.WP clear: %s (want #GP); with WP set: %s (want no fault); "
		  "clear CR0.WP with CR4.CET set: %s (want #GP)",
		  fault_name(a, fa, sizeof(fa)), fault_name(b, fb, sizeof(fb)),
		  fault_name(c, fc, sizeof(fc)));
	vm_destroy(vm);
}

/*
 * "vector=0x15 error_code=0x1": an exception as structured evidence ("none"
 * for another outcome).
 */
static const char *cet_exc(char *buf, const struct guest_result *res)
{
	if (res->kind == GUEST_EXCEPTION)
		snprintf(buf, CET_EV_LEN, "vector=0x%llx error_code=0x%llx",
			 (unsigned long long)res->vector, (unsigned long long)res->error_code);
	else
		snprintf(buf, CET_EV_LEN, "none");
	return buf;
}

void cet_check_shstk_ret(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	struct vm *vm = cet_scenario_vm(cc, true, false, "guest_shstk_ret");
	struct guest_result res;
	char want[CET_EV_LEN], seen[CET_EV_LEN];

	if (!vm)
		return;
	if (!cet_vm_shadow_stack(vm)) {
		check_add(rep, SUITE, "guest_shstk_ret", CHECK_FAIL,
			  "no pool page for the shadow stack");
		vm_destroy(vm);
		return;
	}
	vcpu_call_run(&vm->vcpus[0], cet_g_shstk, CET_SHSTK_TAMPER, BUDGET_MS, &res);
	snprintf(want, sizeof(want), "vector=0x%x error_code=0x%x", CP_VECTOR, CP_NEAR_RET);
	cet_exc(seen, &res);
	if (res.kind == GUEST_EXCEPTION && res.vector == CP_VECTOR && res.error_code == CP_NEAR_RET)
		check_add_ev(rep, SUITE, "guest_shstk_ret", CHECK_PASS, want, seen,
			  "return address overwritten on the stack: #CP error code 1 (near RET) at "
			  "RIP %#llx", (unsigned long long)res.rip);
	else
		check_add_ev(rep, SUITE, "guest_shstk_ret", CHECK_FAIL, want, seen,
			  "tampered return with the shadow stack active: want #CP error code 1, "
			  "got %s", res.kind == GUEST_DONE
			  ? "no fault, the tampered return was taken" : res.msg);
	vm_destroy(vm);
}

void cet_check_rdssp_incssp(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	struct vm *vm = cet_scenario_vm(cc, true, false, "guest_rdssp_incssp");
	char want[CET_EV_LEN], seen[CET_EV_LEN];
	struct guest_result res;
	uint64_t tok, ssp, entry, ret, a, b;
	struct vcpu *v;

	if (!vm)
		return;
	v = &vm->vcpus[0];
	tok = cet_vm_shadow_stack(vm);
	vcpu_call_run(v, cet_g_shstk, CET_SHSTK_RDSSP, BUDGET_MS, &res);
	if (res.kind != GUEST_SYNC || res.args[0] != CET_SYNC_MARK) {
		check_add(rep, SUITE, "guest_rdssp_incssp", CHECK_FAIL, "RDSSP run: %s", res.msg);
		goto out;
	}
	ssp = res.args[1];
	entry = res.args[2];
	ret = res.args[3];
	vcpu_run(v, BUDGET_MS, &res);
	if (res.kind != GUEST_DONE || ssp != tok - 8 || entry != ret) {
		check_add(rep, SUITE, "guest_rdssp_incssp", CHECK_FAIL,
			  "token at %#llx: RDSSP in a called function %#llx (want %#llx), entry "
			  "there %#llx (want return address %#llx); end: %s",
			  (unsigned long long)tok, (unsigned long long)ssp, (unsigned long long)(tok - 8),
			  (unsigned long long)entry, (unsigned long long)ret, res.msg);
		goto out;
	}
	vcpu_call_run(v, cet_g_shstk, CET_SHSTK_INCSSP, BUDGET_MS, &res);
	if (res.kind != GUEST_SYNC || res.args[0] != CET_SYNC_MARK) {
		check_add(rep, SUITE, "guest_rdssp_incssp", CHECK_FAIL, "INCSSP run: %s", res.msg);
		goto out;
	}
	ssp = res.args[1];
	a = res.args[2];
	b = res.args[3];
	vcpu_run(v, BUDGET_MS, &res);
	snprintf(want, sizeof(want), "after_call=0x%llx after_incssp=0x%llx",
		 (unsigned long long)(ssp - 8), (unsigned long long)ssp);
	snprintf(seen, sizeof(seen), "after_call=0x%llx after_incssp=0x%llx",
		 (unsigned long long)a, (unsigned long long)b);
	check_add_ev(rep, SUITE, "guest_rdssp_incssp",
		  res.kind == GUEST_DONE && a == ssp - 8 && b == ssp ? CHECK_PASS : CHECK_FAIL, want, seen,
		  "SETSSBSY took the token at %#llx; RDSSP %#llx = token - 8 holds the return "
		  "address; after CALL %#llx (want %#llx), after INCSSPQ 1 %#llx (want %#llx); "
		  "end: %s", (unsigned long long)tok, (unsigned long long)(tok - 8),
		  (unsigned long long)a, (unsigned long long)(ssp - 8), (unsigned long long)b,
		  (unsigned long long)ssp, res.msg);
out:
	vm_destroy(vm);
}

void cet_check_ibt(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	struct vm *vm = cet_scenario_vm(cc, false, true, "guest_ibt_endbr");
	char want[CET_EV_LEN], seen[CET_EV_LEN];
	struct guest_result res;
	uint64_t good;

	if (!vm)
		return;
	vcpu_call_run(&vm->vcpus[0], cet_g_ibt, 0, BUDGET_MS, &res);
	if (res.kind != GUEST_DONE || res.args[0] != 1) {
		check_add(rep, SUITE, "guest_ibt_endbr", CHECK_FAIL,
			  "indirect jump to an ENDBR64 target with S_CET.ENDBR_EN: %s (result "
			  "%#llx)", res.msg, (unsigned long long)res.args[0]);
		goto out;
	}
	good = res.args[0];
	vcpu_call_run(&vm->vcpus[0], cet_g_ibt, 1, BUDGET_MS, &res);
	snprintf(want, sizeof(want), "vector=0x%x error_code=0x%x", CP_VECTOR, CP_ENDBRANCH);
	cet_exc(seen, &res);
	if (res.kind == GUEST_EXCEPTION && res.vector == CP_VECTOR && res.error_code == CP_ENDBRANCH)
		check_add_ev(rep, SUITE, "guest_ibt_endbr", CHECK_PASS, want, seen,
			  "S_CET.ENDBR_EN: indirect JMP to ENDBR64 allowed (%#llx), to a target "
			  "without it #CP error code 3 at RIP %#llx", (unsigned long long)good,
			  (unsigned long long)res.rip);
	else
		check_add_ev(rep, SUITE, "guest_ibt_endbr", CHECK_FAIL, want, seen,
			  "indirect JMP to a target without ENDBR64: want #CP error code 3, got %s",
			  res.kind == GUEST_DONE ? "no fault" : res.msg);
out:
	vm_destroy(vm);
}

void cet_check_state_exits(void *arg)
{
	struct cet_ctx *cc = arg;
	struct check_report *rep = cc->rep;
	struct vm *vm = cet_scenario_vm(cc, true, false, "guest_cet_state_exits");
	char want[CET_EV_LEN], seen[CET_EV_LEN];
	struct vcpu_user_exits u0;
	struct guest_result res;
	uint64_t tok, ssp, s_cet = 0, pl0 = 0, host_ssp = 0, lost;
	struct vcpu *v;
	int r1, r2, r3;

	if (!vm)
		return;
	v = &vm->vcpus[0];
	tok = cet_vm_shadow_stack(vm);
	u0 = v->user_exits;
	vcpu_call_run(v, cet_g_shstk, CET_SHSTK_EXITS, BUDGET_MS, &res);
	if (res.kind != GUEST_SYNC || res.args[0] != CET_SYNC_MARK) {
		check_add(rep, SUITE, "guest_cet_state_exits", CHECK_FAIL, "guest: %s", res.msg);
		goto out;
	}
	ssp = res.args[1];
	/*
	 * The host's view at the ucall exit must match the guest's: the guest
	 * read SSP before GUEST_SYNC, whose `call guest_ucall` then pushed 8
	 * bytes on the shadow stack before the OUT exited.
	 */
	r1 = kvm_get_one_reg(v->fd, KVM_X86_REG_KVM(KVM_REG_GUEST_SSP), &host_ssp);
	r2 = kvm_get_msr(v->fd, MSR_IA32_S_CET, &s_cet);
	r3 = kvm_get_msr(v->fd, MSR_IA32_PL0_SSP, &pl0);
	vcpu_run(v, BUDGET_MS, &res);
	lost = res.kind == GUEST_DONE ? res.args[0] : ~0ULL;
	snprintf(want, sizeof(want), "lost=0x0 guest_ssp=0x%llx s_cet=0x%llx pl0_ssp=0x%llx",
		 (unsigned long long)cet_ucall_guest_ssp(ssp), (unsigned long long)CET_SHSTK_EN,
		 (unsigned long long)tok);
	snprintf(seen, sizeof(seen), "lost=0x%llx guest_ssp=0x%llx s_cet=0x%llx pl0_ssp=0x%llx",
		 (unsigned long long)lost, (unsigned long long)host_ssp, (unsigned long long)s_cet,
		 (unsigned long long)pl0);
	check_add_ev(rep, SUITE, "guest_cet_state_exits",
		  !lost && !r1 && !r2 && !r3 && host_ssp == cet_ucall_guest_ssp(ssp) && s_cet == CET_SHSTK_EN &&
		  pl0 == tok && v->user_exits.io > u0.io && v->user_exits.mmio > u0.mmio ?
		  CHECK_PASS : CHECK_FAIL, want, seen,
		  "%llu PIO + %llu MMIO exits, CPUID, RDMSR %s and a ucall with the shadow stack "
		  "active: guest-side changes %#llx (bits: S_CET, PL0_SSP, CR4, SSP, shadow-stack "
		  "entry); host view at the ucall: GUEST_SSP %#llx (guest %#llx before the call's "
		  "8-byte push), S_CET %#llx, PL0_SSP %#llx (token %#llx); end: %s",
		  (unsigned long long)(v->user_exits.io - u0.io),
		  (unsigned long long)(v->user_exits.mmio - u0.mmio), cet_msr_name(cet_exit_msr()),
		  (unsigned long long)lost, (unsigned long long)host_ssp, (unsigned long long)ssp,
		  (unsigned long long)s_cet, (unsigned long long)pl0, (unsigned long long)tok,
		  res.msg);
out:
	vm_destroy(vm);
}
