// SPDX-License-Identifier: GPL-2.0-only
/*
 * runner.c - one probe, one VM: check what the probe needs, build a VM for
 * it, set CR4.OSXSAVE and XCR0 when asked to (--guest-xcr0), run its host
 * setup, measure it with the latency harness, tear down. probe_run measures
 * in one pass (method v1); a probe session (method v2) keeps the VM and its
 * guest for as many rounds as its caller runs in it (`run` runs one).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "guest/guest.h"
#include "guest/vm.h"
#include "probes/runner.h"
#include "probes/xstate_probes.h"
#include "host/hostinfo.h"
#include "kvm/abi.h"
#include "kvm/kvm.h"

const char *const probe_test_hooks[] = {
	PROBE_HANG_ENV, PROBE_MASK_SELF_IPI_ENV, PROBE_NO_PEER_ENV, PROBE_LATE_HOLD_ENV,
};
const size_t nr_probe_test_hooks = ARRAY_SIZE(probe_test_hooks);

#define XFEATURE_XTILE	((1ULL << 17) | (1ULL << 18))	/* AMX TILECFG | TILEDATA */

int guest_xcr0_check(uint64_t mask, const struct hostinfo *hi, struct err *err)
{
	uint64_t avx512 = mask & XFEATURE_AVX512, mpx = mask & (XFEATURE_BNDREGS | XFEATURE_BNDCSR);
	uint64_t amx = mask & XFEATURE_XTILE, extra = mask & ~hi->xcr0_supported;

	if (!(mask & XFEATURE_X87))
		return err_set(err, -EINVAL, "bit 0 (x87) is not set");
	if ((mask & XFEATURE_YMM) && !(mask & XFEATURE_SSE))
		return err_set(err, -EINVAL, "bit 2 (AVX) needs bit 1 (SSE)");
	if (avx512 && (avx512 != XFEATURE_AVX512 || !(mask & XFEATURE_YMM)))
		return err_set(err, -EINVAL, "bits 5-7 (AVX-512) go together and need bit 2 (AVX)");
	if (mpx && mpx != (XFEATURE_BNDREGS | XFEATURE_BNDCSR))
		return err_set(err, -EINVAL, "bits 3-4 (MPX) go together");
	if (amx && amx != XFEATURE_XTILE)
		return err_set(err, -EINVAL, "bits 17-18 (AMX) go together");
	if (extra)
		return err_set(err, -EINVAL, "bits %#llx are not in KVM's supported XCR0 %#llx",
			 (unsigned long long)extra, (unsigned long long)hi->xcr0_supported);
	return 0;
}

int guest_xcr0_read(int vcpu_fd, uint64_t *xcr0)
{
	struct kvm_xcrs x;
	int r = kvm_get_xcrs(vcpu_fd, &x);

	if (r)
		return r;
	for (uint32_t i = 0; i < x.nr_xcrs && i < KVM_MAX_XCRS; i++)
		if (x.xcrs[i].xcr == 0) {
			*xcr0 = x.xcrs[i].value;
			return 0;
		}
	return -ENOENT;
}

int guest_xcr0_apply(struct vm *vm, uint64_t mask, char *why, size_t len)
{
	for (int i = 0; i < vm->nr_vcpus; i++) {
		int fd = vm->vcpus[i].fd;
		struct kvm_xcrs x = { .nr_xcrs = 1, .xcrs = { { .xcr = 0, .value = mask } } };
		struct kvm_sregs sr;
		uint64_t got = 0;
		int r = kvm_get_sregs(fd, &sr);

		if (r)
			return r;
		sr.cr4 |= X86_CR4_OSXSAVE;
		r = kvm_set_sregs(fd, &sr);
		if (r)
			return snprintf(why, len, "KVM_SET_SREGS with CR4.OSXSAVE: %s",
					strerror(-r)), 1;
		r = kvm_set_xcrs(fd, &x);
		if (r)
			return snprintf(why, len, "KVM_SET_XCRS XCR0 %#llx: %s",
					(unsigned long long)mask, strerror(-r)), 1;
		r = kvm_get_sregs(fd, &sr);
		if (!r && !(sr.cr4 & X86_CR4_OSXSAVE))
			return snprintf(why, len, "KVM_GET_SREGS: CR4.OSXSAVE did not stay set"), 1;
		if (!r)
			r = guest_xcr0_read(fd, &got);
		if (r)
			return r;
		if (got != mask)
			return snprintf(why, len, "KVM_GET_XCRS reads XCR0 %#llx back, not %#llx",
					(unsigned long long)got, (unsigned long long)mask), 1;
	}
	return 0;
}

