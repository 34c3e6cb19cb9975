/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runner.h - run catalogue probes one by one, each in a fresh VM built for
 * what it needs (irqchip, 2 vCPUs), with its host-side setup, and turn the
 * outcome into a latency_result with a status and a reason. With
 * guest_xcr0 set (run --guest-xcr0), every VM gets CR4.OSXSAVE and that
 * XCR0 on all its vCPUs before the probe's setup runs.
 */
#ifndef EXITSCOPE_PROBES_RUNNER_H
#define EXITSCOPE_PROBES_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "probes/probes.h"
#include "harness/latency.h"

struct hostinfo;
struct vm;

struct probe_runner {
	const char *kvm_path;		/* NULL: /dev/kvm */
	volatile sig_atomic_t *stop;	/* Ctrl-C */
	const struct hostinfo *hi;	/* collected; its KVM_GET_SUPPORTED_CPUID is used */
	struct latency_env env;		/* template: samples, budget, overhead, trace */
	bool pin_cpu2;			/* a second vCPU's thread goes to cpu2 (else: any but vCPU 0's) */
	int cpu2;
	const char *hang_probe;		/* test hook: this probe's op never returns */
	uint64_t hang_watchdog_ms;	/* ... and its watchdog (0: as any probe's) */
	uint64_t guest_xcr0;		/* 0: CR4/XCR0 as built; else checked by guest_xcr0_check */
	/* Set by probe_run when guest_xcr0 is set: vCPU 0's XCR0 (KVM_GET_XCRS) after measuring. */
	uint64_t guest_xcr0_after;
	/* Set by probe_runner_init. */
	int kvm_fd;
	const struct kvm_cpuid2 *cpuid;	/* hostinfo_cpuid(hi) */
};

/* Open KVM; r's caller fields must be set (hi with its CPUID). 0 or -errno. */
int probe_runner_init(struct probe_runner *r, struct err *err);
void probe_runner_free(struct probe_runner *r);

/*
 * Run p. Returns 0 with res->status/reason set (a skip, failure or hang is
 * a result, not an error), or -errno when the runner itself failed.
 */
int probe_run(struct probe_runner *r, const struct probe *p, struct latency_result *res);

/*
 * Method v2: one probe measured in rounds on a VM kept between them (run
 * opens a session per round: each round in a VM of its own)
 * (latency_session_*, harness/latency.h). res is cleared by the caller
 * (latency_result_clear) before the first open; rounds append to it. open
 * and round return 0 with res->status set; when the measurement ended
 * (skip, failure, hang) the session is closed (s->ls.open false) and its VM
 * gone. probe_session_close ends a session still open (teardown check,
 * host teardown, VM). Two-vCPU probes record res->cpus.
 */
struct probe_session {
	const struct probe *probe;
	struct probe_ctx ctx;
	struct latency_op op;
	struct latency_env env;
	struct latency_session ls;
};

int probe_session_open(struct probe_runner *r, const struct probe *p, struct probe_session *s,
		       struct latency_result *res);
int probe_session_round(struct probe_runner *r, struct probe_session *s, struct latency_result *res);
void probe_session_close(struct probe_runner *r, struct probe_session *s, struct latency_result *res);

/* The skip reason of every probe under guest_xcr0 when CPUID has no XSAVE. */
#define GUEST_XCR0_NO_XSAVE \
	"--guest-xcr0 %#llx: KVM's supported CPUID has no XSAVE, so a guest cannot set " \
	"CR4.OSXSAVE; run without --guest-xcr0 on this host"

/*
 * Is mask an XCR0 a guest may be given here: bit 0 (x87) set, the
 * architectural pairs (AVX needs SSE; AVX-512's three bits together and with
 * AVX; MPX's and AMX's two bits together), and no bit outside KVM's supported
 * XCR0 in hi. 0, or -EINVAL with err ("bit 0 (x87) is not set").
 */
int guest_xcr0_check(uint64_t mask, const struct hostinfo *hi, struct err *err);
/*
 * Set CR4.OSXSAVE (KVM_SET_SREGS) and XCR0 = mask (KVM_SET_XCRS) on every
 * vCPU of vm and read both back. 0; 1 when the host refuses or does not keep
 * them (why says which and how); -errno when an ioctl fails otherwise.
 */
int guest_xcr0_apply(struct vm *vm, uint64_t mask, char *why, size_t len);
/* XCR0 of a vCPU as KVM_GET_XCRS reports it. 0 or -errno (-ENOENT: not listed). */
int guest_xcr0_read(int vcpu_fd, uint64_t *xcr0);

#endif
