// SPDX-License-Identifier: GPL-2.0-only
/*
 * xstate_xcr0.c - the XCR0 checks of the xstate suite: a guest XCR0 subset
 * set by the guest and by the host, XCR0 isolation after each exit kind
 * (userspace PIO, in-kernel PIO, MMIO, CPUID, HLT with wake-up, a signal),
 * and KVM_SET_XCRS as the guest sees it.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "suites/xstate_guest.h"
#include "suites/xstate_int.h"

static const char *const xs_step_names[XS_NR_STEPS + 1] = {
	[XS_STEP_PIO_USER] = "pio_user", [XS_STEP_PIO_KERNEL] = "pio_kernel",
	[XS_STEP_MMIO] = "mmio", [XS_STEP_CPUID] = "cpuid", [XS_STEP_HLT] = "hlt",
	[XS_STEP_SIGNAL] = "signal",
};

/*
 * The guest sets the XCR0 subset itself (KVM's copy set to another value
 * first, so that KVM_GET_XCRS can show the guest's XSETBV), then tries xgetbv.
 */
void xs_check_subset_guest(void *arg)
{
	struct xs_ctx *x = arg;
	struct xs_subset_ev e = { .subset = x->subset, .guest = XS_NO_VALUE };
	struct guest_result res;
	char buf[600], want[XS_EV_LEN], seen[XS_EV_LEN];
	enum check_status st;

	xs_hex(want, x->subset);
	if (!x->guest_xsave) {
		snprintf(x->no_xgetbv, sizeof(x->no_xgetbv), "guest CPUID has no XSAVE");
		check_add_ev(x->rep, XS_SUITE, "xcr0_subset_guest", CHECK_SKIP, "xsave=1",
			  "xsave=0", "%s (KVM_GET_SUPPORTED_CPUID 1:ECX[26] clear): the guest "
				     "cannot set XCR0 "
			  "or run xgetbv", x->no_xgetbv);
		return;
	}
	e.kvm_before = x->subset == 0x1 ? 0x3 : 0x1;
	if (xs_set_xcr0(x, e.kvm_before))
		e.kvm_before = XS_NO_VALUE;
	vcpu_call_run(x->v, xs_guest_set_xcr0, x->subset, XS_BUDGET_MS, &res);
	if (res.kind != GUEST_DONE || (res.args[0] & GUEST_FAULT_PREREQ)) {
		st = res.kind == GUEST_EMULATION_FAILURE ? CHECK_SKIP : CHECK_FAIL;
		if (res.kind == GUEST_DONE)
			snprintf(buf, sizeof(buf), "setting CR4.OSXSAVE faulted with %s although "
				 "guest CPUID has XSAVE",
				 vector_name(GUEST_FAULT_VECTOR(res.args[0])));
		else
			xs_outcome(&res, buf, sizeof(buf));
		snprintf(x->no_xgetbv, sizeof(x->no_xgetbv), "the guest could not set XCR0");
		check_add_ev(x->rep, XS_SUITE, "xcr0_subset_guest", st, "xsetbv=ok", "xsetbv=none",
			  "XCR0 %#llx: %s", (unsigned long long)x->subset, buf);
		return;
	}
	e.xsetbv_ok = !res.args[0];
	if (!e.xsetbv_ok)
		snprintf(x->no_xgetbv, sizeof(x->no_xgetbv), "the guest could not set XCR0");
	else
		e.kvm_err = xs_get_xcr0(x, &e.kvm);
	if (e.xsetbv_ok && !e.kvm_err && e.kvm == x->subset) {
		vcpu_call_run(x->v, xs_guest_xgetbv, 0, XS_BUDGET_MS, &res);
		if (res.kind == GUEST_DONE && !(res.args[0] & GUEST_NO_VALUE)) {
			x->guest_xgetbv = true;
			e.guest = res.args[0];
		} else if (res.kind == GUEST_DONE) {
			snprintf(x->no_xgetbv, sizeof(x->no_xgetbv), "guest xgetbv faulted with %s",
				 vector_name(GUEST_FAULT_VECTOR(res.args[0])));
		} else {
			snprintf(x->no_xgetbv, sizeof(x->no_xgetbv), "guest xgetbv: %s", res.msg);
		}
	} else if (e.xsetbv_ok) {
		snprintf(x->no_xgetbv, sizeof(x->no_xgetbv), "KVM did not see the guest's XSETBV");
	}
	e.no_guest = x->no_xgetbv;
	st = xs_subset_verdict(&e, buf, sizeof(buf), want, seen);
	if (e.xsetbv_ok && !e.kvm_err && e.kvm == x->subset) {
		x->subset_by_guest = true;
		snprintf(x->subset_how, sizeof(x->subset_how), "set by the guest (xsetbv)");
	}
	check_add_ev(x->rep, XS_SUITE, "xcr0_subset_guest", st, want, seen,
		  "guest set XCR0 %#llx with xsetbv (host %#llx): %s",
		  (unsigned long long)x->subset, (unsigned long long)x->hook.cpu.xcr0, buf);
}

