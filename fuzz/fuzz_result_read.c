/* fuzz_result_read.c - libFuzzer target: the result-file reader must reject or accept any bytes without crashing. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "results/result_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[RESULT_ERR_MAX];
	struct result_file *rf = result_read_buffer("fuzz.json", data, size, err, sizeof(err));
	size_t i, j;
	double sum = 0;

	if (!rf) {
		/* A rejection always says why, in one line. */
		if (!err[0] || strchr(err, '\n'))
			__builtin_trap();
		return 0;
	}
	/* Touch everything the reader promised, so bad pointers show up under ASan. */
	sum += (double)strlen(rf->host.kernel) + (double)strlen(rf->host.cpu_name);
	for (i = 0; i < rf->host.n_backend_params; i++)
		sum += (double)strlen(rf->host.backend_params[i].value);
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
		if (result_find_probe(rf, p->name) == NULL)
			__builtin_trap();
	}
	for (i = 0; rf->map && i < rf->map->n_profiles; i++)
		for (j = 0; j < rf->map->profiles[i].n_entries; j++)
			sum += (double)strlen(rf->map->profiles[i].entries[j].reg);
	for (i = 0; i < rf->checks.n; i++)
		sum += (double)strlen(rf->checks.r[i].name);
	for (i = 0; i < rf->n_warnings; i++)
		sum += (double)strlen(rf->warnings[i]);
	result_free(rf);
	return sum < 0;
}
