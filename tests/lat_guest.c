// SPDX-License-Identifier: GPL-2.0-only
/* lat_guest.c - guest ops used by tests/test_latency.c. */
#include "guest/guest.h"

#define OP(name) uint64_t name(uint64_t a); uint64_t name(uint64_t a)

uint64_t lat_setup_calls, lat_teardown_calls;

/* a OUTs to an unclaimed port: a userspace I/O exits per op. */
OP(lat_outs)
{
	for (uint64_t i = 0; i < a; i++)
		outb(0x80, 0);
	return 0;
}

OP(lat_count_setup) { lat_setup_calls++; return 0; }
OP(lat_count_teardown) { lat_teardown_calls++; return 0; }

/* Setup that reports a #GP from a refused instruction. */
OP(lat_setup_gp)
{
	uint64_t v;

	return guest_rdmsr_safe(0xdeadbeef, &v);
}

OP(lat_spin)
{
	for (;;)
		asm volatile("" ::: "memory");
	return 0;
}

OP(lat_ud) { asm volatile("ud2"); return 0; }

/* A teardown whose check fails: the measured op "did not do its job". */
OP(lat_check_fail) { return GUEST_CHECK(2); }
