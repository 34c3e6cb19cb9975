/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kvm.h - thin wrappers over the /dev/kvm system, VM and vCPU ioctls.
 *
 * Every function returns a negative errno on failure (never prints, never
 * exits); callers at the edge turn that into a message. Where an ioctl
 * reports partial success (KVM_GET/SET_MSRS) the raw __name form returns
 * what the kernel returned and the plain name form checks it.
 */
#ifndef EXITSCOPE_KVM_KVM_H
#define EXITSCOPE_KVM_KVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/kvm.h>
#include "kvm/abi.h"
#include "kvm/cpuid.h"

#define KVM_DEFAULT_DEV "/dev/kvm"

/* ioctl returning its value or -errno. */
int kvm_ioctl(int fd, unsigned long req, void *arg);

/* System (/dev/kvm) level. */
int kvm_open(const char *path);			/* fd or -errno */
int kvm_api_version(int kvm_fd);
int kvm_check_cap(int fd, long cap);		/* value (>= 0) or -errno */
int kvm_vcpu_mmap_size(int kvm_fd);
int kvm_get_supported_cpuid(int kvm_fd, struct kvm_cpuid2 **out);	/* malloc'd */
int kvm_get_msr_index_list(int kvm_fd, struct kvm_msr_list **out);	/* malloc'd */
int kvm_get_msr_feature_list(int kvm_fd, struct kvm_msr_list **out);	/* malloc'd */
bool kvm_msr_list_has(const struct kvm_msr_list *list, uint32_t index);
int kvm_get_feature_msr(int kvm_fd, uint32_t index, uint64_t *val);
int kvm_get_device_attr_u64(int fd, uint32_t group, uint64_t attr, uint64_t *val);

/* VM level. */
int kvm_create_vm(int kvm_fd);			/* VM fd or -errno */
int kvm_set_user_memory(int vm_fd, uint32_t slot, uint64_t gpa, uint64_t size,
			void *hva, uint32_t flags);
int kvm_create_vcpu(int vm_fd, int id);		/* vCPU fd or -errno */
int kvm_create_irqchip(int vm_fd);
int kvm_enable_cap(int fd, uint32_t cap, uint64_t arg0);
int kvm_ioeventfd(int vm_fd, uint64_t addr, uint32_t len, int efd,
		  uint32_t flags, uint64_t datamatch);
int kvm_get_stats_fd(int fd);			/* VM or vCPU */

/* vCPU level. */
int kvm_get_regs(int vcpu_fd, struct kvm_regs *regs);
int kvm_set_regs(int vcpu_fd, const struct kvm_regs *regs);
int kvm_get_sregs(int vcpu_fd, struct kvm_sregs *sregs);
int kvm_set_sregs(int vcpu_fd, const struct kvm_sregs *sregs);
int kvm_set_cpuid(int vcpu_fd, const struct kvm_cpuid2 *cpuid);
int kvm_get_cpuid(int vcpu_fd, struct kvm_cpuid2 **out);		/* malloc'd */
int __kvm_get_msrs(int vcpu_fd, struct kvm_msrs *msrs);	/* # read or -errno */
int __kvm_set_msrs(int vcpu_fd, const struct kvm_msrs *msrs);	/* # written or -errno */
int kvm_get_msr(int vcpu_fd, uint32_t index, uint64_t *val);	/* -EPERM if refused */
int kvm_set_msr(int vcpu_fd, uint32_t index, uint64_t val);	/* -EPERM if refused */
int kvm_get_xcrs(int vcpu_fd, struct kvm_xcrs *xcrs);
int kvm_set_xcrs(int vcpu_fd, const struct kvm_xcrs *xcrs);
int kvm_xsave_size(int vm_fd);			/* bytes for KVM_GET_XSAVE2 */
int kvm_get_xsave2(int vcpu_fd, struct kvm_xsave *buf);
int kvm_set_xsave(int vcpu_fd, const struct kvm_xsave *buf);
int kvm_get_fpu(int vcpu_fd, struct kvm_fpu *fpu);
int kvm_get_one_reg(int vcpu_fd, uint64_t id, void *val);
int kvm_set_one_reg(int vcpu_fd, uint64_t id, const void *val);
int kvm_get_reg_list(int vcpu_fd, struct kvm_reg_list **out);		/* malloc'd */
int kvm_get_lapic(int vcpu_fd, struct kvm_lapic_state *lapic);
int kvm_set_lapic(int vcpu_fd, const struct kvm_lapic_state *lapic);
int kvm_get_vcpu_events(int vcpu_fd, struct kvm_vcpu_events *ev);
int kvm_set_vcpu_events(int vcpu_fd, const struct kvm_vcpu_events *ev);
int kvm_get_mp_state(int vcpu_fd, struct kvm_mp_state *mp);
int kvm_set_mp_state(int vcpu_fd, const struct kvm_mp_state *mp);
int kvm_get_debugregs(int vcpu_fd, struct kvm_debugregs *dr);
int kvm_set_debugregs(int vcpu_fd, const struct kvm_debugregs *dr);
int kvm_get_tsc_khz(int vcpu_fd);		/* kHz or -errno */
int kvm_set_signal_mask(int vcpu_fd, const void *sigset, size_t len);
int kvm_run(int vcpu_fd);			/* 0 or -errno (-EINTR) */


#endif