/* The same subset through KVM_SET_XCRS from the host. */
void xs_check_subset_host(void *arg)
{
	struct xs_ctx *x = arg;
	char want[XS_EV_LEN], seen[XS_EV_LEN];
	uint64_t got = 0;
	int r = xs_set_xcr0(x, x->subset);

	xs_ev_xcr0(want, x->subset, "kvm_get_xcrs");
	if (r) {
		check_add(x->rep, XS_SUITE, "xcr0_subset_host",
			  x->hook.cpu.osxsave ? CHECK_FAIL : CHECK_SKIP,
			  "KVM_SET_XCRS XCR0=%#llx: %s%s", (unsigned long long)x->subset,
			  strerror(-r), x->hook.cpu.osxsave ? "" : " (host without XSAVE)");
		if (!x->subset_how[0])
			x->subset = 0;
		return;
	}
	r = xs_get_xcr0(x, &got);
	xs_ev_xcr0(seen, got, "kvm_get_xcrs");
	if (r || got != x->subset) {
		check_add_ev(x->rep, XS_SUITE, "xcr0_subset_host", CHECK_FAIL, want,
			  r ? NULL : seen,
			  "KVM_SET_XCRS XCR0=%#llx accepted, KVM_GET_XCRS %s %#llx",
			  (unsigned long long)x->subset, r ? strerror(-r) : "returned",
			  (unsigned long long)got);
		if (!x->subset_how[0])
			x->subset = 0;
		return;
	}
	if (!x->subset_how[0])
		snprintf(x->subset_how, sizeof(x->subset_how), "set by the host (KVM_SET_XCRS)");
	check_add_ev(x->rep, XS_SUITE, "xcr0_subset_host", CHECK_PASS, want, seen,
		  "KVM_SET_XCRS XCR0=%#llx (host XCR0 %#llx): KVM_GET_XCRS returns %#llx",
		  (unsigned long long)x->subset, (unsigned long long)x->hook.cpu.xcr0,
		  (unsigned long long)got);
}

/*
 * Signals the vCPU thread until the run loop has seen KVM_RUN return EINTR.
 * SIGUSR2 with a no-op handler, unblocked in the vCPU thread: KVM_RUN
 * returns -EINTR and the signal is delivered (consumed) on the way out.
 * (SIGUSR1, the run loop's watchdog signal, is blocked outside KVM_RUN and
 * would stay pending, making every later KVM_RUN return -EINTR at once.)
 */
#define XS_KICK_SIGNAL	SIGUSR2

static void xs_kick_handler(int sig)
{
	(void)sig;
}

struct xs_kicker {
	pthread_t target;
	struct xs_ctx *x;
	uint64_t intr0;
	unsigned int sent;
};

