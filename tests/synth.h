/*
 * synth.h - synthetic runs from a two-level model, in memory: a run's
 * probes have rounds whose medians are mu (1 + b + e_r), b ~ N(0, sb^2) the
 * run's offset (one per run: what one run cannot see) and e_r ~ N(0, sw^2)
 * each round's own noise, seeded (stats_splitmix64). For the coverage
 * tests of compare and the noise floor's estimator.
 */
#ifndef EXITSCOPE_TESTS_SYNTH_H
#define EXITSCOPE_TESTS_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "results/result_read.h"

/* A standard normal deviate (Box-Muller on two splitmix64 draws). */
double synth_normal(uint64_t *state);

/* A uniform integer in lo..hi. */
size_t synth_between(uint64_t *state, size_t lo, size_t hi);

/* One probe of a synthetic run: its name, mean cost and noise (fractions of mu). */
struct synth_probe {
	const char *name;
	double mu, sb, sw;
};

/*
 * A run file (kind run, method v2, settings rounds = rmax) of the probes
 * p[0..n-1], each with a number of rounds drawn from rmin..rmax (the
 * adaptive stop ends runs after different numbers of rounds), on host
 * (kernel, cpu name) with the given exitscope version. Free it with
 * result_free(). NULL when out of memory.
 */
struct result_file *synth_run(const struct synth_probe *p, size_t n, size_t rmin, size_t rmax,
			      const char *kernel, const char *cpu, const char *version,
			      uint64_t *state);

/*
 * The same with the medians given: probe "p", rounds med[0..nr-1], as a
 * run file of the default synthetic host (settings rounds 8).
 */
struct result_file *synth_run_medians(const double *med, size_t nr);

#endif
