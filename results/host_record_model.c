// SPDX-License-Identifier: GPL-2.0-only
/* host_record_model.c - the host record model: its JSON writer and its reader, side by side. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "results/host_record_model.h"

#define TRY JCHECK_TRY

#define HOST_LANE_MAX_PATCHES	64

const char *const host_lane_names[HOST_LANE_N] = { "vmx", "svm" };
const char *const host_lane_kernel_names[HOST_LANE_KERNEL_N] = { "stock", "tiny", "path" };

void host_record_init(struct host_record *h)
{
	memset(h, 0, sizeof(*h));
	h->kvm_api_version = h->xcr0_supported = h->xss_supported = -1;
	h->exec_loop_insns = h->exec_exits = h->exec_insn_emulation = -1;
}

/* ---- writer ---- */

static json_t *str_or_empty(const char *s)
{
	return json_string(s ? s : "");
}

static json_t *flags_json(const struct result_flag *f, size_t n)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < n; i++)
		json_object_set_new(o, f[i].key, json_boolean(f[i].value));
	return o;
}

static void set_int(json_t *o, const char *key, long long v)
{
	if (v >= 0)
		json_object_set_new(o, key, json_integer((json_int_t)v));
}

static json_t *lane_json(const struct host_lane *l)
{
	json_t *o = json_object(), *k = json_object(), *p = json_array();

	if (!o || !k || !p) {
		json_decref(o);
		json_decref(k);
		json_decref(p);
		return NULL;
	}
	json_object_set_new(o, "name", json_string(host_lane_names[l->name]));
	json_object_set_new(o, "emulator", str_or_empty(l->emulator));
	if (l->emulator_patches) {
		json_t *e = json_array();

		for (size_t i = 0; e && i < l->n_emulator_patches; i++)
			json_array_append_new(e, str_or_empty(l->emulator_patches[i]));
		json_object_set_new(o, "emulator_patches", e);
	}
	json_object_set_new(k, "kind", json_string(host_lane_kernel_names[l->kernel_kind]));
	if (l->kernel_config_sha256)
		json_object_set_new(k, "config_sha256", json_string(l->kernel_config_sha256));
	if (l->kernel_source)
		json_object_set_new(k, "source", json_string(l->kernel_source));
	if (l->kernel_source_sha256)
		json_object_set_new(k, "source_sha256", json_string(l->kernel_source_sha256));
	for (size_t i = 0; i < l->n_kernel_patches; i++)
		json_array_append_new(p, str_or_empty(l->kernel_patches[i]));
	json_object_set_new(k, "patches", p);
	json_object_set_new(o, "kernel", k);
	if (l->cycles)
		json_object_set_new(o, "cycles", json_string(l->cycles));
	if (l->profile)
		json_object_set_new(o, "profile", json_true());
	return o;
}

