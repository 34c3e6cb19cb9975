/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cet_guest.h - what the CET checks' host and guest sides share: the guest
 * functions in suites/cet_guest.c, their modes and result encodings, and
 * the per-VM global holding the supervisor shadow-stack token address.
 */
#ifndef EXITSCOPE_SUITES_CET_GUEST_H
#define EXITSCOPE_SUITES_CET_GUEST_H

#include <stdint.h>

#include "guest/status.h"
#include "kvm/msr.h"

/* Modes of cet_g_shstk(). */
#define CET_SHSTK_RDSSP		1	/* GUEST_SYNC(mark, ssp, entry at ssp, return address) */
#define CET_SHSTK_INCSSP	2	/* GUEST_SYNC(mark, ssp before, after call, after incssp) */
#define CET_SHSTK_TAMPER	3	/* tampered return: #CP(1) expected, else returns 1 */
#define CET_SHSTK_EXITS		4	/* state across PIO, MMIO, CPUID, MSR and ucall exits */

#define CET_SYNC_MARK		0xce7ULL

/* Bits of the cet_g_shstk(CET_SHSTK_EXITS) result: what changed across exits. */
#define CET_LOST_S_CET		(1ULL << 0)
#define CET_LOST_PL0_SSP	(1ULL << 1)
#define CET_LOST_CR4		(1ULL << 2)
#define CET_LOST_SSP		(1ULL << 3)
#define CET_LOST_SS_ENTRY	(1ULL << 4)

/* cet_g_cr4_wp() packs three 12-bit safe-helper results. */
#define CET_WP_FIELD(r, i)	(((r) >> (12 * (i))) & 0xfff)
#define CET_WP_NOT_RUN		0xfff

_Static_assert((GUEST_FAULT | GUEST_VECTOR_MASK) < CET_WP_NOT_RUN,
	       "a fault code fits a CET_WP_FIELD");

/* Guest address of the supervisor shadow-stack token (set by the host). */
extern uint64_t cet_ss_token;
/* The CET MSR indexes, as in cet_msrs[] (kvm/msr.h): set by cet_vm_create. */
extern uint32_t cet_g_msrs[CET_NR_MSRS];
/* A CET MSR whose access exits even in a CET guest (cet_exit_msr()): set by cet_vm_create. */
extern uint32_t cet_g_exit_msr;

uint64_t cet_g_cr4_set(uint64_t arg);	/* 0 or GUEST_FAULT|vector of mov to CR4 |= CET */
uint64_t cet_g_msr_access(uint64_t arg);	/* bit i: CET MSR i did not #GP on read (i) or write (i + 8) */
uint64_t cet_g_cr4_wp(uint64_t arg);
uint64_t cet_g_shstk(uint64_t mode);
uint64_t cet_g_ibt(uint64_t bad_target);	/* bit 0: ENDBR64 target reached, bit 1: bad target reached */

#endif
