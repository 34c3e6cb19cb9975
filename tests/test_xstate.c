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

static void test_suite(void)
{
	static const char *const kinds[] = { "pio_user", "pio_kernel", "mmio", "cpuid", "hlt", "signal" };
	static const char *const evidence[] = {
		"after 1 userspace PIO exit(s)", "0 userspace PIO exits", "after 1 userspace MMIO exit(s)",
		"CPUID", "woken by 1 x2APIC timer interrupt(s)", "KVM_RUN return(s) with EINTR",
	};
	volatile sig_atomic_t stop = 0;
	struct check_report rep = { 0 };
	struct suite_env env = { 0 };
	struct xs_host_cpu cpu;
	const struct check_result *c, *g, *h;
	struct hostinfo hi;
	char err[512], want[64], sub[64], guest[64], rt[96];
	unsigned long long subset, other;

	if (hostinfo_collect(&hi, NULL, err, sizeof(err))) {
		tap_skip(22, "hostinfo failed");
		return;
	}
	env.hi = &hi;
	env.stop = &stop;
	xs_host_cpu(&cpu);
	subset = cpu.xcr0 == 0x3 ? 0x1 : 0x3;	/* x87|SSE unless that is the host's own */
	other = subset == 0x1 ? 0x3 : 0x1;
	snprintf(sub, sizeof(sub), "KVM_GET_XCRS returns %#llx", subset);
	snprintf(guest, sizeof(guest), "guest XCR0 %#llx", subset);
	snprintf(rt, sizeof(rt), "KVM_GET_XCRS returns %#llx after KVM_SET_XCRS %#llx", other, other);
	xstate_checks(&env, &rep);
	for (size_t i = 0; i < rep.n; i++)
		diag("%s %s: %s", check_status_name(rep.r[i].status), rep.r[i].name, rep.r[i].detail);
	is_int(check_count(&rep, CHECK_FAIL), 0, "no xstate check fails");

	g = get(&rep, "xcr0_subset_guest");
	h = get(&rep, "xcr0_subset_host");
	ok(is_status(h, CHECK_PASS) && strstr(h->detail, sub),
	   "XCR0 subset %#llx set with KVM_SET_XCRS is what KVM_GET_XCRS returns", subset);
	if (hi.feat_xsave)
		ok(is_status(g, CHECK_PASS) && strstr(g->detail, "KVM_GET_XCRS"),
		   "guest CPUID has XSAVE: the guest's own xsetbv of %#llx is visible through KVM_GET_XCRS",
		   subset);
	else
		ok(is_status(g, CHECK_SKIP) && strstr(g->detail, "no XSAVE"),
		   "guest CPUID lacks XSAVE: the guest-side XCR0 check skips and says why");

	if (!cpu.osxsave) {
		tap_skip(12, "the host process cannot run xgetbv (no OSXSAVE)");
	} else {
		snprintf(want, sizeof(want), "host XCR0 %#llx (xgetbv", (unsigned long long)cpu.xcr0);
		for (int i = 0; i < 6; i++) {
			char name[32];

			snprintf(name, sizeof(name), "xcr0_after_%s", kinds[i]);
			c = get(&rep, name);
			ok(is_status(c, CHECK_PASS) && strstr(c->detail, want) &&
			   strstr(c->detail, guest) && strstr(c->detail, "0 wrong in the exit hook"),
			   "%s: guest XCR0 %#llx (KVM_GET_XCRS) and the host's %#llx intact", name,
			   subset, (unsigned long long)cpu.xcr0);
			ok(c && strstr(c->detail, evidence[i]), "%s: the exit happened as intended ('%s')",
			   name, evidence[i]);
		}
	}
	c = get(&rep, "host_vector_state");
	ok(is_status(c, CHECK_PASS) && strstr(c->detail, xs_vec_name(cpu.vec)),
	   "host %s pattern survives a guest run that clobbers the guest's xmm0-15", xs_vec_name(cpu.vec));
	c = get(&rep, "guest_vector_state");
	ok(is_status(c, CHECK_PASS) && strstr(c->detail, "0 of 256 bytes changed"),
	   "guest xmm0-15 pattern survives PIO, MMIO, CPUID and sync exits");
	c = get(&rep, "set_xsave_guest_view");
	ok(is_status(c, CHECK_PASS), "xmm0-15 written with KVM_SET_XSAVE are what the guest reads");
	c = get(&rep, "set_xcrs_guest_view");
	if (hi.feat_xsave)
		ok(is_status(c, CHECK_PASS), "KVM_SET_XCRS value seen by guest xgetbv");
	else
		ok(is_status(c, CHECK_SKIP) && strstr(c->detail, rt),
		   "without guest XSAVE: KVM_SET_XCRS guest view skips, reporting the KVM_GET_XCRS round trip");
	c = get(&rep, "xss");
	if (hi.feat_xsaves)
		ok(is_status(c, CHECK_PASS), "IA32_XSS survives exits and save/restore; reserved bits #GP");
	else
		ok(is_status(c, CHECK_SKIP) && strstr(c->detail, "does not offer XSAVES"),
		   "IA32_XSS check skips: KVM offers no XSAVES");
	c = get(&rep, "pkru");
	if (hi.feat_pku)
		ok(is_status(c, CHECK_PASS), "guest PKRU persists, host PKRU unchanged");
	else
		ok(is_status(c, CHECK_SKIP) && strstr(c->detail, "does not offer PKU"),
		   "PKRU check skips: KVM offers no PKU");
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
