/*
 * latency_guest.c - the guest loop of the latency harness: run the op's
 * setup, calibrate the batch size against a TSC budget, warm up, then time
 * `samples` batches with serialized TSC reads around each one. The two
 * GUEST_SYNCs bracket exactly the measured batches, so the host's stats
 * snapshots there cover nothing else but one closing ucall.
 */
#include "guest/guest.h"
#include "harness/latency_guest.h"

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

static __attribute__((noinline)) uint64_t run_batch(guest_fn_t op, uint64_t arg, uint64_t n)
{
	uint64_t t0, t1;

	t0 = rdtsc_ordered();
	for (uint64_t i = 0; i < n; i++)
		op(arg);
	t1 = rdtsc_ordered();
	return t1 > t0 ? t1 - t0 : 0;
}

uint64_t latency_guest_main(uint64_t unused)
{
	volatile struct latency_ctl *c = &latency_ctl;
	guest_fn_t op = (guest_fn_t)c->op;
	uint64_t arg = c->arg, target = c->target_cycles, max = c->max_batch;
	uint64_t batch = 1, t, n = c->samples;

	if (c->setup) {
		uint64_t r = ((guest_fn_t)c->setup)(arg);

		if (r)
			return r;
	}
	/* Double the batch until it spans an eighth of the target, then scale. */
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
	c->batch = batch;
	run_batch(op, arg, batch);	/* warm-up at the final size */
	GUEST_SYNC(LATENCY_SYNC_START, batch);
	for (uint64_t i = 0; i < n && i < LATENCY_CTL_SAMPLES; i++)
		c->t[i] = run_batch(op, arg, batch);
	GUEST_SYNC(LATENCY_SYNC_END);
	/* A teardown may check the measured op did its job (GUEST_CHECK). */
	return c->teardown ? ((guest_fn_t)c->teardown)(arg) : 0;
}
