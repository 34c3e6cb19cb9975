// SPDX-License-Identifier: GPL-2.0-only
/* schema.c - the names of the result files' enums (results/schema.h). */
#include <string.h>

#include "results/schema.h"

const char *const result_kind_names[RESULT_KIND_N] = { "info", "run", "map", "check" };
const char *const exec_mode_names[EXEC_MODE_N] = { "unknown", "native", "emulated" };
const char *const probe_status_names[PROBE_STATUS_N] = {
	"ok", "skipped", "failed", "hang", "stopped",
};
const char *const probe_stop_names[PROBE_STOP_N] = {
	"", "precision", "budget", "run_limit", "stopped", "samples",
};
const char *const run_method_names[RUN_METHOD_N] = { "v1", "v2" };
const char *const map_status_names[MAP_STATUS_N] = {
	"owned", "intercepted", "rejected", "emulated", "skipped", "stopped",
};
const char *const check_status_names[CHECK_STATUS_N] = { "pass", "fail", "skip", "stopped" };
const char *const host_backend_names[HOST_BACKEND_N] = {
	"kvm_intel", "kvm_amd", "kvm_pvm", "other", "none",
};
const char *const result_per_op_names[RESULT_PER_OP_N] = {
#define PER_OP_NAME(name, NAME) #name,
	RESULT_STATS_COUNTERS(PER_OP_NAME)
	RESULT_USER_COUNTERS(PER_OP_NAME)
#undef PER_OP_NAME
};

#define NAME_OF(tab, n, v) ((unsigned int)(v) < (n) ? (tab)[v] : "?")

const char *exec_mode_name(enum exec_mode m)
{
	return NAME_OF(exec_mode_names, EXEC_MODE_N, m);
}

const char *probe_status_name(enum probe_status s)
{
	return NAME_OF(probe_status_names, PROBE_STATUS_N, s);
}

const char *probe_stop_name(enum probe_stop s)
{
	return NAME_OF(probe_stop_names, PROBE_STOP_N, s);
}

const char *run_method_name(enum run_method m)
{
	return NAME_OF(run_method_names, RUN_METHOD_N, m);
}

const char *map_status_name(enum map_status s)
{
	return NAME_OF(map_status_names, MAP_STATUS_N, s);
}

const char *check_status_name(enum check_status s)
{
	return NAME_OF(check_status_names, CHECK_STATUS_N, s);
}

int schema_enum_find(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (int)i;
	return -1;
}
