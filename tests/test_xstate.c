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

#include "results/result_read.h"
#include "host/hostinfo.h"
#include "suites/suite_run.h"
#include "suites/xstate.h"
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
	char err[512], want[128], sub[64], other_hex[64], vec[64];
	unsigned long long subset, other;

	if (hostinfo_collect(&hi, NULL, err, sizeof(err))) {
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
	ok(is_ev(h, CHECK_PASS, sub, sub),
	   "XCR0 subset %#llx set with KVM_SET_XCRS is what KVM_GET_XCRS returns", subset);
	if (hi.feat_xsave)
		ok(is_ev(g, CHECK_PASS, sub, sub),
		   "guest CPUID has XSAVE: the guest's own xsetbv of %#llx is visible through KVM_GET_XCRS",
		   subset);
	else
		ok(is_ev(g, CHECK_SKIP, "xsave=1", "xsave=0"),
		   "guest CPUID lacks XSAVE: the guest-side XCR0 check skips, evidence xsave=0");

	if (!cpu.osxsave) {
		tap_skip(6, "the host process cannot run xgetbv (no OSXSAVE)");
	} else {
		for (int i = 0; i < 6; i++) {
			char name[32];

			snprintf(name, sizeof(name), "xcr0_after_%s", kinds[i]);
			snprintf(want, sizeof(want), "host=0x%llx hook_wrong=0 guest=0x%llx%s",
				 (unsigned long long)cpu.xcr0, subset, exits[i]);
			c = get(&rep, name);
			ok(is_ev(c, CHECK_PASS, want, want),
			   "%s: the exit happened as intended, guest XCR0 %#llx (KVM_GET_XCRS) and the "
			   "host's %#llx intact (%s)", name, subset, (unsigned long long)cpu.xcr0, want);
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
	if (hi.feat_xsave)
		ok(is_ev(c, CHECK_PASS, other_hex, other_hex), "KVM_SET_XCRS value seen by guest xgetbv");
	else
		ok(is_ev(c, CHECK_SKIP, other_hex, other_hex),
		   "without guest XSAVE: KVM_SET_XCRS guest view skips, KVM_GET_XCRS returns %s after "
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

static void test_cli(void)
{
	const char *exe = getenv("EXITSCOPE");
	struct result_file *rf;
	struct run_result rr;
	char *dir, path[512], err[RESULT_ERR_MAX];
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
	rf = result_read_file(path, err, sizeof(err));
	for (size_t i = 0; rf && i < rf->checks.n; i++)
		n += rf->checks.r[i].suite && !strcmp(rf->checks.r[i].suite, "xstate");
	ok(rf && rf->kind == RESULT_KIND_CHECK, "valid kind 'check' result file (%s)", rf ? "ok" : err);
	is_int(n, 14, "14 xstate checks in the file");
	result_free(rf);
	run_free(&rr);
	fixture_rmdir(dir);
}

int main(void)
{
	if (access("/dev/kvm", R_OK | W_OK))
		return tap_skip_all("/dev/kvm not usable");
	test_suite();
	test_cli();
	return done_testing();
}
