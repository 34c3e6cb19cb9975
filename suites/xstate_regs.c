// SPDX-License-Identifier: GPL-2.0-only
/*
 * xstate_regs.c - the register halves of the xstate suite: host vector
 * registers across KVM_RUN, guest vector registers across exits,
 * KVM_SET_XSAVE as the guest sees it, IA32_XSS and PKRU.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "suites/xstate_guest.h"
#include "suites/xstate_int.h"

#define XS_RAW_RUN_MS		10000
#define XS_XSAVE_XMM_OFFSET	160	/* xmm0 in the legacy XSAVE area */
#define XS_XSAVE_MXCSR_OFFSET	24
#define XS_MXCSR_DEFAULT	0x1f80

static size_t xs_first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	return i;
}

/* Bytes that differ between a and b. */
static size_t xs_count_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += a[i] != b[i];
	return k;
}

/* "regs=xmm0-15 bytes=256 changed=N": the evidence of a vector-register comparison. */
static void xs_vec_ev(char *buf, const char *regs, size_t bytes, size_t changed)
{
	snprintf(buf, XS_EV_LEN, "regs=%s bytes=%zu changed=%zu", regs, bytes, changed);
}

/*
 * A watchdog for the raw KVM_RUN of xs_kvm_run_vec: SIGUSR1 to this thread
 * (unblocked only inside KVM_RUN by the run loop) after ms.
 */
static int xs_guard_arm(timer_t *t, unsigned int ms)
{
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGUSR1 };
	struct itimerspec its = { .it_value = { ms / 1000, (ms % 1000) * 1000000L } };

	sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_MONOTONIC, &sev, t))
		return -errno;
	timer_settime(*t, 0, &its, NULL);
	return 0;
}

static void xs_guard_disarm(timer_t t)
{
	struct timespec zero = { 0 };
	sigset_t set;

	timer_delete(t);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	while (sigtimedwait(&set, NULL, &zero) > 0)
		;
}

void xs_check_host_vec(void *arg)
{
	struct xs_ctx *x = arg;
	enum xs_vec_kind kind = x->hook.cpu.vec;
	size_t n = xs_vec_bytes(kind), d;
	uint8_t in[XS_VEC_MAX_BYTES], out[XS_VEC_MAX_BYTES];
	struct kvm_run *run = x->v->run;
	struct guest_result res;
	char buf[600], want[XS_EV_LEN], seen[XS_EV_LEN];
	timer_t t;
	long r;

	/* A first run on this thread binds the run loop's signal mask. */
	vcpu_call_run(x->v, xs_guest_store_xmm, 0, XS_BUDGET_MS, &res);
	xs_fill(in, n, 0xa5);
	memset(out, 0, sizeof(out));
	xs_fill(*vm_global(x->vm, xs_g_pattern), XS_VEC_BYTES, 0x3c);
	if (vcpu_call(x->v, xs_guest_clobber, 0) || xs_guard_arm(&t, XS_RAW_RUN_MS)) {
		check_add(x->rep, XS_SUITE, "host_vector_state", CHECK_FAIL,
			  "cannot set up the guest call");
		return;
	}
	r = xs_kvm_run_vec(kind, x->v->fd, in, out);
	xs_guard_disarm(t);
	if (r) {
		check_add(x->rep, XS_SUITE, "host_vector_state", CHECK_FAIL,
			  "KVM_RUN with the pattern loaded: %s", strerror((int)-r));
		return;
	}
	if (run->exit_reason != KVM_EXIT_IO || run->io.port != XS_PORT) {
		check_add(x->rep, XS_SUITE, "host_vector_state",
			  run->exit_reason == KVM_EXIT_INTERNAL_ERROR ? CHECK_SKIP : CHECK_FAIL,
			  "the guest did not reach its port exit: KVM exit %s (the guest loads "
			  "xmm0-15 first)", kvm_exit_reason_name(run->exit_reason));
		return;
	}
	d = xs_first_diff(in, out, n);
	xs_vec_ev(want, xs_vec_name(kind), n, 0);
	xs_vec_ev(seen, xs_vec_name(kind), n, xs_count_diff(in, out, n));
	vcpu_run(x->v, XS_BUDGET_MS, &res);	/* complete the port write, let the guest return */
	if (d < n)
		check_add_ev(x->rep, XS_SUITE, "host_vector_state", CHECK_FAIL, want, seen,
			  "%s of the exitscope process changed across KVM_RUN: byte %zu (%s%zu) is "
			  "%#x, was %#x", xs_vec_name(kind), d,
			  kind == XS_VEC_XMM ? "xmm" : kind == XS_VEC_YMM ? "ymm" : "zmm",
			  d / (n / (kind == XS_VEC_ZMM ? 32 : 16)), out[d], in[d]);
	else
		check_add_ev(x->rep, XS_SUITE, "host_vector_state", CHECK_PASS, want, seen,
			  "%s pattern (%zu bytes) of the exitscope process intact after a KVM_RUN "
			  "in which the guest loaded its own xmm0-15 and exited on a port write "
			  "(%s)%s", xs_vec_name(kind), n,
			  res.kind == GUEST_DONE ? "guest returned"
			  : xs_outcome(&res, buf, sizeof(buf)),
			  kind == XS_VEC_ZMM ? "" : "; host has no usable AVX-512, no zmm");
}