json_t *host_record_json(const struct host_record *h)
{
	json_t *o = json_object(), *be, *cpu, *kvm, *ex, *params;

	if (!o)
		return NULL;
	json_object_set_new(o, "kernel", str_or_empty(h->kernel));
	be = json_object();
	json_object_set_new(be, "module", str_or_empty(h->backend_module));
	if (h->backend_params) {
		params = json_object();
		for (size_t i = 0; i < h->n_backend_params; i++)
			json_object_set_new(params, h->backend_params[i].key,
					    str_or_empty(h->backend_params[i].value));
		json_object_set_new(be, "params", params);
	}
	json_object_set_new(o, "backend", be);
	cpu = json_object();
	json_object_set_new(cpu, "vendor", str_or_empty(h->cpu_vendor));
	json_object_set_new(cpu, "family", json_integer((json_int_t)h->cpu_family));
	json_object_set_new(cpu, "model", json_integer((json_int_t)h->cpu_model));
	json_object_set_new(cpu, "stepping", json_integer((json_int_t)h->cpu_stepping));
	json_object_set_new(cpu, "name", str_or_empty(h->cpu_name));
	json_object_set_new(o, "cpu", cpu);
	if (h->kvm_api_version >= 0 || h->kvm_caps) {
		kvm = json_object();
		set_int(kvm, "api_version", h->kvm_api_version);
		if (h->kvm_caps) {
			json_t *caps = json_object();

			for (size_t i = 0; i < h->n_kvm_caps; i++)
				json_object_set_new(caps, h->kvm_caps[i].key,
						    json_integer((json_int_t)h->kvm_caps[i].value));
			json_object_set_new(kvm, "caps", caps);
		}
		json_object_set_new(o, "kvm", kvm);
	}
	if (h->cpuid)
		json_object_set_new(o, "cpuid", flags_json(h->cpuid, h->n_cpuid));
	set_int(o, "xcr0_supported", h->xcr0_supported);
	set_int(o, "xss_supported", h->xss_supported);
	if (h->msr_save_list)
		json_object_set_new(o, "msr_save_list", flags_json(h->msr_save_list, h->n_msr_save_list));
	json_object_set_new(o, "tsc_khz", json_integer((json_int_t)h->tsc_khz));
	ex = json_object();
	json_object_set_new(ex, "mode", json_string(exec_mode_name(h->exec_mode)));
	set_int(ex, "loop_insns", h->exec_loop_insns);
	set_int(ex, "exits", h->exec_exits);
	set_int(ex, "insn_emulation", h->exec_insn_emulation);
	if (h->exec_detail)
		json_object_set_new(ex, "detail", json_string(h->exec_detail));
	json_object_set_new(o, "execution", ex);
	if (h->lane.present && (unsigned)h->lane.name < HOST_LANE_N &&
	    (unsigned)h->lane.kernel_kind < HOST_LANE_KERNEL_N)
		json_object_set_new(o, "lane", lane_json(&h->lane));
	return o;
}

/* ---- reader ---- */

static int read_backend(struct jcheck *c, json_t *host, struct host_record *h)
{
	json_t *be, *params, *v;
	const char *key;
	size_t mark, i = 0;
	int idx, rc;

	TRY(jcheck_object(c, host, "backend", JCHECK_REQUIRED, &be));
	mark = jcheck_push_key(c, "backend");
	TRY(jcheck_enum(c, be, "module", JCHECK_REQUIRED, host_backend_names, HOST_BACKEND_N, &idx));
	h->backend_module = host_backend_names[idx];
	rc = jcheck_object(c, be, "params", JCHECK_OPTIONAL, &params);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		jcheck_push_key(c, "params");
		if (json_object_size(params) > RESULT_MAX_ITEMS)
			return jcheck_fail(c, "too many entries");
		h->backend_params = jcheck_calloc(json_object_size(params), sizeof(*h->backend_params));
		if (!h->backend_params)
			return jcheck_fail(c, "out of memory");
		json_object_foreach(params, key, v) {
			TRY(jcheck_string(c, params, key, JCHECK_REQUIRED, 1, &h->backend_params[i].value));
			h->backend_params[i++].key = key;
			h->n_backend_params = i;
		}
	}
	jcheck_pop(c, mark);
	return 0;
}

static int read_cpu(struct jcheck *c, json_t *host, struct host_record *h)
{
	json_t *cpu;
	size_t mark;

	TRY(jcheck_object(c, host, "cpu", JCHECK_REQUIRED, &cpu));
	mark = jcheck_push_key(c, "cpu");
	TRY(jcheck_string(c, cpu, "vendor", JCHECK_REQUIRED, 1, &h->cpu_vendor));
	TRY(jcheck_int(c, cpu, "family", JCHECK_REQUIRED, 0, LLONG_MAX, &h->cpu_family));
	TRY(jcheck_int(c, cpu, "model", JCHECK_REQUIRED, 0, LLONG_MAX, &h->cpu_model));
	TRY(jcheck_int(c, cpu, "stepping", JCHECK_REQUIRED, 0, LLONG_MAX, &h->cpu_stepping));
	TRY(jcheck_string(c, cpu, "name", JCHECK_REQUIRED, 1, &h->cpu_name));
	jcheck_pop(c, mark);
	return 0;
}

