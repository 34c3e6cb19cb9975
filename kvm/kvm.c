// SPDX-License-Identifier: GPL-2.0-only
/* kvm.c - checked wrappers over /dev/kvm system, VM and vCPU ioctls. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kvm/kvm.h"

int kvm_ioctl(int fd, unsigned long req, void *arg)
{
	int r = ioctl(fd, req, arg);

	return r < 0 ? -errno : r;
}

int kvm_open(const char *path)
{
	int fd = open(path ? path : KVM_DEFAULT_DEV, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int kvm_api_version(int kvm_fd)
{
	return kvm_ioctl(kvm_fd, KVM_GET_API_VERSION, NULL);
}

int kvm_check_cap(int fd, long cap)
{
	return kvm_ioctl(fd, KVM_CHECK_EXTENSION, (void *)cap);
}

int kvm_vcpu_mmap_size(int kvm_fd)
{
	return kvm_ioctl(kvm_fd, KVM_GET_VCPU_MMAP_SIZE, NULL);
}

/* KVM_GET_SUPPORTED_CPUID and KVM_GET_CPUID2: grow the buffer on E2BIG. */
static int get_cpuid(int fd, unsigned long req, struct kvm_cpuid2 **out)
{
	for (int nent = 64; nent <= 4096; nent *= 2) {
		struct kvm_cpuid2 *c = calloc(1, sizeof(*c) + nent * sizeof(c->entries[0]));
		int r;

		if (!c)
			return -ENOMEM;
		c->nent = nent;
		r = kvm_ioctl(fd, req, c);
		if (r == 0) {
			*out = c;
			return 0;
		}
		free(c);
		if (r != -E2BIG)
			return r;
	}
	return -E2BIG;
}

int kvm_get_supported_cpuid(int kvm_fd, struct kvm_cpuid2 **out)
{
	return get_cpuid(kvm_fd, KVM_GET_SUPPORTED_CPUID, out);
}

static int get_msr_list(int kvm_fd, unsigned long req, struct kvm_msr_list **out)
{
	struct kvm_msr_list probe = { .nmsrs = 0 };
	struct kvm_msr_list *l;
	int r;

	r = kvm_ioctl(kvm_fd, req, &probe);
	if (r < 0 && r != -E2BIG)
		return r;
	l = calloc(1, sizeof(*l) + (probe.nmsrs + 1) * sizeof(l->indices[0]));
	if (!l)
		return -ENOMEM;
	l->nmsrs = probe.nmsrs;
	r = kvm_ioctl(kvm_fd, req, l);
	if (r < 0) {
		free(l);
		return r;
	}
	*out = l;
	return 0;
}

int kvm_get_msr_index_list(int kvm_fd, struct kvm_msr_list **out)
{
	return get_msr_list(kvm_fd, KVM_GET_MSR_INDEX_LIST, out);
}

int kvm_get_msr_feature_list(int kvm_fd, struct kvm_msr_list **out)
{
	return get_msr_list(kvm_fd, KVM_GET_MSR_FEATURE_INDEX_LIST, out);
}

bool kvm_msr_list_has(const struct kvm_msr_list *list, uint32_t index)
{
	for (uint32_t i = 0; list && i < list->nmsrs; i++)
		if (list->indices[i] == index)
			return true;
	return false;
}

/* A single-entry struct kvm_msrs on the stack (same layout, no flexible member). */
struct msr_one {
	uint32_t nmsrs, pad;
	struct kvm_msr_entry e;
};
_Static_assert(offsetof(struct msr_one, e) == offsetof(struct kvm_msrs, entries),
	       "struct msr_one must match struct kvm_msrs");

int kvm_get_feature_msr(int kvm_fd, uint32_t index, uint64_t *val)
{
	struct msr_one m = { .nmsrs = 1, .e.index = index };
	int r = kvm_ioctl(kvm_fd, KVM_GET_MSRS, &m);

	if (r < 0)
		return r;
	if (r != 1)
		return -EPERM;
	*val = m.e.data;
	return 0;
}

int kvm_get_device_attr_u64(int fd, uint32_t group, uint64_t attr, uint64_t *val)
{
	struct kvm_device_attr a = {
		.group = group, .attr = attr, .addr = (uint64_t)(uintptr_t)val,
	};

	return kvm_ioctl(fd, KVM_GET_DEVICE_ATTR, &a);
}

