/*
 * catalog.c - the probe table of `exitscope run` and the check of what
 * each probe needs from the host. Names follow kvm-unit-tests x86/vmexit.c
 * where they overlap (cpuid, vmcall, mov_from_cr8, inl_from_kernel, ipi,
 * tscdeadline_immed, wr_tsc_adjust_msr, toggle_cr0_wp, ...).
 */
#include <stdio.h>
#include <string.h>

#include "guest/guest.h"
#include "kvm/kvm.h"
#include "probes/probes.h"
#include "host/cpu.h"
#include "host/hostinfo.h"

#define G(name) uint64_t name(uint64_t a)
G(probe_cpuid); G(probe_vmcall); G(probe_vmmcall); G(probe_wbinvd); G(probe_invd);
G(probe_rdtsc); G(probe_rdtscp); G(probe_rdpmc); G(probe_rdpmc_setup); G(probe_mov_dr);
G(probe_mov_from_cr8); G(probe_mov_to_cr8); G(probe_mov_from_cr0); G(probe_mov_from_cr3);
G(probe_mov_to_cr3); G(probe_toggle_cr0); G(probe_toggle_cr4); G(probe_toggle_cr4_setup);
G(probe_pax_open_kernel); G(probe_pax_setup); G(probe_msr_setup_rd); G(probe_msr_setup_wr);
G(probe_msr_setup_wr0); G(probe_rdmsr); G(probe_wrmsr_same); G(probe_wrmsr_zero);
G(probe_wr_ibrs); G(probe_wr_ibpb); G(probe_user_msr_setup); G(probe_inl_from_kernel);
G(probe_outl_to_kernel); G(probe_pio_to_user); G(probe_mmio_to_user); G(probe_ioeventfd_pio);
G(probe_ioeventfd_mmio); G(probe_x2apic_setup); G(probe_self_ipi); G(probe_hlt);
G(probe_ipi_setup); G(probe_ipi); G(probe_ipi_teardown); G(probe_tscdeadline_setup);
G(probe_tscdeadline); G(probe_osxsave_setup); G(probe_xsetbv); G(probe_xss_setup);
G(probe_rd_xss); G(probe_wr_xss); G(probe_pke_setup); G(probe_rdpkru); G(probe_wrpkru);

#define IRQ	(PROBE_NEED_IRQCHIP | PROBE_NEED_X2APIC)
#define IOEV(n, d, how) { n, "io", d, PROBE_NEED_IOEVENTFD, .host_setup = probe_host_ioeventfd, \
	.host_teardown = probe_host_ioeventfd_done, .arg = (how), \
	.op = (how) & PROBE_IO_MMIO ? probe_ioeventfd_mmio : probe_ioeventfd_pio }

