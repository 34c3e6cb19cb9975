// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_guest_xcr0.c - `exitscope run --guest-xcr0 MASK`: the mask rules
 * (exact messages of guest_xcr0_check), usage errors with exit 2, the
 * setting recorded in the run file, every vCPU of a VM given CR4.OSXSAVE and
 * that XCR0 (read back with KVM_GET_SREGS / KVM_GET_XCRS), and a probe run
 * under it that still has that XCR0 after measuring, or skips with the
 * reason when KVM's supported CPUID has no XSAVE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>

#include "base/array_size.h"
#include "guest/vm.h"
#include "host/hostinfo.h"
#include "kvm/abi.h"
#include "kvm/kvm.h"
#include "probes/runner.h"
#include "results/result_read.h"
#include "tests/fixture.h"
#include "tests/run_cmd.h"
#include "tests/tap.h"

static const char *exe;

/* The rules, on a host record that supports x87|SSE|AVX|AVX-512 (0xe7). */
static void test_check_rules(void)
{
	static const struct { uint64_t mask; const char *why; } cases[] = {
		{ 0x3, NULL }, { 0x1, NULL }, { 0x7, NULL }, { 0xe7, NULL },
		{ 0x0, "bit 0 (x87) is not set" },
		{ 0x2, "bit 0 (x87) is not set" },
		{ 0x5, "bit 2 (AVX) needs bit 1 (SSE)" },
		{ 0x27, "bits 5-7 (AVX-512) go together and need bit 2 (AVX)" },
		{ 0xe3, "bits 5-7 (AVX-512) go together and need bit 2 (AVX)" },
		{ 0xb, "bits 3-4 (MPX) go together" },
		{ 0x20003, "bits 17-18 (AMX) go together" },
		{ 0x207, "bits 0x200 are not in KVM's supported XCR0 0xe7" },
		{ 0x1b, "bits 0x18 are not in KVM's supported XCR0 0xe7" },
	};
	struct hostinfo *hi = calloc(1, sizeof(*hi));
	char name[160];
	struct err why;

	hi->xcr0_supported = 0xe7;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int r;

		err_init(&why);
		r = guest_xcr0_check(cases[i].mask, hi, &why);
		snprintf(name, sizeof(name), "guest_xcr0_check %#llx: %s",
			 (unsigned long long)cases[i].mask, cases[i].why ? cases[i].why : "valid");
		if (!cases[i].why)
			is_int(r, 0, name);
		else if (!ok(r == -EINVAL && !strcmp(why.msg, cases[i].why), "%s", name))
			diag("got %d '%s'", r, why.msg);
	}
	free(hi);
}

static void test_cli_errors(void)
{
	struct run_result r;

	run_cmd(&r, (const char *const[]){ exe, "run", "--help", NULL });
	tap_like(r.out, "--guest-xcr0 MASK", "run --help documents --guest-xcr0 MASK");
	tap_like(r.out, "settings.guest_xcr0", "run --help says where it is recorded");
	run_free(&r);

	run_cmd(&r, (const char *const[]){ exe, "run", "--guest-xcr0", "zz", "nop", NULL });
	is_int(r.status, 2, "--guest-xcr0 zz: exit 2");
	tap_is_str(r.err, "exitscope run: --guest-xcr0 wants an XCR0 mask like 0x3, not 'zz'\n"
		   "Try 'exitscope run --help'.\n", "--guest-xcr0 zz: the exact message");
	run_free(&r);
	if (access("/dev/kvm", R_OK | W_OK)) {
		tap_skip(4, "/dev/kvm is not usable: the host-dependent checks need a host record");
		return;
	}
	run_cmd(&r, (const char *const[]){ exe, "run", "--guest-xcr0", "0x2", "nop", NULL });
	is_int(r.status, 2, "--guest-xcr0 0x2: exit 2");
	tap_is_str(r.err, "exitscope run: --guest-xcr0 0x2: bit 0 (x87) is not set\n"
		   "Try 'exitscope run --help'.\n", "--guest-xcr0 0x2: the exact message");
	run_free(&r);
	/* Bit 62 is no XSAVE component any KVM supports. */
	run_cmd(&r, (const char *const[]){ exe, "run", "--guest-xcr0", "0x4000000000000003", "nop", NULL });
	is_int(r.status, 2, "--guest-xcr0 with bit 62: exit 2");
	tap_like(r.err, "exitscope run: --guest-xcr0 0x4000000000000003: bits 0x4000000000000000 "
		 "are not in KVM's supported XCR0 0x", "--guest-xcr0 with bit 62: the message names the bits");
	run_free(&r);
}

