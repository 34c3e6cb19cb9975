// SPDX-License-Identifier: GPL-2.0-only
/* synth.c - synthetic runs from a two-level model (run offsets, round noise), in memory. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "tests/synth.h"

static double uniform01(uint64_t *state)
{
	/* (0, 1]: 53 random bits, never 0 (log below). */
	return ((double)(stats_splitmix64(state) >> 11) + 1) / 9007199254740992.0;
}

double synth_normal(uint64_t *state)
{
	double u = uniform01(state), v = uniform01(state);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

size_t synth_between(uint64_t *state, size_t lo, size_t hi)
{
	return lo + (size_t)(((unsigned __int128)stats_splitmix64(state) * (hi - lo + 1)) >> 64);
}

static void synth_host(struct host_record *h, const char *kernel, const char *cpu)
{
	host_record_init(h);
	h->kernel = kernel;
	h->backend_module = "kvm_intel";
	h->cpu_vendor = "GenuineIntel";
	h->cpu_name = cpu;
	h->cpu_family = 6;
	h->cpu_model = 143;
	h->cpu_stepping = 8;
	h->tsc_khz = 2445000;
	h->exec_mode = EXEC_NATIVE;
}

/*
 * A probe with these round medians and loops (base NULL: 1000 each; one
 * sample each; flat samples clamped at 0).
 */
static int synth_probe_fill(struct run_probe *p, const char *name, const double *med,
			    const double *base, size_t nr)
{
	struct run_round *r = calloc(nr, sizeof(*r));
	double *flat = malloc(nr * sizeof(*flat));

	run_probe_init(p);
	p->name = name;
	p->group = "synth";
	p->status = PROBE_OK;
	p->batch = 1;
	p->rounds = r;
	p->samples = flat;
	if (!r || !flat)
		return -1;
	for (size_t k = 0; k < nr; k++) {
		double *s = malloc(sizeof(*s));

		if (!s)
			return -1;
		*s = med[k];
		double b = base ? base[k] : 1000;

		r[k] = (struct run_round){ .batch = 1, .samples = s, .n_samples = 1, .median = med[k],
					   .baseline_median = b, .raw_median = b + med[k] };
		p->n_rounds = k + 1;
		flat[k] = med[k] > 0 ? med[k] : 0;
	}
	p->n_samples = nr;
	p->cycles.median = stats_median(flat, nr);
	p->stop = PROBE_STOP_PRECISION;
	return 0;
}

static struct result_file *synth_file(size_t n, const char *kernel, const char *cpu,
				      const char *version, size_t rmax)
{
	struct result_file *rf = calloc(1, sizeof(*rf));

	if (!rf)
		return NULL;
	rf->name = strdup("synth.json");
	rf->probes = calloc(n ? n : 1, sizeof(*rf->probes));
	if (!rf->name || !rf->probes) {
		result_free(rf);
		return NULL;
	}
	rf->kind = RESULT_KIND_RUN;
	rf->tool_version = version;
	rf->started = "2026-12-01T10:00:00Z";
	rf->finished = "2026-12-01T10:00:05Z";
	synth_host(&rf->host, kernel, cpu);
	run_settings_init(&rf->settings);
	rf->settings.present = 1;
	rf->settings.method = RUN_METHOD_V2;
	rf->settings.rounds = (long long)rmax;
	rf->settings.time_budget_s = 0.2;
	rf->settings.precision_pct = 0.5;
	return rf;
}

struct result_file *synth_run(const struct synth_probe *p, size_t n, size_t rmin, size_t rmax,
			      const char *kernel, const char *cpu, const char *version,
			      uint64_t *state)
{
	struct result_file *rf = synth_file(n, kernel, cpu, version, rmax);
	double med[256];

	if (!rf || rmax > 256)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		double b = p[i].sb * synth_normal(state);
		size_t nr = synth_between(state, rmin, rmax);

		for (size_t k = 0; k < nr; k++)
			med[k] = p[i].mu * (1 + b + p[i].sw * synth_normal(state));
		rf->n_probes = i + 1;
		if (synth_probe_fill(&rf->probes[i], p[i].name, med, NULL, nr))
			goto fail;
	}
	return rf;
fail:
	result_free(rf);
	return NULL;
}

struct result_file *synth_run_speed(const struct synth_probe *p, size_t n, size_t rmin, size_t rmax,
				    const struct synth_speed *s, uint64_t *state)
{
	struct result_file *rf = synth_file(n, "6.1.0", "Xeon", "0.1.0", rmax);
	double med[256], base[256], run;

	if (!rf || rmax > 256)
		goto fail;
	rf->host.exec_mode = s->exec;
	run = (1 + s->shift) * (1 + s->run_sd * synth_normal(state));
	for (size_t i = 0; i < n; i++) {
		double b = p[i].sb * synth_normal(state);
		size_t nr = synth_between(state, rmin, rmax);

		for (size_t k = 0; k < nr; k++) {
			double speed = run * (1 + s->round_sd * synth_normal(state));

			base[k] = s->loop * speed * (1 + s->loop_sd * synth_normal(state));
			med[k] = p[i].mu * (1 + b + p[i].sw * synth_normal(state)) *
				 (1 + s->track * (speed - 1));
		}
		rf->n_probes = i + 1;
		if (synth_probe_fill(&rf->probes[i], p[i].name, med, base, nr))
			goto fail;
	}
	return rf;
fail:
	result_free(rf);
	return NULL;
}

struct result_file *synth_run_medians(const double *med, size_t nr)
{
	struct result_file *rf = synth_file(1, "6.1.0", "Xeon", "0.1.0", 8);

	if (rf) {
		rf->n_probes = 1;
		if (synth_probe_fill(&rf->probes[0], "p", med, NULL, nr)) {
			result_free(rf);
			return NULL;
		}
	}
	return rf;
}