static void *xs_kick(void *arg)
{
	struct xs_kicker *k = arg;
	struct timespec ts = { 0, 2000000 };

	for (int i = 0; i < 2500; i++) {
		if (__atomic_load_n(&k->x->v->user_exits.intr, __ATOMIC_RELAXED) > k->intr0)
			break;
		pthread_kill(k->target, XS_KICK_SIGNAL);
		k->sent++;
		nanosleep(&ts, NULL);
	}
	*vm_global(k->x->vm, xs_g_go) = 1;
	return NULL;
}

struct xs_step_seen {
	bool done;
	uint64_t guest, kvm, host, extra;
	int kvm_err;
	uint64_t hook_bad, io, mmio, intr;
	unsigned int kicks;
};

/*
 * The step's exit as it happened (prose into buf), and the exit count it
 * must have, as structured evidence ("user_pio=1"; "" where the count is
 * not exact): *st is CHECK_SKIP when the exit did not happen as intended.
 */
static void xs_step_evidence(int step, const struct xs_step_seen *s, char *buf, size_t len,
			     char *want, char *seen, enum check_status *st)
{
	const char *key = NULL;
	uint64_t n = 0, need = 0;

	*st = CHECK_PASS;
	switch (step) {
	case XS_STEP_PIO_USER:
		snprintf(buf, len, "%llu userspace PIO exit(s) (run loop)",
			 (unsigned long long)s->io);
		key = "user_pio", n = s->io, need = 1;
		break;
	case XS_STEP_PIO_KERNEL:
		snprintf(buf, len, "in-kernel PIO (port %#x, ELCR %#llx; %llu userspace PIO exits)",
			 XS_ELCR_PORT, (unsigned long long)s->extra, (unsigned long long)s->io);
		key = "user_pio", n = s->io, need = 0;
		break;
	case XS_STEP_MMIO:
		snprintf(buf, len, "%llu userspace MMIO exit(s) (run loop)",
			 (unsigned long long)s->mmio);
		key = "user_mmio", n = s->mmio, need = 1;
		break;
	case XS_STEP_CPUID:
		snprintf(buf, len, "CPUID (max leaf %#llx), handled in the kernel",
			 (unsigned long long)s->extra);
		break;
	case XS_STEP_HLT:
		snprintf(buf, len, "HLT woken by %llu x2APIC timer interrupt(s) (in-kernel APIC)",
			 (unsigned long long)s->extra);
		key = "timer_irqs", n = s->extra, need = 1;
		break;
	default:
		snprintf(buf, len,
			 "%llu KVM_RUN return(s) with EINTR after %u SIGUSR2 to the vCPU thread",
			 (unsigned long long)s->intr, s->kicks);
		if (!s->intr)
			*st = CHECK_SKIP;
		break;
	}
	want[0] = seen[0] = 0;
	if (!key)
		return;
	snprintf(want, XS_EV_LEN, " %s=%llu", key, (unsigned long long)need);
	snprintf(seen, XS_EV_LEN, " %s=%llu", key, (unsigned long long)n);
	if (n != need)
		*st = CHECK_SKIP;
}

