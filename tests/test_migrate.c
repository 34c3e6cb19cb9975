// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_migrate.c - vCPU state save/restore on real /dev/kvm: a running guest
 * is migrated at a sync and mid-loop and verifies its own state; the saved
 * and restored states match; a restore into a vCPU whose CPUID lacks a saved
 * feature (x2apic) or into a VM without an in-kernel irqchip is refused with
 * a message naming it, and the target's state is left exactly as it was.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "host/hostinfo.h"
#include "guest/vcpu_state.h"
#include "suites/migrate.h"
#include "suites/migrate_guest.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

#define BUDGET_MS	60000

static struct vm *new_vm(bool irqchip, const struct kvm_cpuid2 *cpuid)
{
	struct vm_opts o = { .quiet = true, .irqchip = irqchip, .cpuid = cpuid };
	struct vm *vm;
	struct err err;

	if (vm_create(&vm, &o, &err)) {
		diag("vm_create: %s", err.msg);
		return NULL;
	}
	return vm;
}

/* Same REGS, SREGS, XSAVE, LAPIC and MSR values (IA32_TSC aside). */
static bool same_state(const struct vcpu_state *a, const struct vcpu_state *b)
{
	bool same = true;
	uint64_t v;

	if (memcmp(&a->regs, &b->regs, sizeof(a->regs)))
		diag("  REGS differ (rip %#llx vs %#llx)", (unsigned long long)a->regs.rip,
		     (unsigned long long)b->regs.rip), same = false;
	if (memcmp(&a->sregs, &b->sregs, sizeof(a->sregs)))
		diag("  SREGS differ"), same = false;
	if (a->xsave_size != b->xsave_size || vcpu_state_xsave_diff(a->xsave, b->xsave, (size_t)a->xsave_size) >= 0)
		diag("  XSAVE differs"), same = false;
	if (a->has_lapic != b->has_lapic || (a->has_lapic && memcmp(&a->lapic, &b->lapic, sizeof(a->lapic))))
		diag("  LAPIC differs"), same = false;
	for (uint32_t i = 0; i < a->msrs->nmsrs; i++) {
		const struct kvm_msr_entry *e = &a->msrs->entries[i];

		if (e->index == 0x10)
			continue;
		if (!vcpu_state_msr(b, e->index, &v) || v != e->data)
			diag("  MSR %#x: %#llx vs %#llx", e->index, (unsigned long long)e->data,
			     (unsigned long long)v), same = false;
	}
	return same;
}

static void test_running_guest(bool irqchip, bool emulated)
{
	struct vcpu_state *before = NULL, *after = NULL;
	struct guest_result res;
	struct vm *vm = new_vm(irqchip, NULL), *dst;
	struct err err;
	uint64_t flags = 0;
	int r;

	if (!ok(vm != NULL, "source VM (irqchip %d)", irqchip))
		return;
	if (irqchip && cpuid_has(vm->cpuid, X86_FEAT_X2APIC))
		flags |= MG_USE_X2APIC;
	if (!emulated)
		flags |= MG_USE_FPCTL;
	vm_global_set(vm, mg_flags, flags);
	vcpu_call_run(&vm->vcpus[0], mg_run, 12345, BUDGET_MS, &res);
	ok(res.kind == GUEST_SYNC && res.args[0] == MG_SYNC_REGS, "guest syncs with registers pinned (%s)", res.msg);

	r = vcpu_state_save(&vm->vcpus[0], &before, &err);
	ok(r == 0 && before->msrs->nmsrs > 0, "vcpu_state_save (%s, %u MSRs)", r ? err.msg : "ok",
	   r ? 0 : before->msrs->nmsrs);
	ok(r == 0 && before->has_lapic == irqchip, "LAPIC saved iff the VM has an in-kernel irqchip");
	r = vm_migrate(vm, NULL, &dst, &err);
	if (!ok(r == 0, "vm_migrate (%s)", r ? err.msg : "ok")) {
		vcpu_state_free(before);
		vm_destroy(vm);
		return;
	}
	vm_destroy(vm);
	vm = dst;
	r = vcpu_state_save(&vm->vcpus[0], &after, &err);
	ok(r == 0 && same_state(before, after), "restored vCPU state equals the saved one");
	is_int(vm_global_get(vm, mg_counter), MG_COUNTER, "guest global carried into the new VM");
	vm_global_set(vm, mg_host_mark, MG_HOST_MARK);

	vcpu_run(&vm->vcpus[0], BUDGET_MS, &res);
	ok(res.kind == GUEST_SYNC && res.args[0] == MG_SYNC_LOOP && res.args[1] == 0,
	   "guest continues in the new VM, its pinned registers intact (%s, lost %#llx)", res.msg,
	   (unsigned long long)res.args[1]);
	vcpu_run(&vm->vcpus[0], 100, &res);
	ok(res.kind == GUEST_HANG, "watchdog stops the guest mid-loop (%s)", res.msg);
	r = vm_migrate(vm, NULL, &dst, &err);
	if (!ok(r == 0, "second vm_migrate, mid-loop (%s)", r ? err.msg : "ok")) {
		vm_destroy(vm);
		goto out;
	}
	vm_destroy(vm);
	vm = dst;
	vm_global_set(vm, mg_stop, 1);
	vcpu_run(&vm->vcpus[0], BUDGET_MS, &res);
	ok(res.kind == GUEST_DONE, "guest finishes in the third VM (%s)", res.msg);
	is_int(res.args[0], 0, "guest found nothing changed (MG_LOST_* bits)");
	ok(vm_global_get(vm, mg_iterations) > 0, "loop ran %llu iterations across the migration",
	   (unsigned long long)vm_global_get(vm, mg_iterations));
	if (irqchip && (flags & MG_USE_X2APIC))
		ok(vm_global_get(vm, mg_verified) & MG_HAVE_X2APIC, "x2APIC state was part of the check");
	vm_destroy(vm);
out:
	vcpu_state_free(before);
	vcpu_state_free(after);
}

