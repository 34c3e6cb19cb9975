// SPDX-License-Identifier: GPL-2.0-only
/*
 * migrate_check.c - `exitscope check migrate`: a running guest is stopped at
 * a sync and again mid-loop by the watchdog kick, its VM is saved, destroyed
 * and rebuilt from the saved state, and the guest checks its own registers,
 * vector state, MSRs, globals and (where supported) CET state afterwards;
 * plus the refusal to restore a state whose feature the target lacks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "suites/cet.h"
#include "suites/cet_guest.h"
#include "results/check_model.h"
#include "host/hostinfo.h"
#include "guest/vcpu_state.h"
#include "suites/migrate.h"
#include "suites/migrate_guest.h"
#include "suites/suite_run.h"

#define SUITE		"migrate"
#define BUDGET_MS	60000
#define KICK_MS		200
#define EV_LEN		128	/* == sizeof(struct check_result.expected) */
#define MG_REFUSAL_WANT	"refused=1 names_feature=1 target_changed=0"

/* The suite_run ctx of every migrate check. */
struct mg_ctx {
	const struct suite_env *env;
	struct check_report *rep;
};

static const char *const lost_names[MG_NR_LOST] = {
	"general registers", "xmm0-15", "ymm0-15 upper halves", "MXCSR", "x87 FCW", "XCR0",
	"KERNEL_GS_BASE", "LSTAR", "STAR", "SFMASK", "FS_BASE", "SYSENTER_ESP", "TSC_AUX",
	"DR0/DR3", "CR0/CR4/EFER", "x2APIC SPIV/TPR/LVTT", "loop state", "guest globals",
	"TSC went backwards",
};

static void lost_list(uint64_t lost, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < MG_NR_LOST && n < len; i++)
		if (lost & (1ULL << i))
			n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "", lost_names[i]);
}

/* Save, destroy the source, rebuild: *vm becomes the new VM. */
static int migrate_swap(struct vm **vm, struct err *err)
{
	struct vm *dst;
	int r = vm_migrate(*vm, NULL, &dst, err);

	if (r)
		return r;
	vm_destroy(*vm);
	*vm = dst;
	return 0;
}

static bool host_irqchip(const struct suite_env *env)
{
	int fd = kvm_open(env->kvm_path);
	bool r = fd >= 0 && kvm_check_cap(fd, KVM_CAP_IRQCHIP) > 0;

	if (fd >= 0)
		close(fd);
	return r;
}

/* Optional guest state from the CPUID the vCPU was given (not the guest's CPUID insn). */
static void mg_choose(struct vm *vm, const struct suite_env *env)
{
	const struct kvm_cpuid_entry2 *d = cpuid_find_const(vm->cpuid, 0xd, 0);
	uint64_t xcr0 = 0, flags = 0;

	if (cpuid_has(vm->cpuid, X86_FEAT_XSAVE)) {
		xcr0 = XFEATURE_X87 | XFEATURE_SSE;
		if (cpuid_has(vm->cpuid, X86_FEAT_AVX) && d && (d->eax & XFEATURE_YMM))
			xcr0 |= XFEATURE_YMM;
	}
	if (vm->irqchip && cpuid_has(vm->cpuid, X86_FEAT_X2APIC))
		flags |= MG_USE_X2APIC;
	if (cpuid_has(vm->cpuid, X86_FEAT_RDTSCP))
		flags |= MG_USE_TSC_AUX;
	/* An emulating host (kvm_pvm) cannot run LDMXCSR/FLDCW in a guest. */
	if (!env->hi || env->hi->exec_mode != EXEC_EMULATED)
		flags |= MG_USE_FPCTL;
	/*
	 * XCR0 goes in through KVM_SET_XCRS as well, so KVM's view matches what
	 * the guest's xsetbv sets even where the CPU does not intercept XSETBV
	 * (QEMU TCG's nested SVM): KVM loads its view on every entry.
	 */
	if (xcr0) {
		struct kvm_xcrs x = { .nr_xcrs = 1, .xcrs[0] = { .xcr = 0, .value = xcr0 } };

		if (kvm_set_xcrs(vm->vcpus[0].fd, &x))
			xcr0 = 0;
	}
	vm_global_set(vm, mg_xcr0, xcr0);
	vm_global_set(vm, mg_flags, flags);
}