int probe_runner_init(struct probe_runner *r, struct err *err)
{
	int fd;

	r->cpuid = hostinfo_cpuid(r->hi);
	if (!r->cpuid)
		return err_set(err, -ENODATA, "KVM_GET_SUPPORTED_CPUID: not in the host record");
	fd = kvm_open(r->kvm_path);
	if (fd < 0)
		return err_set(err, fd, "%s: %s", r->kvm_path ? r->kvm_path : KVM_DEFAULT_DEV,
			 strerror(-fd));
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

static void session_finish(struct probe_runner *r, struct probe_session *s,
			   struct latency_result *res);

/* Append to res->reason (an action after its "; "). */
__attribute__((format(printf, 2, 3)))
static void reason_add(struct latency_result *res, const char *fmt, ...)
{
	size_t l = strlen(res->reason);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->reason + l, sizeof(res->reason) - l, fmt, ap);
	va_end(ap);
}

/*
 * Say why the guest's setup refused, in the probe's own terms, and what to
 * do about it. vCPU 1 never getting ready fails the probe: the host ran
 * the VM but could not run its second vCPU in time, which is not a lack of
 * a feature.
 */
static void setup_reason(const struct probe *p, struct latency_result *res, uint64_t watchdog_ms)
{
	uint64_t c = res->setup_code;
	char *why = res->reason;
	size_t len = sizeof(res->reason);

	if (c & GUEST_FAULT)
		snprintf(why, len,
			 "the guest setup of %s raised %s (vector %u): this host's KVM does not "
			 "allow what it needs (run --list); it runs on a host whose KVM does",
			 p->name, vector_name(GUEST_FAULT_VECTOR(c)), (unsigned)GUEST_FAULT_VECTOR(c));
	else if (c == GUEST_SKIP(PROBE_SKIP_NO_RO_PAGE))
		snprintf(why, len,
			 "the host gave %s no read-only page: exitscope could not map one (out of "
			 "guest memory); please report it as a bug", p->name);
	else if (c == GUEST_SKIP(PROBE_SKIP_USER_MSR))
		snprintf(why, len,
			 "RDMSR %#x did not reach userspace through the MSR filter: this host's "
			 "KVM took the filter but did not apply it; it runs on a host whose "
			 "KVM does", PROBE_USER_MSR);
	else if (c == GUEST_SKIP(PROBE_SKIP_NO_PEER)) {
		res->status = PROBE_FAILED;
		snprintf(why, len,
			 "the second vCPU did not get ready (%s) in %.0f ms, half the %llu ms "
			 "watchdog: its thread did not get a CPU in time; give it an idle one with "
			 "--cpu A,B, or run when the host is less busy",
			 p->needs & PROBE_NEED_X2APIC ? "enable its x2APIC" : "start its loop",
			 res->peer_wait_ms, (unsigned long long)watchdog_ms);
	} else if (c == GUEST_SKIP(PROBE_SKIP_XAPIC))
		snprintf(why, len,
			 "the APIC is in x2APIC mode already: no xAPIC MMIO page (this host's KVM "
			 "starts vCPUs so); the x2apic_ probes measure the same through MSRs");
	else
		reason_add(res, "; please report it as a bug");
}

/* Say what the probe's teardown check found (res->check_code), and what to do. */
static void check_reason(const struct probe *p, struct latency_result *res, struct vm *vm)
{
	if (res->check_code == GUEST_CHECK(PROBE_CHECK_IRQ))
		snprintf(res->reason, sizeof(res->reason),
			 "the interrupt of %s never arrived: none of %llu ops took it, in its "
			 "window or the %d ms after (TPR %llu); this host's KVM did not deliver it "
			 "(`exitscope check irq` tests the delivery rules)", p->name,
			 (unsigned long long)vm_global_get(vm, probe_irq_ops), PROBE_IRQ_LATE_MS,
			 (unsigned long long)vm_global_get(vm, probe_tpr_late));
	else
		snprintf(res->reason, sizeof(res->reason), "%s: the check after the samples failed "
			 "(check %u); please report it as a bug", p->name,
			 (unsigned)(res->check_code & GUEST_SKIP_INDEX_MASK));
}

