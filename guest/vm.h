/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vm.h - host side of the guest runtime: a VM whose memory holds a copy of
 * the exitscope image at its own addresses (so guest code is ordinary C from
 * this binary), 64-bit paging, GDT/IDT/TSS, per-vCPU stacks and GS blocks,
 * and a run loop that decodes ucalls and every KVM exit.
 */
#ifndef EXITSCOPE_GUEST_VM_H
#define EXITSCOPE_GUEST_VM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <linux/kvm.h>

#include "base/err.h"
#include "guest/layout.h"
#include "guest/status.h"
#include "guest/ucall.h"
#include "kvm/kvm.h"
#include "kvm/stats_fd.h"

struct vcpu;

/*
 * Called for KVM_EXIT_IO (other than the ucall port), KVM_EXIT_MMIO and
 * KVM_EXIT_X86_RDMSR/WRMSR. Return true when the exit was handled; false
 * lets the default apply (unclaimed I/O and MMIO: writes dropped, reads all
 * ones; user-space MSR: #GP injected).
 */
typedef bool (*vcpu_exit_hook_t)(struct vcpu *v, struct kvm_run *run, void *ctx);

struct vm_opts {
	const char *kvm_path;		/* NULL: /dev/kvm */
	int nr_vcpus;			/* 0 means 1 */
	bool irqchip;			/* in-kernel PIC/IOAPIC/LAPIC */
	const struct kvm_cpuid2 *cpuid;	/* NULL: everything KVM supports */
	uint64_t mem_extra;		/* bytes of RAM above the image, 0: 16 MiB */
	volatile sig_atomic_t *stop;	/* set (e.g. by SIGINT): runs end GUEST_STOPPED */
	bool quiet;			/* drop GUEST_PRINTF output */
};

/* Exits to this process, counted by the run loop itself (never by KVM stats). */
struct vcpu_user_exits {
	uint64_t io;		/* KVM_EXIT_IO other than ucalls */
	uint64_t mmio;		/* KVM_EXIT_MMIO */
	uint64_t msr;		/* KVM_EXIT_X86_RDMSR / WRMSR */
	uint64_t ucall;		/* KVM_EXIT_IO on UCALL_PORT */
	uint64_t intr;		/* KVM_RUN interrupted by a signal */
	uint64_t other;
};

struct vcpu {
	struct vm *vm;
	int id;
	int fd;
	struct kvm_run *run;
	size_t run_size;
	struct kvm_stats stats;
	bool has_stats;
	/* watchdog: a timer that signals the thread running this vCPU */
	bool timer_armed_ok;
	timer_t timer;			/* wall clock (CLOCK_MONOTONIC) */
	timer_t cpu_timer;		/* the thread's CPU time (CLOCK_THREAD_CPUTIME_ID) */
	pid_t timer_tid;
	struct vcpu_user_exits user_exits;
	vcpu_exit_hook_t exit_hook;
	void *hook_ctx;
	uint64_t stack_top;
};

struct vm {
	int kvm_fd;
	int fd;
	uint8_t *mem;
	uint64_t mem_size;
	struct kvm_cpuid2 *cpuid;
	struct kvm_stats stats;
	bool has_stats;
	bool irqchip;
	bool quiet;
	volatile sig_atomic_t *stop;
	uint64_t pool_next;
	int nr_vcpus;
	struct vcpu vcpus[GUEST_MAX_VCPUS];
};

/* Outcome of running a guest until it needs the host. */
enum guest_exit {
	GUEST_SYNC,		/* GUEST_SYNC(): values in args; run again to continue */
	GUEST_DONE,		/* the function returned: args[0] */
	GUEST_ASSERT_FAILED,	/* file:line and values in msg */
	GUEST_EXCEPTION,	/* unhandled exception: vector, error code, RIP, CR2 */
	GUEST_HANG,		/* still running when its budget ran out */
	GUEST_SHUTDOWN,		/* triple fault */
	GUEST_HALTED,		/* HLT with nothing to wake it */
	GUEST_EMULATION_FAILURE, /* KVM_EXIT_INTERNAL_ERROR, emulation suberror */
	GUEST_INTERNAL_ERROR,	/* other KVM_EXIT_INTERNAL_ERROR */
	GUEST_FAIL_ENTRY,	/* KVM_EXIT_FAIL_ENTRY */
	GUEST_UNEXPECTED_EXIT,	/* an exit reason the runtime does not handle */
	GUEST_STOPPED,		/* *opts.stop was set */
	GUEST_ERROR,		/* an ioctl failed (err) */
};

struct guest_result {
	enum guest_exit kind;
	uint64_t args[UCALL_MAX_ARGS];
	uint64_t nargs;
	uint64_t vector, error_code, rip, cr2;	/* GUEST_EXCEPTION; rip also for others */
	uint32_t exit_reason;
	int err;				/* GUEST_ERROR: -errno */
	char msg[512];				/* one line, no newline */
};

int vm_create(struct vm **out, const struct vm_opts *opts, struct err *err);
void vm_destroy(struct vm *vm);

/* Host pointer for a guest address range, NULL if outside guest RAM. */
void *vm_gva(struct vm *vm, uint64_t gva, uint64_t len);
/* Per-VM guest globals: copy a value of the guest's copy of `sym`. */
#define vm_global(vm, sym)	((__typeof__(sym) *)vm_gva(vm, (uint64_t)(uintptr_t)&(sym), sizeof(sym)))
#define vm_global_set(vm, sym, val)	(*vm_global(vm, sym) = (val))
#define vm_global_get(vm, sym)		(*vm_global(vm, sym))
/* A zeroed 4 KiB page from the pool (guest address), 0 when exhausted. */
uint64_t vm_alloc_page(struct vm *vm);
/* The 4 KiB PTE mapping a pool or low address, NULL otherwise. */
uint64_t *vm_pte(struct vm *vm, uint64_t gva);

/* Whether the VM's stop flag (Ctrl-C) is set. */
static inline bool vm_stop_requested(const struct vm *vm)
{
	return vm->stop && *vm->stop;
}

/* Prepare vCPU registers to call fn(arg) from a fresh stack. */
int vcpu_call(struct vcpu *v, guest_fn_t fn, uint64_t arg);
/*
 * Run until the guest needs the host (ucall other than print) or fails;
 * a guest still running after budget_ms is stopped and reported as a hang.
 */
enum guest_exit vcpu_run(struct vcpu *v, uint64_t budget_ms, struct guest_result *res);
/*
 * vcpu_run, and also a hang once the calling thread has spent cpu_ms of CPU
 * time in it (0: no such limit): a guest spinning in the host kernel is
 * caught early, while a busy host, which takes CPU time away, is not.
 */
enum guest_exit vcpu_run_cpu(struct vcpu *v, uint64_t budget_ms, uint64_t cpu_ms,
			     struct guest_result *res);
/* vcpu_call + vcpu_run. */
enum guest_exit vcpu_call_run(struct vcpu *v, guest_fn_t fn, uint64_t arg,
			      uint64_t budget_ms, struct guest_result *res);
const char *guest_exit_name(enum guest_exit e);
const char *kvm_exit_reason_name(uint32_t reason);
const char *vector_name(unsigned int vector);

/* Initial control registers of every vCPU. */
#define GUEST_CR0	(X86_CR0_PE | X86_CR0_MP | X86_CR0_ET | X86_CR0_NE | X86_CR0_WP | X86_CR0_PG)
#define GUEST_CR4	(X86_CR4_PAE | X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT)
#define GUEST_EFER	(EFER_LME | EFER_LMA | EFER_SCE)

#endif
