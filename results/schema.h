/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * schema.h - the vocabulary of exitscope result files (docs/results-schema.md):
 * the schema name and version, and one enum per concept with the names the
 * files use. Producers (host, harness, probes, suites), the writers and the
 * reader all use these; nothing else defines them.
 */
#ifndef EXITSCOPE_RESULTS_SCHEMA_H
#define EXITSCOPE_RESULTS_SCHEMA_H

#include <stddef.h>

#define RESULT_SCHEMA		"exitscope-result"
/*
 * 2: a run probe's "exit_path" and its delivery's "late_in_cost"; 3: an
 * exit path's "census" (readers take 1 to 3)
 */
#define RESULT_SCHEMA_VERSION	3
#define RESULT_SCHEMA_VERSION_MIN 1
#define EXITSCOPE_VERSION	"0.1.0"

/* A host's noise floor (results/noise.h, docs/results-schema.md NOISE). */
#define NOISE_SCHEMA		"exitscope-noise"
#define NOISE_SCHEMA_VERSION	2	/* 2: probes' "at_guest_speed" (readers take 1 and 2) */
#define NOISE_SCHEMA_VERSION_MIN 1
#define NOISE_MIN_RUNS		3	/* runs a probe needs in a floor (and a floor at all) */

enum result_kind { RESULT_KIND_INFO, RESULT_KIND_RUN, RESULT_KIND_MAP, RESULT_KIND_CHECK, RESULT_KIND_N };

/* How the host runs guest code, as measured (host record "execution.mode"). */
enum exec_mode { EXEC_UNKNOWN, EXEC_NATIVE, EXEC_EMULATED, EXEC_MODE_N };

/* Outcome of one probe (run "probes[].status"). */
enum probe_status {
	PROBE_OK,
	PROBE_SKIPPED,		/* setup said no, or the host cannot emulate the op */
	PROBE_FAILED,		/* guest exception/assert, KVM error */
	PROBE_HANG,		/* still running at the watchdog */
	PROBE_STOPPED,		/* interrupted (Ctrl-C) before it finished */
	PROBE_STATUS_N
};

/* Why a probe's measurement ended (run "probes[].stop"; absent: NONE). */
enum probe_stop {
	PROBE_STOP_NONE,	/* not written (files before rounds, probes not measured) */
	PROBE_STOP_PRECISION,	/* its CI reached --precision */
	PROBE_STOP_BUDGET,	/* its --time-budget was spent first */
	PROBE_STOP_RUN_LIMIT,	/* the whole run's --run-limit was reached */
	PROBE_STOP_STOPPED,	/* Ctrl-C after some rounds were measured */
	PROBE_STOP_SAMPLES,	/* --method v1: the fixed --samples count */
	PROBE_STOP_N
};

/* How a run measured (run "settings.method"). */
enum run_method { RUN_METHOD_V1, RUN_METHOD_V2, RUN_METHOD_N };

/* Outcome of one ownership-map entry (map "profiles[].entries[].status"). */
enum map_status {
	MAP_OWNED, MAP_INTERCEPTED, MAP_REJECTED, MAP_EMULATED, MAP_SKIPPED, MAP_STOPPED,
	MAP_STATUS_N
};

/* Outcome of one check ("checks[].status"). */
enum check_status { CHECK_PASS, CHECK_FAIL, CHECK_SKIP, CHECK_STOPPED, CHECK_STATUS_N };

/* The KVM module of the host record ("host.backend.module"). */
enum host_backend {
	BACKEND_KVM_INTEL, BACKEND_KVM_AMD, BACKEND_KVM_PVM, BACKEND_OTHER, BACKEND_NONE,
	HOST_BACKEND_N
};

/*
 * The per-op counters of a probe ("probes[].per_op"), in file order, listed
 * once for every layer (X(name, NAME): the JSON key, also the field of the
 * harness's structs, and RESULT_OP_NAME). The stats ones are vCPU binary
 * stats fd deltas over the measured region, looked up by these names
 * (harness/region.c): required in a file. The user ones are exitscope's run
 * loop, KVM_RUN returns to userspace by reason (exact on every backend, the
 * only exact exit counts under emulation): optional.
 */
#define RESULT_STATS_COUNTERS(X)						\
	X(exits, EXITS) X(io_exits, IO_EXITS) X(mmio_exits, MMIO_EXITS)	\
	X(halt_exits, HALT_EXITS) X(hypercalls, HYPERCALLS)			\
	X(insn_emulation, INSN_EMULATION) X(signal_exits, SIGNAL_EXITS)	\
	X(irq_exits, IRQ_EXITS)
#define RESULT_USER_COUNTERS(X)							\
	X(user_io, USER_IO) X(user_mmio, USER_MMIO) X(user_msr, USER_MSR)	\
	X(user_intr, USER_INTR)

enum result_per_op {
#define RESULT_OP_ENUM(name, NAME) RESULT_OP_##NAME,
	RESULT_STATS_COUNTERS(RESULT_OP_ENUM)
	RESULT_USER_COUNTERS(RESULT_OP_ENUM)
#undef RESULT_OP_ENUM
	RESULT_PER_OP_N,
};
/* The first run-loop counter: per_op[RESULT_OP_FIRST_USER..] are optional. */
#define RESULT_OP_FIRST_USER	RESULT_OP_USER_IO

/* Reader limits (docs/compare-report.md). */
#define RESULT_MAX_FILE_BYTES	(64u << 20)	/* larger files are refused */
#define RESULT_MAX_ITEMS	100000		/* probes, samples per probe, map entries, checks... */

/* Names as they appear in the files, indexed by the enums. */
extern const char *const result_kind_names[RESULT_KIND_N];
extern const char *const exec_mode_names[EXEC_MODE_N];
extern const char *const probe_status_names[PROBE_STATUS_N];
extern const char *const probe_stop_names[PROBE_STOP_N];	/* [PROBE_STOP_NONE] is "" */
extern const char *const run_method_names[RUN_METHOD_N];
extern const char *const map_status_names[MAP_STATUS_N];
extern const char *const check_status_names[CHECK_STATUS_N];
extern const char *const host_backend_names[HOST_BACKEND_N];
extern const char *const result_per_op_names[RESULT_PER_OP_N];

const char *exec_mode_name(enum exec_mode m);
const char *probe_status_name(enum probe_status s);
const char *probe_stop_name(enum probe_stop s);
const char *run_method_name(enum run_method m);
const char *map_status_name(enum map_status s);
const char *check_status_name(enum check_status s);

/* Index of s in names[0..n-1], or -1. */
int schema_enum_find(const char *const *names, size_t n, const char *s);

#endif
