// SPDX-License-Identifier: GPL-2.0-only
/*
 * catalog.c - the probe table of `exitscope run` and the check of what
 * each probe needs from the host. Names follow kvm-unit-tests x86/vmexit.c
 * where they overlap (cpuid, vmcall, mov_from_cr8, inl_from_kernel, ipi,
 * tscdeadline_immed, wr_tsc_adjust_msr, toggle_cr0_wp, ...).
 */
#include <stdio.h>
#include <string.h>

#include "base/array_size.h"
#include "guest/guest.h"
#include "kvm/kvm.h"
#include "probes/probes.h"
#include "probes/xstate_probes.h"
#include "host/cpu.h"
#include "host/hostinfo.h"

/* Every PROBE row's operation, probe_<name>, declared from the rows themselves. */
#define PROBE(name, ...)	uint64_t probe_##name(uint64_t arg);
#define PROBE_OP(name, ...)
#define IOEV(name, ...)
#include "probes/catalog.def"
#undef PROBE
#undef PROBE_OP
#undef IOEV

#define IRQ	(PROBE_NEED_IRQCHIP | PROBE_NEED_X2APIC)

/* Fields after the description start at .needs, as in struct probe. */
#define PROBE(n, grp, desc, ...) \
	{ .name = #n, .group = grp, .description = desc, ##__VA_ARGS__, .op = probe_##n },
#define PROBE_OP(n, fn, grp, desc, ...) \
	{ .name = #n, .group = grp, .description = desc, ##__VA_ARGS__, .op = fn },
#define IOEV(n, desc, how) \
	{ .name = #n, .group = "io", .description = desc, .needs = PROBE_NEED_IOEVENTFD, \
	  .host_setup = probe_host_ioeventfd, .host_teardown = probe_host_ioeventfd_done, .arg = (how), \
	  .op = (how) & PROBE_IO_MMIO ? probe_ioeventfd_mmio : probe_ioeventfd_pio },

const struct probe probes[] = {
#include "probes/catalog.def"
};
#undef PROBE
#undef PROBE_OP
#undef IOEV

const size_t nr_probes = ARRAY_SIZE(probes);

const struct probe *probe_find(const char *name)
{
	for (size_t i = 0; i < nr_probes; i++)
		if (!strcmp(probes[i].name, name))
			return &probes[i];
	return NULL;
}

static const char *const need_names[] = {
	"in-kernel irqchip", "2 vCPUs", "KVM_CAP_X86_USER_SPACE_MSR + MSR filter",
	"KVM_IOEVENTFD", "host XCR0 beyond x87|SSE", "IA32_TSX_CTRL", "x2APIC",
};

const char *probe_needs_text(const struct probe *p, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(need_names); i++)
		if (p->needs & (1u << i) && o < len)
			o += snprintf(buf + o, len - o, "%s%s", o ? ", " : "", need_names[i]);
	if (p->cpuid_any[0] && o < len)
		o += snprintf(buf + o, len - o, "%sCPUID %s%s%s", o ? ", " : "",
			      x86_feature_name(p->cpuid_any[0]), p->cpuid_any[1] ? " or " : "",
			      p->cpuid_any[1] ? x86_feature_name(p->cpuid_any[1]) : "");
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}

static bool has_cap(int kvm_fd, long cap)
{
	return kvm_check_cap(kvm_fd, cap) > 0;
}

/* The action every unmet requirement ends with: it is the host's KVM (or CPU) that decides. */
#define UNMET_ACTION	"; it runs on a host whose KVM offers it" \
			" (exitscope info lists what this one does)"

const char *probe_unmet(const struct probe *p, const struct hostinfo *hi,
			const struct kvm_cpuid2 *cpuid, int kvm_fd, char *why, size_t len)
{
	unsigned int n = p->needs;

	if ((n & PROBE_NEED_IRQCHIP) && !has_cap(kvm_fd, KVM_CAP_IRQCHIP))
		return snprintf(why, len,
				"needs an in-kernel irqchip: KVM_CAP_IRQCHIP is not offered"
				UNMET_ACTION), why;
	if ((n & PROBE_NEED_X2APIC) && !cpuid_has(cpuid, X86_FEAT_X2APIC))
		return snprintf(why, len, "needs x2APIC: not in "
					  "KVM_GET_SUPPORTED_CPUID" UNMET_ACTION), why;
	if ((n & PROBE_NEED_2VCPUS) && kvm_check_cap(kvm_fd, KVM_CAP_MAX_VCPUS) < 2 &&
	    kvm_check_cap(kvm_fd, KVM_CAP_NR_VCPUS) < 2)
		return snprintf(why, len, "needs 2 vCPUs: KVM allows fewer" UNMET_ACTION), why;
	if ((n & PROBE_NEED_USER_MSR) &&
	    (!has_cap(kvm_fd, KVM_CAP_X86_USER_SPACE_MSR) || !has_cap(kvm_fd, KVM_CAP_X86_MSR_FILTER)))
		return snprintf(why, len,
				"needs KVM_CAP_X86_USER_SPACE_MSR and KVM_CAP_X86_MSR_FILTER "
				"(Linux 5.10 and later): not offered; it runs on a host with a "
				"newer KVM"), why;
	if ((n & PROBE_NEED_IOEVENTFD) && !has_cap(kvm_fd, KVM_CAP_IOEVENTFD))
		return snprintf(why, len, "needs KVM_CAP_IOEVENTFD: not offered" UNMET_ACTION), why;
	if (p->cpuid_any[0] && !cpuid_has_any(cpuid, p->cpuid_any[0], p->cpuid_any[1]))
		return snprintf(why, len,
				"needs CPUID %s%s%s: not in KVM_GET_SUPPORTED_CPUID (this host's "
				"KVM does not offer it to guests); it runs on a host whose "
				"KVM does", x86_feature_name(p->cpuid_any[0]),
				p->cpuid_any[1] ? " or " : "",
				p->cpuid_any[1] ? x86_feature_name(p->cpuid_any[1]) : ""), why;
	if (n & PROBE_NEED_XCR0_DIFFERS) {
		uint64_t x = host_cpu_xcr0();

		if ((x & ~(XFEATURE_X87 | XFEATURE_SSE)) == 0)
			return snprintf(why, len,
					"the host's XCR0 (%#llx) is no more than x87|SSE: nothing "
					"differs; it runs on a host whose kernel enables AVX "
					"or more", (unsigned long long)x), why;
	}
	if (n & PROBE_NEED_TSX_CTRL) {
		uint64_t caps = 0;

		if (kvm_get_feature_msr(kvm_fd, MSR_IA32_ARCH_CAPABILITIES, &caps) || !(caps & (1ULL << 7)))
			return snprintf(why, len, "needs IA32_TSX_CTRL: "
					"ARCH_CAPABILITIES.TSX_CTRL_MSR (bit 7) is clear; it runs "
					"on a CPU (and microcode) that has the MSR"), why;
	}
	(void)hi;
	return NULL;
}
