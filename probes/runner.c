/*
 * runner.c - one probe, one VM: check what the probe needs, build a VM for
 * it, run its host setup, measure it with the latency harness, tear down.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest/guest.h"
#include "guest/vm.h"
#include "probes/runner.h"
#include "host/hostinfo.h"

int probe_runner_init(struct probe_runner *r, char *err, size_t errlen)
{
	int fd;

	r->cpuid = hostinfo_cpuid(r->hi);
	if (!r->cpuid) {
		snprintf(err, errlen, "KVM_GET_SUPPORTED_CPUID: not in the host record");
		return -ENODATA;
	}
	fd = kvm_open(r->kvm_path);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", r->kvm_path ? r->kvm_path : KVM_DEFAULT_DEV,
			 strerror(-fd));
		return fd;
	}
	r->kvm_fd = fd;
	return 0;
}

void probe_runner_free(struct probe_runner *r)
{
	r->cpuid = NULL;
	if (r->kvm_fd >= 0)
		close(r->kvm_fd);
	r->kvm_fd = -1;
}

/* Say why the guest's setup refused, in the probe's own terms. */
static void setup_reason(const struct probe *p, struct latency_result *res)
{
	uint64_t c = res->setup_code;

	if (c & GUEST_FAULT)
		snprintf(res->reason, sizeof(res->reason),
			 "the guest setup of %s (%s) raised %s (vector %u): the host does not allow it",
			 p->name, p->description, vector_name(GUEST_FAULT_VECTOR(c)),
			 (unsigned)GUEST_FAULT_VECTOR(c));
	else if (c == GUEST_SKIP(PROBE_SKIP_NO_RO_PAGE))
		snprintf(res->reason, sizeof(res->reason),
			 "the host gave %s no read-only page", p->name);
	else if (c == GUEST_SKIP(PROBE_SKIP_USER_MSR))
		snprintf(res->reason, sizeof(res->reason),
			 "RDMSR %#x did not reach userspace through the MSR filter", PROBE_USER_MSR);
	else if (c == GUEST_SKIP(PROBE_SKIP_IPI_TARGET))
		snprintf(res->reason, sizeof(res->reason),
			 "the second vCPU did not enable its x2APIC in time");
}

int probe_run(struct probe_runner *r, const struct probe *p, struct latency_result *res)
{
	struct vm_opts vo = {
		.kvm_path = r->kvm_path, .stop = r->stop, .quiet = true,
		.nr_vcpus = p->needs & PROBE_NEED_2VCPUS ? 2 : 1,
		.irqchip = p->needs & PROBE_NEED_IRQCHIP, .cpuid = r->cpuid,
	};
	struct probe_ctx ctx = { .probe = p, .hi = r->hi, .efd = -1 };
	struct latency_op op = {
		.name = p->name, .setup = p->setup, .op = p->op, .arg = p->arg,
		.teardown = p->teardown,
	};
	struct latency_env env = r->env;
	char err[LATENCY_REASON_LEN - 64];
	int rc;

	memset(res, 0, sizeof(*res));
	res->cpu_before = res->cpu_after = -1;
	if (probe_unmet(p, r->hi, r->cpuid, r->kvm_fd, res->reason, sizeof(res->reason))) {
		res->status = PROBE_SKIPPED;
		return 0;
	}
	rc = vm_create(&ctx.vm, &vo, err, sizeof(err));
	if (rc) {
		res->status = PROBE_FAILED;
		snprintf(res->reason, sizeof(res->reason), "cannot build the VM: %s", err);
		return 0;
	}
	ctx.amd = hostinfo_vendor_amd(r->hi);
	ctx.watchdog_ms = env.watchdog_ms ? env.watchdog_ms : 2 * env.budget_ms + 1000;
	if (ctx.amd && p->op_amd)
		op.op = p->op_amd;
	if (r->hang_probe && !strcmp(r->hang_probe, p->name))
		op.op = probe_hang;
	if (p->host_setup) {
		rc = p->host_setup(&ctx);
		if (rc) {
			res->status = rc > 0 ? PROBE_SKIPPED : PROBE_FAILED;
			if (rc > 0)
				snprintf(res->reason, sizeof(res->reason), "%s", ctx.reason);
			else
				snprintf(res->reason, sizeof(res->reason), "host setup: %s", strerror(-rc));
			goto out;
		}
	}
	env.vcpu = &ctx.vm->vcpus[0];
	env.watchdog_ms = ctx.watchdog_ms;
	rc = latency_measure(&env, &op, res);
	if (rc) {
		res->status = PROBE_FAILED;
		snprintf(res->reason, sizeof(res->reason), "latency_measure: %s", strerror(-rc));
	} else if (res->status == PROBE_SKIPPED && res->setup_code) {
		setup_reason(p, res);
	}
out:
	if (p->host_teardown) {
		ctx.reason[0] = 0;
		p->host_teardown(&ctx);
		/* What went wrong on the host side explains a guest that did not finish. */
		if (res->status != PROBE_OK && ctx.reason[0]) {
			size_t l = strlen(res->reason);

			snprintf(res->reason + l, sizeof(res->reason) - l, "; %s", ctx.reason);
		}
	}
	vm_destroy(ctx.vm);
	return 0;
}
