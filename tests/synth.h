/* SPDX-License-Identifier: GPL-2.0-only */
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
 * The host's speed for synth_run_speed (docs/method.md, "At equal guest
 * speed"): a run's speed factor is (1 + shift) (1 + run_sd N), a round's
 * that times (1 + round_sd N), shared by every probe of the run; a round's
 * harness loop costs loop x speed x (1 + loop_sd N) per op and a probe's
 * op mu (1 + b + e) (1 + track (speed - 1)): track 1 an op that is all
 * emulation work, 0 one whose cost does not follow the guest's speed. exec
 * is the host record's execution mode.
 */
struct synth_speed {
	double loop, run_sd, round_sd, loop_sd, shift, track;
	enum exec_mode exec;
};

/* synth_run on host kernel 6.1.0, cpu Xeon, exitscope 0.1.0, with s's speed in every round. */
struct result_file *synth_run_speed(const struct synth_probe *p, size_t n, size_t rmin, size_t rmax,
				    const struct synth_speed *s, uint64_t *state);

/*
 * The same with the medians given: probe "p", rounds med[0..nr-1], as a
 * run file of the default synthetic host (settings rounds 8).
 */
struct result_file *synth_run_medians(const double *med, size_t nr);

#endif