static void check_running_guest(void *arg)
{
	const struct mg_ctx *mc = arg;
	const struct suite_env *env = mc->env;
	struct check_report *rep = mc->rep;
	struct vm_opts o = { .kvm_path = env->kvm_path, .stop = env->stop, .quiet = true,
			     .cpuid = hostinfo_cpuid(env->hi) };
	struct guest_result res;
	struct vm *vm;
	char lost[384], want[EV_LEN], seen[EV_LEN];
	struct err err;
	uint64_t verified, counter, kick_rip;

	o.irqchip = host_irqchip(env);
	if (vm_create(&vm, &o, &err)) {
		check_add(rep, SUITE, "migrate_at_sync", CHECK_FAIL, "vm_create: %s", err.msg);
		return;
	}
	mg_choose(vm, env);
	vcpu_call_run(&vm->vcpus[0], mg_run, 0x9e3779b97f4a7c15ULL, BUDGET_MS, &res);
	if (res.kind != GUEST_SYNC || res.args[0] != MG_SYNC_REGS) {
		check_add(rep, SUITE, "migrate_at_sync", CHECK_FAIL,
			  "guest before the first sync: %s", res.msg);
		goto out;
	}
	if (migrate_swap(&vm, &err)) {
		check_add(rep, SUITE, "migrate_at_sync", CHECK_FAIL, "%s", err.msg);
		goto out;
	}
	counter = vm_global_get(vm, mg_counter);
	vm_global_set(vm, mg_host_mark, MG_HOST_MARK);
	vcpu_run(&vm->vcpus[0], BUDGET_MS, &res);
	if (res.kind != GUEST_SYNC || res.args[0] != MG_SYNC_LOOP) {
		check_add(rep, SUITE, "migrate_at_sync", CHECK_FAIL,
			  "guest after the first migration: %s", res.msg);
		goto out;
	}
	snprintf(want, sizeof(want), "lost=0x0 mg_counter=%d", MG_COUNTER);
	snprintf(seen, sizeof(seen), "lost=0x%llx mg_counter=%llu", (unsigned long long)res.args[1],
		 (unsigned long long)counter);
	check_add_ev(rep, SUITE, "migrate_at_sync",
		  !res.args[1] && counter == MG_COUNTER ? CHECK_PASS : CHECK_FAIL, want, seen,
		  "stopped at a ucall exit with rbx, rsi, rdi, r8-r15 pinned, saved, source "
		  "destroyed, restored into a new VM: registers %s, guest global mg_counter %llu "
		  "in the new VM (want %d)", res.args[1] ? "CHANGED" : "intact",
		  (unsigned long long)counter, MG_COUNTER);

	/* Mid-loop: the watchdog kick stops the guest wherever it is. */
	vcpu_run(&vm->vcpus[0], KICK_MS, &res);
	kick_rip = res.rip;
	if (res.kind != GUEST_HANG) {
		check_add(rep, SUITE, "migrate_mid_loop", CHECK_FAIL,
			  "guest should still be looping after its budget: %s", res.msg);
		goto out;
	}
	if (migrate_swap(&vm, &err)) {
		check_add(rep, SUITE, "migrate_mid_loop", CHECK_FAIL, "%s", err.msg);
		goto out;
	}
	vm_global_set(vm, mg_stop, 1);
	vcpu_run(&vm->vcpus[0], BUDGET_MS, &res);
	if (res.kind != GUEST_DONE) {
		check_add(rep, SUITE, "migrate_mid_loop", CHECK_FAIL,
			  "guest after the second migration: %s", res.msg);
		goto out;
	}
	snprintf(seen, sizeof(seen), "loop_lost=%d", !!(res.args[0] & MG_LOST_LOOP));
	check_add_ev(rep, SUITE, "migrate_mid_loop",
		  res.args[0] & MG_LOST_LOOP ? CHECK_FAIL : CHECK_PASS, "loop_lost=0", seen,
		  "kicked by the watchdog mid-loop at RIP %#llx, migrated again: the loop %s after "
		  "%llu iterations", (unsigned long long)kick_rip,
		  res.args[0] & MG_LOST_LOOP ? "state was LOST" : "state checks out",
		  (unsigned long long)vm_global_get(vm, mg_iterations));
	verified = vm_global_get(vm, mg_verified);
	lost_list(res.args[0], lost, sizeof(lost));
	snprintf(seen, sizeof(seen), "lost=0x%llx", (unsigned long long)res.args[0]);
	if (res.args[0])
		check_add_ev(rep, SUITE, "guest_state_after_migration", CHECK_FAIL, "lost=0x0",
			  seen, "after two migrations the guest found changed: %s", lost);
	else
		check_add_ev(rep, SUITE, "guest_state_after_migration", CHECK_PASS, "lost=0x0",
			  seen, "after two migrations the guest verified xmm0-15%s%s, "
			  "KERNEL_GS_BASE, LSTAR, STAR, SFMASK, FS_BASE, SYSENTER_ESP%s, DR0/DR3, "
			  "CR0/CR4/EFER%s%s, guest globals and TSC monotonic",
			  verified & MG_HAVE_YMM ? ", ymm upper halves" : "",
			  verified & MG_HAVE_FPCTL ? ", MXCSR, x87 FCW" :
			  " (not MXCSR/FCW: the host emulates guest code and cannot emulate "
			  "LDMXCSR/FLDCW)", verified & MG_HAVE_TSC_AUX ? ", TSC_AUX" : "",
			  verified & MG_HAVE_XCR0 ? ", XCR0"
			  : " (no XSAVE in CPUID: XCR0 not checked)",
			  verified & MG_HAVE_X2APIC ? ", x2APIC SPIV/TPR/LVTT (in-kernel LAPIC)"
			  : "");
out:
	vm_destroy(vm);
}