/* A 2-vCPU VM: CR4.OSXSAVE and XCR0 on both, read back independently. */
static void test_apply(const struct hostinfo *hi)
{
	struct vm_opts vo = { .quiet = true, .nr_vcpus = 2, .cpuid = hostinfo_cpuid(hi) };
	struct vm *vm = NULL;
	char why[256] = "";
	struct err err;
	int r = vm_create(&vm, &vo, &err);

	if (!ok(r == 0, "a 2-vCPU VM is built")) {
		diag("%s", err.msg);
		tap_skip(3, "no VM");
		return;
	}
	r = guest_xcr0_apply(vm, 0x3, why, sizeof(why));
	if (r > 0) {
		ok(*why != 0, "guest_xcr0_apply 0x3: the host refuses, with a reason");
		diag("refused: %s", why);
		tap_skip(1, "this host does not take CR4.OSXSAVE / XCR0 0x3");
	} else {
		bool all = r == 0;

		is_int(r, 0, "guest_xcr0_apply 0x3 succeeds");
		for (int i = 0; i < vm->nr_vcpus; i++) {
			struct kvm_sregs sr;
			uint64_t x = 0;

			if (kvm_get_sregs(vm->vcpus[i].fd, &sr) || !(sr.cr4 & X86_CR4_OSXSAVE) ||
			    guest_xcr0_read(vm->vcpus[i].fd, &x) || x != 0x3) {
				diag("vCPU %d: CR4 %#llx, XCR0 %#llx", i, (unsigned long long)sr.cr4,
				     (unsigned long long)x);
				all = false;
			}
		}
		ok(all, "both vCPUs read back CR4.OSXSAVE set and XCR0 0x3 (KVM_GET_SREGS/KVM_GET_XCRS)");
	}
	/* KVM never takes a component bit it does not support. */
	why[0] = 0;
	r = guest_xcr0_apply(vm, 0x4000000000000003ULL, why, sizeof(why));
	if (!ok(r == 1 && !strncmp(why, "KVM_SET_", 8), "bit 62: the host refuses it, saying which ioctl"))
		diag("got %d '%s'", r, why);
	vm_destroy(vm);
}

/*
 * probe_run under guest_xcr0: XCR0 still 0x3 after measuring, or, without
 * XSAVE in KVM's supported CPUID, skipped with the exact reason. Where the
 * host lacks XSAVE in its CPUID but still takes CR4.OSXSAVE (kvm_pvm), the
 * second half runs the probe with XSAVE added to a copy of that CPUID, so
 * the read-back after a real measurement is checked there too.
 */
static void test_probe_run(struct hostinfo *hi)
{
	struct probe_runner pr = { .kvm_fd = -1, .hi = hi,
				   .env = { .samples = 3, .budget_ms = 50 }, .guest_xcr0 = 0x3 };
	struct latency_result *res = calloc(1, sizeof(*res));
	char want[256];
	struct err err;
	bool has_xsave;

	if (probe_runner_init(&pr, &err)) {
		diag("%s", err.msg);
		tap_skip(3, "no runner");
		free(res);
		return;
	}
	has_xsave = cpuid_has(pr.cpuid, X86_FEAT_XSAVE);
	probe_run(&pr, probe_find("cpuid"), res);
	if (has_xsave) {
		is_int(res->status, PROBE_OK, "cpuid under --guest-xcr0 0x3: measured");
		tap_is_u64(pr.guest_xcr0_after, 0x3, "cpuid: vCPU 0's XCR0 after measuring is 0x3");
	} else {
		snprintf(want, sizeof(want), GUEST_XCR0_NO_XSAVE, 0x3ULL);
		is_int(res->status, PROBE_SKIPPED, "no XSAVE in KVM's supported CPUID: cpuid is skipped");
		tap_is_str(res->reason, want, "the skip gives the exact reason");
	}
	probe_runner_free(&pr);
	if (has_xsave) {
		tap_skip(1, "KVM's supported CPUID has XSAVE: checked above");
	} else {
		struct kvm_cpuid_entry2 *e = cpuid_find(&hi->supported_cpuid.head, 0x1, 0);

		pr = (struct probe_runner){ .kvm_fd = -1, .hi = hi,
					    .env = { .samples = 3, .budget_ms = 50 }, .guest_xcr0 = 0x3 };
		if (e)
			e->ecx |= 1u << 26;	/* CPUID.1:ECX.XSAVE */
		if (!e || probe_runner_init(&pr, &err)) {
			tap_skip(1, "no CPUID leaf 1 to add XSAVE to");
		} else {
			probe_run(&pr, probe_find("cpuid"), res);
			if (res->status == PROBE_SKIPPED && !strncmp(res->reason, "--guest-xcr0 0x3: KVM_", 22))
				tap_skip(1, "the host does not take CR4.OSXSAVE without XSAVE in its CPUID");
			else
				if (!ok(res->status == PROBE_OK && pr.guest_xcr0_after == 0x3,
					"with XSAVE in the VM's CPUID: cpuid is measured and XCR0 is 0x3 after it"))
					diag("status %d, reason '%s', XCR0 after %#llx", res->status,
					     res->reason, (unsigned long long)pr.guest_xcr0_after);
			probe_runner_free(&pr);
		}
		if (e)
			e->ecx &= ~(1u << 26);
	}
	free(res);
}