const struct probe probes[] = {
	{ "nop", "baseline", "the timed loop itself: a call of an empty guest function (harness overhead)",
	  .op = latency_guest_nop },

	{ "cpuid", "insn", "CPUID leaf 0", .op = probe_cpuid },
	{ "vmcall", "insn", "hypercall with an unknown number (VMCALL; VMMCALL on AMD)",
	  .op = probe_vmcall, .op_amd = probe_vmmcall },
	{ "wbinvd", "insn", "WBINVD", .op = probe_wbinvd },
	{ "invd", "insn", "INVD", .op = probe_invd },
	{ "rdtsc", "insn", "RDTSC", .op = probe_rdtsc },
	{ "rdtscp", "insn", "RDTSCP", .cpuid_any = { X86_FEAT_RDTSCP }, .op = probe_rdtscp },
	{ "rdpmc", "insn", "RDPMC of counter 0 (where the guest PMU allows it)",
	  .setup = probe_rdpmc_setup, .op = probe_rdpmc },
	{ "mov_dr", "insn", "MOV to DR7", .op = probe_mov_dr },
	{ "mov_from_cr8", "insn", "MOV from CR8 (TPR, in-kernel APIC)", PROBE_NEED_IRQCHIP,
	  .op = probe_mov_from_cr8 },
	{ "mov_to_cr8", "insn", "MOV 0 to CR8 (TPR, in-kernel APIC)", PROBE_NEED_IRQCHIP,
	  .op = probe_mov_to_cr8 },
	{ "mov_from_cr0", "insn", "MOV from CR0", .op = probe_mov_from_cr0 },
	{ "mov_from_cr3", "insn", "MOV from CR3", .op = probe_mov_from_cr3 },
	{ "mov_to_cr3", "insn", "MOV CR3 to CR3 (rewrite: TLB flush)", .op = probe_mov_to_cr3 },
	{ "hlt", "insn", "self IPI then STI;HLT: HLT with an interrupt pending (x2APIC)", IRQ,
	  .setup = probe_x2apic_setup, .op = probe_hlt },

	{ "toggle_cr0_wp", "cr", "flip CR0.WP and back (two CR0 writes)", .op = probe_toggle_cr0,
	  .arg = X86_CR0_WP },
	{ "toggle_cr0_ts", "cr", "flip CR0.TS and back (two CR0 writes)", .op = probe_toggle_cr0,
	  .arg = X86_CR0_TS },
	{ "toggle_cr4_pge", "cr", "flip CR4.PGE and back (two CR4 writes)", .cpuid_any = { X86_FEAT_PGE },
	  .setup = probe_toggle_cr4_setup, .op = probe_toggle_cr4, .arg = X86_CR4_PGE },
	{ "toggle_cr4_tsd", "cr", "flip CR4.TSD and back (two CR4 writes)",
	  .setup = probe_toggle_cr4_setup, .op = probe_toggle_cr4, .arg = X86_CR4_TSD },
	{ "toggle_cr4_cet", "cr", "flip CR4.CET and back with CR0.WP set (two CR4 writes)",
	  .cpuid_any = { X86_FEAT_SHSTK, X86_FEAT_IBT }, .setup = probe_toggle_cr4_setup,
	  .op = probe_toggle_cr4, .arg = X86_CR4_CET },
	{ "pax_open_kernel", "cr",
	  "hardened-kernel write to read-only data: clear CR4.CET if set, clear CR0.WP, store, set CR0.WP, restore CR4.CET",
	  .host_setup = probe_host_ro_page, .setup = probe_pax_setup, .op = probe_pax_open_kernel,
	  .arg = 0x7061780a },

	{ "wr_kernel_gs_base", "msr", "WRMSR 0 to IA32_KERNEL_GS_BASE",
	  .setup = probe_msr_setup_wr0, .op = probe_wrmsr_zero, .arg = MSR_KERNEL_GS_BASE },
	{ "rd_tsc_adjust_msr", "msr", "RDMSR IA32_TSC_ADJUST", .cpuid_any = { X86_FEAT_TSC_ADJUST },
	  .setup = probe_msr_setup_rd, .op = probe_rdmsr, .arg = MSR_IA32_TSC_ADJUST },
	{ "wr_tsc_adjust_msr", "msr", "WRMSR IA32_TSC_ADJUST with its current value",
	  .cpuid_any = { X86_FEAT_TSC_ADJUST }, .setup = probe_msr_setup_wr, .op = probe_wrmsr_same,
	  .arg = MSR_IA32_TSC_ADJUST },
	{ "rd_xss_msr", "msr", "RDMSR IA32_XSS (CR4.OSXSAVE set)", .cpuid_any = { X86_FEAT_XSAVES },
	  .setup = probe_xss_setup, .op = probe_rd_xss },
	{ "wr_xss_msr", "msr", "WRMSR IA32_XSS with its current value (CR4.OSXSAVE set)",
	  .cpuid_any = { X86_FEAT_XSAVES }, .setup = probe_xss_setup, .op = probe_wr_xss },
	{ "wr_ibrs_msr", "msr", "WRMSR IA32_SPEC_CTRL = IBRS, then 0 (two writes)",
	  .cpuid_any = { X86_FEAT_SPEC_CTRL, X86_FEAT_AMD_IBRS }, .setup = probe_msr_setup_wr0,
	  .op = probe_wr_ibrs, .arg = MSR_IA32_SPEC_CTRL },
	{ "wr_ibpb_msr", "msr", "WRMSR IA32_PRED_CMD = IBPB",
	  .cpuid_any = { X86_FEAT_SPEC_CTRL, X86_FEAT_AMD_IBPB }, .setup = probe_msr_setup_wr0,
	  .op = probe_wr_ibpb, .arg = MSR_IA32_PRED_CMD },
	{ "wr_tsx_ctrl_msr", "msr", "WRMSR 0 to IA32_TSX_CTRL", PROBE_NEED_TSX_CTRL,
	  .cpuid_any = { X86_FEAT_ARCH_CAPABILITIES }, .setup = probe_msr_setup_wr0,
	  .op = probe_wrmsr_zero, .arg = MSR_IA32_TSX_CTRL },
	{ "rd_user_msr", "msr", "RDMSR of an MSR filtered to userspace (KVM_CAP_X86_USER_SPACE_MSR): a round trip to exitscope",
	  PROBE_NEED_USER_MSR, .host_setup = probe_host_user_msr, .setup = probe_user_msr_setup,
	  .op = probe_rdmsr, .arg = PROBE_USER_MSR },

	{ "inl_from_kernel", "io", "INB from port 0x4d0 (PIC ELCR, in-kernel irqchip; named as in kvm-unit-tests)",
	  PROBE_NEED_IRQCHIP, .op = probe_inl_from_kernel },
	{ "outl_to_kernel", "io", "OUTB 0 to port 0x4d0 (PIC ELCR, in-kernel irqchip; named as in kvm-unit-tests)",
	  PROBE_NEED_IRQCHIP, .op = probe_outl_to_kernel },
	{ "pio_to_user", "io", "OUTL to an unclaimed port: KVM_EXIT_IO round trip to exitscope",
	  .op = probe_pio_to_user },
	{ "mmio_to_user", "io", "32-bit store to unbacked MMIO: KVM_EXIT_MMIO round trip to exitscope",
	  .op = probe_mmio_to_user },
	IOEV("ioeventfd_pio_wildcard", "OUTL to a port with an ioeventfd (any value)", 0),
	IOEV("ioeventfd_pio_datamatch", "OUTL to a port with an ioeventfd (datamatch)", PROBE_IO_DATAMATCH),
	IOEV("ioeventfd_mmio_wildcard", "MMIO store with an ioeventfd (any value)", PROBE_IO_MMIO),
	IOEV("ioeventfd_mmio_datamatch", "MMIO store with an ioeventfd (datamatch)",
	     PROBE_IO_MMIO | PROBE_IO_DATAMATCH),

	{ "self_ipi", "irq", "x2APIC self IPI, taken after STI;NOP", IRQ,
	  .setup = probe_x2apic_setup, .op = probe_self_ipi },
	{ "ipi", "irq", "IPI to a spinning second vCPU, waiting until it is taken", IRQ | PROBE_NEED_2VCPUS,
	  .host_setup = probe_host_ipi_target, .host_teardown = probe_host_ipi_target_done,
	  .setup = probe_ipi_setup, .op = probe_ipi, .teardown = probe_ipi_teardown, .arg = 0 },
	{ "ipi_halt", "irq", "IPI to a halted second vCPU, waiting until it is taken",
	  IRQ | PROBE_NEED_2VCPUS, .host_setup = probe_host_ipi_target,
	  .host_teardown = probe_host_ipi_target_done, .setup = probe_ipi_setup, .op = probe_ipi,
	  .teardown = probe_ipi_teardown, .arg = 1 },
	{ "tscdeadline", "irq", "arm the TSC-deadline timer 3000 cycles ahead and wait for it", IRQ,
	  .cpuid_any = { X86_FEAT_TSC_DEADLINE }, .setup = probe_tscdeadline_setup,
	  .op = probe_tscdeadline, .arg = 3000 },
	{ "tscdeadline_immed", "irq", "arm the TSC-deadline timer already expired and wait for it", IRQ,
	  .cpuid_any = { X86_FEAT_TSC_DEADLINE }, .setup = probe_tscdeadline_setup,
	  .op = probe_tscdeadline, .arg = 0 },

	{ "xsetbv", "xstate", "XSETBV rewriting XCR0 = x87|SSE (CR4.OSXSAVE set)",
	  .cpuid_any = { X86_FEAT_XSAVE }, .setup = probe_osxsave_setup, .op = probe_xsetbv },
	{ "invd_xcr0_differs", "xstate",
	  "INVD with guest XCR0 = x87|SSE while the host's differs: XCR0 swapped on each exit",
	  PROBE_NEED_XCR0_DIFFERS, .cpuid_any = { X86_FEAT_XSAVE }, .setup = probe_osxsave_setup,
	  .op = probe_invd },
	{ "rdpkru", "xstate", "RDPKRU with CR4.PKE set", .cpuid_any = { X86_FEAT_PKU },
	  .setup = probe_pke_setup, .op = probe_rdpkru },
	{ "wrpkru", "xstate", "WRPKRU 0 with CR4.PKE set", .cpuid_any = { X86_FEAT_PKU },
	  .setup = probe_pke_setup, .op = probe_wrpkru },
};

