/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * migrate_guest.h - what the migrate check's host and guest sides share: the
 * guest functions in suites/migrate_guest.c, their sync marks, the per-VM
 * globals, and the bits of what a guest found changed after migration.
 */
#ifndef EXITSCOPE_SUITES_MIGRATE_GUEST_H
#define EXITSCOPE_SUITES_MIGRATE_GUEST_H

#include <stdint.h>

#define MG_SYNC_REGS	0x5e61ULL	/* GUEST_SYNC(mark) with registers pinned */
#define MG_SYNC_LOOP	0x5e62ULL	/* GUEST_SYNC(mark, lost GPRs): the loop starts */

#define MG_COUNTER	1000		/* mg_counter when the first sync is reached */
#define MG_HOST_MARK	0x5a5aULL	/* written by the host into the new VM */

/* mg_flags (host -> guest). */
#define MG_USE_X2APIC	(1ULL << 0)
#define MG_USE_TSC_AUX	(1ULL << 1)
#define MG_USE_FPCTL	(1ULL << 2)	/* MXCSR and x87 FCW (LDMXCSR, FLDCW) */

/* What the guest found changed (bits of the result and of the sync). */
#define MG_LOST_GPR		(1ULL << 0)
#define MG_LOST_XMM		(1ULL << 1)
#define MG_LOST_YMM		(1ULL << 2)
#define MG_LOST_MXCSR		(1ULL << 3)
#define MG_LOST_FCW		(1ULL << 4)
#define MG_LOST_XCR0		(1ULL << 5)
#define MG_LOST_KERNEL_GS	(1ULL << 6)
#define MG_LOST_LSTAR		(1ULL << 7)
#define MG_LOST_STAR		(1ULL << 8)
#define MG_LOST_SFMASK		(1ULL << 9)
#define MG_LOST_FS_BASE		(1ULL << 10)
#define MG_LOST_SYSENTER_ESP	(1ULL << 11)
#define MG_LOST_TSC_AUX		(1ULL << 12)
#define MG_LOST_DR		(1ULL << 13)
#define MG_LOST_CR		(1ULL << 14)
#define MG_LOST_APIC		(1ULL << 15)
#define MG_LOST_LOOP		(1ULL << 16)
#define MG_LOST_GLOBAL		(1ULL << 17)
#define MG_LOST_TSC		(1ULL << 18)
#define MG_NR_LOST		19

/* mg_verified: optional items the guest could set up and check. */
#define MG_HAVE_YMM		(1ULL << 0)
#define MG_HAVE_XCR0		(1ULL << 1)
#define MG_HAVE_TSC_AUX		(1ULL << 2)
#define MG_HAVE_X2APIC		(1ULL << 3)
#define MG_HAVE_FPCTL		(1ULL << 4)

/* mg_xcr0: XCR0 to enable (host -> guest), 0 for none. */
extern uint64_t mg_flags, mg_xcr0, mg_stop, mg_counter, mg_host_mark, mg_verified, mg_iterations;

uint64_t mg_run(uint64_t seed);		/* returns the MG_LOST_* bits */
uint64_t mg_x2apic_on(uint64_t arg);	/* x2APIC mode on; returns IA32_APIC_BASE */

#endif