/* The setting in the run file, and every probe ok or skipped for XCR0. */
static void test_run_file(const struct hostinfo *hi)
{
	struct result_file *rf;
	struct run_result r;
	char *dir = fixture_tmpdir(), path[512], want[256];
	struct err rerr;
	bool has_xsave = cpuid_has(hostinfo_cpuid(hi), X86_FEAT_XSAVE), all = true;
	json_error_t je;
	json_t *root, *p;
	size_t i;

	snprintf(path, sizeof(path), "%s/xcr0.json", dir);
	run_cmd(&r, (const char *const[]){ exe, "run", "--guest-xcr0", "0x3", "nop", "cpuid", "rdtsc",
			"--samples", "3", "--time-budget", "0.05", "--quiet", "--json", path, NULL });
	is_int(r.status, 0, "run --guest-xcr0 0x3: exit 0");
	run_free(&r);
	root = json_load_file(path, 0, &je);
	is_int(json_integer_value(json_object_get(json_object_get(root, "settings"), "guest_xcr0")), 3,
	       "settings.guest_xcr0 is 3");
	snprintf(want, sizeof(want), GUEST_XCR0_NO_XSAVE, 0x3ULL);
	json_array_foreach(json_object_get(root, "probes"), i, p) {
		const char *st = json_string_value(json_object_get(p, "status"));
		const char *why = json_string_value(json_object_get(p, "reason"));

		if (has_xsave ? strcmp(st, "ok") : strcmp(st, "skipped") || !why || strcmp(why, want)) {
			diag("%s: %s (%s)", json_string_value(json_object_get(p, "name")), st, why ? why : "");
			all = false;
		}
	}
	ok(all && i == 3, has_xsave ? "all 3 probes measured under --guest-xcr0"
				    : "all 3 probes skipped: KVM's supported CPUID has no XSAVE");
	rf = result_read_file(path, &rerr);
	if (!ok(rf != NULL, "the reader accepts a run file with settings.guest_xcr0"))
		diag("%s", rerr.msg);
	result_free(rf);
	json_decref(root);

	/* Without the option there is no such setting. */
	run_cmd(&r, (const char *const[]){ exe, "run", "nop", "--samples", "2", "--time-budget", "0.05",
			"--quiet", "--json", path, NULL });
	root = json_load_file(path, 0, &je);
	ok(root && json_is_object(json_object_get(root, "settings")) &&
	   !json_object_get(json_object_get(root, "settings"), "guest_xcr0"),
	   "without --guest-xcr0: no settings.guest_xcr0");
	json_decref(root);
	run_free(&r);
	fixture_rmdir(dir);
}

int main(void)
{
	struct hostinfo *hi;
	struct err err;

	test_check_rules();
	exe = getenv("EXITSCOPE");
	if (!exe || access(exe, X_OK)) {
		skip("EXITSCOPE is not set (run through make check): no CLI tests");
		return done_testing();
	}
	test_cli_errors();
	if (access("/dev/kvm", R_OK | W_OK)) {
		skip("/dev/kvm is not usable: no VM tests");
		return done_testing();
	}
	hi = calloc(1, sizeof(*hi));
	if (hostinfo_collect(hi, NULL, &err)) {
		skip(err.msg);
		free(hi);
		return done_testing();
	}
	test_apply(hi);
	test_probe_run(hi);
	test_run_file(hi);
	free(hi);
	return done_testing();
}