const size_t nr_probes = sizeof(probes) / sizeof(probes[0]);

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
	for (size_t i = 0; i < sizeof(need_names) / sizeof(need_names[0]); i++)
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

const char *probe_unmet(const struct probe *p, const struct hostinfo *hi,
			const struct kvm_cpuid2 *cpuid, int kvm_fd, char *why, size_t len)
{
	unsigned int n = p->needs;

	if ((n & PROBE_NEED_IRQCHIP) && !has_cap(kvm_fd, KVM_CAP_IRQCHIP))
		return snprintf(why, len, "needs an in-kernel irqchip: KVM_CAP_IRQCHIP is not offered"), why;
	if ((n & PROBE_NEED_X2APIC) && !cpuid_has(cpuid, X86_FEAT_X2APIC))
		return snprintf(why, len, "needs x2APIC: not in KVM_GET_SUPPORTED_CPUID"), why;
	if ((n & PROBE_NEED_2VCPUS) && kvm_check_cap(kvm_fd, KVM_CAP_MAX_VCPUS) < 2 &&
	    kvm_check_cap(kvm_fd, KVM_CAP_NR_VCPUS) < 2)
		return snprintf(why, len, "needs 2 vCPUs: KVM allows fewer"), why;
	if ((n & PROBE_NEED_USER_MSR) &&
	    (!has_cap(kvm_fd, KVM_CAP_X86_USER_SPACE_MSR) || !has_cap(kvm_fd, KVM_CAP_X86_MSR_FILTER)))
		return snprintf(why, len, "needs KVM_CAP_X86_USER_SPACE_MSR and KVM_CAP_X86_MSR_FILTER"), why;
	if ((n & PROBE_NEED_IOEVENTFD) && !has_cap(kvm_fd, KVM_CAP_IOEVENTFD))
		return snprintf(why, len, "needs KVM_CAP_IOEVENTFD"), why;
	if (p->cpuid_any[0] && !cpuid_has_any(cpuid, p->cpuid_any[0], p->cpuid_any[1]))
		return snprintf(why, len, "needs CPUID %s%s%s: not in KVM_GET_SUPPORTED_CPUID",
				x86_feature_name(p->cpuid_any[0]), p->cpuid_any[1] ? " or " : "",
				p->cpuid_any[1] ? x86_feature_name(p->cpuid_any[1]) : ""), why;
	if (n & PROBE_NEED_XCR0_DIFFERS) {
		uint64_t x = host_cpu_xcr0();

		if ((x & ~(XFEATURE_X87 | XFEATURE_SSE)) == 0)
			return snprintf(why, len, "the host's XCR0 (%#llx) is no more than x87|SSE: nothing differs",
					(unsigned long long)x), why;
	}
	if (n & PROBE_NEED_TSX_CTRL) {
		uint64_t caps = 0;

		if (kvm_get_feature_msr(kvm_fd, MSR_IA32_ARCH_CAPABILITIES, &caps) || !(caps & (1ULL << 7)))
			return snprintf(why, len, "needs IA32_TSX_CTRL: ARCH_CAPABILITIES.TSX_CTRL_MSR (bit 7) is clear"), why;
	}
	(void)hi;
	return NULL;
}
