// SPDX-License-Identifier: GPL-2.0-only
/*
 * host.c - host-side setup of the probes that need more than a plain VM:
 * ioeventfds, an MSR filtered to userspace (with the exit hook answering
 * it), a read-only page for pax_open_kernel, a second vCPU thread that
 * receives IPIs or plays the other side of ple_round_robin, the ACPI PM
 * timer port answered in userspace, and the self-IPI test hook.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "guest/vm.h"
#include "probes/probes.h"

int probe_host_ioeventfd(struct probe_ctx *ctx)
{
	uint64_t a = ctx->probe->arg;
	bool mmio = a & PROBE_IO_MMIO;
	uint32_t flags = (mmio ? 0 : KVM_IOEVENTFD_FLAG_PIO) |
			 (a & PROBE_IO_DATAMATCH ? KVM_IOEVENTFD_FLAG_DATAMATCH : 0);
	int r;

	ctx->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (ctx->efd < 0)
		return -errno;
	r = kvm_ioeventfd(ctx->vm->fd, mmio ? PROBE_MMIO_EVENT : PROBE_PIO_EVENT_PORT, 4,
			  ctx->efd, flags, PROBE_DATAMATCH);
	if (r) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "KVM_IOEVENTFD: %s: this host's KVM refused the ioeventfd; it runs on a "
			 "host whose KVM takes it", strerror(-r));
		close(ctx->efd);
		ctx->efd = -1;
		return 1;
	}
	return 0;
}

void probe_host_ioeventfd_done(struct probe_ctx *ctx)
{
	if (ctx->efd >= 0)
		close(ctx->efd);	/* the VM fd going away drops the registration */
	ctx->efd = -1;
}

/* Answer the filtered MSR: reads return a known value, writes are accepted. */
static bool user_msr_hook(struct vcpu *v, struct kvm_run *run, void *unused)
{
	if ((run->exit_reason != KVM_EXIT_X86_RDMSR && run->exit_reason != KVM_EXIT_X86_WRMSR) ||
	    run->msr.index != PROBE_USER_MSR)
		return false;
	if (run->exit_reason == KVM_EXIT_X86_RDMSR)
		run->msr.data = PROBE_USER_MSR_VALUE;
	run->msr.error = 0;
	return true;
}

int probe_host_user_msr(struct probe_ctx *ctx)
{
	static const uint8_t deny;	/* bitmap: bit 0 clear = filtered */
	struct kvm_msr_filter f = {
		.flags = KVM_MSR_FILTER_DEFAULT_ALLOW,
		.ranges[0] = { .flags = KVM_MSR_FILTER_READ | KVM_MSR_FILTER_WRITE,
			       .nmsrs = 1, .base = PROBE_USER_MSR, .bitmap = (uint8_t *)&deny },
	};
	int r = kvm_enable_cap(ctx->vm->fd, KVM_CAP_X86_USER_SPACE_MSR, KVM_MSR_EXIT_REASON_FILTER);

	if (r) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "KVM_ENABLE_CAP(KVM_CAP_X86_USER_SPACE_MSR): %s: this host's KVM refused "
			 "it; it runs on a host whose KVM takes it", strerror(-r));
		return 1;
	}
	r = kvm_ioctl(ctx->vm->fd, KVM_X86_SET_MSR_FILTER, &f);
	if (r) {
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "KVM_X86_SET_MSR_FILTER: %s: this host's KVM refused the filter; it runs "
			 "on a host whose KVM takes it", strerror(-r));
		return 1;
	}
	ctx->vm->vcpus[0].exit_hook = user_msr_hook;
	return 0;
}

int probe_host_ro_page(struct probe_ctx *ctx)
{
	uint64_t page = vm_alloc_page(ctx->vm), *pte;

	if (!page || !(pte = vm_pte(ctx->vm, page)))
		return -ENOMEM;
	*pte &= ~(1ULL << 1);	/* read-only: only CR0.WP=0 lets ring 0 write it */
	vm_global_set(ctx->vm, probe_ro_page, page);
	return 0;
}

/*
 * The ACPI PM timer as QEMU's PIIX4 PM answers it: a 24-bit count at
 * 3.579545 MHz, here derived from CLOCK_MONOTONIC.
 */
static bool pmtimer_hook(struct vcpu *v, struct kvm_run *run, void *unused)
{
	struct timespec ts;
	uint64_t ticks;
	uint32_t val;

	if (run->exit_reason != KVM_EXIT_IO || run->io.port != PROBE_PMTIMER_PORT ||
	    run->io.direction != KVM_EXIT_IO_IN)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ticks = (uint64_t)ts.tv_sec * PROBE_PMTIMER_HZ +
		(uint64_t)ts.tv_nsec * PROBE_PMTIMER_HZ / 1000000000u;
	val = (uint32_t)(ticks & 0xffffff);
	for (uint32_t i = 0; i < run->io.count; i++)
		memcpy((char *)run + run->io.data_offset + (size_t)i * run->io.size, &val,
		       run->io.size < sizeof(val) ? run->io.size : sizeof(val));
	return true;
}

