// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_xstate_probes.c - the host-side decisions of the XSAVE-related
 * probes and of pax_open_kernel, on given inputs (a CET host's CPUID and
 * XSS, which this host cannot give): which CPUID bits each probe clears,
 * which setup it runs, which registers KVM then swaps on its exits
 * (upstream kvm_load_guest_xsave_state rules), and whether pax_open_kernel
 * runs with CR4.CET. Then what runs here: the runner really clears a row's
 * .cpuid_clear from the guest CPUID, and invd_xss_differs skips for want
 * of XSAVES with its reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/array_size.h"
#include "host/hostinfo.h"
#include "kvm/abi.h"
#include "guest/vm.h"
#include "kvm/cpuid.h"
#include "probes/probe_out.h"
#include "probes/probes.h"
#include "probes/runner.h"
#include "probes/xstate_probes.h"
#include "tests/tap.h"

#define N_ENT 4

/* A supported CPUID with leaves 1, 7.0, 0xd.1 and the features asked for. */
static struct kvm_cpuid2 *mk_cpuid(const enum x86_feat *on, size_t n)
{
	struct kvm_cpuid2 *c = calloc(1, sizeof(*c) + N_ENT * sizeof(c->entries[0]));
	static const uint32_t leaves[N_ENT][2] = { { 0, 0 }, { 1, 0 }, { 7, 0 }, { 0xd, 1 } };

	c->nent = N_ENT;
	for (int i = 0; i < N_ENT; i++) {
		c->entries[i].function = leaves[i][0];
		c->entries[i].index = leaves[i][1];
		if (leaves[i][0] == 7 || leaves[i][0] == 0xd)
			c->entries[i].flags = KVM_CPUID_FLAG_SIGNIFCANT_INDEX;
	}
	c->entries[0].eax = 0xd;
	for (size_t i = 0; i < n; i++)
		cpuid_set(c, on[i], true);
	return c;
}

struct want {
	const char *name;
	guest_fn_t setup;
	bool osxsave, xsaves;
	enum probe_swap xcr0, xss;
};

static void check_plan(const struct want *w, const struct kvm_cpuid2 *c, uint64_t host_xcr0,
		       uint64_t xss, const char *host)
{
	const struct probe *p = probe_find(w->name);
	struct probe_xstate_plan pl;

	if (!p) {
		ok(0, "%s: no such probe", w->name);
		return;
	}
	probe_xstate_plan(p, c, host_xcr0, xss, &pl);
	if (!ok(p->setup == w->setup && pl.osxsave == w->osxsave && pl.xsaves == w->xsaves &&
		pl.xcr0 == w->xcr0 && pl.xss == w->xss,
		"%s on %s: %s setup, CR4.OSXSAVE %s, guest XSAVES %s -> XCR0 swap %s, XSS swap %s",
		w->name, host, p->setup == probe_osxsave_setup ? "osxsave" :
		p->setup == probe_xss_setup ? "xss" : p->setup == probe_xss_differs_setup ? "xss_differs" : "other",
		w->osxsave ? "set" : "clear", w->xsaves ? "kept" : "cleared",
		probe_swap_name(w->xcr0), probe_swap_name(w->xss)))
		diag("got osxsave %d xsaves %d xcr0 %s xss %s", pl.osxsave, pl.xsaves,
		     probe_swap_name(pl.xcr0), probe_swap_name(pl.xss));
}

