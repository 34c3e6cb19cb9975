/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * probes.h - the VM-exit latency catalogue of `exitscope run`: one entry
 * per probe with its name (kvm-unit-tests x86/vmexit.c names where they
 * overlap), group, what it needs from the host, optional host-side setup
 * (ioeventfds, MSR filter, a second vCPU thread...) and its guest functions.
 */
#ifndef EXITSCOPE_PROBES_PROBES_H
#define EXITSCOPE_PROBES_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/kvm.h>

#include "guest/layout.h"
#include "kvm/cpuid.h"
#include "harness/latency.h"

struct vm;
struct hostinfo;

/* What a probe needs (flags), checked before its VM is built. */
#define PROBE_NEED_IRQCHIP	(1u << 0)	/* KVM_CREATE_IRQCHIP: in-kernel PIC/IOAPIC/LAPIC */
#define PROBE_NEED_2VCPUS	(1u << 1)
#define PROBE_NEED_USER_MSR	(1u << 2)	/* KVM_CAP_X86_USER_SPACE_MSR + MSR filter */
#define PROBE_NEED_IOEVENTFD	(1u << 3)
#define PROBE_NEED_XCR0_DIFFERS	(1u << 4)	/* host XCR0 has more than x87|SSE */
#define PROBE_NEED_TSX_CTRL	(1u << 5)	/* ARCH_CAPABILITIES.TSX_CTRL_MSR */
#define PROBE_NEED_X2APIC	(1u << 6)	/* x2APIC in CPUID (and an in-kernel APIC) */

/* Host-side state of one probe run. */
struct probe_ctx {
	const struct probe *probe;
	struct vm *vm;
	const struct hostinfo *hi;
	bool amd;			/* host vendor uses VMMCALL */
	int efd;			/* ioeventfd, -1 */
	uint64_t watchdog_ms;		/* of the measured vCPU; the second one gets more */
	uint64_t tsc_khz;		/* the guest's TSC rate (never 0: 2 GHz when unknown) */
	void *thread;			/* second vCPU's thread state (probes/host.c) */
	int vcpu1_cpu;			/* in: host CPU for vCPU 1's thread (-1: any but vCPU 0's);
					 * out (after host_teardown): where it ran, -1 unknown */
	char reason[LATENCY_REASON_LEN];	/* why host setup refused */
	char note[160];			/* what host setup chose, for the result's notes */
};

struct probe {
	const char *name;
	const char *group;		/* baseline, insn, cr, msr, io, irq, xstate */
	const char *description;
	unsigned int needs;		/* PROBE_NEED_* */
	enum x86_feat cpuid_any[2];	/* needs one of these CPUID features (NONE: none) */
	/* Host side, after the VM is built: 0, or -errno / >0 (skip: ctx->reason). */
	int (*host_setup)(struct probe_ctx *ctx);
	void (*host_teardown)(struct probe_ctx *ctx);
	guest_fn_t setup, op, op_amd, teardown;	/* op_amd: op on AMD hosts when set */
	uint64_t arg;
	/* CPUID features cleared from this probe's guest CPUID (NONE: none), e.g.
	 * XSAVES so that KVM never swaps IA32_XSS on its exits (probes/xstate_probes.h). */
	enum x86_feat cpuid_clear[2];
	/*
	 * Operations per call of op (0: 1): an op that costs too little to stand
	 * out of the timed loop's noise repeats its instruction (unrolled), and
	 * every figure (cycles, exits, ops) is per operation.
	 */
	unsigned int reps;
};

/*
 * Control-register reads that exit on no usual VMX/SVM setup (CR0 and CR8
 * from their shadows, CR3 with EPT/NPT) cost a few cycles on hardware and
 * well under 1% of the timed loop on an emulating backend: their op does
 * this many, so that their net figure is not lost in the loop's.
 */
#define PROBE_CR_READS		32
#define PROBE_STR_(x)		#x
#define PROBE_STR(x)		PROBE_STR_(x)
/* What such a row's description adds. */
#define PROBE_CR_READS_NOTE	"; " PROBE_STR(PROBE_CR_READS) " unrolled per call, figures per MOV"

extern const struct probe probes[];
extern const size_t nr_probes;

const struct probe *probe_find(const char *name);
/* "in-kernel irqchip, x2APIC, 2 vCPUs" or "none" into buf. */
const char *probe_needs_text(const struct probe *p, char *buf, size_t len);
/*
 * Whether the host can run p: NULL, or why not (into why). cpuid is what
 * KVM supports (KVM_GET_SUPPORTED_CPUID); kvm_fd answers capabilities.
 */
