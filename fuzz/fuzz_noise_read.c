// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_noise_read.c - libFuzzer target: the noise floor reader must reject or accept any bytes without crashing. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "results/noise.h"

/* What the reader promises of an estimate. */
static int est_ok(const struct noise_est *e)
{
	return e->run_sd_cycles >= 0 && e->between_sd_cycles >= 0 && e->df >= 0 &&
	       !(e->between_sd_cycles > 0 && !(e->df > 0)) &&
	       (e->between_sd_rel >= 0 || e->between_sd_rel == -1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err err;
	struct noise_floor *nf = noise_read_buffer("fuzz.json", data, size, &err);
	double sum = 0;

	if (!nf) {
		/* A rejection always says why, in one line. */
		if (!err.msg[0] || strchr(err.msg, '\n'))
			__builtin_trap();
		return 0;
	}
	/* Touch everything the reader promised, so bad pointers show up under ASan. */
	sum += (double)strlen(nf->tool_version) + (double)strlen(nf->created) +
	       (double)strlen(nf->host.kernel) + (double)strlen(nf->host.cpu_name);
	if (nf->runs < NOISE_MIN_RUNS || !nf->settings.present)
		__builtin_trap();
	for (size_t i = 0; i < nf->n_probes; i++) {
		const struct noise_probe *p = &nf->probes[i];

		sum += (double)strlen(p->name);
		if (p->runs < NOISE_MIN_RUNS || p->runs > nf->runs || p->rounds < 2 * p->runs ||
		    !est_ok(&p->cycles) || (p->has_at_speed && !est_ok(&p->at_speed)) ||
		    noise_probe_est(p, 1) != (p->has_at_speed ? &p->at_speed : NULL))
			__builtin_trap();
		if (noise_find_probe(nf, p->name) != p)
			__builtin_trap();
	}
	for (size_t i = 0; i < nf->n_omitted; i++)
		sum += (double)strlen(nf->omitted[i].name) + (double)nf->omitted[i].runs;
	for (size_t i = 0; i < nf->n_sources; i++)
		sum += (double)strlen(nf->sources[i]);
	if (nf->first_started)
		sum += (double)strlen(nf->first_started);
	noise_free(nf);
	return sum < 0;
}