int probe_host_pmtimer(struct probe_ctx *ctx)
{
	ctx->vm->vcpus[0].exit_hook = pmtimer_hook;
	return 0;
}

/*
 * Test hook: the guest keeps TPR at 15, so its self IPI is never taken
 * ("1"), or is taken only in the late phase after its window ("late").
 */
int probe_host_self_ipi(struct probe_ctx *ctx)
{
	const char *mask = getenv(PROBE_MASK_SELF_IPI_ENV);

	if (mask && (!strcmp(mask, "1") || !strcmp(mask, "late"))) {
		vm_global_set(ctx->vm, probe_tpr_open, 0x0f);
		vm_global_set(ctx->vm, probe_tpr_late, strcmp(mask, "late") ? 0x0f : 0);
	}
	return 0;
}

struct ipi_thread {
	pthread_t tid;
	struct vcpu *vcpu;
	guest_fn_t fn;			/* what vCPU 1 runs */
	uint64_t halt, budget_ms;
	int avoid_cpu, want_cpu, ran_cpu;	/* want -1: any but avoid_cpu */
	struct guest_result res;
};

uint64_t probe_ipi_target(uint64_t a);
uint64_t probe_peer_absent(uint64_t a);

static void *ipi_thread_main(void *arg)
{
	struct ipi_thread *t = arg;
	cpu_set_t set;

	/* Off the measured vCPU's CPU when there is another one (threads inherit the pin). */
	CPU_ZERO(&set);
	for (int c = 0; c < CPU_SETSIZE && c < sysconf(_SC_NPROCESSORS_ONLN); c++)
		if (t->want_cpu >= 0 ? c == t->want_cpu : c != t->avoid_cpu)
			CPU_SET(c, &set);
	if (CPU_COUNT(&set))
		sched_setaffinity(0, sizeof(set), &set);
	t->ran_cpu = sched_getcpu();
	vcpu_call_run(t->vcpu, t->fn, t->halt, t->budget_ms, &t->res);
	return NULL;
}

/*
 * Start vCPU 1 on a thread of its own running fn; vCPU 0's setup waits for
 * it at most half the watchdog (probe_wait_peer), which leaves the other
 * half to its calibration.
 */
static int peer_start(struct probe_ctx *ctx, guest_fn_t fn)
{
	struct ipi_thread *t = calloc(1, sizeof(*t));
	const char *hook;
	int r;

	if (!t)
		return -ENOMEM;
	if (ctx->vm->nr_vcpus < 2) {
		free(t);
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "the VM has one vCPU; please report it as a bug");
		return 1;
	}
	t->vcpu = &ctx->vm->vcpus[1];
	hook = getenv(PROBE_NO_PEER_ENV);
	t->fn = hook && !strcmp(hook, "1") ? probe_peer_absent : fn;
	t->halt = ctx->probe->arg;
	t->avoid_cpu = sched_getcpu();
	t->want_cpu = ctx->vcpu1_cpu;
	ctx->vcpu1_cpu = -1;
	/*
	 * With an in-kernel irqchip KVM starts every vCPU but 0 waiting for
	 * INIT/SIPI; vm_create() leaves it so. Make it runnable ourselves.
	 */
	r = kvm_set_mp_state(t->vcpu->fd, &(struct kvm_mp_state){ .mp_state = KVM_MP_STATE_RUNNABLE });
	if (r) {
		free(t);
		snprintf(ctx->reason, sizeof(ctx->reason),
			 "KVM_SET_MP_STATE(RUNNABLE) of vCPU 1: %s: this host's KVM cannot start a "
			 "second vCPU so; it runs on one whose KVM can", strerror(-r));
		return 1;
	}
	t->budget_ms = 3 * ctx->watchdog_ms + 2000;
	vm_global_set(ctx->vm, probe_peer_wait_max, ctx->tsc_khz * (ctx->watchdog_ms / 2));
	r = pthread_create(&t->tid, NULL, ipi_thread_main, t);
	if (r) {
		free(t);
		return -r;
	}
	ctx->thread = t;
	return 0;
}

int probe_host_ipi_target(struct probe_ctx *ctx)
{
	return peer_start(ctx, probe_ipi_target);
}

int probe_host_ple_peer(struct probe_ctx *ctx)
{
	return peer_start(ctx, probe_ple_peer);
}

/* Tell vCPU 1 to stop and wake it (an MSI to APIC id 1), then reap it. */
void probe_host_ipi_target_done(struct probe_ctx *ctx)
{
	struct ipi_thread *t = ctx->thread;
	struct kvm_msi msi = { .address_lo = 0xfee00000u | (1u << 12), .data = PROBE_IPI_VECTOR };

	if (!t)
		return;
	vm_global_set(ctx->vm, probe_ipi_stop, 1);
	kvm_ioctl(ctx->vm->fd, KVM_SIGNAL_MSI, &msi);
	pthread_join(t->tid, NULL);
	ctx->vcpu1_cpu = t->ran_cpu;
	if (t->res.kind != GUEST_DONE)
		snprintf(ctx->reason, sizeof(ctx->reason), "second vCPU: %s: %s",
			 guest_exit_name(t->res.kind), t->res.msg);
	free(t);
	ctx->thread = NULL;
}