const char *probe_unmet(const struct probe *p, const struct hostinfo *hi,
			const struct kvm_cpuid2 *cpuid, int kvm_fd, char *why, size_t len);

/* Host hooks (probes/host.c). */
int probe_host_ioeventfd(struct probe_ctx *ctx);
void probe_host_ioeventfd_done(struct probe_ctx *ctx);
int probe_host_user_msr(struct probe_ctx *ctx);
int probe_host_ro_page(struct probe_ctx *ctx);
int probe_host_ipi_target(struct probe_ctx *ctx);
void probe_host_ipi_target_done(struct probe_ctx *ctx);	/* also ends the PLE peer */
int probe_host_ple_peer(struct probe_ctx *ctx);
int probe_host_pmtimer(struct probe_ctx *ctx);
/* Reads the EXITSCOPE_TEST_MASK_SELF_IPI test hook (PROBE_MASK_SELF_IPI_ENV). */
int probe_host_self_ipi(struct probe_ctx *ctx);

/*
 * Guest functions (probes/ *_guest.c). A row's own operation probe_<name> is
 * declared by catalog.c from probes/catalog.def.
 * Below: the guest functions several rows share (setups, teardowns, ops
 * taking the bit or MSR in .arg).
 */
/* PROBE_FN(probe_x) { ... }: a guest function; its argument a is the row's .arg. */
#define PROBE_FN(name) uint64_t name(uint64_t a); uint64_t name(uint64_t a)

uint64_t probe_vmmcall(uint64_t arg);
uint64_t probe_rdpmc_setup(uint64_t arg);
uint64_t probe_toggle_cr0(uint64_t arg);
uint64_t probe_toggle_cr4(uint64_t arg);
uint64_t probe_toggle_cr4_setup(uint64_t arg);
uint64_t probe_pax_setup(uint64_t arg);
uint64_t probe_msr_setup_rd(uint64_t arg);
uint64_t probe_msr_setup_wr(uint64_t arg);
uint64_t probe_msr_setup_wr0(uint64_t arg);
uint64_t probe_rdmsr(uint64_t arg);
uint64_t probe_wrmsr_same(uint64_t arg);
uint64_t probe_wrmsr_zero(uint64_t arg);
uint64_t probe_wr_ibrs(uint64_t arg);
uint64_t probe_wr_ibpb(uint64_t arg);
uint64_t probe_user_msr_setup(uint64_t arg);
uint64_t probe_ioeventfd_pio(uint64_t arg);
uint64_t probe_ioeventfd_mmio(uint64_t arg);
uint64_t probe_x2apic_setup(uint64_t arg);
uint64_t probe_xapic_setup(uint64_t arg);
/*
 * The interrupt probes' delivery count (probes/irq_probes_guest.c). Each op calls
 * probe_irq_begin() first (counts the op, returns the interrupt count) and,
 * once its window closed (IF=0 again), probe_irq_settle(that count): the
 * interrupt was taken in the window, or it waits for it with IF=1 for at
 * most PROBE_IRQ_LATE_MS (late), or not (never). After a "never" the next
 * ops do not wait (their interrupt merges with the one still pending in
 * IRR) until one is taken in its window again. The wait is left out of the
 * op's timed cost. Setups install their PROBE_IRQ_VECTOR handlers with
 * probe_irq_handlers(): one for the window, one for the late phase, which
 * calls probe_irq_taken() first (the wait ends at its entry).
 */
#define PROBE_IRQ_LATE_MS	50
uint64_t probe_irq_begin(void);
void probe_irq_settle(uint64_t before);
void probe_irq_taken(void);
struct ex_regs;
void probe_irq_handlers(void (*window)(struct ex_regs *regs), void (*late)(struct ex_regs *regs));
/* Teardown: GUEST_CHECK(PROBE_CHECK_IRQ) when no op's interrupt arrived at all, else 0. */
uint64_t probe_irq_check(uint64_t arg);
void probe_irq_reset(void);		/* setups: zero the counts, TPR = probe_tpr_open */
/* 0 once vCPU 1 set probe_ipi_ready within probe_peer_wait_max TSC cycles, else GUEST_SKIP */
uint64_t probe_wait_peer(void);
uint64_t probe_ple_setup(uint64_t arg);
uint64_t probe_ple_peer(uint64_t arg);
uint64_t probe_ipi_setup(uint64_t arg);
uint64_t probe_ipi_teardown(uint64_t arg);
uint64_t probe_ipi_target(uint64_t arg);
uint64_t probe_tscdeadline_setup(uint64_t arg);
uint64_t probe_osxsave_setup(uint64_t arg);
uint64_t probe_xss_setup(uint64_t arg);
uint64_t probe_rd_xss(uint64_t arg);
uint64_t probe_wr_xss(uint64_t arg);
uint64_t probe_pke_setup(uint64_t arg);
/* Guest op that never returns: the EXITSCOPE_TEST_HANG test hook (PROBE_HANG_ENV). */
uint64_t probe_hang(uint64_t arg);