static void xs_report_step(struct xs_ctx *x, int step, const struct xs_step_seen *s)
{
	char name[32], ev[160], why[400], exit_want[XS_EV_LEN], exit_seen[XS_EV_LEN];
	char want[XS_EV_LEN], seen[XS_EV_LEN], want2[2 * XS_EV_LEN], seen2[2 * XS_EV_LEN];
	struct xs_xcr0_ev e = {
		.subset = x->subset, .set_by_guest = x->subset_by_guest, .guest = s->guest,
		.no_guest = x->no_xgetbv, .kvm_err = s->kvm_err, .kvm = s->kvm,
		.host_measured = x->hook.cpu.osxsave, .host_want = x->hook.cpu.xcr0, .host = s->host,
		.hook_bad = s->hook_bad,
		/* the exit hook reads XCR0 on the return of these exits themselves */
		.host_at_exit = step == XS_STEP_PIO_USER || step == XS_STEP_MMIO,
	};
	enum check_status st, ev_st;

	snprintf(name, sizeof(name), "xcr0_after_%s", xs_step_names[step]);
	xs_step_evidence(step, s, ev, sizeof(ev), exit_want, exit_seen, &ev_st);
	st = xs_xcr0_verdict(&e, why, sizeof(why), want, seen);
	snprintf(want2, sizeof(want2), "%s%s", want, exit_want);
	snprintf(seen2, sizeof(seen2), "%s%s", seen, exit_seen);
	if (ev_st == CHECK_SKIP && st != CHECK_FAIL) {
		check_add_ev(x->rep, XS_SUITE, name, CHECK_SKIP, want2, seen2,
			     "the exit did not happen as intended: %s", ev);
		return;
	}
	check_add_ev(x->rep, XS_SUITE, name, st, want2, seen2,
		     "after %s: guest XCR0 %#llx %s; %s", ev, (unsigned long long)x->subset,
		     x->subset ? x->subset_how : "(none)", why);
}

void xs_check_exits(void *arg)
{
	struct xs_ctx *x = arg;
	struct xs_step_seen seen[XS_NR_STEPS + 1] = { { 0 } };
	struct vcpu_user_exits u0 = x->v->user_exits;
	struct xs_kicker kick = { .target = pthread_self(), .x = x };
	struct guest_result res;
	uint64_t bad0 = x->hook.xcr0_bad;
	bool kicking = false;
	struct sigaction sa = { .sa_handler = xs_kick_handler }, old_sa;
	sigset_t kick_set, old_mask;
	pthread_t th;
	enum guest_exit k;
	char buf[600];

	sigemptyset(&sa.sa_mask);
	sigaction(XS_KICK_SIGNAL, &sa, &old_sa);
	sigemptyset(&kick_set);
	sigaddset(&kick_set, XS_KICK_SIGNAL);
	pthread_sigmask(SIG_UNBLOCK, &kick_set, &old_mask);
	vm_global_set(x->vm, xs_g_xcr0, 0);	/* already set, keep it */
	vm_global_set(x->vm, xs_g_xgetbv, x->guest_xgetbv);
	vm_global_set(x->vm, xs_g_hlt, x->irqchip);
	for (k = vcpu_call_run(x->v, xs_guest_exits, 0, XS_BUDGET_MS, &res); k == GUEST_SYNC;
	     k = vcpu_run(x->v, XS_BUDGET_MS, &res)) {
		uint64_t host = x->hook.cpu.osxsave ? host_cpu_xgetbv() : 0;
		struct xs_step_seen *s;

		if (kicking) {
			pthread_join(th, NULL);
			kicking = false;
		}
		if (res.args[0] == XS_SYNC_ARM) {
			kick.intr0 = x->v->user_exits.intr;
			kicking = !pthread_create(&th, NULL, xs_kick, &kick);
			if (!kicking)
				vm_global_set(x->vm, xs_g_go, 1);
			continue;
		}
		if (res.args[0] != XS_SYNC_STEP || res.args[1] < 1 || res.args[1] > XS_NR_STEPS)
			continue;
		s = &seen[res.args[1]];
		s->done = true;
		s->guest = res.args[2];
		s->extra = res.args[3];
		s->host = host;
		s->kvm_err = xs_get_xcr0(x, &s->kvm);
		s->hook_bad = x->hook.xcr0_bad - bad0;
		/* the step's own exits, without the ucalls */
		s->io = x->v->user_exits.io - u0.io;
		s->mmio = x->v->user_exits.mmio - u0.mmio;
		s->intr = x->v->user_exits.intr - u0.intr;
		s->kicks = res.args[1] == XS_STEP_SIGNAL ? kick.sent : 0;
		u0 = x->v->user_exits;
		bad0 = x->hook.xcr0_bad;
	}
	if (kicking)
		pthread_join(th, NULL);
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	sigaction(XS_KICK_SIGNAL, &old_sa, NULL);
	for (int step = XS_STEP_PIO_USER; step <= XS_NR_STEPS; step++) {
		char name[32];

		snprintf(name, sizeof(name), "xcr0_after_%s", xs_step_names[step]);
		if (seen[step].done && step == XS_STEP_HLT && !x->irqchip)
			check_add(x->rep, XS_SUITE, name, CHECK_SKIP,
				  "no in-kernel irqchip: nothing would wake the guest from HLT");
		else if (seen[step].done)
			xs_report_step(x, step, &seen[step]);
		else if (k == GUEST_STOPPED)
			break;
		else if (k == GUEST_DONE && res.args[0])
			check_add(x->rep, XS_SUITE, name, CHECK_FAIL,
				  "the guest could not set XCR0 %#llx: %s",
				  (unsigned long long)x->subset, vector_name(GUEST_FAULT_VECTOR(res.args[0])));
		else
			check_add(x->rep, XS_SUITE, name,
				  k == GUEST_EMULATION_FAILURE ? CHECK_SKIP : CHECK_FAIL,
				  "did not get there: %s", xs_outcome(&res, buf, sizeof(buf)));
	}
}