/*
 * Did the guest itself end the probe (the harness's "<guest exit>: <msg>"
 * or "teardown: ..."), rather than exitscope's own setup?
 */
static bool guest_failed(const char *reason)
{
	for (enum guest_exit k = GUEST_ASSERT_FAILED; k <= GUEST_ERROR; k++) {
		size_t n = strlen(guest_exit_name(k));

		if (!strncmp(reason, guest_exit_name(k), n) && reason[n] == ':')
			return true;
	}
	return !strncmp(reason, "teardown: ", 10);
}

/* What a user can do about a hang, an op the host cannot emulate, or a guest that failed. */
static void outcome_action(struct latency_result *res)
{
	if (res->status == PROBE_FAILED && !res->setup_code && !res->check_code &&
	    guest_failed(res->reason))
		reason_add(res,
			   "; this host's KVM did not run the op as a CPU would: a report to its "
			   "maintainers needs this JSON and `exitscope info`");
	else if (res->status == PROBE_HANG && strstr(res->reason, "thread's CPU time"))
		reason_add(res, "; the op did not return while the vCPU thread spent --time-budget "
			   "(at least %d ms) of CPU time calibrating it, which a busy host "
			   "does not shorten: a host whose KVM never completes the instruction "
			   "hangs at any budget", LATENCY_CPU_WATCHDOG_MIN_MS);
	else if (res->status == PROBE_HANG)
		reason_add(res,
			   "; the op did not return (its watchdog is 2 x --time-budget + 1 s): on "
			   "a slow or busy host give it a larger --time-budget; a host whose KVM "
			   "never completes the instruction hangs at any budget");
	else if (res->status == PROBE_SKIPPED && !res->setup_code && strstr(res->reason, "emulate"))
		reason_add(res,
			   "; this host's KVM cannot run the instruction: nothing to change here");
}

/*
 * From the VM of one round, before it goes: how long vCPU 0 waited for
 * vCPU 1, and where each op's interrupt was taken (probes/irq_probes_guest.c).
 */
static void session_collect(const struct probe *p, struct probe_ctx *ctx, struct latency_result *res)
{
	struct vm *vm = ctx->vm;
	struct latency_irq *q = &res->irq;
	double ms;

	if (p->needs & PROBE_NEED_2VCPUS && p->setup && vm_global_get(vm, probe_peer_waited)) {
		ms = (double)vm_global_get(vm, probe_peer_waited) / (double)ctx->tsc_khz;
		if (!res->has_peer_wait || ms > res->peer_wait_ms)
			res->peer_wait_ms = ms;
		res->has_peer_wait = true;
	}
	if (p->teardown == probe_irq_check && vm_global_get(vm, probe_irq_ops)) {
		q->ops += vm_global_get(vm, probe_irq_ops);
		q->in_window += vm_global_get(vm, probe_irq_in_window);
		q->late += vm_global_get(vm, probe_irq_late);
		q->late_cycles += vm_global_get(vm, probe_irq_late_cycles);
	}
}

/*
 * Everything before the measurement: the probe's requirements, its VM, the
 * guest XCR0 (--guest-xcr0), its host setup. 0 with the session ready (s->vm
 * set), or 1 with res->status/reason saying why not (nothing to tear down).
 */
static int session_setup(struct probe_runner *r, const struct probe *p, struct probe_session *s,
			 struct latency_result *res)
{
	struct vm_opts vo = {
		.kvm_path = r->kvm_path, .stop = r->stop, .quiet = true,
		.nr_vcpus = p->needs & PROBE_NEED_2VCPUS ? 2 : 1,
		.irqchip = p->needs & PROBE_NEED_IRQCHIP, .cpuid = r->cpuid,
	};
	struct probe_ctx *ctx = &s->ctx;
	struct err err;
	bool own_watchdog = false;	/* the test hook's hang with a watchdog of its own */
	int rc;