/* Item 7 on a CET host: host XCR0 0x2e7, IA32_XSS non-zero (KVM supports CET_U|CET_S = 0x1800). */
static void test_plans(void)
{
	static const enum x86_feat cet[] = { X86_FEAT_XSAVE, X86_FEAT_XSAVES, X86_FEAT_SHSTK, X86_FEAT_IBT };
	static const struct want w[] = {
		{ "xsetbv", probe_osxsave_setup, true, false, PROBE_SWAP_YES, PROBE_SWAP_NO },
		{ "invd_xcr0_differs", probe_osxsave_setup, true, false, PROBE_SWAP_YES, PROBE_SWAP_NO },
		{ "rd_xss_msr", probe_xss_setup, false, true, PROBE_SWAP_NO, PROBE_SWAP_NO },
		{ "wr_xss_msr", probe_xss_setup, false, true, PROBE_SWAP_NO, PROBE_SWAP_NO },
		{ "invd_xss_differs", probe_xss_differs_setup, true, true, PROBE_SWAP_YES, PROBE_SWAP_YES },
	};
	struct kvm_cpuid2 *c = mk_cpuid(cet, 4);
	const struct probe *p;
	struct probe_xstate_plan pl;

	for (size_t i = 0; i < ARRAY_SIZE(w); i++)
		check_plan(&w[i], c, 0x2e7, 0x1800, "a CET host");
	/* The rows themselves: XSAVES cleared exactly where XSS must not swap. */
	p = probe_find("xsetbv");
	ok(p && p->cpuid_clear[0] == X86_FEAT_XSAVES && !p->cpuid_clear[1], "xsetbv clears XSAVES (CPUID 0xd.1:EAX[3]) only");
	p = probe_find("invd_xcr0_differs");
	ok(p && p->cpuid_clear[0] == X86_FEAT_XSAVES && !p->cpuid_clear[1], "invd_xcr0_differs clears XSAVES only");
	p = probe_find("invd_xss_differs");
	ok(p && !p->cpuid_clear[0] && p->host_setup == probe_host_xss_differs && p->op == probe_find("invd_xcr0_differs")->op,
	   "invd_xss_differs: the same INVD op as invd_xcr0_differs, XSAVES kept, its host setup checks the host's XSS");
	{
		struct kvm_cpuid2 *g = probe_guest_cpuid(probe_find("xsetbv"), c);

		ok(g && !cpuid_has(g, X86_FEAT_XSAVES) && cpuid_has(g, X86_FEAT_XSAVE) &&
		   cpuid_has(g, X86_FEAT_SHSTK) && cpuid_has(c, X86_FEAT_XSAVES),
		   "xsetbv's guest CPUID: XSAVES gone, XSAVE and SHSTK kept, KVM's CPUID untouched");
		free(g);
	}
	/* The host's XCR0 = the guest's: no XCR0 swap. KVM with no XSS bit: XSS swap unknown. */
	probe_xstate_plan(probe_find("invd_xss_differs"), c, PROBE_GUEST_XCR0, 0, &pl);
	ok(pl.xcr0 == PROBE_SWAP_NO && pl.xss == PROBE_SWAP_UNKNOWN,
	   "host XCR0 0x3 and no supported XSS bit: invd_xss_differs swaps no XCR0, XSS unknown (%s, %s)",
	   probe_swap_name(pl.xcr0), probe_swap_name(pl.xss));
	free(c);
	/* This host's kind (kvm_pvm): no XSAVE, no XSAVES: nothing swaps. */
	c = mk_cpuid(NULL, 0);
	probe_xstate_plan(probe_find("invd_xss_differs"), c, 0x600e7, 0, &pl);
	ok(!pl.xsaves && pl.xss == PROBE_SWAP_NO, "without XSAVES in KVM's CPUID: no XSS swap for any probe");
	free(c);
}

/* Item 9: pax_open_kernel's sequence from the guest CPUID. */
static void test_pax(void)
{
	static const enum x86_feat shstk[] = { X86_FEAT_SHSTK }, ibt[] = { X86_FEAT_IBT },
				   other[] = { X86_FEAT_XSAVE, X86_FEAT_XSAVES };
	struct kvm_cpuid2 *c;
	const struct probe *p = probe_find("pax_open_kernel");

	c = mk_cpuid(shstk, 1);
	ok(probe_pax_wants_cet(c), "SHSTK in the guest CPUID: pax_open_kernel sets CR4.CET and drops it per op");
	free(c);
	c = mk_cpuid(ibt, 1);
	ok(probe_pax_wants_cet(c), "IBT alone: CR4.CET too");
	free(c);
	c = mk_cpuid(other, 2);
	ok(!probe_pax_wants_cet(c), "neither SHSTK nor IBT: CR0.WP only (as before)");
	free(c);
	ok(p && p->host_setup == probe_host_pax && p->setup == probe_pax_setup,
	   "pax_open_kernel's host setup tells the guest the decision (probe_pax_cet)");
	ok(strstr(probe_pax_note(true), "CET sequence") && strstr(probe_pax_note(true), "clears CR4.CET"),
	   "the result of a CET run names the CET sequence (%s)", probe_pax_note(true));
	ok(strstr(probe_pax_note(false), "CR0.WP sequence") && !strstr(probe_pax_note(false), "CET sequence"),
	   "the result of a run without CET names the CR0.WP sequence (%s)", probe_pax_note(false));
}

