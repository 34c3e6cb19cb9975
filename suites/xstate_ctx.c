// SPDX-License-Identifier: GPL-2.0-only
/*
 * xstate_ctx.c - what every xstate check shares: the VM with its exit hook
 * (which reads the process's XCR0/PKRU right after KVM_RUN returns), XCR0
 * through KVM_GET/SET_XCRS, patterns, and how a guest outcome is reported.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "suites/xstate_guest.h"
#include "suites/xstate_int.h"

int xs_get_xcr0(struct xs_ctx *x, uint64_t *val)
{
	struct kvm_xcrs xcrs;
	int r = kvm_get_xcrs(x->v->fd, &xcrs);

	if (r)
		return r;
	for (uint32_t i = 0; i < xcrs.nr_xcrs && i < KVM_MAX_XCRS; i++)
		if (xcrs.xcrs[i].xcr == 0) {
			*val = xcrs.xcrs[i].value;
			return 0;
		}
	return -ENOENT;
}

int xs_set_xcr0(struct xs_ctx *x, uint64_t val)
{
	struct kvm_xcrs xcrs = { .nr_xcrs = 1 };

	xcrs.xcrs[0].xcr = 0;
	xcrs.xcrs[0].value = val;
	return kvm_set_xcrs(x->v->fd, &xcrs);
}

void xs_hex(char *buf, uint64_t v)
{
	snprintf(buf, XS_EV_LEN, "0x%llx", (unsigned long long)v);
}

void xs_ev_xcr0(char *buf, uint64_t v, const char *via)
{
	snprintf(buf, XS_EV_LEN, "xcr0=0x%llx via=%s", (unsigned long long)v, via);
}

void xs_fill(uint8_t *p, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed ^ (i * 37) ^ (i >> 3));
}

static bool xs_hook_fn(struct vcpu *v, struct kvm_run *run, void *ctx)
{
	struct xs_hook *h = ctx;
	uint64_t x;

	if (run->exit_reason == KVM_EXIT_IO && run->io.port == XS_PORT) {
		if (run->io.direction == KVM_EXIT_IO_IN)
			memset((char *)run + run->io.data_offset, 0, run->io.size * run->io.count);
	} else if (run->exit_reason == KVM_EXIT_MMIO && run->mmio.phys_addr >= GUEST_MMIO_BASE) {
		if (!run->mmio.is_write)
			memset(run->mmio.data, 0, sizeof(run->mmio.data));
	} else {
		return false;
	}
	h->hits++;
	if (h->cpu.osxsave && (x = host_cpu_xgetbv()) != h->cpu.xcr0) {
		h->xcr0_bad++;
		h->xcr0_last = x;
	}
	if (h->cpu.ospke && (x = xs_host_rdpkru()) != h->pkru0) {
		h->pkru_bad++;
		h->pkru_last = x;
	}
	return true;
}

const char *xs_outcome(const struct guest_result *res, char *buf, size_t len)
{
	snprintf(buf, len, "guest %s: %s", guest_exit_name(res->kind), res->msg);
	return buf;
}

enum check_status xs_outcome_status(const struct guest_result *res)
{
	return res->kind == GUEST_EMULATION_FAILURE ? CHECK_SKIP : CHECK_FAIL;
}

static uint64_t xs_pick_subset(const struct xs_ctx *x)
{
	uint64_t host = x->hook.cpu.xcr0;

	return host == 0x3 ? 0x1 : 0x3;	/* x87|SSE unless that is the host's own */
}

int xs_ctx_init(struct xs_ctx *x, struct err *err)
{
	struct vm_opts o = { .kvm_path = x->env->kvm_path, .irqchip = true,
			     .cpuid = hostinfo_cpuid(x->env->hi), .stop = x->env->stop,
			     .quiet = true };
	int r;

	xs_host_cpu(&x->hook.cpu);
	if (x->hook.cpu.ospke)
		x->hook.pkru0 = xs_host_rdpkru();
	r = vm_create(&x->vm, &o, err);
	if (r) {
		o.irqchip = false;
		r = vm_create(&x->vm, &o, err);
	}
	if (r)
		return r;
	x->irqchip = o.irqchip;
	x->v = &x->vm->vcpus[0];
	x->v->exit_hook = xs_hook_fn;
	x->v->hook_ctx = &x->hook;
	x->guest_xsave = cpuid_has(x->vm->cpuid, X86_FEAT_XSAVE);
	x->subset = xs_pick_subset(x);
	return 0;
}

void xs_ctx_free(struct xs_ctx *x)
{
	vm_destroy(x->vm);
	x->vm = NULL;
}