/* An optional object of booleans (cpuid, msr_save_list). */
static int read_flags(struct jcheck *c, json_t *obj, const char *name,
		      struct result_flag **out, size_t *n)
{
	json_t *o, *v;
	const char *key;
	size_t mark, i = 0;
	int rc = jcheck_object(c, obj, name, JCHECK_OPTIONAL, &o);

	if (rc)
		return rc;
	mark = jcheck_push_key(c, name);
	if (json_object_size(o) > RESULT_MAX_ITEMS)
		return jcheck_fail(c, "too many entries");
	*out = jcheck_calloc(json_object_size(o), sizeof(**out));
	if (!*out)
		return jcheck_fail(c, "out of memory");
	json_object_foreach(o, key, v) {
		TRY(jcheck_bool(c, o, key, JCHECK_REQUIRED, &(*out)[i].value));
		(*out)[i++].key = key;
		*n = i;
	}
	jcheck_pop(c, mark);
	return 0;
}

static int read_kvm(struct jcheck *c, json_t *host, struct host_record *h)
{
	json_t *kvm, *caps, *v;
	const char *key;
	size_t mark, i = 0;
	int rc = jcheck_object(c, host, "kvm", JCHECK_OPTIONAL, &kvm);

	if (rc)
		return rc;
	mark = jcheck_push_key(c, "kvm");
	TRY(jcheck_int(c, kvm, "api_version", JCHECK_OPTIONAL, 0, LLONG_MAX, &h->kvm_api_version));
	rc = jcheck_object(c, kvm, "caps", JCHECK_OPTIONAL, &caps);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		jcheck_push_key(c, "caps");
		if (json_object_size(caps) > RESULT_MAX_ITEMS)
			return jcheck_fail(c, "too many entries");
		h->kvm_caps = jcheck_calloc(json_object_size(caps), sizeof(*h->kvm_caps));
		if (!h->kvm_caps)
			return jcheck_fail(c, "out of memory");
		json_object_foreach(caps, key, v) {
			TRY(jcheck_int(c, caps, key, JCHECK_REQUIRED, -LLONG_MAX, LLONG_MAX,
				       &h->kvm_caps[i].value));
			h->kvm_caps[i++].key = key;
			h->n_kvm_caps = i;
		}
	}
	jcheck_pop(c, mark);
	return 0;
}

static int read_execution(struct jcheck *c, json_t *host, struct host_record *h)
{
	json_t *ex;
	size_t mark;
	int idx;

	TRY(jcheck_object(c, host, "execution", JCHECK_REQUIRED, &ex));
	mark = jcheck_push_key(c, "execution");
	TRY(jcheck_enum(c, ex, "mode", JCHECK_REQUIRED, exec_mode_names, EXEC_MODE_N, &idx));
	h->exec_mode = idx;
	TRY(jcheck_string(c, ex, "detail", JCHECK_OPTIONAL, 1, &h->exec_detail));
	TRY(jcheck_int(c, ex, "loop_insns", JCHECK_OPTIONAL, 0, LLONG_MAX, &h->exec_loop_insns));
	TRY(jcheck_int(c, ex, "exits", JCHECK_OPTIONAL, 0, LLONG_MAX, &h->exec_exits));
	TRY(jcheck_int(c, ex, "insn_emulation", JCHECK_OPTIONAL, 0, LLONG_MAX,
		       &h->exec_insn_emulation));
	jcheck_pop(c, mark);
	return 0;
}

