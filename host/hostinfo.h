/* SPDX-License-Identifier: GPL-2.0-only */
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
#include <linux/kvm.h>

#include "base/err.h"
#include "results/host_record_model.h"
#include "results/schema.h"

#define HOSTINFO_MAX_PARAMS	64
#define HOSTINFO_MAX_CAPS	40
#define HOSTINFO_MAX_CPUID	256	/* KVM_MAX_CPUID_ENTRIES */

struct hostinfo_param {
	char name[48];
	char value[64];
};

/*
 * The lane this process runs in, from the environment lanes/init exports
 * (absent outside a lane):
 *   EXITSCOPE_LANE                      vmx | svm
 *   EXITSCOPE_LANE_EMULATOR             the emulated PC, e.g. "qemu 7.2 tcg -cpu EPYC,+pku"
 *   EXITSCOPE_LANE_KERNEL               stock | tiny | path
 *   EXITSCOPE_LANE_KERNEL_CONFIG_SHA256 sha256 of the kernel's .config (optional)
 *   EXITSCOPE_LANE_KERNEL_PATCHES       "series/file" names, ':'-separated (optional)
 *   EXITSCOPE_LANE_KERNEL_SOURCE        the source package and version the kernel was
 *                                       built from, "linux-source-7.2 7.2.12-1~bpo13+1" (optional)
 *   EXITSCOPE_LANE_KERNEL_SOURCE_SHA256 sha256 of that source's tarball (optional)
 *   EXITSCOPE_LANE_EMULATOR_PATCHES     names of the patches the emulator was built
 *                                       with, ':'-separated (optional)
 *   EXITSCOPE_LANE_CYCLES               one sentence: what the lane's cycles are (optional)
 */
#define HOSTINFO_LANE_PATCHES	32
#define HOSTINFO_LANE_EMULATOR_PATCHES	16

struct hostinfo_lane {
	bool present;
	enum host_lane_name name;
	enum host_lane_kernel kernel_kind;
	char emulator[256];
	int nr_emulator_patches;
	char emulator_patches[HOSTINFO_LANE_EMULATOR_PATCHES][128];
	char config_sha256[72];
	char source[128];
	char source_sha256[72];
	int nr_patches;
	char patches[HOSTINFO_LANE_PATCHES][128];
	char cycles[384];
	bool profile;		/* EXITSCOPE_LANE_PROFILE=1: mark the batches for the emulator's profile */
};

struct hostinfo_cap {
	const char *name;
	int value;		/* KVM_CHECK_EXTENSION result, < 0: error */
};


/*
 * The supported CPUID is kept as struct kvm_cpuid2 followed by room for its
 * entries (as QEMU keeps its CPUID data): a GNU C extension clang warns
 * about, and the tree is built as gnu11.
 */
#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wgnu-variable-sized-type-not-at-end"
#endif
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
	/* KVM_GET_SUPPORTED_CPUID, fetched once: read it with hostinfo_cpuid(). */
	struct {
		struct kvm_cpuid2 head;
		struct kvm_cpuid_entry2 entries[HOSTINFO_MAX_CPUID];
	} supported_cpuid;
	bool feat_xsave, feat_xsavec, feat_xsaves, feat_osxsave, feat_pku,
	     feat_shstk, feat_ibt, feat_x2apic, feat_tsc_deadline, feat_hypervisor;
	uint64_t xcr0_supported, xss_supported;
	bool msr_list_ok, msr_xss, msr_cet;
	int tsc_khz;
	enum exec_mode exec_mode;
	uint64_t exec_loop_insns, exec_exits, exec_insn_emulation;
	char exec_detail[160];
	struct hostinfo_lane lane;
};
#ifdef __clang__
#pragma clang diagnostic pop
#endif

/*
 * Fill hi (all but hi->lane: hostinfo_lane_env). Returns 0, or -errno when
 * /dev/kvm (kvm_path) cannot be used at all, with err saying why; partial
 * failures are recorded in the fields.
 */
int hostinfo_collect(struct hostinfo *hi, const char *kvm_path, struct err *err);
/*
 * Read the lane variables (above) into *l. 0 (l->present false when
 * EXITSCOPE_LANE is unset), or -EINVAL with err naming the variable whose
 * value is not valid or too long.
 */
int hostinfo_lane_env(struct hostinfo_lane *l, struct err *err);
/* The execution-mode probe alone (part of hostinfo_collect). */
int hostinfo_exec_mode(struct hostinfo *hi, const char *kvm_path, struct err *err);
/*
 * What KVM_GET_SUPPORTED_CPUID returned when hi was collected (NULL when
 * it failed, or hi is NULL). It lives inside *hi: nothing to free; callers
 * that edit it work on a cpuid_dup().
 */
const struct kvm_cpuid2 *hostinfo_cpuid(const struct hostinfo *hi);
/* The host CPU is AMD's or Hygon's (VMMCALL, SVM exit names). */
bool hostinfo_vendor_amd(const struct hostinfo *hi);
const char *hostinfo_param(const struct hostinfo *hi, const char *name);
int hostinfo_cap(const struct hostinfo *hi, const char *name);
void hostinfo_print(FILE *f, const struct hostinfo *hi);
/* A one-line warning when guest code is emulated by the host, else NULL. */
const char *hostinfo_emulation_warning(const struct hostinfo *hi);

#endif