/* KVM_SET_XCRS from the host, then xgetbv in the guest: without it the check skips. */
void xs_check_set_xcrs(void *arg)
{
	struct xs_ctx *x = arg;
	char ev_want[XS_EV_LEN], ev_seen[XS_EV_LEN];
	uint64_t want = x->subset == 0x1 ? 0x3 : 0x1, got = 0;
	struct guest_result res;
	char buf[600];
	int r = xs_set_xcr0(x, want);

	if (!r)
		r = xs_get_xcr0(x, &got);
	xs_ev_xcr0(ev_want, want, "xgetbv");
	xs_ev_xcr0(ev_seen, got, "kvm_get_xcrs");
	if (r) {
		check_add(x->rep, XS_SUITE, "set_xcrs_guest_view",
			  x->hook.cpu.osxsave ? CHECK_FAIL : CHECK_SKIP,
			  "KVM_SET_XCRS/KVM_GET_XCRS XCR0=%#llx: %s", (unsigned long long)want,
			  strerror(-r));
		return;
	}
	if (!x->guest_xgetbv) {
		check_add_ev(x->rep, XS_SUITE, "set_xcrs_guest_view",
			  got == want ? CHECK_SKIP : CHECK_FAIL, ev_want, ev_seen,
			  "guest xgetbv not run (%s): the guest's view is unverified; KVM_GET_XCRS "
			  "returns %#llx after KVM_SET_XCRS %#llx", x->no_xgetbv,
			  (unsigned long long)got, (unsigned long long)want);
		return;
	}
	vcpu_call_run(x->v, xs_guest_xgetbv, 0, XS_BUDGET_MS, &res);
	if (res.kind != GUEST_DONE || (res.args[0] & GUEST_NO_VALUE)) {
		check_add_ev(x->rep, XS_SUITE, "set_xcrs_guest_view", CHECK_FAIL, ev_want,
			  "via=none", "KVM_SET_XCRS %#llx, then xgetbv in the guest: %s",
			  (unsigned long long)want,
			  res.kind == GUEST_DONE ? vector_name(GUEST_FAULT_VECTOR(res.args[0]))
						 : xs_outcome(&res, buf, sizeof(buf)));
		return;
	}
	if (got == want)
		xs_ev_xcr0(ev_seen, res.args[0], "xgetbv");
	check_add_ev(x->rep, XS_SUITE, "set_xcrs_guest_view",
		  res.args[0] == want && got == want ? CHECK_PASS : CHECK_FAIL, ev_want, ev_seen,
		  "KVM_SET_XCRS XCR0=%#llx: KVM_GET_XCRS %#llx, guest xgetbv %#llx",
		  (unsigned long long)want, (unsigned long long)got, (unsigned long long)res.args[0]);
}

