/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vcpu_state.h - vCPU and VM state save/restore, and moving a running test VM
 * into a freshly built one (same layout, same CPUID) as a VMM does for live
 * migration.
 *
 * vcpu_state_save() first lets KVM complete an in-flight PIO/MMIO exit
 * (KVM_RUN with immediate_exit), then saves REGS, SREGS, XSAVE (KVM_GET_XSAVE2
 * sized by kvm_xsave_size()), XCRS, every MSR of KVM_GET_MSR_INDEX_LIST that
 * reads back and is taken back unchanged (IA32_XSS and the CET MSRs included
 * when listed), GUEST_SSP when
 * KVM_GET_REG_LIST lists it, LAPIC (in-kernel irqchip), vCPU events, MP
 * state and debug registers.
 *
 * vcpu_state_restore() validates the whole state against the target vCPU's
 * CPUID and VM before the first set ioctl: a saved feature the target lacks
 * fails with a message naming it and nothing is applied. Should KVM still
 * refuse a step, the target's previous state is put back.
 */
#ifndef EXITSCOPE_GUEST_VCPU_STATE_H
#define EXITSCOPE_GUEST_VCPU_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "guest/vm.h"

struct vcpu_state {
	struct kvm_regs regs;
	struct kvm_sregs sregs;
	struct kvm_xsave *xsave;	/* xsave_size bytes */
	int xsave_size;
	bool has_xcrs;
	struct kvm_xcrs xcrs;
	struct kvm_msrs *msrs;		/* nmsrs entries that read back */
	bool has_ssp;
	uint64_t ssp;			/* GUEST_SSP (ONE_REG) */
	bool has_lapic;
	struct kvm_lapic_state lapic;
	struct kvm_vcpu_events events;
	struct kvm_mp_state mp;
	struct kvm_debugregs dregs;
};

int vcpu_state_save(struct vcpu *v, struct vcpu_state **out, struct err *err);
/* 0 when s can be restored into v; else -EOPNOTSUPP and err names what is missing. */
int vcpu_state_check(struct vcpu *v, const struct vcpu_state *s, struct err *err);
int vcpu_state_restore(struct vcpu *v, const struct vcpu_state *s, struct err *err);
void vcpu_state_free(struct vcpu_state *s);
/* The saved value of an MSR; false when it was not saved. */
bool vcpu_state_msr(const struct vcpu_state *s, uint32_t index, uint64_t *val);
/* MSRs that count time by themselves (TSC, APERF/MPERF, Hyper-V runtime and reference counter). */
bool msr_counts_time(uint32_t index);
/*
 * Where two KVM_GET_XSAVE(2) images of size bytes first differ in state:
 * a byte offset, or -1 when they hold the same state. XSTATE_BV is left
 * out: KVM writes a component it marks absent as that component's init
 * state, and a component in its init state may be marked present (the CPU
 * may keep tracking it as in use; Linux's FPU switch, e.g. around a
 * KVM_GET_MSRS of a CET MSR, saves the host's PKRU into the guest's image),
 * so the same state can come back with different XSTATE_BV bits.
 */
long vcpu_state_xsave_diff(const struct kvm_xsave *a, const struct kvm_xsave *b, size_t size);

/*
 * Build a new VM like src (opts NULL: same CPUID, irqchip, vCPU count and
 * memory size), copy guest memory and the VM-level state (kvmclock, in-kernel
 * PIC/IOAPIC), and restore every vCPU. src is left as it was (the caller
 * destroys it); on failure *dst is NULL and err says which step failed.
 */
int vm_migrate(struct vm *src, const struct vm_opts *opts, struct vm **dst,
	       struct err *err);

#endif
