// SPDX-License-Identifier: GPL-2.0-only
/* host_record.c - convert the collected host record (struct hostinfo) into the result model. */
#include <limits.h>
#include <stdint.h>

#include "base/array_size.h"
#include "host/host_record.h"


/* A count or mask as the model holds it: -1 (absent) when it does not fit. */
static long long u64_or_absent(uint64_t v)
{
	return v > (uint64_t)LLONG_MAX ? -1 : (long long)v;
}

void hostinfo_record(const struct hostinfo *hi, struct hostinfo_record *out)
{
	struct host_record *h = &out->rec;
	const struct result_flag cpuid[] = {
		{ "xsave", hi->feat_xsave }, { "xsavec", hi->feat_xsavec },
		{ "xsaves", hi->feat_xsaves }, { "osxsave", hi->feat_osxsave },
		{ "pku", hi->feat_pku }, { "shstk", hi->feat_shstk }, { "ibt", hi->feat_ibt },
		{ "x2apic", hi->feat_x2apic }, { "tsc_deadline", hi->feat_tsc_deadline },
		{ "hypervisor", hi->feat_hypervisor },
	};
	const struct result_flag msrs[] = {
		{ "ia32_xss", hi->msr_xss }, { "cet", hi->msr_cet },
	};
	_Static_assert(ARRAY_SIZE(cpuid) == HOSTINFO_RECORD_CPUID, "cpuid features of the record");
	_Static_assert(ARRAY_SIZE(msrs) == HOSTINFO_RECORD_MSRS, "MSR groups of the record");
	size_t i, n;

	host_record_init(h);
	h->kernel = hi->kernel;
	h->backend_module = hi->backend;
	n = hi->nr_params > 0 ? (size_t)hi->nr_params : 0;
	for (i = 0; i < n && i < HOSTINFO_MAX_PARAMS; i++)
		out->params[i] = (struct result_kv){ hi->params[i].name, hi->params[i].value };
	h->backend_params = out->params;
	h->n_backend_params = i;
	h->cpu_vendor = hi->vendor;
	h->cpu_family = hi->family;
	h->cpu_model = hi->model;
	h->cpu_stepping = hi->stepping;
	h->cpu_name = hi->cpu_name;
	h->kvm_api_version = hi->api_version >= 0 ? hi->api_version : -1;	/* < 0: unknown */
	n = hi->nr_caps > 0 ? (size_t)hi->nr_caps : 0;
	for (i = 0; i < n && i < HOSTINFO_MAX_CAPS; i++)
		out->caps[i] = (struct result_int){ hi->caps[i].name, hi->caps[i].value };
	h->kvm_caps = out->caps;
	h->n_kvm_caps = i;
	for (i = 0; i < HOSTINFO_RECORD_CPUID; i++)
		out->cpuid[i] = cpuid[i];
	h->cpuid = out->cpuid;
	h->n_cpuid = HOSTINFO_RECORD_CPUID;
	h->xcr0_supported = u64_or_absent(hi->xcr0_supported);
	h->xss_supported = u64_or_absent(hi->xss_supported);
	for (i = 0; i < HOSTINFO_RECORD_MSRS; i++)
		out->msrs[i] = msrs[i];
	h->msr_save_list = out->msrs;
	h->n_msr_save_list = HOSTINFO_RECORD_MSRS;
	h->tsc_khz = hi->tsc_khz;
	h->exec_mode = hi->exec_mode;
	h->exec_loop_insns = u64_or_absent(hi->exec_loop_insns);
	h->exec_exits = u64_or_absent(hi->exec_exits);
	h->exec_insn_emulation = u64_or_absent(hi->exec_insn_emulation);
	h->exec_detail = hi->exec_detail;
	if (hi->lane.present) {
		const struct hostinfo_lane *l = &hi->lane;

		h->lane.present = 1;
		h->lane.name = l->name;
		h->lane.emulator = l->emulator;
		n = l->nr_emulator_patches > 0 ? (size_t)l->nr_emulator_patches : 0;
		for (i = 0; i < n && i < HOSTINFO_LANE_EMULATOR_PATCHES; i++)
			out->lane_emulator_patches[i] = l->emulator_patches[i];
		h->lane.emulator_patches = i ? out->lane_emulator_patches : NULL;	/* absent: none */
		h->lane.n_emulator_patches = i;
		h->lane.kernel_kind = l->kernel_kind;
		h->lane.kernel_config_sha256 = l->config_sha256[0] ? l->config_sha256 : NULL;
		h->lane.kernel_source = l->source[0] ? l->source : NULL;
		h->lane.kernel_source_sha256 = l->source_sha256[0] ? l->source_sha256 : NULL;
		n = l->nr_patches > 0 ? (size_t)l->nr_patches : 0;
		for (i = 0; i < n && i < HOSTINFO_LANE_PATCHES; i++)
			out->lane_patches[i] = l->patches[i];
		h->lane.kernel_patches = out->lane_patches;
		h->lane.n_kernel_patches = i;
		h->lane.cycles = l->cycles[0] ? l->cycles : NULL;
		h->lane.profile = l->profile;
	}
}
