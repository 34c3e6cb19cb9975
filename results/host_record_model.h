/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * host_record_model.h - the host record model ("host" of every result file, the
 * whole of kind "info"; docs/results-schema.md HOST): host/ fills it from
 * what it collected, host_record_json() writes it, result_read() fills it
 * back from a file by its table.
 */
#ifndef EXITSCOPE_RESULTS_HOST_RECORD_MODEL_H
#define EXITSCOPE_RESULTS_HOST_RECORD_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "results/field.h"
#include "results/jcheck.h"
#include "results/schema.h"

struct result_kv {
	const char *key, *value;
};

struct result_flag {
	const char *key;
	int value;
};

struct result_int {
	const char *key;
	long long value;
};

/*
 * The optional "lane" object: which emulated PC and which kernel a result
 * was measured in (scripts/lane-run; docs/results-schema.md LANE).
 */
enum host_lane_name { HOST_LANE_VMX, HOST_LANE_SVM, HOST_LANE_N };
enum host_lane_kernel { HOST_LANE_KERNEL_STOCK, HOST_LANE_KERNEL_TINY, HOST_LANE_KERNEL_PATH,
			HOST_LANE_KERNEL_N };
extern const char *const host_lane_names[HOST_LANE_N];		/* "vmx", "svm" */
/* "stock", "tiny", "path" */
extern const char *const host_lane_kernel_names[HOST_LANE_KERNEL_N];

struct host_lane {
	bool present;				/* 0: no "lane" object */
	enum host_lane_name name;
	const char *emulator;			/* e.g. "bochs 2.7 corei7_skylake_x" */
	const char **emulator_patches;		/* optional: the emulator's patches, in order */
	size_t n_emulator_patches;
	enum host_lane_kernel kernel_kind;
	const char *kernel_config_sha256;	/* optional */
	const char *kernel_source;		/* optional: "linux-source-7.2 7.2.12-1~bpo13+1" */
	const char *kernel_source_sha256;	/* optional: of that source's tarball */
	const char **kernel_patches;		/* "series/file", in the order applied */
	size_t n_kernel_patches;
	const char *cycles;			/* optional: what the lane's cycles are */
	int profile;				/* optional: 1 when the run marked its batches for an exit-path profile */
};

/*
 * Strings and arrays are borrowed: from the producer's own record, or (read
 * back) strings from the parsed document and arrays allocated by the reader
 * (host_record_release). Optional strings and arrays are NULL when absent
 * (an empty array is a non-NULL pointer with a count of 0); optional
 * integers are -1 when absent (present values are >= 0).
 */
struct host_record {
	const char *kernel;
	const char *backend_module;		/* one of host_backend_names */
	struct result_kv *backend_params;	/* module parameters (sysfs strings), in order */
	size_t n_backend_params;
	const char *cpu_vendor, *cpu_name;
	long long cpu_family, cpu_model, cpu_stepping;
	long long kvm_api_version;		/* optional */
	struct result_int *kvm_caps;		/* optional: KVM_CAP_* -> KVM_CHECK_EXTENSION */
	size_t n_kvm_caps;
	struct result_flag *cpuid;		/* optional: feature -> supported by KVM */
	size_t n_cpuid;
	long long xcr0_supported, xss_supported;	/* optional */
	struct result_flag *msr_save_list;	/* optional: MSR group -> in the save list */
	size_t n_msr_save_list;
	long long tsc_khz;			/* 0 if unknown */
	enum exec_mode exec_mode;
	/* The execution-mode probe: instructions of its guest loop, and the exits
	 * and instruction emulations the loop caused (all optional). */
	long long exec_loop_insns, exec_exits, exec_insn_emulation;
	const char *exec_detail;		/* optional */
	struct host_lane lane;			/* optional (lane.present) */
};

/* The host record's fields and the lane's, in writing order (results/field.h). */
extern const struct field_desc host_record_fields, host_lane_fields;

/* Every optional field absent, every required one zero or NULL. */
void host_record_init(struct host_record *h);

/* The "host" object (NULL when out of memory or a required string is NULL). */
json_t *host_record_json(const struct host_record *h);

/* Free the arrays the reader allocated (the strings stay with the document). */
void host_record_release(struct host_record *h);

#endif
