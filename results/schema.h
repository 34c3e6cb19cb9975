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
#define RESULT_SCHEMA_VERSION	1
#define EXITSCOPE_VERSION	"0.1.0"

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

/* Outcome of one ownership-map entry (map "profiles[].entries[].status"). */
enum map_status {
	MAP_OWNED, MAP_INTERCEPTED, MAP_REJECTED, MAP_EMULATED, MAP_SKIPPED, MAP_STOPPED,
	MAP_STATUS_N
};

/* Outcome of one check ("checks[].status"). */
enum check_status { CHECK_PASS, CHECK_FAIL, CHECK_SKIP, CHECK_STOPPED, CHECK_STATUS_N };

/* Names as they appear in the files, indexed by the enums. */
extern const char *const result_kind_names[RESULT_KIND_N];
extern const char *const exec_mode_names[EXEC_MODE_N];
extern const char *const probe_status_names[PROBE_STATUS_N];
extern const char *const map_status_names[MAP_STATUS_N];
extern const char *const check_status_names[CHECK_STATUS_N];

const char *exec_mode_name(enum exec_mode m);
const char *probe_status_name(enum probe_status s);
const char *map_status_name(enum map_status s);
const char *check_status_name(enum check_status s);

/* Index of s in names[0..n-1], or -1. */
int schema_enum_find(const char *const *names, size_t n, const char *s);

#endif