static int read_lane(struct jcheck *c, json_t *host, struct host_record *h)
{
	struct host_lane *l = &h->lane;
	json_t *lane, *k;
	size_t mark;
	int idx, rc = jcheck_object(c, host, "lane", JCHECK_OPTIONAL, &lane);

	if (rc)
		return rc;
	mark = jcheck_push_key(c, "lane");
	TRY(jcheck_enum(c, lane, "name", JCHECK_REQUIRED, host_lane_names, HOST_LANE_N, &idx));
	l->name = idx;
	TRY(jcheck_string(c, lane, "emulator", JCHECK_REQUIRED, 0, &l->emulator));
	rc = jcheck_strings(c, lane, "emulator_patches", JCHECK_OPTIONAL, HOST_LANE_MAX_PATCHES,
			    &l->emulator_patches, &l->n_emulator_patches);
	if (rc < 0)
		return rc;
	TRY(jcheck_string(c, lane, "cycles", JCHECK_OPTIONAL, 0, &l->cycles));
	TRY(jcheck_bool(c, lane, "profile", JCHECK_OPTIONAL, &l->profile));
	TRY(jcheck_object(c, lane, "kernel", JCHECK_REQUIRED, &k));
	jcheck_push_key(c, "kernel");
	TRY(jcheck_enum(c, k, "kind", JCHECK_REQUIRED, host_lane_kernel_names, HOST_LANE_KERNEL_N, &idx));
	l->kernel_kind = idx;
	TRY(jcheck_string(c, k, "config_sha256", JCHECK_OPTIONAL, 0, &l->kernel_config_sha256));
	TRY(jcheck_string(c, k, "source", JCHECK_OPTIONAL, 0, &l->kernel_source));
	TRY(jcheck_string(c, k, "source_sha256", JCHECK_OPTIONAL, 0, &l->kernel_source_sha256));
	rc = jcheck_strings(c, k, "patches", JCHECK_OPTIONAL, HOST_LANE_MAX_PATCHES,
			    &l->kernel_patches, &l->n_kernel_patches);
	if (rc < 0)
		return rc;
	jcheck_pop(c, mark);
	l->present = 1;
	return 0;
}

int host_record_read(struct jcheck *c, json_t *root, struct host_record *h)
{
	json_t *host;
	size_t mark;

	host_record_init(h);
	TRY(jcheck_object(c, root, "host", JCHECK_REQUIRED, &host));
	mark = jcheck_push_key(c, "host");
	/* Required parts first, so a broken record names what is missing. */
	TRY(jcheck_string(c, host, "kernel", JCHECK_REQUIRED, 0, &h->kernel));
	TRY(read_backend(c, host, h));
	TRY(read_cpu(c, host, h));
	TRY(jcheck_int(c, host, "tsc_khz", JCHECK_REQUIRED, 0, LLONG_MAX, &h->tsc_khz));
	TRY(read_execution(c, host, h));
	TRY(read_kvm(c, host, h));
	TRY(read_flags(c, host, "cpuid", &h->cpuid, &h->n_cpuid));
	TRY(jcheck_int(c, host, "xcr0_supported", JCHECK_OPTIONAL, 0, LLONG_MAX, &h->xcr0_supported));
	TRY(jcheck_int(c, host, "xss_supported", JCHECK_OPTIONAL, 0, LLONG_MAX, &h->xss_supported));
	TRY(read_flags(c, host, "msr_save_list", &h->msr_save_list, &h->n_msr_save_list));
	TRY(read_lane(c, host, h));
	jcheck_pop(c, mark);
	return 0;
}

void host_record_release(struct host_record *h)
{
	free(h->backend_params);
	free(h->kvm_caps);
	free(h->cpuid);
	free(h->msr_save_list);
	free(h->lane.kernel_patches);
	free(h->lane.emulator_patches);
	h->lane.kernel_patches = NULL;
	h->lane.n_kernel_patches = 0;
	h->lane.emulator_patches = NULL;
	h->lane.n_emulator_patches = 0;
	h->backend_params = NULL;
	h->kvm_caps = NULL;
	h->cpuid = NULL;
	h->msr_save_list = NULL;
	h->n_backend_params = h->n_kvm_caps = h->n_cpuid = h->n_msr_save_list = 0;
}
