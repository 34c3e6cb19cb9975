// SPDX-License-Identifier: GPL-2.0-only
/*
 * vmexit_guest.c - guest ops of two kvm-unit-tests x86/vmexit.c cases that
 * need a host side of their own: inl_from_pmtimer (a 32-bit IN from the
 * ACPI PM timer port, answered by exitscope's run loop in userspace, see
 * probes/host.c) and ple_round_robin (two vCPUs hand a token back and forth,
 * each waiting for it in a PAUSE loop, so PAUSE-loop exiting can trigger).
 */
#include "guest/guest.h"
#include "probes/probes.h"

PROBE_FN(probe_inl_from_pmtimer) { return inl(PROBE_PMTIMER_PORT); }

/* One cache line per vCPU, as in vmexit.c: n1 is bumped by the other vCPU. */
struct ple_counter {
	volatile int64_t n1;
	int64_t n2;
} __attribute__((aligned(64)));

static struct ple_counter ple_counters[2] = { { -1, 0 }, { 0, 0 } };

/* vmexit.c's ple_round_robin for vCPU me of two. */
static inline void ple_turn(int me)
{
	struct ple_counter *p = &ple_counters[me];

	while (p->n1 == p->n2)
		asm volatile("pause" ::: "memory");
	p->n2 = p->n1;
	ple_counters[!me].n1++;
}

PROBE_FN(probe_ple_setup) { return probe_wait_peer(); }

PROBE_FN(probe_ple_round_robin)
{
	ple_turn(0);
	return 0;
}

/* vCPU 1: take every turn until told to stop (its wait watches the stop flag too). */
PROBE_FN(probe_ple_peer)
{
	struct ple_counter *p = &ple_counters[1];
	uint64_t turns = 0;

	*(volatile uint64_t *)&probe_ipi_ready = 1;
	for (;;) {
		while (p->n1 == p->n2) {
			if (*(volatile uint64_t *)&probe_ipi_stop)
				return turns;
			asm volatile("pause" ::: "memory");
		}
		p->n2 = p->n1;
		ple_counters[0].n1++;
		turns++;
	}
}
