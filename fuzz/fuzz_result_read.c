// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_result_read.c - libFuzzer target: the result-file reader must reject or accept any bytes without crashing. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "results/result_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err err;
	struct result_file *rf = result_read_buffer("fuzz.json", data, size, &err);
	size_t i, j;
	double sum = 0;

	if (!rf) {
		/* A rejection always says why, in one line. */
		if (!err.msg[0] || strchr(err.msg, '\n'))
			__builtin_trap();
		return 0;
	}
	/* Touch everything the reader promised, so bad pointers show up under ASan. */
	sum += (double)strlen(rf->host.kernel) + (double)strlen(rf->host.cpu_name);
	for (i = 0; i < rf->host.n_backend_params; i++)
		sum += (double)strlen(rf->host.backend_params[i].value);
	for (i = 0; i < rf->host.n_kvm_caps; i++)
		sum += (double)strlen(rf->host.kvm_caps[i].key);
	for (i = 0; i < rf->host.n_cpuid; i++)
		sum += (double)strlen(rf->host.cpuid[i].key);
	for (i = 0; i < rf->host.n_msr_save_list; i++)
		sum += (double)strlen(rf->host.msr_save_list[i].key);
	if (rf->host.exec_detail)
		sum += (double)strlen(rf->host.exec_detail);
	for (i = 0; i < rf->n_probes; i++) {
		const struct run_probe *p = &rf->probes[i];

		sum += (double)strlen(p->name) + (double)strlen(p->group);
		if (p->status != PROBE_OK) {
			if (!p->reason)
				__builtin_trap();
			continue;
		}
		if (p->n_samples == 0 || p->batch <= 0)
			__builtin_trap();
		for (j = 0; j < p->n_samples; j++)
			if (!(p->samples[j] >= 0))
				__builtin_trap();
		/* Absent run-loop counters are -1, present ones finite and >= 0. */
		for (j = 0; j < RESULT_PER_OP_N; j++)
			if (!(p->per_op[j] >= 0 || (j >= RESULT_OP_FIRST_USER && p->per_op[j] == -1)))
				__builtin_trap();
		for (j = 0; j < p->trace.n; j++)
			if (!(p->trace.reason[j].per_op >= 0))
				__builtin_trap();
			else
				sum += (double)strlen(p->trace.reason[j].name);
		for (j = 0; j < p->n_notes; j++)
			sum += (double)strlen(p->notes[j]);
		if (result_find_probe(rf, p->name) == NULL)
			__builtin_trap();
	}
	for (i = 0; rf->map && i < rf->map->n_profiles; i++)
		for (j = 0; j < rf->map->profiles[i].n_entries; j++)
			sum += (double)strlen(rf->map->profiles[i].entries[j].reg) +
			       (double)rf->map->profiles[i].entries[j].trace.n;
	if (rf->settings.present && rf->settings.guest_xcr0 == 0)
		__builtin_trap();	/* read as >= 1 or absent (-1) */
	for (i = 0; i < rf->checks.n; i++) {
		const struct check_result *k = &rf->checks.r[i];

		if ((unsigned int)k->status >= CHECK_STATUS_N)
			__builtin_trap();
		sum += (double)strlen(k->suite) + (double)strlen(k->name) + (double)strlen(k->detail) +
		       (double)strlen(k->expected) + (double)strlen(k->observed);
	}
	for (i = 0; i < rf->n_warnings; i++)
		sum += (double)strlen(rf->warnings[i]);
	result_free(rf);
	return sum < 0;
}