/* Indexes of GUEST_SKIP(i) that probe setups return (texts in probes/runner.c). */
enum probe_skip {
	PROBE_SKIP_NO_RO_PAGE,		/* the host gave pax_open_kernel no read-only page */
	PROBE_SKIP_USER_MSR,		/* RDMSR did not reach userspace through the filter */
	PROBE_SKIP_NO_PEER,		/* the second vCPU (IPI target, PLE peer) never got ready:
					 * a failure, not a skip (probes/runner.c) */
	PROBE_SKIP_XAPIC,		/* the APIC is in x2APIC mode already: no xAPIC page */
};

/* Indexes of GUEST_CHECK(i) that probe teardowns return (texts in probes/runner.c). */
enum probe_check {
	PROBE_CHECK_IRQ,		/* fewer interrupts than ops (probe_irq_seen vs probe_irq_ops) */
};

/* Guest globals shared with the host hooks (probes/..._guest.c). */
#define PROBE_USER_MSR		0x00000badu	/* filtered to userspace */
#define PROBE_USER_MSR_VALUE	0x6578697473636f70ULL
#define PROBE_PIO_USER_PORT	0xe0f0
#define PROBE_PIO_EVENT_PORT	0xe0f4
#define PROBE_MMIO_USER		(GUEST_MMIO_BASE + 0x0000)
#define PROBE_MMIO_EVENT	(GUEST_MMIO_BASE + 0x1000)
#define PROBE_DATAMATCH		0x1234
#define PROBE_IRQ_VECTOR	0xec
#define PROBE_IPI_VECTOR	0xed
#define PROBE_PMTIMER_PORT	0xb008	/* ACPI PM timer of QEMU's PIIX4 PM (pm_tmr_blk) */
#define PROBE_PMTIMER_HZ	3579545
/*
 * Test hooks. PROBE_HANG_ENV: PROBE[@MS]: that probe's op never returns
 * (probe_hang); its watchdog is MS (default: as any probe's).
 * PROBE_MASK_SELF_IPI_ENV: "1" makes the self-IPI probes without
 * HLT keep TPR at 15 (their interrupt is never taken), "late" keeps it at 15
 * in the window only (taken in the late phase). PROBE_NO_PEER_ENV: "1" keeps
 * vCPU 1 of the two-vCPU probes from ever saying it is ready.
 * PROBE_LATE_HOLD_ENV: a number of TSC cycles that every late phase of the
 * interrupt probes spends with IF=0 first (a wait the tests know).
 */
#define PROBE_HANG_ENV		"EXITSCOPE_TEST_HANG"
#define PROBE_MASK_SELF_IPI_ENV	"EXITSCOPE_TEST_MASK_SELF_IPI"
#define PROBE_NO_PEER_ENV	"EXITSCOPE_TEST_NO_PEER"
#define PROBE_LATE_HOLD_ENV	"EXITSCOPE_TEST_LATE_HOLD"
/*
 * Every test hook above: a run made with one of them set says so (a
 * warning, in its result too), since its probes do not measure as they would.
 */
extern const char *const probe_test_hooks[];
extern const size_t nr_probe_test_hooks;

/* arg bits of the I/O probes. */
#define PROBE_IO_MMIO		(1ULL << 0)
#define PROBE_IO_DATAMATCH	(1ULL << 1)

extern uint64_t probe_ro_page;		/* read-only page for pax_open_kernel */
extern uint64_t probe_ipi_ready, probe_ipi_stop;	/* vCPU 1 (IPI target, PLE peer) */
/* vCPU 0's wait for it: the bound (in, TSC cycles) and how long it took (out). */
extern uint64_t probe_peer_wait_max, probe_peer_waited;
/*
 * Interrupt probes: ops run, interrupts taken (at teardown), TPR after each
 * TPR window and in the late phase, the late phase's bound and the test
 * hook's hold (in, TSC cycles), and the delivery counts (probe_irq_settle).
 */
extern uint64_t probe_irq_ops, probe_irq_seen, probe_tpr_open, probe_tpr_late;
extern uint64_t probe_irq_late_max, probe_irq_late_hold;
extern uint64_t probe_irq_in_window, probe_irq_late, probe_irq_late_cycles;

#endif