int kvm_create_vm(int kvm_fd)
{
	return kvm_ioctl(kvm_fd, KVM_CREATE_VM, (void *)0);
}

int kvm_set_user_memory(int vm_fd, uint32_t slot, uint64_t gpa, uint64_t size,
			void *hva, uint32_t flags)
{
	struct kvm_userspace_memory_region r = {
		.slot = slot, .flags = flags, .guest_phys_addr = gpa,
		.memory_size = size, .userspace_addr = (uint64_t)(uintptr_t)hva,
	};

	return kvm_ioctl(vm_fd, KVM_SET_USER_MEMORY_REGION, &r);
}

int kvm_create_vcpu(int vm_fd, int id)
{
	return kvm_ioctl(vm_fd, KVM_CREATE_VCPU, (void *)(long)id);
}

int kvm_create_irqchip(int vm_fd)
{
	return kvm_ioctl(vm_fd, KVM_CREATE_IRQCHIP, NULL);
}

int kvm_enable_cap(int fd, uint32_t cap, uint64_t arg0)
{
	struct kvm_enable_cap c = { .cap = cap, .args = { arg0 } };

	return kvm_ioctl(fd, KVM_ENABLE_CAP, &c);
}

int kvm_ioeventfd(int vm_fd, uint64_t addr, uint32_t len, int efd,
		  uint32_t flags, uint64_t datamatch)
{
	struct kvm_ioeventfd io = {
		.datamatch = datamatch, .addr = addr, .len = len, .fd = efd,
		.flags = flags,
	};

	return kvm_ioctl(vm_fd, KVM_IOEVENTFD, &io);
}

int kvm_get_stats_fd(int fd)
{
	return kvm_ioctl(fd, KVM_GET_STATS_FD, NULL);
}

int kvm_get_regs(int fd, struct kvm_regs *regs)
{
	return kvm_ioctl(fd, KVM_GET_REGS, regs);
}

int kvm_set_regs(int fd, const struct kvm_regs *regs)
{
	return kvm_ioctl(fd, KVM_SET_REGS, (void *)regs);
}

int kvm_get_sregs(int fd, struct kvm_sregs *sregs)
{
	return kvm_ioctl(fd, KVM_GET_SREGS, sregs);
}

int kvm_set_sregs(int fd, const struct kvm_sregs *sregs)
{
	return kvm_ioctl(fd, KVM_SET_SREGS, (void *)sregs);
}

int kvm_set_cpuid(int fd, const struct kvm_cpuid2 *cpuid)
{
	return kvm_ioctl(fd, KVM_SET_CPUID2, (void *)cpuid);
}

int kvm_get_cpuid(int fd, struct kvm_cpuid2 **out)
{
	return get_cpuid(fd, KVM_GET_CPUID2, out);
}

int __kvm_get_msrs(int fd, struct kvm_msrs *msrs)
{
	return kvm_ioctl(fd, KVM_GET_MSRS, msrs);
}

int __kvm_set_msrs(int fd, const struct kvm_msrs *msrs)
{
	return kvm_ioctl(fd, KVM_SET_MSRS, (void *)msrs);
}

int kvm_get_msr(int fd, uint32_t index, uint64_t *val)
{
	struct msr_one m = { .nmsrs = 1, .e.index = index };
	int r = __kvm_get_msrs(fd, (struct kvm_msrs *)&m);

	if (r < 0)
		return r;
	if (r != 1)
		return -EPERM;
	*val = m.e.data;
	return 0;
}

int kvm_set_msr(int fd, uint32_t index, uint64_t val)
{
	struct msr_one m = { .nmsrs = 1, .e.index = index, .e.data = val };
	int r = __kvm_set_msrs(fd, (struct kvm_msrs *)&m);

	if (r < 0)
		return r;
	return r == 1 ? 0 : -EPERM;
}

int kvm_get_xcrs(int fd, struct kvm_xcrs *xcrs)
{
	return kvm_ioctl(fd, KVM_GET_XCRS, xcrs);
}

int kvm_set_xcrs(int fd, const struct kvm_xcrs *xcrs)
{
	return kvm_ioctl(fd, KVM_SET_XCRS, (void *)xcrs);
}

