/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * status.h - the status protocol between guest functions and the host: the
 * type of a guest function, and every code a guest function or a safe
 * instruction helper returns that is not a plain value. Guest code
 * (guest/guest.h) and the host code that decodes guest return values
 * (harness, probes, suites) use these; nothing else defines them.
 *
 * A status code is 0 (success) or built from these, each bit range used once:
 *
 *   bits 0-7    the exception vector (with GUEST_FAULT) or the index of a
 *               skip reason (with GUEST_SKIP_FEATURE)
 *   bit  8      GUEST_FAULT: an instruction faulted
 *   bit  12     GUEST_SKIP_FEATURE: a setup found a feature missing
 *   bit  16     GUEST_FAULT_PREREQ: the fault came from a prerequisite step
 *               (e.g. setting CR4.OSXSAVE before XSETBV), not the operation
 *   bit  20     GUEST_CHECK_FAILED: a probe's teardown found that the
 *               measured operation did not do what it must (e.g. a self-IPI
 *               not taken in its window); the low bits index the caller's
 *               own reasons
 *   bit  63     GUEST_NO_VALUE: a function that returns a value could not
 *               produce one; the low bits say why
 */
#ifndef EXITSCOPE_GUEST_STATUS_H
#define EXITSCOPE_GUEST_STATUS_H

#include <stdint.h>

/* A function the host runs in the guest (vcpu_call): arg in, status or value out. */
typedef uint64_t (*guest_fn_t)(uint64_t arg);

#define GUEST_VECTOR_MASK	0xffULL
#define GUEST_FAULT		0x100ULL	/* | vector */
#define GUEST_FAULT_VECTOR(r)	((unsigned int)((r) & GUEST_VECTOR_MASK))
#define GUEST_FAULT_CODE(vec)	(GUEST_FAULT | ((vec) & GUEST_VECTOR_MASK))
#define GUEST_SKIP_INDEX_MASK	0xffULL
#define GUEST_SKIP_FEATURE	0x1000ULL	/* | index into the caller's own reasons */
#define GUEST_SKIP(i)		(GUEST_SKIP_FEATURE | ((i) & GUEST_SKIP_INDEX_MASK))
#define GUEST_SKIP_INDEX(r)	((unsigned int)((r) & GUEST_SKIP_INDEX_MASK))
#define GUEST_FAULT_PREREQ	0x10000ULL	/* | GUEST_FAULT | vector */
#define GUEST_CHECK_FAILED	0x100000ULL	/* | index into the caller's own reasons */
#define GUEST_CHECK(i)		(GUEST_CHECK_FAILED | ((i) & GUEST_SKIP_INDEX_MASK))
#define GUEST_NO_VALUE		(1ULL << 63)	/* | why (e.g. GUEST_FAULT | vector) */

_Static_assert(GUEST_VECTOR_MASK == 0xff, "a vector is 8 bits");
_Static_assert(GUEST_SKIP_INDEX_MASK < GUEST_FAULT, "skip index below the fault bit");
_Static_assert(!(GUEST_FAULT & (GUEST_VECTOR_MASK | GUEST_SKIP_FEATURE | GUEST_FAULT_PREREQ |
				GUEST_NO_VALUE)), "GUEST_FAULT is a bit of its own");
_Static_assert(!(GUEST_SKIP_FEATURE & (GUEST_VECTOR_MASK | GUEST_FAULT_PREREQ | GUEST_NO_VALUE)),
	       "GUEST_SKIP_FEATURE is a bit of its own");
_Static_assert(!(GUEST_FAULT_PREREQ & (GUEST_VECTOR_MASK | GUEST_NO_VALUE)),
	       "GUEST_FAULT_PREREQ is a bit of its own");
_Static_assert(!(GUEST_CHECK_FAILED & (GUEST_VECTOR_MASK | GUEST_FAULT | GUEST_SKIP_FEATURE |
				     GUEST_FAULT_PREREQ | GUEST_NO_VALUE)),
				     "GUEST_CHECK_FAILED is a bit of its own");
_Static_assert(!(GUEST_NO_VALUE & GUEST_VECTOR_MASK), "GUEST_NO_VALUE is a bit of its own");
/* A safe helper's int result holds every fault code. */
_Static_assert((GUEST_FAULT | GUEST_VECTOR_MASK) <= 0x7fffffff, "fault codes fit an int");

#endif
