// SPDX-License-Identifier: GPL-2.0-only
/*
 * irq.c - `exitscope check irq`: for each case of suites/irq_guest.h a VM
 * with an in-kernel irqchip and x2APIC runs IRQ_TRIALS self IPIs and counts
 * where each was taken; the check passes when every one was taken at the
 * boundary the architecture names and none was delivered into code running
 * with IF=0, and says where the others went.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "guest/guest.h"
#include "guest/vm.h"
#include "host/hostinfo.h"
#include "kvm/kvm.h"
#include "suites/irq.h"
#include "suites/irq_guest.h"
#include "suites/suite_run.h"

#define SUITE		"irq"
#define BUDGET_MS	20000

struct irq_ctx {
	const struct suite_env *env;
	struct check_report *rep;
	const char *unmet;		/* why this host cannot run the cases, or NULL */
};

/*
 * The boundary each case names, and where that fact comes from: the STI
 * shadow is architectural (an interrupt pending at STI is recognized after
 * the next instruction); the other two are KVM's: it delivers a self IPI
 * on the entry after the WRMSR's exit (APICv and AVIC at once), and an
 * expired TSC deadline by the NOP after the WRMSR, as kvm-unit-tests'
 * x86/apic.c asserts.
 */
static const struct {
	const char *name, *what, *boundary;
	enum x86_feat needs;		/* besides x2APIC and the irqchip (NONE: nothing) */
} irq_cases[IRQ_CASE_N] = {
	[IRQ_CASE_STI_SHADOW] = { "sti_shadow", "self IPIs",
				  "after the NOP that follows STI (the one-instruction STI "
				  "shadow)", X86_FEAT_NONE },
	[IRQ_CASE_SELF_IPI_IF1] = { "self_ipi_if1", "self IPIs",
				    "right after the WRMSR that sends them "
				    "with IF=1", X86_FEAT_NONE },
	[IRQ_CASE_TSC_DEADLINE] = { "tscdeadline_expired", "expired TSC deadlines",
				    "by the NOP after the WRMSR that arms them with IF=1",
				    X86_FEAT_TSC_DEADLINE },
};

/* What a failure adds: why, in the terms of what was seen. */
static const char *irq_miss_cause(uint64_t elsewhere, uint64_t never)
{
	if (elsewhere)
		return "this host's KVM takes them at another instruction boundary";
	if (never)
		return "this host's KVM did not deliver some at all";
	return "this host's KVM delivers them late: `exitscope run` counts its interrupt probes' "
	       "late ones and reports the wait beside a cost that leaves it out";
}

void irq_verdict(struct check_report *rep, enum irq_case c, const struct irq_counts *n)
{
	unsigned long long at = n->at, all = n->at + n->elsewhere + n->late + n->never;
	const char *name = irq_cases[c].name, *what = irq_cases[c].what, *where = irq_cases[c].boundary;
	char want[16], seen[16], rest[160] = "";

	snprintf(want, sizeof(want), "%d", IRQ_TRIALS);
	snprintf(seen, sizeof(seen), "%llu", at);
	if (n->if0) {
		if (at != all)
			snprintf(rest, sizeof(rest),
				 " (%llu elsewhere, %llu after the window, %llu never)",
				 (unsigned long long)n->elsewhere, (unsigned long long)n->late,
				 (unsigned long long)n->never);
		check_add_ev(rep, SUITE, name, CHECK_FAIL, want, seen,
			     "%llu of %llu %s taken %s%s, and %llu delivered again into code "
			     "running with IF=0 (the first in trial %llu, at RIP %#llx, %s): no "
			     "CPU does that, so KVM (or the hypervisor KVM runs on) injected it",
			     at, all, what, where, rest, (unsigned long long)n->if0,
			     (unsigned long long)n->if0_trial + 1, (unsigned long long)n->if0_rip,
			     n->if0_in_entry ? "inside the guest's interrupt entry"
			     : "in the interrupt's handler");
	} else if (at == IRQ_TRIALS)
		check_add_ev(rep, SUITE, name, CHECK_PASS, want, seen, "%llu of %d %s taken %s", at,
			     IRQ_TRIALS, what, where);
	else if (n->elsewhere)
		check_add_ev(rep, SUITE, name, CHECK_FAIL, want, seen,
			     "%llu of %llu %s taken %s: %llu elsewhere (the first at RIP "
			     "%#llx, want %#llx), %llu after the window, %llu never; %s", at, all,
			     what, where, (unsigned long long)n->elsewhere,
			     (unsigned long long)n->first_rip, (unsigned long long)n->want_rip,
			     (unsigned long long)n->late, (unsigned long long)n->never,
			     irq_miss_cause(n->elsewhere, n->never));
	else
		check_add_ev(rep, SUITE, name, CHECK_FAIL, want, seen,
			     "%llu of %llu %s taken %s: %llu after it (within %d ms), %llu "
			     "never; %s", at, all, what, where, (unsigned long long)n->late,
			     IRQ_LATE_MS, (unsigned long long)n->never,
			     irq_miss_cause(n->elsewhere, n->never));
}