void xs_check_guest_vec(void *arg)
{
	struct xs_ctx *x = arg;
	struct vcpu_user_exits u0 = x->v->user_exits;
	struct guest_result res;
	enum guest_exit k;
	bool synced = false;
	char buf[600], want[XS_EV_LEN], seen[XS_EV_LEN];

	xs_fill(*vm_global(x->vm, xs_g_pattern), XS_VEC_BYTES, 0x96);
	for (k = vcpu_call_run(x->v, xs_guest_vec_exits, 0, XS_BUDGET_MS, &res);
	     k == GUEST_SYNC; k = vcpu_run(x->v, XS_BUDGET_MS, &res)) {
		/* the host's own vector registers get another value meanwhile */
		xs_host_clobber_vec(x->hook.cpu.vec, 0xee);
		synced = true;
	}
	if (k != GUEST_DONE) {
		check_add(x->rep, XS_SUITE, "guest_vector_state", xs_outcome_status(&res), "%s",
			  xs_outcome(&res, buf, sizeof(buf)));
		return;
	}
	xs_vec_ev(want, "xmm0-15", XS_VEC_BYTES, 0);
	xs_vec_ev(seen, "xmm0-15", XS_VEC_BYTES, res.args[0]);
	check_add_ev(x->rep, XS_SUITE, "guest_vector_state", res.args[0] ? CHECK_FAIL : CHECK_PASS,
		  want, seen,
		  "guest xmm0-15 pattern: %llu of %d bytes changed after %llu userspace PIO, "
		  "%llu MMIO exits, CPUID, in-kernel PIO and a sync%s",
		  (unsigned long long)res.args[0], XS_VEC_BYTES,
		  (unsigned long long)(x->v->user_exits.io - u0.io),
		  (unsigned long long)(x->v->user_exits.mmio - u0.mmio),
		  synced ? " during which the host overwrote its own vector registers" : "");
}

