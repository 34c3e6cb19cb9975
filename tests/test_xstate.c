// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_xstate.c - `exitscope check xstate` on real /dev/kvm: the guest XCR0
 * subset is visible through KVM_GET_XCRS, the host's XCR0 is intact after
 * every exit kind (each exit verified by the run loop's counters), host and
 * guest vector patterns survive, KVM_SET_XSAVE reaches the guest, checks
 * needing XSAVES or PKU skip with their reasons, and the CLI's JSON.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "results/result_read.h"
#include "host/hostinfo.h"
#include "suites/suite_run.h"
#include "suites/xstate.h"
#include "suites/xstate_decide.h"
#include "suites/xstate_int.h"
#include "host/xstate_cpu.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const struct check_result *get(const struct check_report *rep, const char *name)
{
	const struct check_result *c = check_find(rep, "xstate", name);

	if (!c)
		diag("no check xstate.%s", name);
	return c;
}

static bool is_status(const struct check_result *c, enum check_status st)
{
	if (c && c->status != st)
		diag("%s: %s: %s", c->name, check_status_name(c->status), c->detail);
	return c && c->status == st;
}

/* The check passed (or skipped: st) with exactly this expected and observed evidence. */
static bool is_ev(const struct check_result *c, enum check_status st, const char *want, const char *seen)
{
	if (c && (strcmp(c->expected, want) || strcmp(c->observed, seen)))
		diag("%s: expected '%s' observed '%s', want '%s' / '%s'", c->name, c->expected,
		     c->observed, want, seen);
	return is_status(c, st) && !strcmp(c->expected, want) && !strcmp(c->observed, seen);
}

static void test_suite(void)
{
	static const char *const kinds[] = { "pio_user", "pio_kernel", "mmio", "cpuid", "hlt", "signal" };
	/* Each step's exit, counted by the run loop (exactly what the guest did). */
	static const char *const exits[] = {
		" user_pio=1", " user_pio=0", " user_mmio=1", "", " timer_irqs=1", "",
	};
	volatile sig_atomic_t stop = 0;
	struct check_report rep = { 0 };
	struct suite_env env = { 0 };
	struct xs_host_cpu cpu;
	const struct check_result *c, *g, *h;
	struct hostinfo hi;
	char want[128], seen[128], sub[64], other_hex[64], vec[64];
	struct err err;
	bool guest_view;
	unsigned long long subset, other;

	if (hostinfo_collect(&hi, NULL, &err)) {
		tap_skip(18, "hostinfo failed");
		return;
	}
	env.hi = &hi;
	env.stop = &stop;
	xs_host_cpu(&cpu);
	subset = cpu.xcr0 == 0x3 ? 0x1 : 0x3;	/* x87|SSE unless that is the host's own */
	other = subset == 0x1 ? 0x3 : 0x1;
	snprintf(sub, sizeof(sub), "0x%llx", subset);
	snprintf(other_hex, sizeof(other_hex), "0x%llx", other);
	xstate_checks(&env, &rep);
	for (size_t i = 0; i < rep.n; i++)
		diag("%s %s: %s", check_status_name(rep.r[i].status), rep.r[i].name, rep.r[i].detail);
	is_int(check_count(&rep, CHECK_FAIL), 0, "no xstate check fails");

	g = get(&rep, "xcr0_subset_guest");
	h = get(&rep, "xcr0_subset_host");
	snprintf(want, sizeof(want), "xcr0=%s via=kvm_get_xcrs", sub);
	ok(is_ev(h, CHECK_PASS, want, want),
	   "XCR0 subset %#llx set with KVM_SET_XCRS is what KVM_GET_XCRS returns, evidence says so", subset);
	guest_view = g && g->status == CHECK_PASS;
	if (hi.feat_xsave) {
		snprintf(want, sizeof(want), "xcr0=%s xsetbv=ok kvm=%s xgetbv=%s", sub, sub, sub);
		ok(guest_view ? is_ev(g, CHECK_PASS, want, want) :
		   is_status(g, CHECK_SKIP) && strstr(g->detail, "xgetbv not run"),
		   "guest CPUID has XSAVE: the guest's own xsetbv of %#llx is seen by KVM_GET_XCRS and "
		   "read back by its xgetbv (or the check skips saying xgetbv did not run)", subset);
	} else {
		ok(is_ev(g, CHECK_SKIP, "xsave=1", "xsave=0"),
		   "guest CPUID lacks XSAVE: the guest-side XCR0 check skips, evidence xsave=0");
	}

	if (!cpu.osxsave) {
		tap_skip(6, "the host process cannot run xgetbv (no OSXSAVE)");
	} else {
		for (int i = 0; i < 6; i++) {
			const char *at = i == 0 || i == 2 ? "exit" : "ucall";
			char name[32];

			snprintf(name, sizeof(name), "xcr0_after_%s", kinds[i]);
			c = get(&rep, name);
			if (guest_view) {
				snprintf(want, sizeof(want),
					 "host=0x%llx host_at=%s hook_wrong=0 guest=0x%llx set=xsetbv via=xgetbv%s",
					 (unsigned long long)cpu.xcr0, at, subset, exits[i]);
				ok(is_ev(c, CHECK_PASS, want, want),
				   "%s: the exit happened as intended, guest xgetbv %#llx and the host's %#llx "
				   "intact (%s)", name, subset, (unsigned long long)cpu.xcr0, want);
			} else {
				/* kvm_pvm: no guest xgetbv; KVM_GET_XCRS alone must not pass */
				snprintf(want, sizeof(want),
					 "host=0x%llx host_at=%s hook_wrong=0 guest=0x%llx set=kvm_set_xcrs via=xgetbv%s",
					 (unsigned long long)cpu.xcr0, at, subset, exits[i]);
				snprintf(seen, sizeof(seen),
					 "host=0x%llx host_at=%s hook_wrong=0 guest=0x%llx set=kvm_set_xcrs via=kvm_get_xcrs%s",
					 (unsigned long long)cpu.xcr0, at, subset, exits[i]);
				ok(is_ev(c, CHECK_SKIP, want, seen) && strstr(c->detail, "guest xgetbv not run"),
				   "%s: no guest xgetbv here: skipped, saying so, evidence via=kvm_get_xcrs", name);
			}
		}
	}
	c = get(&rep, "host_vector_state");
	snprintf(vec, sizeof(vec), "regs=%s bytes=%zu changed=0", xs_vec_name(cpu.vec), xs_vec_bytes(cpu.vec));
	ok(is_ev(c, CHECK_PASS, vec, vec),
	   "host %s pattern survives a guest run that clobbers the guest's xmm0-15", xs_vec_name(cpu.vec));
	c = get(&rep, "guest_vector_state");
	ok(is_ev(c, CHECK_PASS, "regs=xmm0-15 bytes=256 changed=0", "regs=xmm0-15 bytes=256 changed=0"),
	   "guest xmm0-15 pattern survives PIO, MMIO, CPUID and sync exits: 0 of 256 bytes changed");
	c = get(&rep, "set_xsave_guest_view");
	ok(is_ev(c, CHECK_PASS, "regs=xmm0-15 bytes=256 changed=0", "regs=xmm0-15 bytes=256 changed=0"),
	   "xmm0-15 written with KVM_SET_XSAVE are what the guest reads");
	c = get(&rep, "set_xcrs_guest_view");
	snprintf(want, sizeof(want), "xcr0=%s via=xgetbv", other_hex);
	snprintf(seen, sizeof(seen), "xcr0=%s via=kvm_get_xcrs", other_hex);
	if (guest_view)
		ok(is_ev(c, CHECK_PASS, want, want), "KVM_SET_XCRS value seen by guest xgetbv");
	else
		ok(is_ev(c, CHECK_SKIP, want, seen),
		   "without guest xgetbv: KVM_SET_XCRS guest view skips, KVM_GET_XCRS returns %s after "
		   "KVM_SET_XCRS %s", other_hex, other_hex);
	c = get(&rep, "xss");
	if (hi.feat_xsaves)
		ok(is_status(c, CHECK_PASS) && !strcmp(c->expected, c->observed),
		   "IA32_XSS survives exits and save/restore; reserved bits #GP");
	else
		ok(is_ev(c, CHECK_SKIP, "xsaves=1", "xsaves=0"), "IA32_XSS check skips: KVM offers no XSAVES");
	c = get(&rep, "pkru");
	if (hi.feat_pku)
		ok(is_status(c, CHECK_PASS) && !strcmp(c->expected, c->observed),
		   "guest PKRU persists, host PKRU unchanged");
	else
		ok(is_ev(c, CHECK_SKIP, "pku=1", "pku=0"), "PKRU check skips: KVM offers no PKU");
	check_report_free(&rep);

	/* Ctrl-C before the suite: all 14 checks recorded as stopped, none run, none fails. */
	stop = 1;
	xstate_checks(&env, &rep);
	is_int(rep.n, 14, "stop flag set: 14 xstate results");
	is_int(check_count(&rep, CHECK_STOPPED), 14, "stop flag set: every xstate check is stopped");
	c = get(&rep, "xcr0_after_signal");
	ok(c && !strcmp(c->detail, SUITE_STOPPED_DETAIL), "a check that never ran says so ('%s')",
	   c ? c->detail : "missing");
	check_report_free(&rep);
}

/* Item 3: the guest PKRU differs from the host's, 0 and Linux's default, whatever the host's. */
static void test_pkru_value(void)
{
	const uint32_t hosts[] = { XS_PKRU_LINUX_DEFAULT, 0, xs_pkru_guest_value(0),
				   xs_pkru_guest_value(xs_pkru_guest_value(0)), 0xffffffffu };

	for (size_t i = 0; i < ARRAY_SIZE(hosts); i++) {
		uint32_t g = xs_pkru_guest_value(hosts[i]);

		ok(g != hosts[i] && g && g != XS_PKRU_LINUX_DEFAULT && !(g & 3),
		   "host PKRU %#x: guest writes %#x (not the host's, not 0, not 0x55555554, key 0 open)",
		   hosts[i], g);
	}
	is_int(xs_pkru_guest_value(XS_PKRU_LINUX_DEFAULT), xs_pkru_guest_value(0),
	       "a Linux host (0x55555554) and a host at reset (0) get the same guest value");
}

/* Item 10: the XCR0 verdicts from given evidence. */
static void test_xcr0_verdicts(void)
{
	const struct xs_xcr0_ev good = {
		.subset = 0x3, .set_by_guest = true, .guest = 0x3, .kvm = 0x3, .host_measured = true,
		.host_at_exit = false, .host_want = 0x2e7, .host = 0x2e7,
	};
	struct xs_xcr0_ev e;
	struct xs_subset_ev s;
	char why[400], want[XS_EV_LEN], seen[XS_EV_LEN];
	enum check_status st;

	e = good;
	st = xs_xcr0_verdict(&e, why, sizeof(why), want, seen);
	ok(st == CHECK_PASS && !strcmp(want, seen) &&
	   !strcmp(seen, "host=0x2e7 host_at=ucall hook_wrong=0 guest=0x3 set=xsetbv via=xgetbv") &&
	   strstr(why, "ucall after it"),
	   "guest xgetbv 0x3, host intact: pass; an in-kernel exit's host half says it was read after the ucall (%s)", why);
	e = good, e.host_at_exit = true;
	xs_xcr0_verdict(&e, why, sizeof(why), want, seen);
	ok(strstr(seen, "host_at=exit") && strstr(why, "this exit's return"), "a userspace exit: host_at=exit");
	e = good, e.guest = XS_NO_VALUE, e.no_guest = "guest xgetbv: emulation failure";
	st = xs_xcr0_verdict(&e, why, sizeof(why), want, seen);
	ok(st == CHECK_SKIP && strstr(seen, "via=kvm_get_xcrs") && strstr(want, "via=xgetbv") &&
	   strstr(why, "emulation failure"),
	   "no guest xgetbv (kvm_pvm), KVM_GET_XCRS agrees: skip, not pass, evidence via=kvm_get_xcrs");
	e.kvm_err = -5;
	st = xs_xcr0_verdict(&e, why, sizeof(why), want, seen);
	ok(st == CHECK_SKIP && strstr(seen, "guest=? set=xsetbv via=none"), "no evidence at all: skip, via=none");
	e = good, e.guest = XS_NO_VALUE, e.kvm = 0x1;
	is_int(xs_xcr0_verdict(&e, why, sizeof(why), want, seen), CHECK_FAIL,
	       "no guest xgetbv but KVM's own copy changed: fail");
	e = good, e.guest = 0x1;
	is_int(xs_xcr0_verdict(&e, why, sizeof(why), want, seen), CHECK_FAIL, "guest xgetbv 0x1, set 0x3: fail");
	e = good, e.host = 0x3;
	is_int(xs_xcr0_verdict(&e, why, sizeof(why), want, seen), CHECK_FAIL, "host XCR0 changed: fail");
	e = good, e.hook_bad = 1;
	is_int(xs_xcr0_verdict(&e, why, sizeof(why), want, seen), CHECK_FAIL, "wrong once in the exit hook: fail");
	e = good, e.subset = 0, e.guest = XS_NO_VALUE;
	st = xs_xcr0_verdict(&e, why, sizeof(why), want, seen);
	ok(st == CHECK_SKIP && strstr(why, "proves nothing"), "no guest XCR0 at all: the host half alone skips");
	e = good, e.host_measured = false;
	st = xs_xcr0_verdict(&e, why, sizeof(why), want, seen);
	ok(st == CHECK_PASS && !strcmp(seen, "guest=0x3 set=xsetbv via=xgetbv"),
	   "host without OSXSAVE: the guest half alone passes, no host evidence claimed");

	s = (struct xs_subset_ev){ .subset = 0x3, .kvm_before = 0x1, .xsetbv_ok = true, .kvm = 0x3, .guest = 0x3 };
	st = xs_subset_verdict(&s, why, sizeof(why), want, seen);
	ok(st == CHECK_PASS && !strcmp(want, seen) && !strcmp(seen, "xcr0=0x3 xsetbv=ok kvm=0x3 xgetbv=0x3"),
	   "subset: xsetbv, KVM_GET_XCRS 0x1 -> 0x3, xgetbv 0x3: pass (%s)", seen);
	s.guest = XS_NO_VALUE, s.no_guest = "guest xgetbv faulted with #UD";
	st = xs_subset_verdict(&s, why, sizeof(why), want, seen);
	ok(st == CHECK_SKIP && strstr(seen, "xgetbv=none") && strstr(why, "#UD"),
	   "subset without guest xgetbv: skip on KVM_GET_XCRS alone, not pass");
	s.guest = 0x3, s.kvm = 0x1;
	st = xs_subset_verdict(&s, why, sizeof(why), want, seen);
	ok(st == CHECK_FAIL && strstr(why, "KVM never saw the guest's XSETBV"),
	   "KVM_GET_XCRS still KVM's earlier value: fail, the guest's XSETBV never exited");
	s = (struct xs_subset_ev){ .subset = 0x1, .kvm_before = 0x1, .xsetbv_ok = true, .kvm = 0x1, .guest = 0x1 };
	is_int(xs_subset_verdict(&s, why, sizeof(why), want, seen), CHECK_SKIP,
	       "KVM's copy was the subset already: no proof of an XSETBV exit, skip");
	s.xsetbv_ok = false;
	is_int(xs_subset_verdict(&s, why, sizeof(why), want, seen), CHECK_FAIL, "the guest's XSETBV faulted: fail");
}

/*
 * Item 10: set_xsave_guest_view builds the SSE component itself. With
 * XSTATE_BV's SSE bit cleared beforehand (as on a vCPU that never ran
 * SSE code), the check must still pass: KVM loads the bytes only with it.
 */
static void test_set_xsave_bv(struct hostinfo *hi)
{
	volatile sig_atomic_t stop = 0;
	struct suite_env env = { .hi = hi, .stop = &stop };
	struct check_report rep = { 0 };
	struct xs_ctx x = { .env = &env, .rep = &rep };
	const struct check_result *c;
	struct kvm_xsave *xs;
	struct err err;
	uint64_t bv;
	int size;

	if (xs_ctx_init(&x, &err)) {
		tap_skip(2, "no VM");
		return;
	}
	size = kvm_xsave_size(x.vm->fd);
	xs = calloc(1, size);
	if (!xs || kvm_get_xsave2(x.v->fd, xs)) {
		tap_skip(2, "KVM_GET_XSAVE2 failed");
	} else {
		memcpy(&bv, (uint8_t *)xs->region + 512, sizeof(bv));
		bv &= ~XFEATURE_SSE;
		memcpy((uint8_t *)xs->region + 512, &bv, sizeof(bv));
		memset((uint8_t *)xs->region + 160, 0, 256);
		ok(!kvm_set_xsave(x.v->fd, xs), "XSTATE_BV's SSE bit cleared with KVM_SET_XSAVE");
		xs_check_set_xsave(&x);
		c = get(&rep, "set_xsave_guest_view");
		ok(is_ev(c, CHECK_PASS, "regs=xmm0-15 bytes=256 changed=0", "regs=xmm0-15 bytes=256 changed=0"),
		   "set_xsave_guest_view passes from that state: it sets XSTATE_BV's SSE bit itself");
	}
	free(xs);
	check_report_free(&rep);
	xs_ctx_free(&x);
}

static void test_cli(void)
{
	const char *exe = getenv("EXITSCOPE");
	struct result_file *rf;
	struct run_result rr;
	char *dir, path[512];
	struct err err;
	size_t n = 0;

	if (!exe || access(exe, X_OK)) {
		tap_skip(3, "EXITSCOPE not set (run through make check)");
		return;
	}
	dir = fixture_tmpdir();
	snprintf(path, sizeof(path), "%s/check.json", dir);
	{
		const char *argv[] = { exe, "check", "--json", path, "xstate", NULL };

		run_cmd(&rr, argv);
	}
	is_int(rr.status, 0, "exitscope check --json FILE xstate: exit 0 (nothing failed)");
	rf = result_read_file(path, &err);
	for (size_t i = 0; rf && i < rf->checks.n; i++)
		n += rf->checks.r[i].suite && !strcmp(rf->checks.r[i].suite, "xstate");
	ok(rf && rf->kind == RESULT_KIND_CHECK, "valid kind 'check' result file (%s)", rf ? "ok" : err.msg);
	is_int(n, 14, "14 xstate checks in the file");
	result_free(rf);
	run_free(&rr);
	fixture_rmdir(dir);
}

int main(void)
{
	struct hostinfo hi;
	struct err err;

	test_pkru_value();
	test_xcr0_verdicts();
	if (access("/dev/kvm", R_OK | W_OK)) {
		tap_skip(1, "/dev/kvm not usable");
		return done_testing();
	}
	if (!hostinfo_collect(&hi, NULL, &err))
		test_set_xsave_bv(&hi);
	else
		tap_skip(2, "hostinfo failed");
	test_suite();
	test_cli();
	return done_testing();
}