static void irq_run_case(struct irq_ctx *ic, enum irq_case c)
{
	const struct suite_env *env = ic->env;
	struct vm_opts o = { .kvm_path = env->kvm_path, .stop = env->stop, .quiet = true, .irqchip = true,
			     .cpuid = hostinfo_cpuid(env->hi) };
	uint64_t khz = env->hi && env->hi->tsc_khz > 0 ? (uint64_t)env->hi->tsc_khz : 2000000;
	const char *name = irq_cases[c].name;
	struct irq_counts n;
	struct err err;
	struct guest_result res;
	struct vm *vm;

	if (ic->unmet) {
		check_add(ic->rep, SUITE, name, CHECK_SKIP, "%s", ic->unmet);
		return;
	}
	if (irq_cases[c].needs && !cpuid_has(hostinfo_cpuid(env->hi), irq_cases[c].needs)) {
		check_add(ic->rep, SUITE, name, CHECK_SKIP,
			  "needs CPUID %s: not in KVM_GET_SUPPORTED_CPUID; it runs on a host whose "
			  "KVM offers it", x86_feature_name(irq_cases[c].needs));
		return;
	}
	if (vm_create(&vm, &o, &err)) {
		check_add(ic->rep, SUITE, name, CHECK_FAIL, "cannot build the VM: %s", err.msg);
		return;
	}
	vm_global_set(vm, irq_late_max, khz * IRQ_LATE_MS);
	vcpu_call_run(&vm->vcpus[0], irq_guest_case, c, BUDGET_MS, &res);
	if (res.kind != GUEST_DONE || res.args[0]) {
		check_add(ic->rep, SUITE, name, CHECK_FAIL,
			  "the guest did not finish its trials: %s%s",
			  res.kind == GUEST_DONE ? "enabling x2APIC faulted"
			  : guest_exit_name(res.kind),
			  res.kind == GUEST_DONE ? "" : res.msg);
		vm_destroy(vm);
		return;
	}
	n = (struct irq_counts){
		.at = vm_global_get(vm, irq_at), .elsewhere = vm_global_get(vm, irq_elsewhere),
		.late = vm_global_get(vm, irq_late), .never = vm_global_get(vm, irq_never),
		.first_rip = vm_global_get(vm, irq_first_rip), .want_rip = vm_global_get(vm, irq_want_rip),
		.if0 = vm_global_get(vm, irq_if0), .if0_rip = vm_global_get(vm, irq_if0_rip),
		.if0_trial = vm_global_get(vm, irq_if0_trial), .if0_in_entry = vm_global_get(vm, irq_if0_in_entry),
	};
	irq_verdict(ic->rep, c, &n);
	vm_destroy(vm);
}

static void check_sti_shadow(void *ctx)
{
	irq_run_case(ctx, IRQ_CASE_STI_SHADOW);
}

static void check_self_ipi_if1(void *ctx)
{
	irq_run_case(ctx, IRQ_CASE_SELF_IPI_IF1);
}

static void check_tscdeadline_expired(void *ctx)
{
	irq_run_case(ctx, IRQ_CASE_TSC_DEADLINE);
}

static const struct suite_check irq_table[] = {
	{ { "sti_shadow" }, .run = check_sti_shadow },
	{ { "self_ipi_if1" }, .run = check_self_ipi_if1 },
	{ { "tscdeadline_expired" }, .run = check_tscdeadline_expired },
};

/* What the cases need: an in-kernel irqchip and x2APIC in KVM's supported CPUID. */
static const char *irq_unmet(const struct suite_env *env)
{
	int fd = kvm_open(env->kvm_path);
	bool irqchip = fd >= 0 && kvm_check_cap(fd, KVM_CAP_IRQCHIP) > 0;

	if (fd >= 0)
		close(fd);
	if (!irqchip)
		return "needs an in-kernel irqchip: KVM_CAP_IRQCHIP is not offered; it runs on "
		       "a host whose KVM offers it";
	if (!env->hi || !cpuid_has(hostinfo_cpuid(env->hi), X86_FEAT_X2APIC))
		return "needs x2APIC: not in KVM_GET_SUPPORTED_CPUID; it runs on a host whose KVM "
		       "offers it";
	return NULL;
}

void irq_checks(const struct suite_env *env, struct check_report *rep)
{
	struct irq_ctx ic = { .env = env, .rep = rep, .unmet = irq_unmet(env) };

	suite_run(env, rep, SUITE, irq_table, ARRAY_SIZE(irq_table), &ic);
}