/* vcpu_state fields that must not change when a restore is refused. */
static bool same_state(const struct vcpu_state *a, const struct vcpu_state *b, char *what, size_t len)
{
	long off;

	if (memcmp(&a->regs, &b->regs, sizeof(a->regs)))
		return snprintf(what, len, "REGS"), false;
	if (memcmp(&a->sregs, &b->sregs, sizeof(a->sregs)))
		return snprintf(what, len, "SREGS"), false;
	if (a->has_lapic != b->has_lapic || (a->has_lapic && memcmp(&a->lapic, &b->lapic, sizeof(a->lapic))))
		return snprintf(what, len, "LAPIC"), false;
	if (a->xsave_size != b->xsave_size)
		return snprintf(what, len, "XSAVE size %d -> %d", a->xsave_size, b->xsave_size),
		false;
	off = vcpu_state_xsave_diff(a->xsave, b->xsave, (size_t)a->xsave_size);
	if (off >= 0)
		return snprintf(what, len, "XSAVE (byte %ld)", off), false;
	for (uint32_t i = 0; i < a->msrs->nmsrs; i++) {
		uint64_t v;

		if (msr_counts_time(a->msrs->entries[i].index))
			continue;
		if (!vcpu_state_msr(b, a->msrs->entries[i].index, &v) || v != a->msrs->entries[i].data)
			return snprintf(what, len, "MSR %#x", a->msrs->entries[i].index), false;
	}
	return true;
}

/*
 * Save a vCPU in x2APIC mode, restore it into a VM whose CPUID lacks x2apic.
 * 1: refused with msg and target unchanged; 0: not as expected (msg says
 * why); -errno: could not set up (msg says why).
 */
static int migrate_refusal_demo(const struct suite_env *env, char *msg, size_t msglen,
				char *what, size_t wlen)
{
	struct vm_opts o = { .kvm_path = env->kvm_path, .quiet = true, .irqchip = true,
			     .cpuid = hostinfo_cpuid(env->hi) };
	struct vcpu_state *s = NULL, *t0 = NULL, *t1 = NULL;
	struct vm *src = NULL, *dst = NULL;
	struct kvm_cpuid2 *c = NULL;
	struct guest_result res;
	struct err e;
	int r;

	what[0] = 0;
	err_init(&e);
	r = vm_create(&src, &o, &e);
	if (r)
		goto out_msg;
	vcpu_call_run(&src->vcpus[0], mg_x2apic_on, 0, BUDGET_MS, &res);
	if (res.kind != GUEST_DONE || !(res.args[0] & (1ULL << 10))) {
		snprintf(msg, msglen, "guest could not enable x2APIC mode: %s", res.msg);
		r = -EIO;
		goto out;
	}
	r = vcpu_state_save(&src->vcpus[0], &s, &e);
	if (r)
		goto out_msg;
	c = cpuid_dup(src->cpuid);
	if (!c) {
		r = -ENOMEM;
		goto out;
	}
	cpuid_set(c, X86_FEAT_X2APIC, false);
	o.cpuid = c;
	r = vm_create(&dst, &o, &e);
	if (r)
		goto out_msg;
	r = vcpu_state_save(&dst->vcpus[0], &t0, &e);
	if (r)
		goto out_msg;
	/* The refusal's message is the check's evidence. */
	r = vcpu_state_restore(&dst->vcpus[0], s, &e);
	snprintf(msg, msglen, "%s", e.msg);
	if (!r) {
		snprintf(msg, msglen, "restoring an x2APIC-mode state into a vCPU without x2apic "
			 "in its CPUID succeeded");
		goto out;
	}
	r = vcpu_state_save(&dst->vcpus[0], &t1, &e);
	if (r) {
		snprintf(what, wlen, "%s", e.msg);
		goto out;
	}
	r = same_state(t0, t1, what, wlen) ? 1 : 0;
	goto out;
out_msg:
	snprintf(msg, msglen, "%s", e.msg);
out:
	vcpu_state_free(s);
	vcpu_state_free(t0);
	vcpu_state_free(t1);
	free(c);
	vm_destroy(src);
	vm_destroy(dst);
	return r;
}