	memset(s, 0, sizeof(*s));
	s->probe = p;
	*ctx = (struct probe_ctx){ .probe = p, .hi = r->hi, .efd = -1, .vcpu1_cpu = r->pin_cpu2 ? r->cpu2 : -1 };
	s->op = (struct latency_op){
		.name = p->name, .setup = p->setup, .op = p->op, .arg = p->arg, .reps = p->reps,
		.teardown = p->teardown,
	};
	s->env = r->env;
	r->guest_xcr0_after = 0;
	if (probe_unmet(p, r->hi, r->cpuid, r->kvm_fd, res->reason, sizeof(res->reason))) {
		res->status = PROBE_SKIPPED;
		return 1;
	}
	if (r->guest_xcr0 && !cpuid_has(r->cpuid, X86_FEAT_XSAVE)) {
		res->status = PROBE_SKIPPED;
		snprintf(res->reason, sizeof(res->reason), GUEST_XCR0_NO_XSAVE,
			 (unsigned long long)r->guest_xcr0);
		return 1;
	}
	if (p->cpuid_clear[0]) {	/* the row's guest CPUID: KVM's minus .cpuid_clear */
		struct kvm_cpuid2 *c = probe_guest_cpuid(p, r->cpuid);

		vo.cpuid = c;
		rc = c ? vm_create(&ctx->vm, &vo, &err) : err_set(&err, -ENOMEM, "%s",
								  strerror(ENOMEM));
		free(c);
	} else {
		rc = vm_create(&ctx->vm, &vo, &err);
	}
	if (rc) {
		res->status = PROBE_FAILED;
		/* The message is cut so that the advice after it fits the reason. */
		snprintf(res->reason, sizeof(res->reason),
			 "cannot build the VM: %.*s; `exitscope info` shows whether this host's "
			 "KVM works at all", LATENCY_REASON_LEN - 65, err.msg);
		return 1;
	}
	ctx->amd = hostinfo_vendor_amd(r->hi);
	ctx->watchdog_ms = latency_watchdog_ms(&s->env);
	ctx->tsc_khz = r->env.tsc_khz ? r->env.tsc_khz : 2000000;
	if (p->teardown == probe_irq_check) {
		const char *hold = getenv(PROBE_LATE_HOLD_ENV);

		vm_global_set(ctx->vm, probe_irq_late_max, ctx->tsc_khz * PROBE_IRQ_LATE_MS);
		if (hold)
			vm_global_set(ctx->vm, probe_irq_late_hold, strtoull(hold, NULL, 0));
	}
	if (ctx->amd && p->op_amd)
		s->op.op = p->op_amd;
	if (r->hang_probe && !strcmp(r->hang_probe, p->name)) {
		s->op.op = probe_hang;
		if (r->hang_watchdog_ms)
			ctx->watchdog_ms = r->hang_watchdog_ms;
		own_watchdog = r->hang_watchdog_ms != 0;
	}
	if (r->guest_xcr0) {
		char why[LATENCY_REASON_LEN - 64];

		rc = guest_xcr0_apply(ctx->vm, r->guest_xcr0, why, sizeof(why));
		if (rc) {
			res->status = rc > 0 ? PROBE_SKIPPED : PROBE_FAILED;
			snprintf(res->reason, sizeof(res->reason),
				 "--guest-xcr0 %#llx: %s; run without --guest-xcr0, or with a MASK "
				 "this host's KVM keeps", (unsigned long long)r->guest_xcr0,
				 rc > 0 ? why : strerror(-rc));
			vm_destroy(ctx->vm);
			ctx->vm = NULL;
			return 1;
		}
	}
	if (p->host_setup) {
		rc = p->host_setup(ctx);
		if (rc) {
			res->status = rc > 0 ? PROBE_SKIPPED : PROBE_FAILED;
			if (rc > 0)
				snprintf(res->reason, sizeof(res->reason), "%s", ctx->reason);
			else
				snprintf(res->reason, sizeof(res->reason),
					 "host setup: %s (an error of this host, not the probe's); "
					 "please report it with `exitscope info`", strerror(-rc));
			session_finish(r, s, res);
			return 1;
		}
	}
	s->env.vcpu = &ctx->vm->vcpus[0];
	s->env.watchdog_ms = ctx->watchdog_ms;
	/* A hang the test hook times itself has only that watchdog. */
	s->env.cpu_watchdog_ms = own_watchdog ? 0 : latency_cpu_watchdog_ms(&s->env);
	return 0;
}