/*
 * What runs here: the runner builds the VM with the guest CPUID minus the
 * row's .cpuid_clear. A copy of xsetbv's row whose host setup (run on the
 * built VM) reports, as its skip reason, the CPUID the VM was given.
 */
static int report_vm_cpuid(struct probe_ctx *ctx)
{
	snprintf(ctx->reason, sizeof(ctx->reason), "vm: tsc_adjust=%d x2apic=%d",
		 cpuid_has(ctx->vm->cpuid, X86_FEAT_TSC_ADJUST), cpuid_has(ctx->vm->cpuid, X86_FEAT_X2APIC));
	return 1;
}

static void test_runner(struct hostinfo *hi)
{
	struct probe_runner pr = { .kvm_fd = -1, .hi = hi, .env = { .samples = 3, .budget_ms = 50 } };
	struct latency_result *res = calloc(1, sizeof(*res));
	struct probe row = *probe_find("cpuid");
	struct err err;

	if (probe_runner_init(&pr, &err)) {
		diag("%s", err.msg);
		tap_skip(6, "no runner");
		free(res);
		return;
	}
	row.host_setup = report_vm_cpuid;
	if (!cpuid_has(pr.cpuid, X86_FEAT_TSC_ADJUST) || !cpuid_has(pr.cpuid, X86_FEAT_X2APIC)) {
		tap_skip(2, "KVM offers no TSC_ADJUST or x2APIC");
	} else {
		probe_run(&pr, &row, res);
		tap_is_str(res->reason, "vm: tsc_adjust=1 x2apic=1", "no .cpuid_clear: the VM gets KVM's CPUID");
		row.cpuid_clear[0] = X86_FEAT_TSC_ADJUST;
		probe_run(&pr, &row, res);
		tap_is_str(res->reason, "vm: tsc_adjust=0 x2apic=1",
			   ".cpuid_clear = { tsc_adjust }: the VM's CPUID lacks exactly that");
	}
	probe_run(&pr, probe_find("invd_xss_differs"), res);
	if (!cpuid_has(pr.cpuid, X86_FEAT_XSAVES)) {
		is_int(res->status, PROBE_SKIPPED, "no XSAVES here: invd_xss_differs is skipped");
		ok(strstr(res->reason, "xsaves") != NULL, "... saying so (%s)", res->reason);
	} else if (!hi->xss_supported) {
		is_int(res->status, PROBE_SKIPPED, "KVM supports no XSS bit: invd_xss_differs is skipped");
		ok(strstr(res->reason, "IA32_XSS") != NULL, "... saying so (%s)", res->reason);
	} else {
		tap_skip(2, "XSAVES and XSS bits here: measured, not a decision to test");
	}
	/* The sequence pax_open_kernel ran is the first note of its result. */
	probe_run(&pr, probe_find("pax_open_kernel"), res);
	if (res->status != PROBE_OK) {
		diag("pax_open_kernel: %s", res->reason);
		tap_skip(2, "pax_open_kernel did not run here");
	} else {
		struct probe_outcome o = { .probe = probe_find("pax_open_kernel"), .res = *res };
		char notes[PROBE_MAX_NOTES][PROBE_NOTE_LEN];
		bool cet = probe_pax_wants_cet(pr.cpuid);

		tap_is_str(res->setup_note, probe_pax_note(cet), "pax_open_kernel records the sequence it ran");
		ok(probe_notes(&o, notes, PROBE_MAX_NOTES) >= 1 && !strcmp(notes[0], probe_pax_note(cet)),
		   "... as the first note of its result");
	}
	probe_runner_free(&pr);
	free(res);
}

int main(void)
{
	struct hostinfo hi;
	struct err err;

	test_plans();
	test_pax();
	if (access("/dev/kvm", R_OK | W_OK))
		tap_skip(6, "/dev/kvm not usable");
	else if (hostinfo_collect(&hi, NULL, &err))
		tap_skip(6, "hostinfo failed");
	else
		test_runner(&hi);
	return done_testing();
}
