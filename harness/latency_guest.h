/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency_guest.h - the control block shared by the latency harness's host
 * side (harness/latency.c) and its guest loop (harness/latency_guest.c). It
 * is a per-VM guest global: the host fills it before the run and reads the
 * batch size and the per-batch TSC deltas back.
 */
#ifndef EXITSCOPE_HARNESS_LATENCY_GUEST_H
#define EXITSCOPE_HARNESS_LATENCY_GUEST_H

#include <stdint.h>

#define LATENCY_CTL_SAMPLES	1000	/* == LATENCY_MAX_SAMPLES */
#define LATENCY_CTL_PAIRS	31	/* == LATENCY_MAX_PAIRS */

/* Values of the first GUEST_SYNC argument. */
#define LATENCY_SYNC_START	0x5354		/* calibrated: args[1] = batch */
#define LATENCY_SYNC_END	0x454e		/* samples taken */
#define LATENCY_SYNC_SETUP	0x5355		/* the op's setup done, before calibration */
/*
 * The paired loop syncs SETUP once (so the host can give calibration, the
 * first time the op runs, a watchdog of its own), then START before every
 * round (host sets pairs; 0 ends it), END after it.
 */

struct latency_ctl {
	uint64_t setup, op, teardown;	/* guest function addresses (setup/teardown may be 0) */
	uint64_t arg;
	uint64_t target_cycles;		/* TSC cycles one batch should span */
	uint64_t max_batch;
	uint64_t samples;
	uint64_t batch;			/* out: ops per batch */
	uint64_t t[LATENCY_CTL_SAMPLES];	/* out: TSC cycles of each batch */
	/* Paired loop (latency_guest_paired_main) */
	uint64_t pairs;			/* in, at each START: pairs of this round, 0: finish */
	uint64_t tb[LATENCY_CTL_PAIRS];	/* out: TSC cycles of each pair's baseline batch (t[]: op batch) */
	/*
	 * in, at each START: non-zero marks every batch of the round for an
	 * exit-path profile (harness/profile_mark.h), the value being the
	 * operations per call (the op's reps)
	 */
	uint64_t profile_reps;
	/*
	 * Guest only: TSC cycles the ops asked to leave out of their batches
	 * (latency_guest_exclude), summed; each timed batch subtracts what
	 * its ops added, calibration does not (it sizes batches by TSC time).
	 */
	uint64_t excluded;
};

extern struct latency_ctl latency_ctl;

uint64_t latency_guest_main(uint64_t arg);
/* Rounds of (baseline batch, op batch) pairs; the baseline is the same loop calling the nop. */
uint64_t latency_guest_paired_main(uint64_t arg);
/* For a probe's guest setup: the TSC cycles one batch of the current measurement should span. */
uint64_t latency_guest_target_cycles(void);
/*
 * For a probe's op: leave cycles (a part of the op's own run, e.g. an
 * interrupt probe's wait for a late interrupt) out of the timed batch.
 */
void latency_guest_exclude(uint64_t cycles);

#endif
