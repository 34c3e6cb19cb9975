// SPDX-License-Identifier: GPL-2.0-only
/* host_record_model.c - the host record model: its field tables, which drive its JSON writer and reader. */
#include <limits.h>
#include <string.h>

#include "results/field.h"
#include "results/host_record_model.h"

#define HOST_LANE_MAX_PATCHES	64

const char *const host_lane_names[HOST_LANE_N] = { "vmx", "svm" };
const char *const host_lane_kernel_names[HOST_LANE_KERNEL_N] = { "stock", "tiny", "path" };

void host_record_init(struct host_record *h)
{
	memset(h, 0, sizeof(*h));
	h->kvm_api_version = h->xcr0_supported = h->xss_supported = -1;
	h->exec_loop_insns = h->exec_exits = h->exec_insn_emulation = -1;
}

#define H struct host_record
#define L struct host_lane
#define OPT_INT(m, key)	FIELD_INT(H, m, key, FIELD_OMIT_NEG, 0, LLONG_MAX)

/* The values of the maps: a module parameter (sysfs string), a KVM_CAP_*, a flag. */
static const struct field kv_value[] = {
	FIELD_CSTR(struct result_kv, value, "value", FIELD_REQUIRED | FIELD_EMPTY_OK),
};
static const struct field cap_value[] = {
	FIELD_INT(struct result_int, value, "value", FIELD_REQUIRED, -LLONG_MAX, LLONG_MAX),
};
static const struct field flag_value[] = {
	FIELD_FLAG(struct result_flag, value, "value", FIELD_REQUIRED),
};
static const struct field_desc kv_desc = FIELD_DESC("kv", kv_value);
static const struct field_desc cap_desc = FIELD_DESC("cap", cap_value);
static const struct field_desc flag_desc = FIELD_DESC("flag", flag_value);

static const struct field backend_field[] = {
	FIELD_CSTR_OF(H, backend_module, "module", FIELD_REQUIRED, host_backend_names,
		      HOST_BACKEND_N),
	FIELD_MAP(H, backend_params, n_backend_params, "params", FIELD_OMIT_NULL, &kv_desc,
		  struct result_kv, RESULT_MAX_ITEMS),
};
static const struct field cpu_field[] = {
	FIELD_CSTR(H, cpu_vendor, "vendor", FIELD_REQUIRED | FIELD_EMPTY_OK),
	FIELD_INT(H, cpu_family, "family", FIELD_REQUIRED, 0, LLONG_MAX),
	FIELD_INT(H, cpu_model, "model", FIELD_REQUIRED, 0, LLONG_MAX),
	FIELD_INT(H, cpu_stepping, "stepping", FIELD_REQUIRED, 0, LLONG_MAX),
	FIELD_CSTR(H, cpu_name, "name", FIELD_REQUIRED | FIELD_EMPTY_OK),
};
static const struct field kvm_field[] = {
	OPT_INT(kvm_api_version, "api_version"),
	FIELD_MAP(H, kvm_caps, n_kvm_caps, "caps", FIELD_OMIT_NULL, &cap_desc, struct result_int,
		  RESULT_MAX_ITEMS),
};
static const struct field execution_field[] = {
	FIELD_ENUM(H, exec_mode, "mode", FIELD_REQUIRED, exec_mode_names, EXEC_MODE_N),
	OPT_INT(exec_loop_insns, "loop_insns"),
	OPT_INT(exec_exits, "exits"),
	OPT_INT(exec_insn_emulation, "insn_emulation"),
	FIELD_CSTR(H, exec_detail, "detail", FIELD_EMPTY_OK | FIELD_OMIT_NULL),
};
static const struct field lane_kernel_field[] = {
	FIELD_ENUM(L, kernel_kind, "kind", FIELD_REQUIRED, host_lane_kernel_names,
		   HOST_LANE_KERNEL_N),
	FIELD_CSTR(L, kernel_config_sha256, "config_sha256", FIELD_OMIT_NULL),
	FIELD_CSTR(L, kernel_source, "source", FIELD_OMIT_NULL),
	FIELD_CSTR(L, kernel_source_sha256, "source_sha256", FIELD_OMIT_NULL),
	FIELD_STRINGS(L, kernel_patches, n_kernel_patches, "patches", 0, HOST_LANE_MAX_PATCHES),
};
static const struct field_desc backend_desc = FIELD_DESC("host.backend", backend_field);
static const struct field_desc cpu_desc = FIELD_DESC("host.cpu", cpu_field);
static const struct field_desc kvm_desc = FIELD_DESC("host.kvm", kvm_field);
static const struct field_desc execution_desc = FIELD_DESC("host.execution", execution_field);
static const struct field_desc lane_kernel_desc = FIELD_DESC("lane.kernel", lane_kernel_field);

/* LANE in docs/results-schema.md. */
static const struct field lane_field[] = {
	FIELD_ENUM(L, name, "name", FIELD_REQUIRED, host_lane_names, HOST_LANE_N),
	FIELD_CSTR(L, emulator, "emulator", FIELD_REQUIRED),
	FIELD_STRINGS(L, emulator_patches, n_emulator_patches, "emulator_patches", FIELD_OMIT_NULL,
		      HOST_LANE_MAX_PATCHES),
	FIELD_OBJ_FLAT("kernel", FIELD_REQUIRED, &lane_kernel_desc),
	FIELD_CSTR(L, cycles, "cycles", FIELD_OMIT_NULL),
	FIELD_FLAG(L, profile, "profile", FIELD_OMIT_ZERO),
};
const struct field_desc host_lane_fields = FIELD_DESC("lane", lane_field);

/* HOST in docs/results-schema.md. */
static const struct field host_field[] = {
	FIELD_CSTR(H, kernel, "kernel", FIELD_REQUIRED),
	FIELD_OBJ_FLAT("backend", FIELD_REQUIRED, &backend_desc),
	FIELD_OBJ_FLAT("cpu", FIELD_REQUIRED, &cpu_desc),
	FIELD_OBJ_FLAT("kvm", FIELD_OMIT_ZERO, &kvm_desc),
	FIELD_MAP(H, cpuid, n_cpuid, "cpuid", FIELD_OMIT_NULL, &flag_desc, struct result_flag,
		  RESULT_MAX_ITEMS),
	OPT_INT(xcr0_supported, "xcr0_supported"),
	OPT_INT(xss_supported, "xss_supported"),
	FIELD_MAP(H, msr_save_list, n_msr_save_list, "msr_save_list", FIELD_OMIT_NULL, &flag_desc,
		  struct result_flag, RESULT_MAX_ITEMS),
	FIELD_INT(H, tsc_khz, "tsc_khz", FIELD_REQUIRED, 0, LLONG_MAX),
	FIELD_OBJ_FLAT("execution", FIELD_REQUIRED, &execution_desc),
	FIELD_OBJ_P(H, lane, lane.present, "lane", 0, &host_lane_fields),
};
const struct field_desc host_record_fields = FIELD_DESC("host", host_field);

json_t *host_record_json(const struct host_record *h)
{
	return fields_write(&host_record_fields, h);
}

void host_record_release(struct host_record *h)
{
	fields_free(&host_record_fields, h);
}