static void check_refusal(void *arg)
{
	const struct mg_ctx *mc = arg;
	const struct suite_env *env = mc->env;
	struct check_report *rep = mc->rep;
	const struct kvm_cpuid2 *supported = hostinfo_cpuid(env->hi);
	char msg[512], what[64], seen[EV_LEN];
	int r;

	if (!host_irqchip(env) || !supported || !cpuid_has(supported, X86_FEAT_X2APIC)) {
		snprintf(seen, sizeof(seen), "x2apic=%d irqchip=%d",
			 supported && cpuid_has(supported, X86_FEAT_X2APIC), host_irqchip(env));
		check_add_ev(rep, SUITE, "refuse_missing_feature", CHECK_SKIP, "x2apic=1 irqchip=1",
			  seen, "needs x2APIC in KVM_GET_SUPPORTED_CPUID and an in-kernel irqchip");
		return;
	}
	r = migrate_refusal_demo(env, msg, sizeof(msg), what, sizeof(what));
	/* 1: refused, target unchanged; 0 with what: refused, target changed; 0 without: accepted */
	snprintf(seen, sizeof(seen), "refused=%d names_feature=%d target_changed=%d",
		 r == 1 || (r == 0 && what[0]), !!strstr(msg, "x2apic"), r == 0 && what[0] != 0);
	if (r == 1 && strstr(msg, "x2apic"))
		check_add_ev(rep, SUITE, "refuse_missing_feature", CHECK_PASS, MG_REFUSAL_WANT,
			  seen, "x2APIC-mode vCPU restored into a VM without x2apic: \"%s\"; the "
				"target's "
			  "REGS, SREGS, XSAVE, LAPIC and MSRs are unchanged", msg);
	else
		check_add_ev(rep, SUITE, "refuse_missing_feature", CHECK_FAIL, MG_REFUSAL_WANT,
			  seen, "%s%s%s", msg, r == 0 && what[0] ? "; target state changed: " : "",
			  r == 0 ? what : "");
}

static void check_cet_state(void *arg)
{
	const struct mg_ctx *mc = arg;
	const struct suite_env *env = mc->env;
	struct check_report *rep = mc->rep;
	struct cet_support cs;
	struct guest_result res;
	struct vm *vm;
	char seen[EV_LEN];
	struct err err;

	if (cet_support_of(env->hi, &cs) || !cs.shstk) {
		check_add_ev(rep, SUITE, "cet_state_migrates", CHECK_SKIP, "shstk=1", "shstk=0",
			  "%s shadow stacks (SHSTK not "
			  "in KVM_GET_SUPPORTED_CPUID)", CET_NO_SUPPORT);
		return;
	}
	if (cet_vm_create(env, CET_CPUID_SUPPORTED, false, &vm, &err)) {
		check_add(rep, SUITE, "cet_state_migrates", CHECK_FAIL, "vm_create: %s", err.msg);
		return;
	}
	cet_vm_shadow_stack(vm);
	vcpu_call_run(&vm->vcpus[0], cet_g_shstk, CET_SHSTK_EXITS, BUDGET_MS, &res);
	if (res.kind != GUEST_SYNC || res.args[0] != CET_SYNC_MARK) {
		check_add(rep, SUITE, "cet_state_migrates", CHECK_FAIL, "guest: %s", res.msg);
	} else if (migrate_swap(&vm, &err)) {
		check_add(rep, SUITE, "cet_state_migrates", CHECK_FAIL, "%s", err.msg);
	} else {
		vcpu_run(&vm->vcpus[0], BUDGET_MS, &res);
		snprintf(seen, sizeof(seen), "changes=0x%llx",
			 res.kind == GUEST_DONE ? (unsigned long long)res.args[0] : ~0ULL);
		check_add_ev(rep, SUITE, "cet_state_migrates",
			  res.kind == GUEST_DONE && !res.args[0] ? CHECK_PASS : CHECK_FAIL,
			  "changes=0x0", seen, "migrated with the supervisor shadow stack active "
					       "(SSP %#llx): %s, changes "
			  "%#llx (bits: S_CET, PL0_SSP, CR4, SSP, shadow-stack entry)",
			  (unsigned long long)res.args[1], res.msg,
			  res.kind == GUEST_DONE ? (unsigned long long)res.args[0] : ~0ULL);
	}
	vm_destroy(vm);
}

static const struct suite_check mg_checks[] = {
	{ { "migrate_at_sync", "migrate_mid_loop", "guest_state_after_migration" },
	  .run = check_running_guest },
	{ { "refuse_missing_feature" }, .run = check_refusal },
	{ { "cet_state_migrates" }, .run = check_cet_state },
};

void migrate_checks(const struct suite_env *env, struct check_report *rep)
{
	struct mg_ctx mc = { .env = env, .rep = rep };

	suite_run(env, rep, SUITE, mg_checks, ARRAY_SIZE(mg_checks), &mc);
}