void xs_check_set_xsave(void *arg)
{
	struct xs_ctx *x = arg;
	int size = kvm_xsave_size(x->vm->fd), r;
	struct kvm_xsave *xs = calloc(1, size);
	uint8_t want[XS_VEC_BYTES];
	struct guest_result res;
	char buf[600], ev_want[XS_EV_LEN], ev_seen[XS_EV_LEN];
	size_t d;

	if (!xs)
		return;
	r = kvm_get_xsave2(x->v->fd, xs);
	if (r) {
		check_add(x->rep, XS_SUITE, "set_xsave_guest_view", CHECK_FAIL,
			  "KVM_GET_XSAVE2: %s", strerror(-r));
		goto out;
	}
	/*
	 * The SSE component in full: xmm0-15, MXCSR at its reset value, and
	 * XSTATE_BV's SSE bit (clear, KVM would load the init state, zeros,
	 * whatever the bytes; whether it is set depends on what ran before).
	 */
	xs_fill(want, sizeof(want), 0x71);
	memcpy((uint8_t *)xs->region + XS_XSAVE_XMM_OFFSET, want, sizeof(want));
	{
		uint32_t mxcsr = XS_MXCSR_DEFAULT;
		uint64_t bv;

		memcpy((uint8_t *)xs->region + XS_XSAVE_MXCSR_OFFSET, &mxcsr, sizeof(mxcsr));
		memcpy(&bv, (uint8_t *)xs->region + XSAVE_XSTATE_BV_OFFSET, sizeof(bv));
		bv |= XFEATURE_SSE;
		memcpy((uint8_t *)xs->region + XSAVE_XSTATE_BV_OFFSET, &bv, sizeof(bv));
	}
	r = kvm_set_xsave(x->v->fd, xs);
	if (r) {
		check_add(x->rep, XS_SUITE, "set_xsave_guest_view", CHECK_FAIL, "KVM_SET_XSAVE: %s",
			  strerror(-r));
		goto out;
	}
	vcpu_call_run(x->v, xs_guest_store_xmm, 0, XS_BUDGET_MS, &res);
	if (res.kind != GUEST_DONE) {
		check_add(x->rep, XS_SUITE, "set_xsave_guest_view", xs_outcome_status(&res), "%s",
			  xs_outcome(&res, buf, sizeof(buf)));
		goto out;
	}
	d = xs_first_diff(want, *vm_global(x->vm, xs_g_xmm), sizeof(want));
	xs_vec_ev(ev_want, "xmm0-15", sizeof(want), 0);
	xs_vec_ev(ev_seen, "xmm0-15", sizeof(want),
		  xs_count_diff(want, *vm_global(x->vm, xs_g_xmm), sizeof(want)));
	if (d < sizeof(want))
		check_add_ev(x->rep, XS_SUITE, "set_xsave_guest_view", CHECK_FAIL, ev_want, ev_seen,
			  "after KVM_SET_XSAVE the guest's xmm%zu byte %zu is %#x, set %#x", d / 16,
			  d % 16, (*vm_global(x->vm, xs_g_xmm))[d], want[d]);
	else
		check_add_ev(x->rep, XS_SUITE, "set_xsave_guest_view", CHECK_PASS, ev_want, ev_seen,
			  "xmm0-15 written with KVM_SET_XSAVE (%d-byte buffer, XSTATE_BV SSE set, "
			  "MXCSR %#x) read back by the guest (movdqu)", size, XS_MXCSR_DEFAULT);
out:
	free(xs);
}

void xs_check_xss(void *arg)
{
	struct xs_ctx *x = arg;
	const struct hostinfo *hi = x->env->hi;
	uint64_t want, seen[4] = { 0 }, kvm = 0;
	struct guest_result res;
	enum guest_exit k;
	int kr = -ENOENT;
	char buf[600], ev_want[XS_EV_LEN], ev_seen[XS_EV_LEN];

	if (!hi || !hi->feat_xsaves) {
		check_add_ev(x->rep, XS_SUITE, "xss", CHECK_SKIP, "xsaves=1", "xsaves=0",
			  "KVM does not offer XSAVES to guests (KVM_GET_SUPPORTED_CPUID "
			  "0xd.1:EAX[3] clear), so guests have no IA32_XSS (supported XSS %#llx, "
			  "in the MSR save list: %s)",
			  hi ? (unsigned long long)hi->xss_supported : 0ULL,
			  hi && hi->msr_xss ? "yes" : "no");
		return;
	}
	want = hi->xss_supported;
	vm_global_set(x->vm, xs_g_bad_xss, 1);	/* XSS bits 0-7 are reserved */
	for (k = vcpu_call_run(x->v, xs_guest_xss, want, XS_BUDGET_MS, &res); k == GUEST_SYNC;
	     k = vcpu_run(x->v, XS_BUDGET_MS, &res)) {
		if (res.args[0] != XS_SYNC_XSS || res.args[1] > 3)
			continue;
		seen[res.args[1]] = res.args[2];
		if (res.args[1] == 1) {
			kr = kvm_get_msr(x->v->fd, MSR_IA32_XSS, &kvm);
			if (!kr)	/* save/restore round trip */
				kr = kvm_set_msr(x->v->fd, MSR_IA32_XSS, kvm);
		}
	}
	if (k != GUEST_DONE) {
		check_add(x->rep, XS_SUITE, "xss", xs_outcome_status(&res), "%s",
			  xs_outcome(&res, buf, sizeof(buf)));
		return;
	}
	if (res.args[0] & GUEST_FAULT_PREREQ) {
		check_add(x->rep, XS_SUITE, "xss", CHECK_FAIL,
			  "guest wrmsr IA32_XSS=%#llx faulted with %s although XSAVES is offered",
			  (unsigned long long)want, vector_name(GUEST_FAULT_VECTOR(res.args[0])));
		return;
	}
	snprintf(ev_want, sizeof(ev_want),
		 "after_exits=0x%llx kvm=0x%llx after_set=0x%llx reserved=0x%llx",
		 (unsigned long long)want, (unsigned long long)want, (unsigned long long)want,
		 (unsigned long long)GUEST_FAULT_CODE(GP_VECTOR));
	snprintf(ev_seen, sizeof(ev_seen),
		 "after_exits=0x%llx kvm=0x%llx after_set=0x%llx reserved=0x%llx",
		 (unsigned long long)seen[1], kr ? ~0ULL : (unsigned long long)kvm,
		 (unsigned long long)seen[2], (unsigned long long)res.args[0]);
	check_add_ev(x->rep, XS_SUITE, "xss",
		  seen[1] == want && seen[2] == want && seen[3] == want && !kr && kvm == want &&
		  res.args[0] == GUEST_FAULT_CODE(GP_VECTOR) ? CHECK_PASS : CHECK_FAIL, ev_want, ev_seen,
		  "guest wrote IA32_XSS %#llx: read %#llx after exits, KVM_GET_MSRS %#llx (%s), "
		  "%#llx after KVM_SET_MSRS; writing reserved bit 0: %s, value then %#llx",
		  (unsigned long long)want, (unsigned long long)seen[1], (unsigned long long)kvm,
		  kr ? strerror(-kr) : "round trip ok", (unsigned long long)seen[2],
		  res.args[0] & GUEST_FAULT ? vector_name(GUEST_FAULT_VECTOR(res.args[0]))
		  : "accepted",
		  (unsigned long long)seen[3]);
}