static void test_refusal(void)
{
	struct vcpu_state *s = NULL, *t0 = NULL, *t1 = NULL;
	struct guest_result res;
	struct kvm_cpuid2 *c;
	struct vm *src = new_vm(true, NULL), *dst, *noirq;
	struct err err;
	int r;

	if (!ok(src != NULL, "source VM with an in-kernel irqchip"))
		return;
	vcpu_call_run(&src->vcpus[0], mg_x2apic_on, 0, BUDGET_MS, &res);
	ok(res.kind == GUEST_DONE && (res.args[0] & (1ULL << 10)), "guest switched its APIC to x2APIC mode (%#llx)",
	   (unsigned long long)res.args[0]);
	r = vcpu_state_save(&src->vcpus[0], &s, &err);
	ok(r == 0, "state saved (%s)", r ? err.msg : "ok");

	c = cpuid_dup(src->cpuid);
	cpuid_set(c, X86_FEAT_X2APIC, false);
	dst = new_vm(true, c);
	free(c);
	if (!ok(dst != NULL && s, "target VM without x2apic in its CPUID")) {
		vm_destroy(src);
		vcpu_state_free(s);
		return;
	}
	vcpu_state_save(&dst->vcpus[0], &t0, &err);
	r = vcpu_state_restore(&dst->vcpus[0], s, &err);
	is_int(r, -EOPNOTSUPP, "restore refused with EOPNOTSUPP");
	tap_like(err.msg, "uses x2apic", "message names the feature");
	tap_like(err.msg, "IA32_APIC_BASE", "message names the saved item that needs it");
	tap_like(err.msg, "nothing was applied", "message says nothing was applied");
	vcpu_state_save(&dst->vcpus[0], &t1, &err);
	ok(t0 && t1 && same_state(t0, t1), "target REGS, SREGS, XSAVE, LAPIC and MSRs unchanged");
	vcpu_call_run(&dst->vcpus[0], mg_x2apic_on, 0, BUDGET_MS, &res);
	ok(res.kind == GUEST_EXCEPTION && res.vector == GP_VECTOR,
	   "target guest still runs, and x2APIC mode is #GP there (%s)", res.msg);
	vm_destroy(dst);

	/* A saved in-kernel LAPIC cannot go into a VM without one. */
	noirq = new_vm(false, NULL);
	r = noirq ? vcpu_state_restore(&noirq->vcpus[0], s, &err) : -ENOMEM;
	is_int(r, -EOPNOTSUPP, "restore of a LAPIC state into a VM without irqchip refused");
	tap_like(err.msg, "no in-kernel irqchip", "message says why");
	vm_destroy(noirq);
	vm_destroy(src);
	vcpu_state_free(s);
	vcpu_state_free(t0);
	vcpu_state_free(t1);
}

/*
 * What "the same XSAVE state" means, on the images the CET lane measured
 * (docs/cet-lane.md): a fresh vCPU saved twice, around a refused restore,
 * came back with XSTATE_BV's SSE and PKRU bits set (bytes 512 and 513: 0x00
 * -> 0x02) and the same init data, which is the same state; with MXCSR
 * 0x1f80 -> 0x1fa0 (byte 24) it is not.
 */
