// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency_guest.c - the guest loop of the latency harness: run the op's
 * setup, calibrate the batch size against a TSC budget, warm up, then time
 * `samples` batches with serialized TSC reads around each one. The two
 * GUEST_SYNCs bracket exactly the measured batches, so the host's stats
 * snapshots there cover nothing else but one closing ucall.
 *
 * The paired loop (method v2) syncs once after the setup, calibrates the
 * same way, then runs rounds the host asks for: each round is `pairs`
 * pairs of a baseline batch (the same run_batch loop calling
 * latency_guest_nop, so it holds exactly the harness) and an op batch, in
 * ABBA order (even pairs baseline first, odd pairs op first) so a linear
 * drift within a round cancels over two pairs.
 *
 * A timed batch's figure is its TSC cycles minus what its ops left out
 * (latency_guest_exclude); calibration sizes batches by the TSC cycles.
 */
#include "guest/guest.h"
#include "harness/latency_guest.h"
#include "harness/profile_mark.h"

struct latency_ctl latency_ctl;

uint64_t latency_guest_nop(uint64_t arg);
uint64_t latency_guest_nop(uint64_t arg)
{
	asm volatile("" ::: "memory");
	return 0;
}

uint64_t latency_guest_target_cycles(void)
{
	return *(volatile uint64_t *)&latency_ctl.target_cycles;
}

void latency_guest_exclude(uint64_t cycles)
{
	*(volatile uint64_t *)&latency_ctl.excluded += cycles;
}

/* TSC cycles of n calls of op; *excl: the cycles they left out of it. */
static __attribute__((noinline)) uint64_t run_batch_excl(guest_fn_t op, uint64_t arg, uint64_t n,
							 uint64_t *excl)
{
	volatile uint64_t *x = &latency_ctl.excluded;
	uint64_t t0, t1, x0 = *x;

	t0 = rdtsc_ordered();
	for (uint64_t i = 0; i < n; i++)
		op(arg);
	t1 = rdtsc_ordered();
	*excl = *x - x0;
	return t1 > t0 ? t1 - t0 : 0;
}

/* The TSC cycles of a batch (calibration, warm-up). */
static uint64_t run_batch(guest_fn_t op, uint64_t arg, uint64_t n)
{
	uint64_t excl;

	return run_batch_excl(op, arg, n, &excl);
}

/* A timed batch: its TSC cycles less what its ops left out. */
static uint64_t time_batch(guest_fn_t op, uint64_t arg, uint64_t n)
{
	uint64_t excl, t = run_batch_excl(op, arg, n, &excl);

	return t > excl ? t - excl : 0;
}

/*
 * A profile mark (harness/profile_mark.h): the marker NOP, kind in RAX,
 * operations in RDX. Outside the TSC reads, so a batch's cycles are the
 * same with and without marks.
 */
#define PROFILE_STR_(x) #x
#define PROFILE_STR(x) PROFILE_STR_(x)
static inline void profile_mark(uint64_t kind, uint64_t ops)
{
	asm volatile(".byte 0x0f, 0x1f, 0x80; .long " PROFILE_STR(PROFILE_MARK_MAGIC)
		     :: "a"(kind), "d"(ops) : "memory");
}

/* One batch of a pair; with ops (a profiled round) between its marks. */
static uint64_t pair_batch(guest_fn_t op, uint64_t arg, uint64_t n, uint64_t kind, uint64_t ops)
{
	uint64_t t;

	if (!ops)
		return time_batch(op, arg, n);
	profile_mark(kind, ops);
	t = time_batch(op, arg, n);
	profile_mark(PROFILE_MARK_END, 0);
	return t;
}

/* Double the batch until it spans an eighth of the target, then scale. */
static uint64_t calibrate(guest_fn_t op, uint64_t arg, uint64_t target, uint64_t max)
{
	uint64_t batch = 1, t;

	for (;;) {
		t = run_batch(op, arg, batch);
		if (t >= target / 8 || batch >= max)
			break;
		batch *= 2;
	}
	if (!t)
		t = 1;
	if (t < target)
		batch = batch * target / t;
	if (batch > max)
		batch = max;
	if (!batch)
		batch = 1;
	return batch;
}

/*
 * The op's setup (its refusal code, else 0), then (after a SETUP sync when
 * sync is set) the batch size, also in c->batch.
 */
static uint64_t setup_calibrate(volatile struct latency_ctl *c, guest_fn_t op, uint64_t *batch, bool sync)
{
	if (c->setup) {
		uint64_t r = ((guest_fn_t)c->setup)(c->arg);

		if (r)
			return r;
	}
	if (sync)
		GUEST_SYNC(LATENCY_SYNC_SETUP);
	*batch = calibrate(op, c->arg, c->target_cycles, c->max_batch);
	c->batch = *batch;
	return 0;
}

uint64_t latency_guest_main(uint64_t unused)
{
	volatile struct latency_ctl *c = &latency_ctl;
	guest_fn_t op = (guest_fn_t)c->op;
	uint64_t arg = c->arg, batch, n = c->samples, r = setup_calibrate(c, op, &batch, false);

	if (r)
		return r;
	run_batch(op, arg, batch);	/* warm-up at the final size */
	GUEST_SYNC(LATENCY_SYNC_START, batch);
	for (uint64_t i = 0; i < n && i < LATENCY_CTL_SAMPLES; i++)
		c->t[i] = time_batch(op, arg, batch);
	GUEST_SYNC(LATENCY_SYNC_END);
	/* A teardown may check the measured op did its job (GUEST_CHECK). */
	return c->teardown ? ((guest_fn_t)c->teardown)(arg) : 0;
}

uint64_t latency_guest_paired_main(uint64_t unused)
{
	volatile struct latency_ctl *c = &latency_ctl;
	/* Through a volatile, so the compiler cannot specialize run_batch for the nop. */
	guest_fn_t volatile nop_v = latency_guest_nop;
	guest_fn_t op = (guest_fn_t)c->op, nop = nop_v;
	uint64_t arg = c->arg, batch, n, ops, r = setup_calibrate(c, op, &batch, true);

	if (r)
		return r;
	run_batch(nop, arg, batch);	/* warm-up of both loops at the final size */
	run_batch(op, arg, batch);
	for (;;) {
		GUEST_SYNC(LATENCY_SYNC_START, batch);
		n = c->pairs;
		if (!n)
			break;
		/* Operations per batch for the profile marks; 0: no marks. */
		ops = c->profile_reps * batch;
		for (uint64_t i = 0; i < n && i < LATENCY_CTL_PAIRS; i++) {
			if (i & 1) {
				c->t[i] = pair_batch(op, arg, batch, PROFILE_MARK_OP_BEGIN, ops);
				c->tb[i] = pair_batch(nop, arg, batch, PROFILE_MARK_BASE_BEGIN, ops);
			} else {
				c->tb[i] = pair_batch(nop, arg, batch, PROFILE_MARK_BASE_BEGIN, ops);
				c->t[i] = pair_batch(op, arg, batch, PROFILE_MARK_OP_BEGIN, ops);
			}
		}
		GUEST_SYNC(LATENCY_SYNC_END);
	}
	return c->teardown ? ((guest_fn_t)c->teardown)(arg) : 0;
}
