/* result_read.h - load and validate an exitscope result file (docs/results-schema.md). */
#ifndef EXITSCOPE_RESULTS_RESULT_READ_H
#define EXITSCOPE_RESULTS_RESULT_READ_H

#include <stddef.h>

#include "results/map.h"
#include "results/schema.h"

#define RESULT_MAX_FILE_BYTES	(64u << 20)	/* larger files are refused */
#define RESULT_MAX_ITEMS	100000		/* probes, samples per probe, map entries, checks... */
#define RESULT_ERR_MAX		512		/* enough for any message of the reader */


/* The per_op counters of a probe, in schema order. */
enum result_per_op {
	RESULT_OP_EXITS, RESULT_OP_IO_EXITS, RESULT_OP_MMIO_EXITS, RESULT_OP_HALT_EXITS,
	RESULT_OP_HYPERCALLS, RESULT_OP_INSN_EMULATION, RESULT_OP_SIGNAL_EXITS,
	RESULT_OP_IRQ_EXITS, RESULT_PER_OP_N,
};

/* Names as they appear in the files; indexed by enum result_per_op. */
extern const char *const result_per_op_names[];

/*
 * All strings below point into the parsed document kept by struct
 * result_file: valid until result_free(). Optional strings are NULL when
 * absent; optional integers are -1 and optional numbers -1.0 when absent
 * (present values are validated >= 0, so the sentinel is unambiguous).
 */
struct result_kv {
	const char *key, *value;
};

struct result_flag {
	const char *key;
	int value;
};

struct result_num {
	const char *key;
	double value;
};

struct result_host {
	const char *kernel;
	const char *backend_module;		/* kvm_intel, kvm_amd, kvm_pvm, other, none */
	struct result_kv *backend_params;	/* module parameters, in file order */
	size_t n_backend_params;
	const char *cpu_vendor, *cpu_name;
	long long cpu_family, cpu_model, cpu_stepping;
	long long kvm_api_version;		/* optional */
	size_t n_kvm_caps;			/* optional; validated, counted only */
	struct result_flag *cpuid;		/* optional: feature -> supported by KVM */
	size_t n_cpuid;
	long long xcr0_supported, xss_supported;	/* optional */
	long long tsc_khz;			/* 0 if unknown */
	enum exec_mode exec_mode;
	const char *exec_detail;		/* optional */
};

struct result_cycles {
	double min, median, p90, p99, mean, stddev, cv, ci95_lo, ci95_hi;
};

struct result_probe {
	const char *name, *group;
	const char *description;		/* optional */
	enum probe_status status;
	const char *reason;			/* required unless status is ok */
	/* The rest only when status is ok (zero otherwise). */
	long long batch;			/* ops per sample, > 0 */
	double *samples;			/* cycles/op, finite, >= 0 */
	size_t n_samples;			/* >= 1 */
	struct result_cycles cycles;
	double ns_median, overhead_cycles;	/* optional */
	double per_op[RESULT_PER_OP_N];
	struct result_num *trace;		/* optional: exits/op by exit reason */
	size_t n_trace;
	const char **notes;			/* optional */
	size_t n_notes;
};

struct result_check {
	const char *suite, *name;
	enum check_status status;
	const char *detail;			/* optional */
};

struct result_file {
	const char *name;			/* as given to the reader (copied) */
	enum result_kind kind;
	const char *tool_version;		/* optional */
	const char *started, *finished;		/* optional */
	struct result_host host;
	struct result_probe *probes;		/* required for kind "run" */
	size_t n_probes;
	struct result_map *map;			/* NULL when absent (results/map.h) */
	struct result_check *checks;		/* optional */
	size_t n_checks;
	const char **warnings;			/* optional */
	size_t n_warnings;
	void *doc;				/* parsed document owning the strings */
};

/*
 * Read and validate the result file at path. Returns the result, or NULL with
 * one line (no newline) in err[0..errlen-1] naming the file and the problem,
 * e.g. "base.json: probes[3].samples[2]: not a finite non-negative number".
 * Never prints, never exits.
 */
struct result_file *result_read_file(const char *path, char *err, size_t errlen);

/* Same for a document in memory; name is used in messages. */
struct result_file *result_read_buffer(const char *name, const void *buf, size_t len,
				       char *err, size_t errlen);

/* The probe called name, or NULL. */
const struct result_probe *result_find_probe(const struct result_file *rf, const char *name);

void result_free(struct result_file *rf);

#endif
