/*
 * hostinfo.h - the host record: kernel, KVM backend module and parameters,
 * CPU, KVM API and capabilities, supported CPUID features, XCR0/XSS, MSR
 * save list, TSC frequency, and the guest execution mode (native or
 * emulated) measured by running a known loop in a guest.
 */
#ifndef EXITSCOPE_HOST_HOSTINFO_H
#define EXITSCOPE_HOST_HOSTINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <jansson.h>

#include "results/schema.h"

#define HOSTINFO_MAX_PARAMS	64
#define HOSTINFO_MAX_CAPS	40

struct hostinfo_param {
	char name[48];
	char value[64];
};

struct hostinfo_cap {
	const char *name;
	int value;		/* KVM_CHECK_EXTENSION result, < 0: error */
};


struct hostinfo {
	char kernel[128];
	char backend[32];	/* kvm_intel, kvm_amd, kvm_pvm, other, none */
	int nr_params;
	struct hostinfo_param params[HOSTINFO_MAX_PARAMS];
	char vendor[16];
	unsigned int family, model, stepping;
	char cpu_name[64];
	int api_version;
	int nr_caps;
	struct hostinfo_cap caps[HOSTINFO_MAX_CAPS];
	bool cpuid_ok;
	bool feat_xsave, feat_xsavec, feat_xsaves, feat_osxsave, feat_pku,
	     feat_shstk, feat_ibt, feat_x2apic, feat_tsc_deadline, feat_hypervisor;
	uint64_t xcr0_supported, xss_supported;
	bool msr_list_ok, msr_xss, msr_cet;
	int tsc_khz;
	enum exec_mode exec_mode;
	uint64_t exec_loop_insns, exec_exits, exec_insn_emulation;
	char exec_detail[160];
};

/*
 * Fill hi. Returns 0, or -errno when /dev/kvm (kvm_path) cannot be used at
 * all, with err saying why; partial failures are recorded in the fields.
 */
int hostinfo_collect(struct hostinfo *hi, const char *kvm_path, char *err, size_t errlen);
/* The execution-mode probe alone (part of hostinfo_collect). */
int hostinfo_exec_mode(struct hostinfo *hi, const char *kvm_path, char *err, size_t errlen);
const char *hostinfo_param(const struct hostinfo *hi, const char *name);
int hostinfo_cap(const struct hostinfo *hi, const char *name);
void hostinfo_print(FILE *f, const struct hostinfo *hi);
/* A one-line warning when guest code is emulated by the host, else NULL. */
const char *hostinfo_emulation_warning(const struct hostinfo *hi);

#endif