void xs_check_pkru(void *arg)
{
	struct xs_ctx *x = arg;
	const struct hostinfo *hi = x->env->hi;
	/* neither the host's PKRU nor 0 nor Linux's default: each side would see a missed switch */
	const uint32_t want = xs_pkru_guest_value(x->hook.pkru0);
	uint64_t guest_mid = 0, bad0 = x->hook.pkru_bad;
	uint32_t host_mid = 0;
	struct guest_result res;
	enum guest_exit k;
	char buf[600], ev_want[XS_EV_LEN], ev_seen[XS_EV_LEN];
	bool host_ok;

	if (!hi || !hi->feat_pku) {
		check_add_ev(x->rep, XS_SUITE, "pkru", CHECK_SKIP, "pku=1", "pku=0",
			  "KVM does not offer PKU to guests (KVM_GET_SUPPORTED_CPUID 7:ECX[3] "
			  "clear): no guest PKRU to isolate");
		return;
	}
	for (k = vcpu_call_run(x->v, xs_guest_pkru, want, XS_BUDGET_MS, &res); k == GUEST_SYNC;
	     k = vcpu_run(x->v, XS_BUDGET_MS, &res)) {
		if (x->hook.cpu.ospke)
			host_mid = xs_host_rdpkru();
		guest_mid = res.args[1];
	}
	if (k != GUEST_DONE) {
		check_add(x->rep, XS_SUITE, "pkru", xs_outcome_status(&res), "%s",
			  xs_outcome(&res, buf, sizeof(buf)));
		return;
	}
	if (res.args[0] & GUEST_NO_VALUE) {
		check_add(x->rep, XS_SUITE, "pkru", CHECK_FAIL,
			  "setting CR4.PKE faulted with %s although PKU is offered",
			  vector_name(GUEST_FAULT_VECTOR(res.args[0])));
		return;
	}
	host_ok = !x->hook.cpu.ospke || (host_mid == x->hook.pkru0 && x->hook.pkru_bad == bad0);
	snprintf(ev_want, sizeof(ev_want), "guest_mid=0x%x guest_end=0x%x host_changed=0", want,
		 want);
	snprintf(ev_seen, sizeof(ev_seen), "guest_mid=0x%llx guest_end=0x%llx host_changed=%d",
		 (unsigned long long)guest_mid, (unsigned long long)res.args[0], !host_ok);
	check_add_ev(x->rep, XS_SUITE, "pkru",
		  guest_mid == want && res.args[0] == want && host_ok ? CHECK_PASS : CHECK_FAIL,
		  ev_want, ev_seen,
		  "guest PKRU %#x (host's %#x): rdpkru %#llx after PIO and CPUID exits, %#llx "
		  "after a sync; host PKRU %s", want, x->hook.pkru0, (unsigned long long)guest_mid,
		  (unsigned long long)res.args[0],
		  !x->hook.cpu.ospke ? "not readable (host without OSPKE)"
		  : host_ok ? "unchanged after KVM_RUN" : "CHANGED after KVM_RUN");
}