int kvm_xsave_size(int vm_fd)
{
	int r = kvm_check_cap(vm_fd, KVM_CAP_XSAVE2);

	if (r <= 0)
		return (int)sizeof(struct kvm_xsave);
	return r < (int)sizeof(struct kvm_xsave) ? (int)sizeof(struct kvm_xsave) : r;
}

int kvm_get_xsave2(int fd, struct kvm_xsave *buf)
{
	return kvm_ioctl(fd, KVM_GET_XSAVE2, buf);
}

int kvm_set_xsave(int fd, const struct kvm_xsave *buf)
{
	return kvm_ioctl(fd, KVM_SET_XSAVE, (void *)buf);
}

int kvm_get_fpu(int fd, struct kvm_fpu *fpu)
{
	return kvm_ioctl(fd, KVM_GET_FPU, fpu);
}

int kvm_get_one_reg(int fd, uint64_t id, void *val)
{
	struct kvm_one_reg r = { .id = id, .addr = (uint64_t)(uintptr_t)val };

	return kvm_ioctl(fd, KVM_GET_ONE_REG, &r);
}

int kvm_set_one_reg(int fd, uint64_t id, const void *val)
{
	struct kvm_one_reg r = { .id = id, .addr = (uint64_t)(uintptr_t)val };

	return kvm_ioctl(fd, KVM_SET_ONE_REG, &r);
}

int kvm_get_reg_list(int fd, struct kvm_reg_list **out)
{
	struct kvm_reg_list probe = { .n = 0 };
	struct kvm_reg_list *l;
	int r = kvm_ioctl(fd, KVM_GET_REG_LIST, &probe);

	if (r < 0 && r != -E2BIG)
		return r;
	l = calloc(1, sizeof(*l) + (probe.n + 1) * sizeof(l->reg[0]));
	if (!l)
		return -ENOMEM;
	l->n = probe.n;
	r = kvm_ioctl(fd, KVM_GET_REG_LIST, l);
	if (r < 0) {
		free(l);
		return r;
	}
	*out = l;
	return 0;
}

int kvm_get_lapic(int fd, struct kvm_lapic_state *lapic)
{
	return kvm_ioctl(fd, KVM_GET_LAPIC, lapic);
}

int kvm_set_lapic(int fd, const struct kvm_lapic_state *lapic)
{
	return kvm_ioctl(fd, KVM_SET_LAPIC, (void *)lapic);
}

int kvm_get_vcpu_events(int fd, struct kvm_vcpu_events *ev)
{
	return kvm_ioctl(fd, KVM_GET_VCPU_EVENTS, ev);
}

int kvm_set_vcpu_events(int fd, const struct kvm_vcpu_events *ev)
{
	return kvm_ioctl(fd, KVM_SET_VCPU_EVENTS, (void *)ev);
}

int kvm_get_mp_state(int fd, struct kvm_mp_state *mp)
{
	return kvm_ioctl(fd, KVM_GET_MP_STATE, mp);
}

int kvm_set_mp_state(int fd, const struct kvm_mp_state *mp)
{
	return kvm_ioctl(fd, KVM_SET_MP_STATE, (void *)mp);
}

int kvm_get_debugregs(int fd, struct kvm_debugregs *dr)
{
	return kvm_ioctl(fd, KVM_GET_DEBUGREGS, dr);
}

int kvm_set_debugregs(int fd, const struct kvm_debugregs *dr)
{
	return kvm_ioctl(fd, KVM_SET_DEBUGREGS, (void *)dr);
}

int kvm_get_tsc_khz(int fd)
{
	return kvm_ioctl(fd, KVM_GET_TSC_KHZ, NULL);
}

int kvm_set_signal_mask(int fd, const void *sigset, size_t len)
{
	struct kvm_signal_mask *m = calloc(1, sizeof(*m) + len);
	int r;

	if (!m)
		return -ENOMEM;
	m->len = len;
	memcpy(m->sigset, sigset, len);
	r = kvm_ioctl(fd, KVM_SET_SIGNAL_MASK, m);
	free(m);
	return r;
}

int kvm_run(int fd)
{
	return kvm_ioctl(fd, KVM_RUN, NULL);
}
