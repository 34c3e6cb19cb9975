/* SPDX-License-Identifier: GPL-2.0-only */
/* xstate_guest.h - what the host and guest halves of the xstate checks share. */
#ifndef EXITSCOPE_SUITES_XSTATE_GUEST_H
#define EXITSCOPE_SUITES_XSTATE_GUEST_H

#include <stdint.h>

/* Port the host's exit hook claims: every write is one userspace PIO exit. */
#define XS_PORT			0xe7e0
/* Legacy PIC edge/level control register: handled in the kernel (irqchip). */
#define XS_ELCR_PORT		0x4d0
#define XS_TIMER_VECTOR		0xec
#define XS_VEC_BYTES		256	/* xmm0-15 */

/* Steps of xs_guest_exits, one exit kind each (GUEST_SYNC(XS_SYNC_STEP, step, xcr0)). */
enum xs_step {
	XS_STEP_PIO_USER = 1, XS_STEP_PIO_KERNEL, XS_STEP_MMIO, XS_STEP_CPUID,
	XS_STEP_HLT, XS_STEP_SIGNAL, XS_NR_STEPS = XS_STEP_SIGNAL,
};

#define XS_SYNC_STEP		1
#define XS_SYNC_ARM		2	/* about to wait for the host's signal */
#define XS_SYNC_VEC		3	/* guest vector registers are loaded */
#define XS_SYNC_XSS		4
#define XS_SYNC_PKRU		5

#define XS_NO_VALUE		(~0ULL)	/* GUEST_SYNC argument: the guest could not read the value itself */

extern uint64_t xs_g_xcr0;		/* XCR0 the guest sets (0: leave it) */
extern uint64_t xs_g_xgetbv;		/* 1: the guest may run xgetbv */
extern uint64_t xs_g_hlt;		/* 1: in-kernel APIC, do the HLT step */
extern volatile uint64_t xs_g_go;	/* set by the host once a signal exit happened */
extern uint64_t xs_g_bad_xss;		/* an IA32_XSS value that must #GP */
extern uint8_t xs_g_pattern[XS_VEC_BYTES];
extern uint8_t xs_g_xmm[XS_VEC_BYTES];

/*
 * Return codes (guest/status.h): xs_guest_set_xcr0 and xs_guest_exits 0 or
 * GUEST_FAULT | vector of xsetbv, | GUEST_FAULT_PREREQ when setting
 * CR4.OSXSAVE faulted; xs_guest_xgetbv XCR0 or GUEST_NO_VALUE | fault;
 * xs_guest_xss GUEST_FAULT_PREREQ | fault of writing arg, else the result of
 * writing xs_g_bad_xss; xs_guest_pkru PKRU or GUEST_NO_VALUE | fault of
 * setting CR4.PKE.
 */
uint64_t xs_guest_set_xcr0(uint64_t arg);
uint64_t xs_guest_exits(uint64_t arg);
uint64_t xs_guest_vec_exits(uint64_t arg);
uint64_t xs_guest_clobber(uint64_t arg);
uint64_t xs_guest_store_xmm(uint64_t arg);
uint64_t xs_guest_xgetbv(uint64_t arg);
uint64_t xs_guest_xss(uint64_t arg);
uint64_t xs_guest_pkru(uint64_t arg);

#endif
