// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cet.c - `exitscope check cet` on real /dev/kvm: the negative CET
 * facts that hold on every host without CET in the guest CPUID (MSRs absent
 * from the save list when KVM lacks CET, KVM_SET_MSRS refused, CR4.CET
 * refused via SREGS and #GP from the guest, GUEST_SSP not listed), checked
 * directly and through the suite and the CLI. Before any of that, the
 * decisions a CET host takes (suites/cet_decide.h, the kvm/abi.h ids, the
 * kvm/msr.h table) are fed the inputs such a host would give.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include "base/array_size.h"
#include "suites/cet.h"
#include "suites/cet_decide.h"
#include "suites/cet_guest.h"
#include "host/hostinfo.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

/* Upstream's names and meanings (6.18 uapi asm/kvm.h). */
static void abi_checks(void)
{
	is_int(KVM_REG_GUEST_SSP, 0, "KVM_REG_GUEST_SSP is the index 0 of a KVM-type register");
	ok(KVM_X86_REG_KVM(KVM_REG_GUEST_SSP) == 0x2030000300000000ULL,
	   "its full id KVM_X86_REG_KVM(KVM_REG_GUEST_SSP) is 0x2030000300000000");
	ok(KVM_X86_REG_MSR(MSR_IA32_S_CET) == 0x20300002000006a2ULL,
	   "KVM_X86_REG_MSR(S_CET) is 0x20300002000006a2");
}

static void decide_checks(void)
{
	struct cet_host_cpu h;
	struct cet_support cs;
	char *dir = fixture_tmpdir(), path[512];
	const char *p;

	/* Item 1: the host sees GUEST_SSP 8 below the guest's SSP at the ucall. */
	ok(cet_ucall_guest_ssp(0x40fff8) == 0x40fff0, "ucall exit: GUEST_SSP = guest SSP 0x40fff8 - 8");
	ok(cet_ucall_guest_ssp(0x40fff8) != 0x40fff8, "the guest's own SSP is not what the host sees");

	/* Item 2: the refused SSP values, at 48 and 57 address bits. */
	ok(!cet_canonical(CET_SSP_NONCANONICAL, 48) && !cet_canonical(CET_SSP_NONCANONICAL, 57),
	   "%#llx is non-canonical at 48 and at 57 bits", (unsigned long long)CET_SSP_NONCANONICAL);
	is_int(CET_SSP_NONCANONICAL & 3, 0, "and 4-byte aligned: only canonicality can refuse it");
	ok(!cet_canonical(0x0000800000000000ULL, 48) && cet_canonical(0x0000800000000000ULL, 57),
	   "the old value 0x0000800000000000 is canonical on an LA57 host");
	ok(cet_canonical(CET_SSP_MISALIGNED, 48) && cet_canonical(CET_SSP_MISALIGNED, 57) &&
	   (CET_SSP_MISALIGNED & 3), "%#llx is canonical at both widths and not 4-byte aligned",
	   (unsigned long long)CET_SSP_MISALIGNED);
	ok(cet_canonical(0xffff888000002000ULL, 48) && !cet_canonical(0x0100000000000000ULL, 57) &&
	   cet_canonical(0xff00000000000000ULL, 57), "canonical at 48/57 bits: sign-extended kernel addresses");

	/* Item 5: cpuid_host_cpu goes by CPUID only. */
	h = (struct cet_host_cpu){ .kvm_shstk = true, .kvm_ibt = true, .cpu_shstk = true, .cpu_ibt = true };
	is_int(cet_cpuid_host_status(&h), CHECK_PASS, "KVM and CPU CPUID with SHSTK+IBT: pass (no cpuinfo needed)");
	h.cpu_shstk = false;
	is_int(cet_cpuid_host_status(&h), CHECK_FAIL, "KVM offers SHSTK the CPU lacks: fail");
	h = (struct cet_host_cpu){ .kvm_ibt = true, .cpu_shstk = true };
	is_int(cet_cpuid_host_status(&h), CHECK_FAIL, "KVM offers IBT the CPU lacks: fail");
	h = (struct cet_host_cpu){ .cpu_shstk = true, .cpu_ibt = true };
	is_int(cet_cpuid_host_status(&h), CHECK_PASS, "KVM offers less than the CPU has: pass");

	/* Item 6: kvm.ignore_msrs. */
	is_int(cet_ignore_msrs_parse("Y\n"), CET_IGNORE_MSRS_YES, "ignore_msrs 'Y' parsed");
	is_int(cet_ignore_msrs_parse("N\n"), CET_IGNORE_MSRS_NO, "ignore_msrs 'N' parsed");
	is_int(cet_ignore_msrs_parse(NULL), CET_IGNORE_MSRS_UNKNOWN, "missing parameter: unknown");
	p = cet_ignore_msrs_skip(CET_IGNORE_MSRS_YES);
	ok(p && strstr(p, "ignore_msrs=Y"), "Y: the MSR-refusal checks skip (%s)", p ? p : "no skip");
	ok(!cet_ignore_msrs_skip(CET_IGNORE_MSRS_NO) && !cet_ignore_msrs_skip(CET_IGNORE_MSRS_UNKNOWN),
	   "N or missing: they run");
	if (dir) {
		is_int(cet_ignore_msrs_read(fixture_write_raw(dir, "y", "Y\n", 2)), CET_IGNORE_MSRS_YES,
		       "read from a file holding Y");
		is_int(cet_ignore_msrs_read(fixture_write_raw(dir, "n", "N\n", 2)), CET_IGNORE_MSRS_NO,
		       "read from a file holding N");
		snprintf(path, sizeof(path), "%s/absent", dir);
		is_int(cet_ignore_msrs_read(path), CET_IGNORE_MSRS_UNKNOWN, "read from a missing file");
	} else {
		tap_skip(3, "no temporary directory");
	}
	fixture_rmdir(dir);

	/* Item 8: the "MSR access exit" uses an MSR KVM keeps intercepted. */
	is_int(cet_exit_msr(), MSR_IA32_INT_SSP_TAB, "the exit MSR is INT_SSP_TAB");
	ok(cet_msr_of(MSR_IA32_PL1_SSP)->passthrough && cet_msr_of(MSR_IA32_U_CET)->passthrough &&
	   cet_msr_of(MSR_IA32_S_CET)->passthrough && !cet_msr_of(MSR_IA32_INT_SSP_TAB)->passthrough,
	   "PL0-3_SSP, U_CET, S_CET passed through to a CET guest, INT_SSP_TAB intercepted");

	/* Item 11: KVM_GET_REG_LIST failing with KVM_CAP_ONE_REG advertised. */
	is_int(cet_reg_list_absent_status(-EINVAL, -EINVAL, true), CHECK_FAIL,
	       "REG_LIST fails although ONE_REG is advertised: fail");
	is_int(cet_reg_list_absent_status(-EINVAL, -EINVAL, false), CHECK_PASS,
	       "REG_LIST fails without ONE_REG: pre-6.18 kernel, pass");
	is_int(cet_reg_list_absent_status(0, -EINVAL, true), CHECK_PASS, "listed without GUEST_SSP, set refused: pass");
	is_int(cet_reg_list_absent_status(1, -EINVAL, true), CHECK_FAIL, "GUEST_SSP listed: fail");
	is_int(cet_reg_list_absent_status(0, 0, true), CHECK_FAIL, "GUEST_SSP set accepted: fail");

	/* Item 11, FRED: PL0_SSP exists for shstk || fred, the other SSP MSRs for shstk only. */
	cs = (struct cet_support){ .fred = true };
	ok(cet_msr_exists(cet_msr_of(MSR_IA32_PL0_SSP), &cs) &&
	   !cet_msr_exists(cet_msr_of(MSR_IA32_PL1_SSP), &cs) &&
	   !cet_msr_exists(cet_msr_of(MSR_IA32_S_CET), &cs), "FRED only: PL0_SSP expected, PL1_SSP and S_CET not");
	cs = (struct cet_support){ .ibt = true };
	ok(cet_msr_exists(cet_msr_of(MSR_IA32_U_CET), &cs) && !cet_msr_exists(cet_msr_of(MSR_IA32_PL0_SSP), &cs),
	   "IBT only: U_CET expected, PL0_SSP not");
	cs = (struct cet_support){ .shstk = true };
	ok(cet_msr_exists(cet_msr_of(MSR_IA32_PL0_SSP), &cs) && cet_msr_exists(cet_msr_of(MSR_IA32_INT_SSP_TAB), &cs),
	   "SHSTK: PL0_SSP and INT_SSP_TAB expected");
}

static void direct_checks(const struct suite_env *env, const struct cet_support *cs)
{
	struct kvm_msr_list *l = NULL;
	struct kvm_reg_list *rl = NULL;
	struct guest_result res;
	struct kvm_sregs sr, after;
	struct vm *vm;
	struct err err;
	int fd, r;

	/* Save list: no CET MSR without CET in KVM. */
	fd = kvm_open(NULL);
	r = kvm_get_msr_index_list(fd, &l);
	close(fd);
	ok(r == 0, "KVM_GET_MSR_INDEX_LIST works");
	for (int i = 0; i < CET_NR_MSRS; i++) {
		if (cet_msr_exists(&cet_msrs[i], cs))
			skip("KVM supports it: the MSR belongs in the list");
		else
			ok(!kvm_msr_list_has(l, cet_msrs[i].index), "%s (%#x) absent from the MSR save list",
			   cet_msrs[i].name, cet_msrs[i].index);
	}
	free(l);

	r = cet_vm_create(env, CET_CPUID_CLEARED, false, &vm, &err);
	if (!ok(r == 0, "VM with SHSTK/IBT cleared from its CPUID (%s)", r ? err.msg : "ok"))
		exit(done_testing());

	/* Host writes of non-zero values are refused. */
	for (int i = 0; i < CET_NR_MSRS; i++) {
		uint64_t val = i < 2 ? CET_SHSTK_EN : 0x7ffff0001000ULL;

		is_int(kvm_set_msr(vm->vcpus[0].fd, cet_msrs[i].index, val), -EPERM,
		       cet_msrs[i].name);
	}

	/* KVM_SET_SREGS with CR4.CET: EINVAL, CR4 unchanged. */
	kvm_get_sregs(vm->vcpus[0].fd, &sr);
	sr.cr4 |= X86_CR4_CET;
	is_int(kvm_set_sregs(vm->vcpus[0].fd, &sr), -EINVAL, "KVM_SET_SREGS with CR4.CET refused with EINVAL");
	kvm_get_sregs(vm->vcpus[0].fd, &after);
	ok(!(after.cr4 & X86_CR4_CET), "CR4 read back without CET (%#llx)", (unsigned long long)after.cr4);

	/* KVM_GET_REG_LIST: no GUEST_SSP (or no x86 reg list at all before 6.18). */
	r = kvm_get_reg_list(vm->vcpus[0].fd, &rl);
	if (r) {
		ok((r == -EINVAL || r == -ENOTTY) && hostinfo_cap(env->hi, "KVM_CAP_ONE_REG") <= 0,
		   "KVM_GET_REG_LIST unsupported (%d) and KVM_CAP_ONE_REG not advertised: GUEST_SSP not listed", r);
	} else {
		bool has = false;

		for (uint64_t i = 0; i < rl->n; i++)
			has |= rl->reg[i] == KVM_X86_REG_KVM(KVM_REG_GUEST_SSP);
		ok(!has, "KVM_GET_REG_LIST (%llu registers) has no GUEST_SSP", (unsigned long long)rl->n);
		free(rl);
	}

	/* The guest: mov to CR4 setting CET is #GP, CET MSR accesses are #GP. */
	vcpu_call_run(&vm->vcpus[0], cet_g_cr4_set, 0, 20000, &res);
	ok(res.kind == GUEST_DONE && res.args[0] == GUEST_FAULT_CODE(GP_VECTOR),
	   "guest mov to CR4 with CET: #GP (%#llx, %s)", (unsigned long long)res.args[0], res.msg);
	vcpu_call_run(&vm->vcpus[0], cet_g_msr_access, 0, 20000, &res);
	ok(res.kind == GUEST_DONE && res.args[0] == 0,
	   "guest rdmsr/wrmsr of every CET MSR #GP (mask of non-faulting %#llx)",
	   (unsigned long long)res.args[0]);
	vm_destroy(vm);
}

static void suite_checks(const struct suite_env *env, const struct cet_support *cs)
{
	static const char *const always[] = {
		"cpuid_host_cpu", "cpuid_xss_bits", "msr_index_list", "reg_list_no_guest_ssp",
		"sregs_cr4_cet_refused", "guest_cr4_cet_gp", "guest_msr_gp",
	};
	static const char *const need_cet[] = {
		"msr_roundtrip", "msr_invalid_refused", "reg_list_guest_ssp", "guest_cr4_cet_wp",
		"guest_shstk_ret", "guest_rdssp_incssp", "guest_cet_state_exits", "guest_ibt_endbr",
	};
	struct check_report rep = { 0 };
	const struct check_result *c;
	char gp[32];

	cet_checks(env, &rep);
	is_int(check_count(&rep, CHECK_FAIL), 0, "no cet check fails");
	for (size_t i = 0; i < ARRAY_SIZE(always); i++) {
		c = check_find(&rep, "cet", always[i]);
		ok(c && c->status == CHECK_PASS && c->expected[0] && !strcmp(c->expected, c->observed),
		   "cet.%s passes, observed '%s' as expected '%s'", always[i], c ? c->observed : "missing",
		   c ? c->expected : "");
	}
	/* The values themselves, where they do not depend on the host. */
	snprintf(gp, sizeof(gp), "0x%llx", (unsigned long long)GUEST_FAULT_CODE(GP_VECTOR));
	c = check_find(&rep, "cet", "guest_cr4_cet_gp");
	ok(c && !strcmp(c->observed, gp), "guest_cr4_cet_gp: mov to CR4.CET gave %s (#GP)", gp);
	c = check_find(&rep, "cet", "guest_msr_gp");
	ok(c && !strcmp(c->observed, "0x0"), "guest_msr_gp: no CET MSR access went through (mask 0x0)");
	c = check_find(&rep, "cet", "sregs_cr4_cet_refused");
	snprintf(gp, sizeof(gp), "set=%d cr4_cet=0", -EINVAL);
	ok(c && !strcmp(c->observed, gp), "sregs_cr4_cet_refused: EINVAL, CR4.CET stays clear (%s)", gp);
	c = check_find(&rep, "cet", "reg_list_no_guest_ssp");
	ok(c && !strcmp(c->observed, "listed=0 set_one_reg=refused"), "reg_list_no_guest_ssp: not listed, refused");
	c = check_find(&rep, "cet", cs->shstk || cs->ibt ? "msr_refused_cleared_cpuid" : "msr_refused_no_cet");
	ok(c && c->status == CHECK_PASS && !strcmp(c->observed, "accepted=none") &&
	   !strcmp(c->expected, "accepted=none"), "CET MSR refusal check passes: nothing accepted");
	for (size_t i = 0; i < ARRAY_SIZE(need_cet); i++) {
		c = check_find(&rep, "cet", need_cet[i]);
		if (cs->shstk && cs->ibt)
			ok(c && c->status == CHECK_PASS && !strcmp(c->expected, c->observed),
			   "cet.%s passes on a CET host", need_cet[i]);
		else if (!cs->shstk && !cs->ibt)
			ok(c && c->status == CHECK_SKIP && !strncmp(c->detail, CET_NO_SUPPORT, strlen(CET_NO_SUPPORT)) &&
			   !strcmp(c->expected, "shstk|ibt=1") && !strcmp(c->observed, "shstk|ibt=0"),
			   "cet.%s skips with '%s...', evidence shstk|ibt=0 (%s)", need_cet[i], CET_NO_SUPPORT,
			   c ? c->observed : "missing");
		else
			ok(c && c->status != CHECK_FAIL, "cet.%s does not fail (partial CET)", need_cet[i]);
	}
	check_report_free(&rep);
}

/* Ctrl-C before the suite: every check is recorded as stopped, none fails or runs. */
static void stop_checks(const struct suite_env *env)
{
	volatile sig_atomic_t stop = 1;
	struct suite_env e = *env;
	struct check_report rep = { 0 };

	e.stop = &stop;
	cet_checks(&e, &rep);
	ok(rep.n >= 16 && check_count(&rep, CHECK_STOPPED) == rep.n,
	   "stop flag set: all %zu cet checks recorded as stopped", rep.n);
	is_int(check_count(&rep, CHECK_FAIL), 0, "stop flag set: no cet check fails");
	check_report_free(&rep);
}

static void cli_checks(void)
{
	const char *exe = getenv("EXITSCOPE");
	char *dir = fixture_tmpdir(), path[512];
	struct run_result r;
	json_t *doc, *checks, *c;
	size_t i, n = 0;
	bool bad = false;

	if (!exe || !dir) {
		tap_skip(4, "EXITSCOPE is not set (run through make check)");
		fixture_rmdir(dir);
		return;
	}
	snprintf(path, sizeof(path), "%s/cet.json", dir);
	/* Options first: cmd_check parses with "+" (stops at the first suite name). */
	run_cmd(&r, (const char *const[]){ exe, "check", "--json", path, "cet", NULL });
	is_int(r.status, 0, "exitscope check --json FILE cet exits 0");
	doc = json_load_file(path, 0, NULL);
	checks = json_object_get(doc, "checks");
	json_array_foreach(checks, i, c) {
		n++;
		bad |= strcmp(json_string_value(json_object_get(c, "suite")), "cet") != 0;
	}
	ok(n >= 16 && !bad, "JSON has %zu checks, all of suite cet", n);
	bad = true;
	json_array_foreach(checks, i, c)
		if (!strcmp(json_string_value(json_object_get(c, "name")), "guest_msr_gp"))
			bad = strcmp(json_string_value(json_object_get(c, "expected")) ?: "", "0x0") ||
			      strcmp(json_string_value(json_object_get(c, "observed")) ?: "", "0x0");
	ok(!bad, "JSON carries guest_msr_gp's expected and observed (0x0)");
	tap_like(r.out, "cet.sregs_cr4_cet_refused", "text output names the checks");
	json_decref(doc);
	run_free(&r);
	fixture_rmdir(dir);
}

int main(void)
{
	volatile sig_atomic_t stop = 0;
	struct suite_env env = { .stop = &stop };
	struct cet_support cs;
	struct hostinfo hi;
	struct err err;

	abi_checks();
	decide_checks();
	if (access("/dev/kvm", R_OK | W_OK)) {
		skip("/dev/kvm is not accessible");
		return done_testing();
	}
	if (hostinfo_collect(&hi, NULL, &err) || cet_support_of(&hi, &cs)) {
		skip("KVM cannot be queried");
		return done_testing();
	}
	env.hi = &hi;
	diag("KVM CET support: shstk=%d ibt=%d xss=%#llx", cs.shstk, cs.ibt, (unsigned long long)cs.xss);
	direct_checks(&env, &cs);
	suite_checks(&env, &cs);
	stop_checks(&env);
	cli_checks();
	return done_testing();
}
