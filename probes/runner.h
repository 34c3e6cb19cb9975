/*
 * runner.h - run catalogue probes one by one, each in a fresh VM built for
 * what it needs (irqchip, 2 vCPUs), with its host-side setup, and turn the
 * outcome into a latency_result with a status and a reason.
 */
#ifndef EXITSCOPE_PROBES_RUNNER_H
#define EXITSCOPE_PROBES_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "probes/probes.h"
#include "harness/latency.h"

struct hostinfo;

struct probe_runner {
	const char *kvm_path;		/* NULL: /dev/kvm */
	volatile sig_atomic_t *stop;	/* Ctrl-C */
	const struct hostinfo *hi;	/* collected; its KVM_GET_SUPPORTED_CPUID is used */
	struct latency_env env;		/* template: samples, budget, overhead, trace */
	const char *hang_probe;		/* test hook: this probe's op never returns */
	/* Set by probe_runner_init. */
	int kvm_fd;
	const struct kvm_cpuid2 *cpuid;	/* hostinfo_cpuid(hi) */
};

/* Open KVM; r's caller fields must be set (hi with its CPUID). 0 or -errno. */
int probe_runner_init(struct probe_runner *r, char *err, size_t errlen);
void probe_runner_free(struct probe_runner *r);

/*
 * Run p. Returns 0 with res->status/reason set (a skip, failure or hang is
 * a result, not an error), or -errno when the runner itself failed.
 */
int probe_run(struct probe_runner *r, const struct probe *p, struct latency_result *res);

#endif