static void test_xsave_diff(void)
{
	enum { SIZE = 4096 };
	uint8_t *a = calloc(1, SIZE), *b = calloc(1, SIZE);
	uint32_t mxcsr = 0x1f80;

	memcpy(a + 24, &mxcsr, sizeof(mxcsr));
	memcpy(b, a, SIZE);
	b[512] = 0x02;
	b[513] = 0x02;
	is_int((int)vcpu_state_xsave_diff((void *)a, (void *)b, SIZE), -1,
	       "XSAVE images that differ only in XSTATE_BV hold the same state");
	mxcsr = 0x1fa0;
	memcpy(b + 24, &mxcsr, sizeof(mxcsr));
	is_int((int)vcpu_state_xsave_diff((void *)a, (void *)b, SIZE), 24, "a changed MXCSR is a change, at byte 24");
	memcpy(b, a, SIZE);
	b[520] = 0x80;
	is_int((int)vcpu_state_xsave_diff((void *)a, (void *)b, SIZE), 520, "XCOMP_BV is compared");
	b[520] = 0;
	b[SIZE - 1] = 1;
	is_int((int)vcpu_state_xsave_diff((void *)a, (void *)b, SIZE), SIZE - 1, "... and so is the last byte");
	free(a);
	free(b);
}

/* The suite itself: its evidence, and Ctrl-C before it as an outcome of its own. */
static void test_suite(const struct hostinfo *hi)
{
	static const char *const names[] = {
		"migrate_at_sync", "migrate_mid_loop", "guest_state_after_migration",
		"refuse_missing_feature", "cet_state_migrates",
	};
	volatile sig_atomic_t stop = 0;
	struct suite_env env = { .hi = hi, .stop = &stop };
	struct check_report rep = { 0 };
	const struct check_result *c;
	char want[64];

	migrate_checks(&env, &rep);
	is_int(check_count(&rep, CHECK_FAIL), 0, "no migrate check fails");
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		c = check_find(&rep, "migrate", names[i]);
		ok(c && c->status != CHECK_FAIL && c->expected[0] &&
		   (c->status != CHECK_PASS || !strcmp(c->expected, c->observed)),
		   "migrate.%s %s: observed '%s', expected '%s'", names[i],
		   c ? check_status_name(c->status) : "missing", c ? c->observed : "", c ? c->expected : "");
	}
	c = check_find(&rep, "migrate", "migrate_at_sync");
	snprintf(want, sizeof(want), "lost=0x0 mg_counter=%d", MG_COUNTER);
	ok(c && c->status == CHECK_PASS && !strcmp(c->observed, want),
	   "migrate_at_sync: registers intact, guest global carried (%s)", want);
	c = check_find(&rep, "migrate", "guest_state_after_migration");
	ok(c && c->status == CHECK_PASS && !strcmp(c->observed, "lost=0x0"),
	   "guest_state_after_migration: the guest found nothing changed (lost=0x0)");
	check_report_free(&rep);

	stop = 1;
	migrate_checks(&env, &rep);
	is_int(rep.n, 5, "stop flag set: 5 migrate results");
	is_int(check_count(&rep, CHECK_STOPPED), 5, "stop flag set: every migrate check is stopped, none fails");
	check_report_free(&rep);
}

static void test_cli(void)
{
	const char *exe = getenv("EXITSCOPE");
	struct run_result r;

	if (!exe) {
		tap_skip(2, "EXITSCOPE is not set (run through make check)");
		return;
	}
	run_cmd(&r, (const char *const[]){ exe, "check", "migrate", NULL });
	is_int(r.status, 0, "exitscope check migrate exits 0");
	tap_like(r.out, "pass  migrate.guest_state_after_migration", "guest state check passes");
	run_free(&r);
}

int main(void)
{
	struct hostinfo hi;
	struct err err;
	int fd;
	bool irqchip;

	test_xsave_diff();
	if (access("/dev/kvm", R_OK | W_OK)) {
		tap_skip(1, "/dev/kvm is not accessible");
		return done_testing();
	}
	if (hostinfo_collect(&hi, NULL, &err)) {
		tap_skip(1, "KVM cannot be queried");
		return done_testing();
	}
	fd = kvm_open(NULL);
	irqchip = kvm_check_cap(fd, KVM_CAP_IRQCHIP) > 0;
	close(fd);
	test_running_guest(false, hi.exec_mode == EXEC_EMULATED);
	if (irqchip)
		test_running_guest(true, hi.exec_mode == EXEC_EMULATED);
	else
		tap_skip(1, "no in-kernel irqchip");
	if (irqchip && hi.feat_x2apic)
		test_refusal();
	else
		tap_skip(1, "needs x2APIC and an in-kernel irqchip");
	test_suite(&hi);
	test_cli();
	return done_testing();
}