/*
 * session_setup, where a setup step that failed because of Ctrl-C (e.g.
 * KVM_CREATE_VM: EINTR) leaves the probe stopped, not failed.
 */
static int session_prepare(struct probe_runner *r, const struct probe *p, struct probe_session *s,
			   struct latency_result *res)
{
	char why[LATENCY_REASON_LEN - 64];

	if (!session_setup(r, p, s, res))
		return 0;
	if (res->status == PROBE_FAILED && r->stop && *r->stop) {
		snprintf(why, sizeof(why), "%s", res->reason);
		res->status = PROBE_STOPPED;
		snprintf(res->reason, sizeof(res->reason),
			 "stopped by Ctrl-C during its setup (%s)", why);
	}
	return 1;
}

/* After the measurement (rc: the harness's return): reasons, host teardown, the VM. */
static void session_finish(struct probe_runner *r, struct probe_session *s,
			   struct latency_result *res)
{
	const struct probe *p = s->probe;
	struct probe_ctx *ctx = &s->ctx;

	if (!ctx->vm)
		return;
	snprintf(res->setup_note, sizeof(res->setup_note), "%s", ctx->note);
	if (r->guest_xcr0 && guest_xcr0_read(ctx->vm->vcpus[0].fd, &r->guest_xcr0_after))
		r->guest_xcr0_after = 0;
	session_collect(p, ctx, res);
	if (res->status == PROBE_SKIPPED && res->setup_code)
		setup_reason(p, res, ctx->watchdog_ms);
	else if (res->status == PROBE_FAILED && res->check_code)
		check_reason(p, res, ctx->vm);
	outcome_action(res);
	if (p->host_teardown) {
		ctx->reason[0] = 0;
		p->host_teardown(ctx);
		/* What went wrong on the host side explains a guest that did not finish. */
		if (res->status != PROBE_OK && ctx->reason[0]) {
			size_t l = strlen(res->reason);

			snprintf(res->reason + l, sizeof(res->reason) - l, "; %s", ctx->reason);
		}
	}
	if (p->needs & PROBE_NEED_2VCPUS) {
		res->cpus[0] = res->cpu_before;
		res->cpus[1] = ctx->vcpu1_cpu;
	}
	vm_destroy(ctx->vm);
	ctx->vm = NULL;
}

int probe_run(struct probe_runner *r, const struct probe *p, struct latency_result *res)
{
	struct probe_session *s = malloc(sizeof(*s));
	int rc;

	latency_result_clear(res);
	if (!s)
		return -ENOMEM;
	if (session_prepare(r, p, s, res)) {
		free(s);
		return 0;
	}
	rc = latency_measure(&s->env, &s->op, res);
	if (rc) {
		res->status = PROBE_FAILED;
		snprintf(res->reason, sizeof(res->reason),
			 "latency_measure: %s (exitscope's own error: please report it as a bug)",
			 strerror(-rc));
	}
	session_finish(r, s, res);
	free(s);
	return 0;
}

int probe_session_open(struct probe_runner *r, const struct probe *p, struct probe_session *s,
		       struct latency_result *res)
{
	int rc;

	if (session_prepare(r, p, s, res))
		return 0;
	rc = latency_session_open(&s->ls, &s->env, &s->op, res);
	if (rc) {
		res->status = PROBE_FAILED;
		snprintf(res->reason, sizeof(res->reason),
			 "latency_session_open: %s (exitscope's own error: please report it as "
			 "a bug)", strerror(-rc));
	}
	if (!s->ls.open)
		session_finish(r, s, res);
	return 0;
}

int probe_session_round(struct probe_runner *r, struct probe_session *s, struct latency_result *res)
{
	int rc = latency_session_round(&s->ls, res);

	if (rc) {
		res->status = PROBE_FAILED;
		snprintf(res->reason, sizeof(res->reason),
			 "latency_session_round: %s (exitscope's own error: please report it as "
			 "a bug)", strerror(-rc));
		latency_session_close(&s->ls, res);
	}
	if (!s->ls.open)
		session_finish(r, s, res);
	return 0;
}

void probe_session_close(struct probe_runner *r, struct probe_session *s, struct latency_result *res)
{
	latency_session_close(&s->ls, res);
	session_finish(r, s, res);
}
